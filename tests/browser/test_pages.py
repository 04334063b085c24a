"""Every page of every language, as Chromium sees it (one visit per page, see conftest.crawl):
it loads without console errors or failed requests, asks nothing of any host but this one,
says which language it is in, links its translations (and sitemap.xml does too), and does not
scroll sideways on a phone."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from browser.sitecheck import LANGS, PHONE, fail_if

pytestmark = pytest.mark.xdist_group("browser")


def _visits(crawl, site, lang):
    visits = [crawl[p.path] for p in site.pages_in(lang)]
    assert visits, f"[{lang}] no page was built in this language"
    return visits


def test_every_page_loads_without_errors(crawl, site, base_url, lang):
    """No console error, no uncaught exception, no failed request (an HTTP error or a network
    failure; a request the browser cancels itself, net::ERR_ABORTED, is not one), from the page
    or its workers, until the page is quiet. The 404 page counts as a default-language page."""
    problems = []
    for v in _visits(crawl, site, lang):
        where = v.page.label
        if v.error:
            problems.append(f"{where}: did not load: {v.error}")
        if v.status is not None and v.status >= 400:
            problems.append(f"{where}: HTTP {v.status}")
        # Chromium also logs a console error for each HTTP error: those are listed once, below.
        failed_urls = {f.split(" ", 1)[0] for f in v.failed}
        console = [e for e in v.console_errors
                   if not (e.startswith("Failed to load resource")
                           and e.rsplit("[at ", 1)[-1].rstrip("]") in failed_urls)]
        if v.failed:
            problems.append(f"{where}: {len(v.failed)} failed request(s): "
                            + "; ".join(f.replace(base_url, "/") for f in v.failed))
        problems += [f"{where}: console error: {e.replace(base_url, '/')}" for e in console]
        problems += [f"{where}: uncaught exception: {e}" for e in v.page_errors]
    fail_if(problems, f"[{lang}] problems while loading the pages")


def test_no_request_leaves_the_local_server(crawl, site, lang):
    """Fonts and scripts are self-hosted or system ones: Material's Google Fonts are never asked
    for (theme.font: false). Requests to other hosts failed at a closed proxy, and are listed here."""
    foreign = [f"{v.page.label}: {r}" for v in _visits(crawl, site, lang) for r in v.foreign]
    fail_if(foreign, f"[{lang}] pages ask hosts other than 127.0.0.1 for")


@pytest.mark.parametrize("url", ["http://example.com/font.woff2", "http://10.9.8.7/script.js",
                                 "https://cdn.jsdelivr.net/npm/x.js"])
def test_a_request_to_another_host_fails_and_is_recorded(page, monitor, base_url, url):
    """What the check above relies on: the test browser sends nothing off the machine (a
    request to any other host, by name or by address, fails), and the page's monitor lists it."""
    page.goto(base_url, wait_until="load")
    monitor.reset()
    with page.expect_event("requestfailed", lambda r: r.url == url) as failed:
        answer = page.evaluate("url => fetch(url, {mode: 'no-cors'}).then(() => 'answered', "
                               "() => 'failed')", url)
    assert answer == "failed"
    # stopped by the test browser's own closed proxy, not by whatever network the machine has
    assert failed.value.failure == "net::ERR_PROXY_CONNECTION_FAILED", failed.value.failure
    assert any(url in request for request in monitor.foreign), monitor.foreign
    assert page.evaluate("url => fetch(url).then(r => r.status)", base_url) == 200


def test_html_lang_is_the_page_language(crawl, site, lang):
    wrong = [f"{v.page.label}: <html lang={v.head.get('lang')!r}>, expected {lang!r}"
             for v in _visits(crawl, site, lang) if v.head and v.head.get("lang") != lang]
    fail_if(wrong, f"[{lang}] pages declare the wrong language")


def _expected_alternates(site, prefix: str, page) -> dict[str, str]:
    # The one 404 page serves every language: its alternates are the language home pages.
    rel = "" if page.is_404 else page.rel
    return {l: prefix + site.url_path(l, rel) for l in LANGS}


def _check_alternates(where: str, what: str, pairs, expected: dict[str, str], built: set[str],
                      prefix: str) -> list[str]:
    problems, found = [], {}
    for hreflang, href in pairs:
        if hreflang in found and found[hreflang] != href:
            problems.append(f"{where}: two {what}s for hreflang={hreflang}")
        found[hreflang] = href
    missing = [l for l in LANGS if l not in found]
    if missing:
        problems.append(f"{where}: no {what} for {', '.join(missing)}")
    unknown = sorted(set(found) - set(LANGS))
    if unknown:
        problems.append(f"{where}: {what} for unknown language(s) {', '.join(unknown)}")
    for l, href in found.items():
        if l not in expected:
            continue
        target = href.split("#")[0]
        if target != expected[l]:
            problems.append(f"{where}: {what} hreflang={l} goes to {href}, expected {expected[l]}")
        elif target[len(prefix):] not in built:
            problems.append(f"{where}: {what} hreflang={l} goes to {href}, which was not built")
    return problems


def test_language_selector_links_every_translation(crawl, site, base_url, lang):
    """The header's language selector lists this same page in all languages (a[hreflang]); a
    <link rel=alternate hreflang> in the head is optional (the site drops them, since Material
    fetches a sitemap.xml next to each one), but when present it must be right too."""
    built = {p.path for p in site.pages}
    problems = []
    for v in _visits(crawl, site, lang):
        if not v.head:
            continue            # did not load: reported by test_every_page_loads_without_errors
        expected = _expected_alternates(site, base_url, v.page)
        problems += _check_alternates(v.page.label, "language selector link", v.head["selector"],
                                      expected, built, base_url)
        if v.head["alternates"]:
            problems += _check_alternates(v.page.label, "<link rel=alternate> in the head",
                                          v.head["alternates"], expected, built, base_url)
    fail_if(problems, f"[{lang}] hreflang alternates in the pages")


def test_sitemap_lists_every_translation(site, lang):
    """sitemap.xml, where search engines read hreflang alternates, lists every page of the
    language with its alternates in all five languages."""
    sitemap = site.root / "sitemap.xml"
    assert sitemap.is_file(), f"no sitemap.xml in the build ({site.root})"
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = ET.parse(sitemap).getroot().findall("s:url", ns)
    entries = {u.findtext("s:loc", "", ns).strip():
               [(l.get("hreflang"), l.get("href")) for l in u.findall("x:link[@rel='alternate']", ns)]
               for u in urls}
    assert entries, "sitemap.xml lists no URL"
    prefix = min(entries, key=len)       # the home page: site_url itself
    if not prefix.endswith("/") or "://" not in prefix:
        pytest.fail(f"sitemap.xml: the shortest <loc> {prefix!r} is not a site URL "
                    "(is site_url set in mkdocs.yml?)", pytrace=False)
    built = {p.path for p in site.pages}
    problems = []
    for page in site.pages_in(lang):
        if page.is_404:
            continue
        loc = prefix + page.path
        if loc not in entries:
            problems.append(f"{page.label}: no <url> with <loc>{loc}</loc>")
            continue
        problems += _check_alternates(f"<loc>{loc}</loc>", "xhtml:link alternate", entries[loc],
                                      _expected_alternates(site, prefix, page), built, prefix)
    fail_if(problems, f"[{lang}] sitemap.xml")


def test_nothing_but_diagrams_scrolls_sideways_on_a_phone(crawl, site, lang):
    """At 360 px the page never scrolls sideways (document.scrollingElement.scrollWidth <= 360).
    In the content, only an example diagram (.mc-diagram) may be wider than its box, and
    Material's table wrapper (.md-typeset__scrollwrap), which scrolls a wide Markdown table inside
    itself: both keep the page within the screen. Anything else that scrolls sideways, cuts its
    content off or reaches past the screen's edge (a row of cards, a code block, a long word)
    fails. See OVERFLOW_JS in sitecheck.py."""
    problems = []
    for v in _visits(crawl, site, lang):
        phone = v.phone
        if not phone:
            continue        # did not load: reported by test_every_page_loads_without_errors
        if phone["scrollWidth"] > phone["viewport"] or phone["scrollWidth"] > PHONE["width"]:
            problems.append(f"{v.page.label}: the page is {phone['scrollWidth']}px wide in a "
                            f"{phone['viewport']}px viewport; past the right edge: "
                            + ("; ".join(phone["widest"]) or "(no in-flow element found)"))
        problems += [f"{v.page.label}: {o}" for o in phone["offenders"]]
    fail_if(problems, f"[{lang}] at {PHONE['width']}px wide, outside .mc-diagram")
