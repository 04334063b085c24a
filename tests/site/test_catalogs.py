"""The translator check: every catalog ships clean, and every kind of mistake is caught."""

import re
from pathlib import Path

import pytest

from mariage.site.read import catalogs, checks, file_checks, plurals, translate
from mariage.site.render.pages import SiteSource, render_site
from mariage.site.build.generate import CatalogError, check_catalogs
from mariage.site.read.project import Project
from mariage.engine.errors import SourceError

from helpers import catalog_verdict

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "locales"
LANGS = Project.find(ROOT).languages()[1:]      # the site's one list: mkdocs.yml


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalog_is_clean_and_complete_once_published(lang):
    problems = catalog_verdict(Project.find(ROOT), lang)
    assert not problems, "\n".join(problems[:10])


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalog_has_no_broken_previous_text_comments(lang):
    """`# | msgid` is what a Babel round trip made of `#| msgid`; msgmerge never writes it."""
    assert "# | msgid" not in catalogs.po_path(lang, LOCALES).read_text(encoding="utf-8")


@pytest.mark.parametrize("lang,forms", [
    ("fr", "nplurals=2; plural=(n > 1);"), ("de", "nplurals=2; plural=(n != 1);"),
    ("pt", "nplurals=2; plural=(n != 1);"), ("ja", "nplurals=1; plural=0;"),
    ("pl", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"),
])
def test_a_new_catalog_gets_the_languages_plural_rule(lang, forms):
    """GNU gettext's rules, as Poedit and Weblate write them, each agreeing with CLDR."""
    assert plurals.expected_plural_forms(lang) == forms


@pytest.mark.parametrize("lang,forms,ok", [
    ("fr", "nplurals=2; plural=(n > 1);", True),
    ("fr", "nplurals=2; plural=(n != 1);", False),          # 0 is singular in French
    ("pt", "nplurals=2; plural=(n != 1);", True),           # European Portuguese
    ("pt", "nplurals=2; plural=(n > 1);", True),            # Brazilian Portuguese
    ("pl", "nplurals=2; plural=(n != 1);", False),          # 2-4 and 5+ differ
    ("ru", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
           "(n%100<10 || n%100>=20) ? 1 : 2);", True),
    ("de", "nplurals=2; plural=(n != 1);", True),
])
def test_the_plural_header_is_checked_against_cldr(lang, forms, ok, tmp_path):
    text = f'msgid ""\nmsgstr ""\n"Plural-Forms: {forms}\\n"\n'
    assert (file_checks.check_plural_rule(tmp_path / "x.po", lang, text) == []) is ok


def _first_entry(po_text: str) -> tuple[int, str]:
    """Line number and msgid of the first translated, non-plural, non-header entry."""
    lines = po_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith('msgid "') and line != 'msgid ""' and lines[i + 1].startswith('msgstr "'):
            return i + 1, line
    raise AssertionError("no entry found")


def _break(locales, lang, pattern, replacement):
    path = catalogs.po_path(lang, locales)
    text = path.read_text(encoding="utf-8")
    new = re.sub(pattern, replacement, text, count=1, flags=re.M)
    assert new != text, "the test did not change the catalog"
    path.write_text(new, encoding="utf-8")
    return path


def _problems(locales, lang):
    return [str(p) for p in translate.check(lang, locales)]


def test_a_renamed_placeholder_is_reported_with_its_line(locales_copy):
    _break(locales_copy, "es", r'^(msgstr ".*?)%\((\w+)\)s', r"\1%(renamed)s")
    problems = _problems(locales_copy, "es")
    assert any("messages.po:" in p and ("placeholder" in p or "format" in p) for p in problems), problems


def test_a_fuzzy_entry_is_reported_and_never_shipped(locales_copy):
    path = _break(locales_copy, "it", r'^(msgid "Tutorial"\n)', "#, fuzzy\n\\1")
    problems = _problems(locales_copy, "it")
    assert any("fuzzy" in p and "'Tutorial'" in p for p in problems), problems
    assert catalogs.translations("it", locales_copy).gettext("Tutorial") == "Tutorial"
    assert path.exists()


def test_an_untranslated_entry_is_reported(locales_copy):
    _break(locales_copy, "pt", r'^(msgid "Tutorial"\n)msgstr ".+"$', '\\1msgstr ""')
    assert any("untranslated" in p and "'Tutorial'" in p for p in _problems(locales_copy, "pt"))


def test_malformed_po_syntax_is_reported_with_its_line(locales_copy):
    _break(locales_copy, "fr", r'^msgid "Tutorial"$', 'msgid "Tutorial')
    problems = _problems(locales_copy, "fr")
    assert problems and re.search(r"messages\.po:\d+: \[syntax\] a string is not closed",
                                  problems[0]), problems


def test_injected_markup_is_rejected(locales_copy):
    _break(locales_copy, "fr", r'^(msgid "Tutorial"\n)msgstr "(.+)"$',
           '\\1msgstr "\\2 <script>alert(1)</script>"')
    assert any("markup" in p or "xmltags" in p for p in _problems(locales_copy, "fr"))


def test_an_injected_markdown_link_is_rejected(locales_copy):
    _break(locales_copy, "es", r'^(msgid "Tutorial"\n)msgstr "(.+)"$',
           '\\1msgstr "[\\2](javascript:alert(1))"')
    assert any("markup" in p for p in _problems(locales_copy, "es"))


def test_the_build_refuses_a_mismatched_placeholder(locales_copy):
    _break(locales_copy, "it", r'^(msgstr ".*?)%\((\w+)\)s', r"\1%(renamed)s")
    with pytest.raises(CatalogError) as caught:
        check_catalogs(SiteSource(locales=locales_copy))
    assert "it/LC_MESSAGES/messages.po:" in str(caught.value)
    assert caught.value.problems[0].line and caught.value.problems[0].check == "placeholders"


def _complete_fr(locales: Path, count: int) -> None:
    """Replace the French catalog and the template by ones of `count` messages, every one
    translated: the test counts what it breaks, whatever the state and the size of the real
    catalog."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog, template = Catalog(locale="fr"), Catalog()
    pairs = [("Tutorial", "Tutoriel"), ("Glossary", "Glossaire"), ("Reference", "Référence")]
    for n in range(count - 3):
        pairs.append((f"Message {n}", f"Message {n} en français"))
    for msgid, msgstr in pairs:
        catalog.add(msgid, msgstr)
        template.add(msgid)
    with catalogs.po_path("fr", locales).open("wb") as f:
        write_po(f, catalog, width=0)
    with catalogs.template_path(locales).open("wb") as f:
        write_po(f, template, width=0)


def test_the_status_page_rounds_down(locales_copy):
    """fr with 2 fuzzy and 1 untranslated of 455 messages: 452 / 455 = 99.3 %, shown as 99 %;
    453 / 455 = 99.56 % is 99 % too, never 100 %."""
    _complete_fr(locales_copy, 455)
    _break(locales_copy, "fr", r'^(msgid "Tutorial"\n)', "#, fuzzy\n\\1")
    _break(locales_copy, "fr", r'^(msgid "Glossary"\n)', "#, fuzzy\n\\1")
    _break(locales_copy, "fr", r'^(msgid "Reference"\n)msgstr ".+"$', '\\1msgstr ""')
    s = catalogs.stats("fr", locales_copy)
    assert (s.translated, s.fuzzy, s.untranslated, s.total, s.percent) == (452, 2, 1, 455, 99)
    assert catalogs.Stats("x", 453, 2, 0).percent == 99
    page = next(p.text for p in render_site(
        SiteSource(locales=locales_copy)) if p.path == "translation-status.md" and p.lang == "en")
    assert "Français (`fr`) | 452 | 2 | 1 | 0 | 0 | 99% | yes |" in page   # English: no space


def test_the_status_page_counts_each_catalog():
    stats = {s.lang: s for s in (catalogs.stats(l, LOCALES) for l in LANGS)}
    pages = {p.lang: p.text for p in render_site(SiteSource())
             if p.path == "translation-status.md"}
    for lang, s in stats.items():
        row = next(line for line in pages["en"].splitlines() if f"(`{lang}`)" in line)
        assert f"| {s.translated} | {s.fuzzy} | {s.untranslated} | {s.failing} | " \
            f"{s.mismatched} |" in row
        assert f'<img src="../assets/badges/{lang}.svg" alt="" height="20">' in row


def test_a_catalog_that_cannot_be_read_names_its_line(locales_copy):
    path = _break(locales_copy, "pt", r'^msgid "Tutorial"$', 'msgid "Tutorial')
    line = path.read_text(encoding="utf-8").splitlines().index('msgid "Tutorial') + 1
    with pytest.raises(SourceError) as caught:
        catalogs.read_catalog("pt", locales_copy)
    assert caught.value.line == line and "not closed" in str(caught.value)
    assert catalogs.translations("pt", locales_copy).gettext("Tutorial") == "Tutorial"


def test_the_translator_guide_explains_every_check():
    guide = (ROOT / "docs" / "translators.md").read_text(encoding="utf-8")
    for check in checks.CHECKS + checks.FILE_CHECKS:
        assert f"| `{check.id}` |" in guide, check.id


@pytest.mark.parametrize("string,named", [
    ("Glossaire", None),                                 # printable: the fast path
    ("Règles à l’écran — 66 points", None),
    ("Vingt\u00a0points", None),                         # a no-break space is typed text
    ("Glos\u00adsaire", "U+00AD"),                       # a soft hyphen (Cf)
    ("Gloss\u2028aire", "U+2028"),                       # a line separator (Zl)
    ("Glossaire\U000F0001", "U+F0001"),                  # private use, plane 15 (Co)
    ("Glossaire\ue000", "U+E000"),                       # private use (Co)
    ("\x7fGlossaire", "U+007F"),                         # DEL (Cc)
])
def test_an_invisible_character_is_named_whatever_its_category(string, named):
    from mariage.site.read.message_checks import Entry, characters
    said = characters(Entry(("Glossary",), (string,), 2, lang="fr"))
    assert (said is None) if named is None else (said is not None and named in said), said
