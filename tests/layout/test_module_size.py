"""Issue 19: no module over 400 lines, so each one can be read whole and holds one job."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 400
MODULES = sorted(p for folder in ("mariage", "plugins") for p in (ROOT / folder).rglob("*.py")
                 if "__pycache__" not in p.parts)


def test_there_are_modules_to_measure():
    assert len(MODULES) > 20, MODULES


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_the_limit(module):
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= LIMIT, (f"{module.relative_to(ROOT)} has {lines} lines, over the limit of "
                            f"{LIMIT}: split it by responsibility (issue 19)")
