"""Pages come from profile + catalog + templates; catalogs cannot inject markup."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from mariage.site.read import catalogs
from mariage.engine.errors import SourceError
from mariage.site.render.pages import SiteSource, render_site
from mariage.site.render.templating import base_context, environment, render
from mariage.engine.profile import default_profile, load_profile

from conftest import DISTINCT, PROFILE

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "locales" / "messages.pot"
# The page-wide checks run under the teaching profile and the test profile whose values are all
# distinct (tests/profiles/distinct.yaml); the variants' own pages are checked in test_variant_pages.
SITE_PROFILES = [PROFILE, DISTINCT]


def _set_translation(locales: Path, lang: str, msgid: str, text: str, context=None) -> None:
    path = catalogs.po_path(lang, locales)
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    catalog.get(msgid, context).string = text
    catalog.get(msgid, context).flags.discard("fuzzy")
    with path.open("wb") as f:
        write_po(f, catalog, width=0)


@pytest.mark.parametrize("profile", SITE_PROFILES, ids=lambda p: p.stem)
def test_every_page_exists_in_every_language(profile):
    pages = render_site(SiteSource(profile=load_profile(profile)))
    by_lang = {}
    for page in pages:
        by_lang.setdefault(page.lang, set()).add(page.path)
    assert set(by_lang) == set(SiteSource().languages())
    assert len({frozenset(paths) for paths in by_lang.values()}) == 1


def test_a_catalog_cannot_inject_markup(locales_copy):
    _set_translation(locales_copy, "fr", "Origins: marriages before sixty-six",
                     '<script>alert("x")</script><img src=x onerror=alert(1)>')
    page = next(p for p in render_site(SiteSource(locales=locales_copy))
                if p.lang == "fr" and p.path == "tutorial/01-origins.md")
    assert "<script>" not in page.text and "<img" not in page.text
    assert "alert" not in page.text                     # refused: the English text stands in
    assert '# <span lang="en">Origins: marriages before sixty-six</span>' in page.text


def test_a_plain_angle_bracket_in_a_translation_is_escaped(locales_copy):
    _set_translation(locales_copy, "fr", "Origins: marriages before sixty-six",
                     "Origines : les mariages < le Soixante-six & co")
    page = next(p for p in render_site(SiteSource(locales=locales_copy))
                if p.lang == "fr" and p.path == "tutorial/01-origins.md")
    assert "# Origines : les mariages &lt; le Soixante-six &amp; co" in page.text


def test_rank_and_suit_names_are_spoken_in_the_page_language(locales_copy):
    _set_translation(locales_copy, "es", "king", "rey", context="rank")
    _set_translation(locales_copy, "es", "hearts", "corazones", context="suit")
    _set_translation(locales_copy, "es", "%(rank)s of %(suit)s", "%(rank)s de %(suit)s")
    page = next(p for p in render_site(SiteSource(locales=locales_copy))
                if p.lang == "es" and p.path == "tutorial/01-origins.md")
    assert 'aria-label="rey de corazones">K♥<' in page.text


def test_a_profile_change_reaches_every_language_without_touching_catalogs(profile_with):
    profile = load_profile(profile_with("trump_marriage: 40", "trump_marriage: 50"))
    before = {(p.lang, p.path): p.text for p in render_site(SiteSource())}
    after = {(p.lang, p.path): p.text for p in render_site(SiteSource(profile=profile))}
    changed_langs = {lang for (lang, path), text in after.items() if text != before[(lang, path)]}
    assert changed_langs == set(SiteSource().languages())
    for (lang, path), text in after.items():
        if path == "tutorial/04-marriages-and-claiming.md":
            assert re.search(r"\b50\b", text), f"{lang}: the trump marriage value is not shown"


def test_a_template_syntax_error_names_file_and_line(tmp_path):
    (tmp_path / "broken.md.j2").write_text("# Title\n\n{% trans %}Unclosed\n", encoding="utf-8")
    env = environment(search_path=[tmp_path])
    with pytest.raises(SourceError) as caught:
        render(env, "broken.md.j2", base_context(default_profile(), "en", ["en"]))
    assert "broken.md.j2" in str(caught.value) and caught.value.line == 3
    assert "syntax error" in str(caught.value)


def test_an_undefined_profile_key_names_file_and_line(tmp_path):
    (tmp_path / "typo.md.j2").write_text("# T\n\n{{ rules.thresholds.clam }}\n", encoding="utf-8")
    env = environment(search_path=[tmp_path])
    with pytest.raises(SourceError) as caught:
        render(env, "typo.md.j2", base_context(default_profile(), "en", ["en"]))
    assert "clam" in str(caught.value)


def _pot_messages():
    with POT.open("rb") as f:
        return [m for m in read_po(f) if m.id]


def test_no_rule_number_is_typed_into_a_message():
    for message in _pot_messages():
        msgid = message.id if isinstance(message.id, str) else " ".join(message.id)
        stripped = re.sub(r"\bR1?\d\b|\b0[1-7]\b|%\([a-z_]+\)s", "", msgid)
        assert not re.search(r"\d", stripped), f"a number is typed into {msgid!r}"


def test_every_placeholder_has_a_translator_comment():
    for message in _pot_messages():
        if message.python_format:
            assert message.auto_comments, f"no translator comment for {message.id!r}"


def test_the_pot_is_up_to_date(tmp_path):
    from babel.messages.frontend import CommandLineInterface
    out = tmp_path / "fresh.pot"
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"),
                                "-o", str(out), "--add-comments=Translators:", "-k", "_",
                                str(ROOT)])
    with out.open("rb") as f:
        fresh = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(f) if m.id}
    current = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _pot_messages()}
    assert fresh == current, "run `mariage catalogs update` and commit locales/"


def test_the_faq_answers_every_ruling_in_every_language():
    profile = default_profile()
    faqs = {p.lang: p.text for p in render_site(SiteSource()) if p.path == "faq.md"}
    assert set(faqs) == set(SiteSource().languages())
    for lang, text in faqs.items():
        cited = set(re.findall(r"\bR\d+\b", text))
        missing = [r.id for r in profile.rulings if r.id not in cited]
        assert not missing, f"{lang} FAQ cites no answer for {missing}"


_CENTURIES = {"thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
               "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,     # English ordinals
               "cinquecento": 16, "seicento": 17, "settecento": 18, "ottocento": 19}  # Italian


def _roman_value(numeral: str) -> int:
    """The value of a Roman numeral, read by hand's rule (a smaller letter before a larger subtracts)."""
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for letter, after in zip(numeral, numeral[1:] + " "):
        value = values[letter]
        total += -value if after != " " and values[after] > value else value
    return total


@pytest.mark.parametrize("profile", SITE_PROFILES, ids=lambda p: p.stem)
def test_all_languages_state_the_same_numbers(profile):
    """Every number on a page comes from the profile or the engine, so each translation shows
    the same multiset of numbers as the English page."""
    pages = render_site(SiteSource(profile=load_profile(profile)))
    english = {p.path: p.text for p in pages if p.lang == "en"}
    def numbers(text):
        text = re.sub(r"<[^>]+>|\(R\d+\)|\bR\d+\b", " ", text)
        # A century is written as its language writes it ("18th", "nineteenth", "XVIII", "Ottocento"):
        # compare the values.
        text = re.sub(r"(?<![A-Za-z])[IVXLC]{2,}(?![A-Za-z])", lambda m: f" {_roman_value(m.group(0))} ", text)
        text = re.sub(r"\b(\w+teenth|\w+cento)\b", lambda m: f" {_CENTURIES.get(m.group(1).lower(), m.group(1))} ", text)
        # One may be a word: a singular shown only for 1 spells it out ("has won a trick", "una
        # baza"), while French, whose singular also serves 0, keeps the digit (issue 22).
        return sorted(n for n in re.findall(r"(?<![\w.])\d+(?![\d])", text) if n != "1")
    for page in pages:
        if page.lang != "en":
            assert numbers(page.text) == numbers(english[page.path]), f"{page.lang}/{page.path}"


@pytest.mark.parametrize("profile", SITE_PROFILES, ids=lambda p: p.stem)
def test_no_generated_table_is_broken_by_blank_lines(profile):
    """A blank line between two table rows ends a Markdown table: rows must be contiguous."""
    for page in render_site(SiteSource(profile=load_profile(profile))):
        assert not re.search(r"^\|.*\|\n\s*\n\|", page.text, re.M), f"{page.lang}/{page.path}"


@pytest.mark.parametrize("marked,shown", [
    ("# \ue000Glossary\ue001", '# <span lang="en">Glossary</span>'),
    ('<div aria-label="\ue000Position\ue001">x</div>', '<div aria-label="Position">x</div>'),
    ("run `\ue000make site\ue001` now", "run `make site` now"),
    ("```\n\ue000code\ue001\n```", "```\ncode\n```"),
    ("| \ue000Position in the deck\ue001 | 1 |", '| <span lang="en">Position in the deck</span> | 1 |'),
    ("\ue000two\nlines\ue001", "two\nlines"),
])
def test_english_fallback_text_is_tagged_where_html_allows(marked, shown):
    """Running text gets <span lang="en">; attributes, code and split marks stay plain."""
    from mariage.site.render.templating import mark_fallbacks
    assert mark_fallbacks(marked) == shown
