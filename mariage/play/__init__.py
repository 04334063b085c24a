"""Playing Mariage against the computer, on the engine alone (the standard library only, so it
runs in the browser under Pyodide): what a player may know (knowledge), the computer opponent
(opponent), the browser's table (table) and seeded matches for the CLI (match).
"""
