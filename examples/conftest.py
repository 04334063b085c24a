"""pytest collects the doctests of every worked example with Sybil (Markdown ```python blocks)."""

import doctest

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)],
    patterns=["*.md"],
    excludes=["README.md"],
).pytest()
