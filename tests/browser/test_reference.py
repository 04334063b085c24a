"""The reader's reference in the browser: the quick-reference card prints on one sheet of A4
and of US Letter in every language, and the site's search finds a ruling by its name."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from browser.sitecheck import visit

pytestmark = pytest.mark.xdist_group("browser")

_RESULT_LINKS = ("() => [...document.querySelectorAll('.md-search-result__list a[href]')]"
                 ".map(a => a.pathname + a.hash)")


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_quick_reference_prints_on_one_sheet(page, monitor, site, base_url, lang, paper):
    path = site.url_path(lang, "quick-reference/")
    visit(monitor, base_url + path, expect_ok=True)
    pdf = PdfReader(io.BytesIO(page.pdf(format=paper, print_background=True)))
    text = pdf.pages[0].extract_text()
    assert len(pdf.pages) == 1, f"/{path} prints on {len(pdf.pages)} {paper} pages"
    assert "R19" in text, f"/{path}: the printed sheet stops before the game to the target"


def test_printing_hides_the_site_frame(page, monitor, site, base_url):
    visit(monitor, base_url + "quick-reference/", expect_ok=True)
    page.emulate_media(media="print")
    try:
        shown = page.evaluate("() => ['.md-header', '.md-sidebar--primary', '.md-footer']"
                              ".filter(s => { const e = document.querySelector(s);"
                              " return e && getComputedStyle(e).display !== 'none'; })")
    finally:
        page.emulate_media(media="screen")
    assert shown == [], f"printed with the site's frame: {shown}"


def test_search_finds_a_ruling_by_its_name(page, monitor, site, base_url, lang):
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    expected = "/" + site.url_path(lang, "rulings/")
    visit(monitor, base_url + site.url_path(lang, ""), expect_ok=True)
    page.locator("input.md-search__input").click()
    page.keyboard.type("R14", delay=20)   # Material searches on key events
    try:
        page.wait_for_function(
            "target => [...document.querySelectorAll('.md-search-result__list a[href]')]"
            ".some(a => a.pathname === target && a.hash === '#r14')", arg=expected, timeout=30000)
    except PlaywrightTimeoutError:
        found = list(dict.fromkeys(page.evaluate(_RESULT_LINKS)))[:12]
        pytest.fail(f"searching for 'R14' on /{site.url_path(lang, '')} finds no {expected}#r14; "
                    f"result links: {found or 'none'}", pytrace=False)
    finally:
        page.keyboard.press("Escape")
    # The crawl indexes each page's own sections only (sitecheck.OwnSectionsOnly): the whole
    # site's index is built here, in every language, and must record no problem either.
    problems = monitor.console_errors + monitor.page_errors + monitor.failed + monitor.foreign
    assert not problems, problems
