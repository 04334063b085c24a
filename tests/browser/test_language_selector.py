"""The header's language selector switches the language and stays on the same page."""

from __future__ import annotations

import pytest

from browser.sitecheck import LANGS, visit

pytestmark = pytest.mark.xdist_group("browser")

PAGE = "tutorial/04-marriages-and-claiming/"
# Each language switched from once and to once (en→es, es→pt, pt→fr, fr→it, it→en).
SWITCHES = list(zip(LANGS, LANGS[1:] + LANGS[:1]))


@pytest.mark.parametrize("source,target", SWITCHES, ids=[f"{a}-to-{b}" for a, b in SWITCHES])
def test_the_language_selector_keeps_the_page(page, monitor, site, base_url, source, target):
    start, goal = site.url_path(source, PAGE), site.url_path(target, PAGE)
    for path in (start, goal):
        assert (site.root / path / "index.html").is_file(), f"/{path} was not built"
    visit(monitor, base_url + start, expect_ok=True)
    selector = page.locator(".md-header .md-select")
    assert selector.count() == 1, f"/{start}: no language selector (.md-select) in the header"
    selector.hover()                 # Material opens the list on hover (or focus)
    link = selector.locator(f"a.md-select__link[hreflang='{target}']")
    assert link.count() == 1, f"/{start}: the language selector has no link for {target!r}"
    link.click()
    page.wait_for_url(lambda url: url != base_url + start, wait_until="load", timeout=30000)
    assert page.url == base_url + goal, (
        f"from /{start}, choosing {target!r} in the language selector went to {page.url}, "
        f"expected {base_url + goal}")
    html_lang = page.evaluate("document.documentElement.lang")
    assert html_lang == target, f"/{goal}: <html lang={html_lang!r}> after switching to {target!r}"
