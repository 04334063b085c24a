"""A new language is one command, and partial work is welcome (issue 20): in a copy of the
project, `mariage catalogs init de` writes the catalog, the termbase skeleton and the mkdocs.yml
entry (comments kept); German at 2 % then passes the strict build (not published, and said so),
the catalog rules CI applies, and `MARIAGE_LANGS=de mkdocs serve` shows it as a draft."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from mariage.site.read import catalogs, termbase, translate
from mariage.site.read.project import Project, configured_languages

from helpers import catalog_verdict, mkdocs_build

ROOT = Path(__file__).resolve().parents[2]
COPY = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml",
        "babel.cfg", "README.md"]

# 20 of the template's messages, translated by hand: about 2 %.
GERMAN = {
    "Tutorial": "Anleitung", "Variants": "Varianten", "Worked examples": "Durchgespielte Beispiele",
    "Reference": "Nachschlagen", "Mariage, the rules": "Mariage, die Regeln",
    "Position": "Stellung", "Player": "Spieler", "Cards held": "Karten auf der Hand",
    "Tricks": "Stiche", "Topic": "Thema", "Penalties": "Strafen",
    "Rule": "Regel", "Result": "Ergebnis", "Natural end": "Natürliches Ende", "First step": "Erster Schritt",
    "Previous step": "Vorheriger Schritt", "Next step": "Nächster Schritt",
    "Last step": "Letzter Schritt", "Perfect play": "Perfektes Spiel",
    "Score sheet": "Punkteliste", "Noted at the close": "Beim Zudrehen notiert",
}


def _copy(dest: Path) -> Path:
    """The project as it was before German: the new language's catalog, termbase, mkdocs.yml
    entry and README badge left out, should the project have them."""
    for name in COPY:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    shutil.rmtree(dest / "locales" / "de", ignore_errors=True)
    (dest / "mkdocs.yml").write_text(_without_german((ROOT / "mkdocs.yml").read_text(
        encoding="utf-8")), encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (dest / "README.md").write_text(readme.replace(f"{BADGE}\n", ""), encoding="utf-8")
    return dest


BADGE = "![de](https://mariage.invalid/assets/badges/de.svg)"


def _without_german(config: str) -> str:
    return re.sub(r"^ *- locale: de\n *name: Deutsch\n *build: true\n", "", config, flags=re.M)


def _translate(po: Path, table: dict[str, str]) -> None:
    text = po.read_text(encoding="utf-8")
    for msgid, msgstr in table.items():
        old = f'\nmsgid "{msgid}"\nmsgstr ""\n'
        assert text.count(old) == 1, msgid
        text = text.replace(old, f'\nmsgid "{msgid}"\nmsgstr "{msgstr}"\n')
    po.write_text(text, encoding="utf-8")


def _env() -> dict[str, str]:
    return os.environ | {"NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="module")
def german(tmp_path_factory):
    """A copy of the project with German started by `init` and 20 messages translated."""
    project = _copy(tmp_path_factory.mktemp("german"))
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "--project", str(project),
                          "catalogs", "init", "de"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    _translate(catalogs.po_path("de", project / "locales"), GERMAN)
    return project, run.stdout


def test_init_writes_catalog_termbase_and_mkdocs_entry(german):
    project, said = german
    for written in ("locales/de/LC_MESSAGES/messages.po", "locales/de/termbase.yaml",
                    "mkdocs.yml", "README.md"):
        assert f"wrote {project / written}" in said
    assert "MARIAGE_LANGS=de mkdocs serve" in said
    assert configured_languages(project / "mkdocs.yml")[-1] == "de"
    entry = yaml.safe_load((project / "locales/de/termbase.yaml").read_text(encoding="utf-8"))
    assert list(entry) == list(termbase.CONCEPTS)
    assert all(v == {"term": "", "forms": []} for v in entry.values())
    assert termbase.load_terms("de", project / "locales") == {}     # nothing chosen yet
    assert BADGE in (project / "README.md").read_text(encoding="utf-8")


def test_init_keeps_every_line_and_comment_of_mkdocs_yml(german):
    """The entry is three lines added after the last language; every other line, comments
    included, is the original's, in order."""
    project, _ = german
    before = _without_german((ROOT / "mkdocs.yml").read_text(encoding="utf-8")).splitlines()
    after = (project / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, (old, new) in enumerate(zip(before, after)) if old != new)
    assert [line.strip() for line in after[at:at + 3]] == ["- locale: de", "name: Deutsch",
                                                         "build: true"]
    assert after[:at] + after[at + 3:] == before
    assert sum(line.lstrip().startswith("#") for line in before) > 3   # there were comments
    config = Project.find(project)
    assert config.languages()[-1] == "de" and config.min_translated() == 80


def test_init_refuses_a_second_time_and_changes_nothing(german):
    project, _ = german
    files = [project / "mkdocs.yml", project / "locales/de/termbase.yaml",
             catalogs.po_path("de", project / "locales")]
    before = [f.read_bytes() for f in files]
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "--project", str(project),
                          "catalogs", "init", "de"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2 and "already exists" in run.stderr
    assert "Traceback" not in run.stderr
    assert [f.read_bytes() for f in files] == before


def test_a_partial_catalog_passes_what_ci_holds_every_catalog_to(german):
    project, _ = german
    config = Project.find(project)
    stats = catalogs.check_catalog("de", config.locales).stats()
    assert stats.translated == len(GERMAN) and 0 < stats.percent < 5      # a few messages of ~1,000
    for lang in config.languages()[1:]:
        assert catalog_verdict(config, lang) == [], lang
    # a mistake in the partial catalog is still one
    po = catalogs.po_path("de", config.locales)
    broken = _copy_of(po)
    _translate(broken, {"Cards": "Karten]"})
    assert any("[markup]" in p for p in catalog_verdict(Project.at(
        project, locales=broken.parents[2]), "de"))


def _copy_of(po: Path) -> Path:
    """A scratch copy of the project's locales/ with this catalog, for one broken variant."""
    locales = po.parents[2]
    scratch = locales.parent / "locales-broken"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(locales, scratch)
    return scratch / po.relative_to(locales)


def test_the_strict_build_leaves_it_out_and_says_why(german):
    project, _ = german
    run = mkdocs_build(project, "--strict")
    assert run.returncode == 0, run.stderr[-3000:]
    total = catalogs.check_catalog("de", project / "locales").stats().total
    pct = _percent(project)
    assert f"de is {pct} % translated ({len(GERMAN)} of {total} messages): not published " \
           "(below 80 %)" in run.stderr
    site = project / "site"
    assert not (site / "de").exists()
    status = (site / "translation-status" / "index.html").read_text(encoding="utf-8")
    row = next(line for line in status.split("<tr>") if "(<code>de</code>)" in line)
    assert "not published (below 80%)" in row
    assert '<img src="../assets/badges/de.svg" alt="" height="20"' in row
    badge = (site / "assets" / "badges" / "de.svg").read_text(encoding="utf-8")
    assert f"{pct}%, not published" in badge and badge.startswith("<svg")
    for lang in Project.find(ROOT).languages()[1:]:
        assert (site / "assets" / "badges" / f"{lang}.svg").is_file()


def _percent(project: Path) -> int:
    """The whole percent the German sample makes of the catalog, rounded down (1 or 2)."""
    total = catalogs.check_catalog("de", project / "locales").stats().total
    assert 1 <= len(GERMAN) * 100 // total <= 2
    return len(GERMAN) * 100 // total


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_preview_shows_it_as_a_draft(german):
    """`MARIAGE_LANGS=de mkdocs serve`: the German pages, each with the draft note."""
    project, _ = german
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--no-livereload",
                               "-a", f"127.0.0.1:{port}"], cwd=project, env=_env() | {
                                   "MARIAGE_LANGS": "de"}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        page = _fetch(f"http://127.0.0.1:{port}/de/", server, deadline=time.monotonic() + 240)
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[1]
    assert 'lang="de"' in page and "Durchgespielte Beispiele" in page
    pct = _percent(project)
    assert f"Draft: this language is {pct}" in page and "not published (below 80" in page
    assert f"de is {pct} % translated: not published (below 80 %); this preview shows it as a " \
           "draft" in log
    assert "Traceback" not in log


def _fetch(url: str, server: subprocess.Popen, deadline: float) -> str:
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(server.communicate()[1][-3000:])
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                return reply.read().decode("utf-8")
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer")


def test_a_half_filled_concept_is_named(tmp_path):
    """A skeleton concept with a term but no forms (or the reverse) is a mistake, by line."""
    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    shutil.rmtree(locales / "de", ignore_errors=True)       # the project as it was before German
    path = termbase.language_path("de", locales)
    path.parent.mkdir()
    path.write_text(termbase.skeleton("de", locales).replace(
        'trick: {term: "", forms: []}', 'trick: {term: "Stich", forms: []}'), encoding="utf-8")
    with pytest.raises(Exception) as caught:
        termbase.load_terms("de", locales)
    assert "trick" in str(caught.value) and "non-empty list" in str(caught.value)
    line = path.read_text(encoding="utf-8").splitlines().index(
        'trick: {term: "Stich", forms: []}') + 1
    assert f"termbase.yaml:{line}:" in str(caught.value)
