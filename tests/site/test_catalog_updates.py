"""Updates keep the translator's work: `#|` previous text through any number of updates, every
msgstr[n], and no command overwrites a catalog. New languages follow mkdocs.yml, the one list."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mariage.engine.errors import SourceError
from mariage.site.read import catalogs, translate
from mariage.site.render.pages import SiteSource
from mariage.site.read.project import Project

ROOT = Path(__file__).resolve().parents[2]
COPY = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml",
        "babel.cfg", "mariage/site/build/generate.py"]
OLD = "No number on these pages is typed in"
# A language the site does not have yet, for the new-language path (German was the example).
UNLISTED = next(lang for lang in ("nl", "sv", "da", "cs")
                if not (ROOT / "locales" / lang).exists())
NEW = "No number on these pages is ever typed in"


@pytest.fixture
def project(tmp_path) -> Project:
    for name in COPY:
        src, dest = ROOT / name, tmp_path / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest)
    return Project.find(tmp_path)


def _po(project: Project, lang: str) -> str:
    return catalogs.po_path(lang, project.locales).read_text(encoding="utf-8")


def _register(project: Project, lang: str) -> None:
    config = project.config.read_text(encoding="utf-8")
    config = config.replace("        - locale: it\n", f"        - locale: {lang}\n"
                            f"          name: {lang}\n          build: true\n        - locale: it\n")
    project.config.write_text(config, encoding="utf-8")


def test_two_updates_keep_the_previous_text_and_the_translation(project):
    page = project.templates / "pages" / "index.md.j2"
    page.write_text(page.read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")
    french = "Aucun nombre de ces pages n’est saisi"
    translate.update(project)
    first = _po(project, "fr")
    translate.update(project)
    second = _po(project, "fr")
    assert first == second
    entry = second[second.index(f'#| msgid "{OLD}'):]
    lines = entry.splitlines()
    assert lines[1].startswith(f'msgid "{NEW}') and french in lines[2]
    before = second[:second.index(f'#| msgid "{OLD}')].splitlines()
    assert before[-1] == "#, fuzzy"
    assert "# | msgid" not in second
    assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null",
                           str(catalogs.po_path("fr", project.locales))]).returncode == 0


def test_an_update_with_nothing_new_changes_no_file(project):
    translate.update(project)
    files = [translate.pot_path(project)] + [catalogs.po_path(lang, project.locales)
                                             for lang in project.languages()[1:]]
    for path in files:      # a date of long ago, in the template and every catalog alike
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r'"POT-Creation-Date: [^"]*"',
                               r'"POT-Creation-Date: 2000-01-01 00:00+0000\\n"', text),
                        encoding="utf-8")
    before = [path.read_bytes() for path in files]
    translate.update(project)
    assert [path.read_bytes() for path in files] == before


def test_update_notes_the_site_path_of_each_message(project):
    translate.update(project)
    pot = translate.pot_path(project).read_text(encoding="utf-8")
    words = "the game’s own words, as these pages use them."
    glossary = pot[:pot.index(f'msgid "{words}"')]
    index = (project.templates / "pages/index.md.j2").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(index, 1) if words in text)      # 47 as of the merge
    assert glossary.splitlines()[-2:] == ["#. Page: /", f"#: templates/pages/index.md.j2:{line}"]
    assert "#. Page: /examples/02-deal/\n#: examples/02-deal.md:29\nmsgid \"Position in the deck\"" \
        in pot
    assert "#. Page: /tutorial/04-marriages-and-claiming/" in pot


def test_update_keeps_a_third_plural_form(project):
    """Polish has three forms; update never trims msgstr[2] nor rewrites the header."""
    translate.init(project, "pl")
    path = catalogs.po_path("pl", project.locales)
    text = path.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && ' \
           '(n%100<10 || n%100>=20) ? 1 : 2);\\n"' in text
    head, tail = text.split('msgid_plural "stock: %(count)s cards, the indicator last"\n', 1)
    empty = 'msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""\n'
    assert tail.startswith(empty)
    forms = ('msgstr[0] "talia: %(count)s karta"\nmsgstr[1] "talia: %(count)s karty"\n'
             'msgstr[2] "talia: %(count)s kart"\n')
    path.write_text(head + 'msgid_plural "stock: %(count)s cards, the indicator last"\n'
                    + forms + tail[len(empty):], encoding="utf-8")
    translate.update(project)
    translate.update(project)
    assert forms in _po(project, "pl")
    assert "nplurals=3" in _po(project, "pl")
    assert catalogs.translations("pl", project.locales).ngettext(
        "stock: the indicator alone", "stock: %(count)s cards, the indicator last", 5) \
        == "talia: %(count)s kart"


@pytest.mark.parametrize("lang,words", [
    ("fr", ["already exists", "mariage catalogs update"]),
    ("../../x", ["not a language code"]),
    ("zz", ["not a language code"]),
])
def test_init_never_overwrites_and_refuses_bad_names(project, lang, words):
    before = {p: p.read_bytes() for p in project.locales.rglob("*.po")}
    with pytest.raises(SourceError) as refused:
        translate.init(project, lang)
    for word in words:
        assert word in str(refused.value)
    assert {p: p.read_bytes() for p in project.locales.rglob("*.po")} == before


def test_an_unlisted_catalog_stops_the_build_and_init_completes_it(project):
    """A catalog written without `init` (Weblate's "start new translation" writes one): the
    site refuses it, saying to run init, and every other language's check goes on; init then
    keeps the catalog and adds the termbase and the mkdocs.yml entry."""
    made = catalogs.po_path(UNLISTED, project.locales)
    made.parent.mkdir(parents=True)
    made.write_text(_po(project, "it").replace('"Language: it\\n"', f'"Language: {UNLISTED}\\n"'),
                    encoding="utf-8")
    with pytest.raises(SourceError) as refused:
        SiteSource(root=project.root, locales=project.locales).languages()
    assert f"{UNLISTED}/LC_MESSAGES/messages.po" in str(refused.value)
    assert f"run `mariage catalogs init {UNLISTED}`" in str(refused.value)
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "--project", str(project.root),
                          "catalogs", "check", "fr"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "fr: ok\n", run.stderr
    before = made.read_bytes()
    written = translate.init(project, UNLISTED)
    assert made.read_bytes() == before and made not in written
    assert project.languages()[-1] == UNLISTED


def test_a_registered_language_without_catalog_is_an_error(project):
    _register(project, UNLISTED)
    with pytest.raises(SourceError) as refused:
        project.languages()
    assert "mkdocs.yml" in str(refused.value)
    assert f"mariage catalogs init {UNLISTED}" in str(refused.value)


def test_a_language_below_the_threshold_is_not_published(project):
    """A new language with 1 of 455 messages translated: 0 % < 80 %, left out, and said."""
    translate.init(project, UNLISTED)
    path = catalogs.po_path(UNLISTED, project.locales)
    path.write_text(path.read_text(encoding="utf-8").replace(
        'msgid "Glossary"\nmsgstr ""', 'msgid "Glossary"\nmsgstr "Woordenlijst"'), encoding="utf-8")
    source = SiteSource(root=project.root, locales=project.locales)
    assert source.configured_languages() == Project.find(ROOT).languages() + [UNLISTED]
    assert UNLISTED not in source.languages()
    assert source.unpublished()[UNLISTED].endswith("): not published (below 80 %)")
    assert UNLISTED in SiteSource(root=project.root, locales=project.locales,
                              min_translated=0).languages()


def test_the_termbase_exports_to_tbx_and_csv(project):
    """The French termbase's first rows, read by hand from locales/fr/termbase.yaml and the
    English forms of locales/termbase.yaml."""
    csv_text = translate.termbase(project, "fr", "csv").decode("utf-8")
    rows = list(csv.reader(io.StringIO(csv_text)))
    assert rows[0] == ["source", "target", "context"]
    assert ["trick", "levée", "trick"] in rows and ["follow suit", "fournir", "follow_suit"] in rows
    assert ["hand", "donne", "hand"] in rows
    assert len(rows) == 1 + 18
    tbx = translate.termbase(project, "fr", "tbx").decode("utf-8")
    assert '<langSet xml:lang="fr"><tig><term>levée</term></tig></langSet>' in tbx
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "--project", str(project.root),
                          "catalogs", "termbase", "fr", "--format", "csv"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0 and list(csv.reader(io.StringIO(run.stdout))) == rows


def test_a_preview_renders_english_and_the_chosen_language_only():
    """What `MARIAGE_LANGS=fr mkdocs serve` renders; the status page still lists every one."""
    source = SiteSource(preview=["fr"])
    assert source.languages() == ["en", "fr"]
    assert source.configured_languages() == Project.find(ROOT).languages()
    assert "MARIAGE_LANGS" in source.unpublished()["es"]
    assert [s.lang for s in source.context()["catalog_stats"]] == source.configured_languages()[1:]
