"""Publishing keeps the previous site through every failure, and works for the usual ways a
`site/` folder is set up: a symlink, a publishing-branch checkout with dot entries, a mount
point. Each case builds a copy of the project (the issue's B1, B6-B9, B11, B12 and P26)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import copy_project, mkdocs_build, with_plugin_options
from mariage.site import cache
from mariage.site.build import publish

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]
ENV = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
# What a build leaves in .cache/: the lock and the stage cache, no scratch folder. The stage
# cache is elsewhere when MARIAGE_STAGE_CACHE names a shared folder (tests/conftest.py does).
LEFT_IN_CACHE = sorted([publish.LOCK] + ([] if ENV.get("MARIAGE_STAGE_CACHE") else [cache.STAGES]))

pytestmark = pytest.mark.xdist_group("publish")


def _build(project: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return mkdocs_build(project, "--strict", *extra)


def _digest(site: Path) -> str:
    """A hash of every file under site/ (dot entries included), by name and content."""
    digest = hashlib.sha256()
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(site)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def built(warm_stages, tmp_path_factory):
    """A copy of the project, built once; tests copy it again before breaking it. Publishing
    is the same for any number of languages: the copy keeps English (built first) and Italian
    (built last), so each of its builds runs a third of the languages' MkDocs builds."""
    project = copy_project(tmp_path_factory.mktemp("built"), ["it"])
    run = _build(project)
    assert run.returncode == 0, run.stderr[-3000:]
    return project


@pytest.fixture
def project(built, tmp_path):
    dest = tmp_path / "project"
    shutil.copytree(built, dest, symlinks=True)
    return dest


def test_a_strict_warning_after_post_build_keeps_the_previous_site(project):
    """B1: a warning only the outer (English) build sees aborts after on_post_build."""
    before = _digest(project / "site")
    (project / "docs/assets/notes.md").write_text("# Notes\n\nSee [the rules](rules-typo.md).\n")
    run = _build(project)
    assert run.returncode == 1
    output = run.stdout + run.stderr
    assert "Aborted with 2 warnings in strict mode!" in output
    assert "site published" not in output
    assert "the previous site is kept" in output
    assert _digest(project / "site") == before
    assert sorted(p.name for p in project.iterdir() if "site" in p.name) == ["site"]


def test_two_builds_at_once_both_publish_the_whole_site(project):
    """B7: the second build waits for the first's lock; each has its own scratch folders."""
    expected = sorted(str(p.relative_to(project / "site")) for p in (project / "site").rglob("*"))
    first = subprocess.Popen(MKDOCS, cwd=project, env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    time.sleep(1.0)
    second = _build(project)
    out = first.communicate(timeout=600)[0]
    assert first.returncode == 0, out[-2000:]
    assert second.returncode == 0, second.stderr[-2000:]
    assert "another build of this project is running; waiting" in out + second.stderr
    assert sorted(str(p.relative_to(project / "site"))
                  for p in (project / "site").rglob("*")) == expected
    assert sorted(p.name for p in (project / ".cache").iterdir()) == LEFT_IN_CACHE


def test_a_symlinked_site_keeps_its_link_and_its_target_gets_the_new_site(project, tmp_path):
    """B8: the link stays; the folder it points at is updated."""
    docroot = tmp_path / "docroot"
    (project / "site").rename(docroot)
    (project / "site").symlink_to(docroot)
    po = project / "locales/it/LC_MESSAGES/messages.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "Glossario"' in text
    po.write_text(text.replace('msgstr "Glossario"', 'msgstr "Glossario v2"', 1))
    for _ in range(2):                     # the second build used to crash on the moved link
        run = _build(project)
        assert run.returncode == 0, run.stderr[-2000:]
    assert (project / "site").is_symlink()
    assert "Glossario v2" in (docroot / "it/glossary/index.html").read_text(encoding="utf-8")
    assert not list(tmp_path.glob(".docroot.*"))


def test_dot_entries_of_a_publishing_checkout_are_kept(project):
    """B12: site/.git (a gh-pages checkout) and site/.nojekyll survive, as with plain MkDocs."""
    (project / "site/.git").mkdir()
    (project / "site/.git/HEAD").write_text("ref: refs/heads/gh-pages\n")
    (project / "site/.nojekyll").touch()
    (project / "site/stale.html").write_text("from an older build")
    run = _build(project)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (project / "site/.git/HEAD").read_text() == "ref: refs/heads/gh-pages\n"
    assert (project / "site/.nojekyll").exists()
    assert not (project / "site/stale.html").exists()


def test_a_build_killed_before_the_exchange_leaves_the_old_site(project):
    """B6: SIGKILL at the last moment before publishing; the next build cleans up after it."""
    before = _digest(project / "site")
    build = subprocess.Popen(MKDOCS, cwd=project, env=ENV, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while not list(project.glob(".site.new-*/it/index.html")) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(build.pid, signal.SIGKILL)
    build.wait()
    assert _digest(project / "site") == before
    run = _build(project)
    assert run.returncode == 0, run.stderr[-2000:]
    assert not list(project.glob(".site.*"))
    assert sorted(p.name for p in (project / ".cache").iterdir()) == LEFT_IN_CACHE


def test_a_build_whose_plugin_names_a_mutated_profile_fails_on_the_example(project):
    """P26: the pages and the doctests use the profile the build loaded, whatever
    $MARIAGE_PROFILE says."""
    mutated = (project / "rules/mariage.yaml").read_text(encoding="utf-8")
    assert "  trump_marriage: 40 " in mutated
    # 41, not 30: under 30 the game to seven is won a hand early (R19), which the build
    # reports before any doctest runs; under 41 every record still holds.
    (project / "rules/mutated.yaml").write_text(mutated.replace("  trump_marriage: 40 ",
                                                                "  trump_marriage: 41 ", 1))
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(with_plugin_options(text, "profile: rules/mutated.yaml"))
    before = _digest(project / "site")
    run = mkdocs_build(project, "--strict",
                       env=ENV | {"MARIAGE_PROFILE": str(project / "rules/mariage.yaml")})
    assert run.returncode == 1
    # 68 (= 28 + 40) is written by hand in the examples' doctests; the build's profile says 41.
    assert re.search(r"examples/\S+\.md \(en\), line \d+: .* expected '.*', got", run.stderr), \
        run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    assert _digest(project / "site") == before


def test_an_example_patching_doctests_checker_still_fails_the_build(project):
    """NE21: an example replaces doctest's OutputChecker, then states a wrong number. The
    build compares the outputs itself, in its own process: the example fails the build, and
    the next examples are checked as before (each page runs in a fresh process)."""
    deal = (project / "examples/02-deal.md").read_text(encoding="utf-8")
    front = deal[:deal.index("\n---\n", 4) + 5]
    (project / "examples/00-patch.md").write_text(
        front + "# Patch\n\n```python\n>>> import doctest\n>>> doctest.OutputChecker."
        "check_output = lambda self, want, got, flags: True\n>>> 28 + 30\n68\n```\n",
        encoding="utf-8")
    before = _digest(project / "site")
    run = _build(project)
    assert run.returncode == 1, run.stderr[-2000:]
    assert "examples/00-patch.md (en), line 19: 28 + 30 expected '68', got '58'" in run.stderr, \
        run.stderr[-2000:]
    assert "Traceback" not in run.stderr and _digest(project / "site") == before


# ----- the publishing step alone, for the set-ups a test cannot make without privileges
def _tree(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_a_mount_point_is_synced_in_place_keeping_dot_entries(tmp_path, monkeypatch):
    """B11: a mount point cannot be renamed; the site is updated file by file inside it."""
    site = _tree(tmp_path / "site", {"index.html": "old", "gone/page.html": "old",
                                     ".git/HEAD": "ref", ".nojekyll": ""})
    monkeypatch.setattr(publish.os.path, "ismount", lambda path: Path(path) == site)
    work = tmp_path / "work"
    work.mkdir()
    publication = publish.prepare(site, work)
    assert publication.in_place and publication.build_dir == work / "site"
    _tree(publication.build_dir, {"index.html": "new", "fr/index.html": "nouveau"})
    publish.publish(publication)
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*")) == [
        ".git", ".git/HEAD", ".nojekyll", "fr", "fr/index.html", "index.html"]
    assert (site / "index.html").read_text() == "new"


def test_a_read_only_site_is_refused_before_the_build(tmp_path, monkeypatch):
    """B9: a site folder this user cannot write is refused at once, and left alone."""
    site = _tree(tmp_path / "site", {"index.html": "old"})
    monkeypatch.setattr(publish, "_writable", lambda folder: False)
    with pytest.raises(publish.PublishError, match="read-only; the previous site is kept"):
        publish.prepare(site, tmp_path)
    assert (site / "index.html").read_text() == "old"


def test_a_file_where_the_site_should_be_is_refused(tmp_path):
    (tmp_path / "site").write_text("not a folder")
    with pytest.raises(publish.PublishError, match="is a file, not a folder"):
        publish.prepare(tmp_path / "site", tmp_path)


def test_the_exchange_is_one_step(tmp_path):
    """Exchanged folders: each name holds a whole tree at every instant."""
    old = _tree(tmp_path / "site", {"index.html": "old"})
    new = _tree(tmp_path / ".site.new-1", {"index.html": "new"})
    publish._exchange(new, old)
    assert (old / "index.html").read_text() == "new"
    assert (new / "index.html").read_text() == "old"


def test_a_site_url_with_markup_is_refused(project):
    """B13: MARIAGE_SITE_URL ends up in attributes of every page; quotes and brackets stop."""
    before = _digest(project / "site")
    run = mkdocs_build(project, "--strict",
                       env=ENV | {"MARIAGE_SITE_URL": 'https://example.org/a"><img src=x>/'})
    assert run.returncode == 1
    assert "check MARIAGE_SITE_URL" in run.stderr and "Traceback" not in run.stderr
    assert _digest(project / "site") == before


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=ci@mariage.invalid", "-c", "user.name=ci",
                           *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _branch_files(remote: Path) -> list[str] | None:
    """The files of the remote's gh-pages branch, or None when it has none."""
    run = subprocess.run(["git", "ls-tree", "-r", "--name-only", "gh-pages"], cwd=remote,
                         capture_output=True, text=True)
    return sorted(run.stdout.split()) if run.returncode == 0 else None


def _files(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())


def test_gh_deploy_pushes_only_a_complete_site(project, tmp_path):
    """NB4, NB4b: `mkdocs gh-deploy` (README: GitHub Pages) builds through the lock and the
    atomic publish, then pushes the published site: killed during the build, or failing a
    strict check, it leaves site/ and the branch as they were; finished, it pushes all of it."""
    remote = tmp_path / "remote.git"
    _git(tmp_path, "init", "-q", "--bare", str(remote))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "sources"],
                 ["remote", "add", "origin", str(remote)]):
        _git(project, *args)
    before, complete = _digest(project / "site"), _files(project / "site")
    deploy = [sys.executable, "-m", "mkdocs", "gh-deploy", "--strict"]
    killed = subprocess.Popen(deploy, cwd=project, env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    # English is built first, Italian last: killed with English written, Italian not yet
    while not list(project.glob(".site.new-*/index.html")) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    assert _digest(project / "site") == before and _branch_files(remote) is None

    (project / "docs/assets/notes.md").write_text("# Notes\n\nSee [the rules](rules-typo.md).\n")
    failed = subprocess.run(deploy, cwd=project, env=ENV, capture_output=True, text=True,
                            timeout=600)
    assert failed.returncode == 1 and "Aborted with 2 warnings in strict mode!" in (
        failed.stdout + failed.stderr)
    assert _digest(project / "site") == before and _branch_files(remote) is None

    (project / "docs/assets/notes.md").unlink()
    done = subprocess.run(deploy, cwd=project, env=ENV, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    published = _files(project / "site")
    assert published == complete          # every file of a whole build of these sources
    assert _branch_files(remote) == sorted(published + [".nojekyll"])
    assert not list(project.glob(".site.*"))
