"""`mkdocs build` alone makes the whole site; a failed build names the problem and leaves the
previous site untouched."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import copy_project
from mariage.site.read.project import Project

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = [sys.executable, "-m", "mkdocs"]


@pytest.fixture(scope="module")
def project(site_build, tmp_path_factory):
    """A copy of the project and of its site, built once for the session, to break in
    various ways (the session's build left the stage cache warm for these builds)."""
    dest = tmp_path_factory.mktemp("project") / "project"
    shutil.copytree(site_build, dest, symlinks=True)
    return dest


def _snapshot(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_the_build_makes_every_language(site_build):
    project, site = site_build, site_build / "site"
    for lang in [""] + [f"{lang}/" for lang in Project.find(project).languages()[1:]]:
        page = site / f"{lang}tutorial/04-marriages-and-claiming/index.html"
        assert page.exists(), page
        expected = lang.rstrip("/") or "en"
        assert f'<html lang="{expected}"' in page.read_text(encoding="utf-8")
    assert (site / "examples/07-marriage-claim/index.html").exists()
    assert not (project / "site.tmp-build").exists()


@pytest.mark.parametrize("path,old,new,words", [
    ("examples/07-marriage-claim.md", ">>> hand.points(\"A\")\n68",
     ">>> hand.points(\"A\")\n67",
     ["examples/07-marriage-claim.md", "(en)", "line", "expected '67', got '68'"]),
    ("rules/mariage.yaml", "claim: 66 ", "claim: 66: x ", ["rules/mariage.yaml:23", "malformed YAML"]),
    ("templates/pages/faq.md.j2", "{% trans", "{% trans %}{% trans", ["faq.md.j2", "syntax error"]),
    ("locales/fr/LC_MESSAGES/messages.po", "%(claim)s", "%(claims)s",
     ["fr/LC_MESSAGES/messages.po", "placeholder"]),
    ("locales/es/LC_MESSAGES/messages.po", 'msgid "Tutorial"\n', 'msgid "Tutorial\n',
     ["es/LC_MESSAGES/messages.po:", "a string is not closed on its line"]),
])
def test_a_failed_build_names_the_problem_and_keeps_the_old_site(project, path, old, new, words):
    before = _snapshot(project / "site")
    target = project / path
    original = target.read_text(encoding="utf-8")
    assert old in original
    target.write_text(original.replace(old, new, 1), encoding="utf-8")
    try:
        run = subprocess.run(MKDOCS + ["build", "--strict"], cwd=project, capture_output=True,
                             text=True)
    finally:
        target.write_text(original, encoding="utf-8")
    assert run.returncode != 0
    for word in words:
        assert word in run.stderr, f"{word!r} missing from:\n{run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr
    assert _snapshot(project / "site") == before


def test_markup_in_a_catalog_never_reaches_the_built_site(warm_stages, tmp_path):
    """Page text, nav section titles and the 404 page: a translation with markup is refused
    (`--strict` fails) and the English text stands in, tagged lang="en". The attacks are French:
    a copy with English and French is built."""
    project = copy_project(tmp_path / "project", ["fr"])
    po = project / "locales/fr/LC_MESSAGES/messages.po"
    attacks = {"Tutorial": "<img src=x onerror=alert(document.domain)>",
               "Frequently asked questions": "<script>alert(document.cookie)</script>",
               "This page does not exist. Start again from the home page:": "<b onclick=alert(origin)>"}
    text = po.read_text(encoding="utf-8")
    for msgid, attack in attacks.items():
        text = re.sub(rf'(msgid "{re.escape(msgid)}"\nmsgstr ")[^"]*"', rf'\g<1>{attack}"', text, count=1)
    assert text.count("alert(") == 3
    po.write_text(text, encoding="utf-8")              # the copy is this test's own
    strict = subprocess.run(MKDOCS + ["build", "--strict", "-d", "refused"], cwd=project,
                            capture_output=True, text=True)
    run = subprocess.run(MKDOCS + ["build", "-d", "injected"], cwd=project,
                         capture_output=True, text=True)
    assert strict.returncode == 1 and "3 catalog problem(s)" in strict.stderr
    assert not (project / "refused").exists()
    assert run.returncode == 0, run.stderr[-2000:]
    built = project / "injected"
    for page in built.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for attack in attacks.values():
            assert attack not in html, f"{page.relative_to(built)} carries {attack}"
        assert "alert(" not in html
    assert "Tutorial" in (built / "fr/index.html").read_text(encoding="utf-8")
    assert '<p lang="en">This page does not exist.' in (built / "404.html").read_text(
        encoding="utf-8")
