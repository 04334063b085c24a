"""A cold build works on two cores (mariage/site/build/generate.py): the closing study runs in
its own process (study.StudyProcess) while the catalogs are checked and the templates
compiled, and the first language's doctests run on a thread while the others render. What a
second process or thread does must be exactly what the build would have done alone, and a
build that fails or is killed must leave nothing running."""

from __future__ import annotations

import pytest

from mariage.engine.errors import MariageError
from mariage.engine.profile import default_profile, load_profile
from mariage.site.build import generate as generate_module
from mariage.site.cache import StageCache, forget
from mariage.site.read.project import Project
from mariage.site.render import pages as pages_module
from mariage.site.render.pages import SiteSource
from mariage.site.replay.study import StudyProcess, close_study

from helpers import ROOT


@pytest.mark.parametrize("profile_file", [
    None,                                   # the teaching profile: 32 cards, 66 to claim
    "rules/variants/schnapsen.yaml",        # 20 cards, the jack lowest
    "rules/variants/sixty-six.yaml",        # its closed hand scored at the claim
])
def test_the_study_process_finds_what_this_process_finds(profile_file):
    profile = default_profile() if profile_file is None else load_profile(ROOT / profile_file)
    assert StudyProcess(profile, deals=30).result() == close_study(profile, deals=30).as_context()


def test_a_killed_study_process_is_an_error_that_says_so():
    study = StudyProcess(default_profile())
    study._proc.kill()
    with pytest.raises(MariageError, match=r"closing study's process ended with exit code -9"):
        study.result()


def _source(tmp_path) -> SiteSource:
    forget()                                # a new process: only the disk remembers
    return SiteSource.of(Project.find(ROOT), cache=StageCache(tmp_path / ".cache"))


def test_the_study_runs_ahead_only_when_no_build_kept_it(tmp_path):
    source = _source(tmp_path)
    with source.study_ahead() as running:
        assert running
        source.context()                    # reads the process's result into the cache
    forget()
    again = SiteSource.of(Project.find(ROOT), cache=StageCache(tmp_path / ".cache"))
    with again.study_ahead() as running:
        assert not running


@pytest.fixture
def started(monkeypatch) -> list[StudyProcess]:
    """Every study process the test starts, in order."""
    processes: list[StudyProcess] = []

    class Recorded(StudyProcess):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            processes.append(self)

    monkeypatch.setattr(pages_module, "StudyProcess", Recorded)
    return processes


def test_a_study_ahead_within_another_is_the_same_process(tmp_path, started):
    """The plugin starts the study before it checks which languages to publish; generate()'s
    own study_ahead then uses that process, and no second one starts."""
    source = _source(tmp_path)
    with source.study_ahead() as outer:
        with source.study_ahead() as inner:
            assert outer and inner
            source.context()
        assert source._study is started[0]          # the inner one left it to the outer
    assert len(started) == 1 and source._study is None
    assert started[0]._proc.poll() is not None      # ended: its result was read
    assert source.context()["close_study"]["deals"] > 0


@pytest.mark.parametrize("stage", ["read_examples", "render_site", "add_rulings_pages"])
def test_a_build_that_fails_leaves_no_process_running(tmp_path, monkeypatch, started, stage):
    def broken(*args, **kwargs):
        raise MariageError(f"{stage} failed on purpose")

    monkeypatch.setattr(generate_module, stage, broken)
    with pytest.raises(MariageError, match="failed on purpose"):
        generate_module.generate(tmp_path / "out", _source(tmp_path))
    assert len(started) == 1
    assert started[0]._proc.poll() is not None, "the study's process outlived the build"
    assert not (tmp_path / "out" / "en").exists(), "a failed build wrote pages"
