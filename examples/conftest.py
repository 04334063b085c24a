"""pytest collects the doctests of every worked example with Sybil (Markdown ```python blocks)."""

import doctest

import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)],
    patterns=["*.md"],
    excludes=["README.md"],
).pytest()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """One example's doctests share a namespace and run in order, so under xdist (`--dist
    loadgroup`, set in pyproject.toml) they must stay on one worker: group them by file. The
    group is written into the node id, as tests/browser/conftest.py explains for pytest >= 9."""
    if not getattr(config.option, "loadgroup", False) and config.option.dist != "loadgroup":
        return
    for item in items:
        if type(item).__name__ != "SybilItem" or "@" in item.nodeid:
            continue
        suffixed = f"{item.nodeid}@example-{item.path.stem}"
        if hasattr(item, "_id"):
            from _pytest.nodes import coerce_node_id
            item._id = coerce_node_id(suffixed)
        else:
            item._nodeid = suffixed
