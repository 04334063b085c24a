"""The translator check: every catalog ships clean, and every kind of mistake is caught."""

import re
from pathlib import Path

import pytest

from mariage.site import catalogs, translate
from mariage.site.pages import SiteSource
from mariage.site.generate import check_catalogs
from mariage.engine.errors import SourceError

LANGS = ["es", "pt", "fr", "it"]
LOCALES = Path(__file__).resolve().parents[2] / "locales"


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalog_is_complete_and_clean(lang):
    problems = translate.check(lang, LOCALES)
    assert not problems, "\n".join(map(str, problems[:10]))


@pytest.mark.parametrize("lang,forms", [("es", "(n != 1)"), ("pt", "(n != 1)"),
                                        ("fr", "(n > 1)"), ("it", "(n != 1)")])
def test_catalogs_have_two_plural_forms(lang, forms):
    header = catalogs.po_path(lang, LOCALES).read_text(encoding="utf-8")
    assert f'"Plural-Forms: nplurals=2; plural={forms};\\n"' in header


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
    assert problems and re.search(r"messages\.po:\d+: msgfmt", problems[0]), problems


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
    with pytest.raises(SourceError) as caught:
        check_catalogs(SiteSource(locales=locales_copy))
    assert "it/LC_MESSAGES/messages.po" in str(caught.value) and caught.value.line


def test_the_status_page_counts_each_catalog():
    stats = {s.lang: s for s in (catalogs.stats(l, LOCALES) for l in LANGS)}
    pages = {p.lang: p.text for p in __import__("mariage.site.pages", fromlist=["x"]).render_site(SiteSource())
             if p.path == "translation-status.md"}
    for lang, s in stats.items():
        row = next(line for line in pages["en"].splitlines() if f"(`{lang}`)" in line)
        assert f"| {s.translated} | {s.fuzzy} | {s.untranslated} |" in row


def test_the_build_refuses_malformed_syntax_that_babel_would_forgive(locales_copy):
    path = _break(locales_copy, "pt", r'^msgid "Tutorial"$', 'msgid "Tutorial')
    line = path.read_text(encoding="utf-8").splitlines().index('msgid "Tutorial') + 1
    with pytest.raises(SourceError) as caught:
        catalogs.translations("pt", locales_copy)
    assert caught.value.line == line and "malformed catalog" in str(caught.value)


def test_update_repairs_the_previous_msgid_lines_babel_wraps_unquoted(tmp_path):
    """pybabel update --previous wraps `#| msgid` without quoting each piece; fix_previous joins
    them so translate-toolkit, msgfmt and translators' tools read the catalog."""
    import subprocess
    po = tmp_path / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir()
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\n#| msgid "Passing 66 ends nothing by itself. You must wait until you\n'
        '#| are on lead again."\nmsgid "Reaching 66 ends nothing."\nmsgstr "Rien."\n',
        encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        catalogs._check_syntax(po)
    assert caught.value.line == 6
    translate.fix_previous(po)
    assert '#| msgid "Passing 66 ends nothing by itself. You must wait until you are on lead again."' \
        in po.read_text(encoding="utf-8")
    catalogs._check_syntax(po)
    assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)]).returncode == 0
