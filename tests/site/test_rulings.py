"""The rulings page: R1..R19 in every language, their English statements equal to the profile's,
and every ruling cited anywhere on the built site linked to its anchor there."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from babel.support import NullTranslations

from mariage.engine.errors import SourceError
from mariage.engine.profile import default_profile, load_profile
from mariage.site.build.generate import generate
from mariage.site.render.templating import RenderedPage, base_context, translated
from mariage.site.render.pages import SiteSource
from mariage.site.render.rulings import add_rulings_pages, link_citations, mentions

import sitehtml
from helpers import site_languages

ROOT = Path(__file__).resolve().parents[2]
KNOWN = {f"R{i}" for i in range(1, 20)}


def _english_statements(source: SiteSource) -> dict[str, str]:
    env = source.environment()
    with translated(NullTranslations()):
        module = env.get_template("_rulings.j2").make_module(
            base_context(source.profile, "en", ["en"]))
        return {r.id: html.unescape(str(module.statement(r.id))) for r in source.profile.rulings}


def test_the_english_statement_of_every_ruling_is_the_profiles():
    source = SiteSource()
    statements = _english_statements(source)
    profile = default_profile()
    for ruling in profile.rulings:
        assert statements[ruling.id] == profile.ruling(ruling.id), ruling.id
    # Read by hand from rules/mariage.yaml: the numbers are filled in, not typed.
    assert statements["R15"] == ("A correct claim (66 points or more) ends the hand and scores, "
                                 "in game points, 1 if the opponent has 33 points or more, 2 if "
                                 "fewer but at least one trick, 3 if no trick.")
    assert statements["R1"] == ("2 players and 32 cards: A 10 K Q J 9 8 7 in each suit, strongest "
                                "first. Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0, 8 0, 7 0; "
                                "120 in all.")


def test_a_changed_profile_value_reaches_the_statement(profile_with):
    source = SiteSource(profile=load_profile(profile_with("trump_marriage: 40", "trump_marriage: 50")))
    assert "or 50 in trumps" in _english_statements(source)["R12"]


def test_a_profile_statement_the_template_does_not_say_is_shown_in_english_with_a_warning(
        profile_with, tmp_path, caplog):
    """A warning fails `mkdocs build --strict`; the page never states the template's text."""
    changed = load_profile(profile_with("text: While the stock is open the responder may play any card.",
                                        "text: While the stock is open the responder may play any card at all."))
    pages = {(p.lang, p.path): p.text for p in generate(tmp_path / "out", SiteSource(profile=changed))}
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("R7" in w and "any card at all" in w and "_rulings.j2" in w for w in warnings), warnings
    assert "the responder may play any card at all." in pages[("en", "rulings.md")]
    assert '<span lang="en">While the stock is open the responder may play any card at all.</span>' \
        in pages[("fr", "rulings.md")]


def _page(text: str, path: str = "tutorial/03-open-stock.md") -> RenderedPage:
    return RenderedPage("fr", path, text, "templates/pages/x.md.j2")


@pytest.mark.parametrize("text,expected", [
    ("Any card. (R7)", "Any card. ([R7](../rulings.md#r7))"),
    ("(R3, R8)", "([R3](../rulings.md#r3), [R8](../rulings.md#r8))"),
    ("such as R12 for marriages", "such as [R12](../rulings.md#r12) for marriages"),
    ("| a | 2 | R15 |", "| a | 2 | [R15](../rulings.md#r15) |"),
    ("## Before the lead (R10)", "## Before the lead (R10)"),                 # a heading
    ("`R10: no trick won`", "`R10: no trick won`"),                             # code span
    ("```python\n>>> error\n'R12: not on lead'\n```\n", "```python\n>>> error\n'R12: not on lead'\n```\n"),
    ('<span aria-label="R5">x</span>', '<span aria-label="R5">x</span>'),      # an attribute
    ("[R5](../rulings.md#r5)", "[R5](../rulings.md#r5)"),                       # linked already
    ("HR12, R12a, R1-x, AR1", "HR12, R12a, R1-x, AR1"),                         # not a ruling's name
    ("R1 to R19", "[R1](../rulings.md#r1) to [R19](../rulings.md#r19)"),
])
def test_citations_become_links(text, expected):
    assert link_citations(_page(text), KNOWN).text == expected


def test_the_link_is_relative_to_the_page():
    assert link_citations(_page("(R2)", "index.md"), KNOWN).text == "([R2](rulings.md#r2))"
    assert link_citations(_page("(R2)", "examples/06-tie.md"), KNOWN).text == "([R2](../rulings.md#r2))"


def test_a_citation_of_an_unknown_ruling_fails_naming_the_page():
    with pytest.raises(SourceError) as caught:
        link_citations(_page("See (R20)."), KNOWN)
    assert "R20" in str(caught.value) and "fr/tutorial/03-open-stock.md" in str(caught.value)


def test_mentions_name_the_faq_question_and_its_anchor():
    faq = _page("# FAQ\n\n## Tricks\n\n### Who leads?\n\nThe non-dealer. (R5)\n\n"
                "### Who leads?\n\nStill the non-dealer. (R5, R6)\n", "faq.md")
    found = mentions(faq, 3)
    assert [(m.anchor, m.title) for m in found["R5"]] == [("who-leads", "Who leads?"),
                                                          ("who-leads_1", "Who leads?")]
    assert [m.anchor for m in found["R6"]] == ["who-leads_1"]


def test_every_language_has_a_rulings_page_naming_every_ruling():
    source = SiteSource()
    from mariage.site.render.pages import render_site
    pages = add_rulings_pages(render_site(source), source)
    rulings = {p.lang: p.text for p in pages if p.path == "rulings.md"}
    assert set(rulings) == set(site_languages())
    for lang, text in rulings.items():
        for number in range(1, 20):
            assert f"### R{number} · " in text and "{#r%d}" % number in text, (lang, number)


def test_the_reader_finds_unlinked_citations_and_ids(tmp_path):
    page = tmp_path / "index.html"
    page.write_text('<h1 id="t">R1</h1><article><p id="p">Rule (R5) and <a href="rulings/#r6">R6</a>'
                    '<code>R7</code></p><h2>R8</h2></article><footer>R9</footer>', encoding="utf-8")
    read = sitehtml.read(page)
    assert [u.split()[0] for u in read.unlinked] == ["R5"]
    assert read.links == ["rulings/#r6"] and read.ids == {"t", "p"}
    assert sitehtml.resolve(tmp_path, page, "rulings/#r6") == (tmp_path / "rulings/index.html", "r6")


@pytest.fixture(scope="module")
def built(site_build):
    """The site built once by `mkdocs build --strict` from a copy of the project."""
    return site_build / "site"


def test_no_citation_on_the_built_site_is_unlinked(built):
    pages = sorted(built.rglob("*.html"))
    assert len(pages) > 100
    unlinked = [f"{p.relative_to(built)}: {u}" for p in pages for u in sitehtml.read(p).unlinked]
    assert not unlinked, "\n".join(unlinked[:20])


def test_every_link_to_a_ruling_lands_on_its_anchor(built):
    checked, dangling = 0, []
    ids: dict[Path, set[str]] = {}
    for page in sorted(built.rglob("*.html")):
        for href in sitehtml.read(page).links:
            target, fragment = sitehtml.resolve(built, page, href)
            if target is None or "rulings" not in target.parts:
                continue
            checked += 1
            if target not in ids:
                ids[target] = sitehtml.read(target).ids if target.is_file() else set()
            if not target.is_file() or (fragment and fragment not in ids[target]):
                dangling.append(f"{page.relative_to(built)}: {href}")
    assert checked > 500
    assert not dangling, "\n".join(dangling[:20])


@pytest.mark.parametrize("lang", ["", "es/", "pt/", "fr/", "it/"])
def test_each_rulings_page_has_an_anchor_per_ruling(built, lang):
    ids = sitehtml.read(built / f"{lang}rulings/index.html").ids
    assert {f"r{i}" for i in range(1, 20)} <= ids


def test_the_rulings_pages_state_the_same_numbers_in_every_language():
    import re
    source = SiteSource()
    from mariage.site.render.pages import render_site
    pages = {p.lang: p.text for p in add_rulings_pages(render_site(source), source)
             if p.path == "rulings.md"}

    def numbers(text):
        text = re.sub(r"<[^>]+>|\([^)]*\.md#[^)]*\)|\{#r\d+\}|\bR\d+\b", " ", text)
        return sorted(re.findall(r"(?<![\w.])\d+(?![\d])", text))
    for lang, text in pages.items():
        assert numbers(text) == numbers(pages["en"]), lang
