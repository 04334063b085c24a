"""Material's search, typed into on a translated page, finds that language's sections."""

from __future__ import annotations

import pytest

from browser.sitecheck import visit

pytestmark = pytest.mark.xdist_group("browser")

# (language, a word of that language, the page where that language explains it)
SEARCHES = [
    ("es", "matrimonio", "es/tutorial/04-marriages-and-claiming/"),
]

_RESULT_LINKS = ("() => [...document.querySelectorAll('.md-search-result__list a[href]')]"
                 ".map(a => a.pathname + a.hash)")


@pytest.mark.parametrize("lang,word,expected", SEARCHES, ids=[s[0] for s in SEARCHES])
def test_search_finds_the_translated_section(page, monitor, site, base_url, lang, word, expected):
    assert (site.root / expected / "index.html").is_file(), f"/{expected} was not built"
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    home = site.url_path(lang, "")
    visit(monitor, base_url + home, expect_ok=True)
    search = page.locator("input.md-search__input")
    assert search.count() == 1, f"/{home}: no search box (input.md-search__input)"
    search.click()
    page.keyboard.type(word, delay=20)   # Material searches on key events: fill() is not enough
    try:
        # Result links carry ?h=<word> (search.highlight) and #section: compare their paths.
        page.wait_for_function(
            "target => [...document.querySelectorAll('.md-search-result__list a[href]')]"
            ".some(a => a.pathname === target)", arg="/" + expected, timeout=30000)
        found_it = True
    except PlaywrightTimeoutError:
        found_it = False
    if not found_it:
        meta = page.locator(".md-search-result__meta")
        said = meta.inner_text().strip() if meta.count() else "(no result summary)"
        found = list(dict.fromkeys(page.evaluate(_RESULT_LINKS)))[:12]
        pytest.fail(f"/{home}: searching for {word!r} shows no result on /{expected}; "
                    f"Material says {said!r}; result links: {found or 'none'}", pytrace=False)
    problems = monitor.console_errors + monitor.page_errors + monitor.failed + monitor.foreign
    assert not problems, f"/{home}: while indexing the site and searching: {problems}"
