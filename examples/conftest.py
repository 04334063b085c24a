"""pytest collects the doctests of every worked example with Sybil (Markdown ```python blocks)."""

import doctest

import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

from helpers import keep_on_one_worker, loadgroup_requested

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)],
    patterns=["*.md"],
    excludes=["README.md"],
).pytest()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """One example's doctests share a namespace and run in order, so under xdist (`--dist
    loadgroup`, set in pyproject.toml) they must stay on one worker: group them by file
    (helpers.keep_on_one_worker, which also makes it work under pytest 9)."""
    if not loadgroup_requested(config):
        return
    for item in items:
        if type(item).__name__ == "SybilItem":
            keep_on_one_worker(item, f"example-{item.path.stem}")
