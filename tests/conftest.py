"""Shared helpers: altered copies of the profile, catalogs and examples for error-path tests."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from helpers import copy_project, keep_on_one_worker, loadgroup_requested

ROOT = Path(__file__).resolve().parent.parent
CACHE = "MARIAGE_STAGE_CACHE"


def pytest_configure(config):
    """Every build the session runs, of the project or of a copy, in any worker, shares one
    stage cache outside the checkout (entries are keyed by content): a build repeats only what
    its altered inputs change. It is the session's own, made here before xdist starts its
    workers (they inherit it) and removed at the end, so every run starts as cold as a fresh
    clone and no other checkout's code overwrites its entries."""
    if hasattr(config, "workerinput") or os.environ.get(CACHE):
        return
    os.environ[CACHE] = config._mariage_stages = tempfile.mkdtemp(prefix="mariage-test-stages-")


def pytest_unconfigure(config):
    folder = getattr(config, "_mariage_stages", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        del os.environ[CACHE]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Keep each xdist_group on one worker under `--dist loadgroup`, even under pytest 9
    (helpers.keep_on_one_worker)."""
    if not loadgroup_requested(config):
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names:
            keep_on_one_worker(item, "_".join(names))


@pytest.fixture(scope="session")
def site_build(tmp_path_factory) -> Path:
    """A copy of the whole project built once per session by `mkdocs build --strict` (every
    language), whichever worker asks first; the others wait for it. Its build fills the
    session's stage cache, so each later build of a copy is warm. Read it; copy it to change it."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent               # one folder for all workers of this session
    project, done = shared / "site-build", shared / "site-build.done"
    with open(shared / "site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(project, ignore_errors=True)
            copy_project(project)
            run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"],
                                 cwd=project, capture_output=True, text=True,
                                 env=os.environ | {"NO_MKDOCS_2_WARNING": "1"})
            assert run.returncode == 0, run.stderr[-3000:]
            done.touch()
    return project


@pytest.fixture(scope="session")
def warm_stages(site_build) -> Path:
    """The session's stage cache, once the whole site has been built into it."""
    return Path(os.environ[CACHE])

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


