"""Weblate-ready (issue 20): every catalog, the template and a fresh `init` load in
translate-toolkit's PO store as Weblate's gettext component reads them; an `update` with no
English change touches no file; the guide's terminology table is the termbases'; the README
shows one status badge per language of mkdocs.yml."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from translate.storage import po as tt_po

from mariage.site.read import catalogs, termbase, translate
from mariage.site.read.project import Project

ROOT = Path(__file__).resolve().parents[2]
PROJECT = Project.find(ROOT)
LANGS = PROJECT.languages()[1:]


def _units(path: Path) -> dict[tuple[str, str], object]:
    """The file as Weblate's PO format reads it: translate-toolkit's store, header left out."""
    store = tt_po.pofile.parsefile(str(path))
    return {(u.getcontext(), u.source): u for u in store.units if not u.isheader()
            and not u.isobsolete()}


@pytest.fixture(scope="module")
def template():
    return _units(catalogs.template_path(PROJECT.locales))


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalog_loads_as_weblate_reads_it(template, lang):
    path = catalogs.po_path(lang, PROJECT.locales)
    units = _units(path)
    assert set(units) == set(template)           # the template's messages, no more, no fewer
    store = tt_po.pofile.parsefile(str(path))
    assert store.gettargetlanguage() == lang
    header = store.parseheader()
    assert header["Plural-Forms"] and "charset=UTF-8" in header["Content-Type"]
    assert "FULL NAME" not in header.get("Last-Translator", "")
    plural = [u for u in units.values() if u.hasplural()]
    forms = int(store.getheaderplural()[0])
    assert plural and all(len(u.target.strings) == forms for u in plural if u.istranslated())
    assert all(u.istranslated() for u in units.values()) or \
        catalogs.check_catalog(lang, PROJECT.locales).stats().percent < PROJECT.min_translated()


def test_a_fresh_catalog_loads_as_weblate_reads_it(tmp_path, template):
    shutil.copytree(ROOT / "locales", tmp_path / "locales")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    project = Project.find(tmp_path)
    translate.init(project, "pl")
    path = catalogs.po_path("pl", project.locales)
    units = _units(path)
    assert set(units) == set(template) and not any(u.istranslated() for u in units.values())
    store = tt_po.pofile.parsefile(str(path))
    assert store.gettargetlanguage() == "pl" and store.getheaderplural()[0] == "3"
    assert all(len(u.target.strings) == 3 for u in units.values() if u.hasplural())


def test_weblate_s_same_check_finds_no_unmarked_english(template):
    """Weblate's `same` check compares source and target; ours is stricter than its
    defaults, so no catalog has a target equal to its source without the marker."""
    for lang in LANGS:
        for key, unit in _units(catalogs.po_path(lang, PROJECT.locales)).items():
            if unit.istranslated() and unit.target == unit.source and len(
                    re.findall(r"[^\W\d_]", unit.source)) > 1:
                notes = unit.getnotes()
                assert "stays as in English" in notes, (lang, key)


COPY = ["rules", "locales", "templates", "examples", "docs", "mkdocs.yml", "babel.cfg",
        "mariage"]


def test_update_leaves_every_file_byte_identical_when_no_english_changed(tmp_path):
    """Two translators' branches no longer conflict over POT-Creation-Date: with no English
    change, `update` writes nothing, not even the template's date."""
    for name in COPY:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    project = Project.find(tmp_path)
    files = sorted(project.locales.rglob("*.po*")) + [project.docs / "translators.md"]
    before = {f: (f.read_bytes(), f.stat().st_mtime_ns) for f in files}
    translate.update(project)
    assert {f: (f.read_bytes(), f.stat().st_mtime_ns) for f in files} == before


def test_the_guides_terminology_table_is_the_termbases():
    guide = translate.guide_path(PROJECT).read_text(encoding="utf-8")
    table = termbase.guide_table(PROJECT.languages(), PROJECT.locales)
    assert f"{termbase.GUIDE_START}\n{table}\n{termbase.GUIDE_END}" in guide, \
        "run `mariage catalogs update` to write the table again"
    fr = termbase.load_terms("fr", PROJECT.locales)
    assert f"| {fr['game_points'].term} |" in table and "points de match" not in guide


def test_the_readme_shows_a_badge_for_each_language():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[(\w+)\]\(https://mariage\.invalid/assets/badges/(\w+)\.svg\)", readme)
    assert [lang for lang, _ in shown] == [lang for _, lang in shown] == LANGS
