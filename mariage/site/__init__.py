"""The site generator: catalogs, page templates, worked examples and the build that joins them.

It reads the project (profile, catalogs, templates, examples) and asks the engine for every
number it prints; the engine never imports it.
"""

EXAMPLE_TIMEOUT = 30.0      # seconds for all doctests of one page (doctests.DoctestWorker)
