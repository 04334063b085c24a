"""Shared helpers: altered copies of the profile, catalogs and examples for error-path tests."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import copy_project, keep_on_one_worker, loadgroup_requested, mkdocs_build

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


@dataclass(frozen=True)
class SessionBuild:
    """The session's one build of the whole project: where, and how `--strict` went. When the
    strict build fails, a lenient one is made in the same copy, so that the browser tests can
    still look at the pages (their test_build.py then fails with the strict log)."""
    project: Path
    strict_ok: bool
    strict_log: str

    @property
    def site(self) -> Path:
        return self.project / "site"


@pytest.fixture(scope="session")
def session_build(tmp_path_factory) -> SessionBuild:
    """A copy of the whole project built once per session by `mkdocs build --strict` (every
    language), whichever worker asks first; the others wait for it and read its result. Its
    build fills the session's stage cache, so each later build of a copy is warm."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent               # one folder for all workers of this session
    project, done = shared / "site-build", shared / "site-build.json"
    with open(shared / "site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(project, ignore_errors=True)
            copy_project(project)
            run = mkdocs_build(project, "--strict")
            strict_ok, log = run.returncode == 0, run.stderr + run.stdout
            if not strict_ok:
                lenient = mkdocs_build(project)
                assert lenient.returncode == 0, \
                    "the site does not build, even without --strict:\n" + lenient.stderr[-6000:]
            done.write_text(json.dumps({"strict_ok": strict_ok, "log": log}), encoding="utf-8")
    result = json.loads(done.read_text(encoding="utf-8"))
    return SessionBuild(project, result["strict_ok"], result["log"])


@pytest.fixture(scope="session")
def site_build(session_build) -> Path:
    """The session build's project, built strict (a strict failure fails each test that
    reads it). Read it; copy it to change it."""
    assert session_build.strict_ok, session_build.strict_log[-3000:]
    return session_build.project


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


