"""Shared helpers: altered copies of the profile, catalogs and examples for error-path tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Every build the suite runs, of the project or of a copy, shares one stage cache outside the
# checkout (entries are keyed by content and checked against the code's fingerprint): a build
# repeats only what its altered inputs change.
os.environ.setdefault("MARIAGE_STAGE_CACHE",
                      str(Path(tempfile.gettempdir()) / f"mariage-test-stages-{os.getuid()}"))
PROFILE = ROOT / "rules" / "mariage.yaml"
# Every profile the engine and the pages are tested under: the teaching profile, the test
# profile whose values are all distinct, and each variant beside the teaching profile.
DISTINCT = ROOT / "tests" / "profiles" / "distinct.yaml"
PROFILES = [PROFILE, DISTINCT, *sorted((ROOT / "rules" / "variants").glob("*.yaml"))]


def altered(text: str, old: str, new: str) -> str:
    assert old in text, f"{old!r} not in the text: the test no longer alters anything"
    return text.replace(old, new, 1)


@pytest.fixture
def profile_with(tmp_path):
    """Write a copy of the profile with one replacement; returns its path."""
    def make(old: str, new: str) -> Path:
        path = tmp_path / "mariage.yaml"
        path.write_text(altered(PROFILE.read_text(encoding="utf-8"), old, new), encoding="utf-8")
        return path
    return make


@pytest.fixture
def locales_copy(tmp_path):
    """A writable copy of locales/ for catalog-breaking tests."""
    dest = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", dest)
    return dest


