"""Stage 2, replay: the worked examples read and replayed with the engine (`examples`,
`replayer`), the solver's study of closing (`study`), and the examples' doctests (`doctests`) run in a
time-limited worker process (`doctest_worker`)."""
