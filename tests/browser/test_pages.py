"""Every page of every language, as Chromium sees it (one visit per page, see conftest.crawl):
it loads without console errors or failed requests, asks nothing of any host but this one,
says which language it is in, links its translations, and does not scroll sideways on a phone."""

from __future__ import annotations

import pytest

from browser.sitecheck import DEFAULT_LANG, LANGS, PHONE, bullet_list

pytestmark = pytest.mark.xdist_group("browser")


def _visits(crawl, site, lang):
    visits = [crawl[p.path] for p in site.pages_in(lang)]
    assert visits, f"[{lang}] no page was built in this language"
    return visits


def test_every_page_loads_without_errors(crawl, site, lang):
    problems = []
    for v in _visits(crawl, site, lang):
        where = v.page.label
        if v.error:
            problems.append(f"{where}: did not load: {v.error}")
        if v.status is not None and v.status >= 400:
            problems.append(f"{where}: HTTP {v.status}")
        problems += [f"{where}: console error: {e}" for e in v.console_errors]
        problems += [f"{where}: uncaught exception: {e}" for e in v.page_errors]
        problems += [f"{where}: failed request: {e}" for e in v.failed]
    assert not problems, (f"[{lang}] {len(problems)} problem(s) while loading the pages:\n"
                          + bullet_list(problems))


def test_no_request_leaves_the_local_server(crawl, site, lang):
    """Fonts and scripts are self-hosted or system ones: Material's Google Fonts are never asked
    for (theme.font: false). Requests to other hosts were aborted, and are listed here."""
    foreign = [f"{v.page.label}: {r}" for v in _visits(crawl, site, lang) for r in v.foreign]
    assert not foreign, (f"[{lang}] pages ask hosts other than 127.0.0.1 for:\n"
                         + bullet_list(foreign))


def test_html_lang_is_the_page_language(crawl, site, lang):
    wrong = [f"{v.page.label}: <html lang={v.head.get('lang')!r}>, expected {lang!r}"
             for v in _visits(crawl, site, lang) if v.head and v.head.get("lang") != lang]
    assert not wrong, f"[{lang}] pages declare the wrong language:\n" + bullet_list(wrong)


def test_hreflang_alternates_link_every_translation(crawl, site, base_url, lang):
    """<link rel=alternate hreflang> in the head and the header's language selector both list the
    same page in all languages, each pointing at a page that exists."""
    existing = {p.path for p in site.pages}
    problems = []
    for v in _visits(crawl, site, lang):
        if v.page.is_404 or not v.head:
            continue
        expected = {l: base_url + site.url_path(l, v.page.rel) for l in LANGS}
        for what, pairs in (("<link rel=alternate> in the head", v.head["alternates"]),
                            ("language selector link", v.head["selector"])):
            found = dict(pairs)
            missing = [l for l in LANGS if l not in found]
            if missing:
                problems.append(f"{v.page.label}: no {what} for {', '.join(missing)}")
            unexpected = sorted(set(found) - set(LANGS))
            if unexpected:
                problems.append(f"{v.page.label}: {what} for unknown language(s) {unexpected}")
            for l, href in found.items():
                if l in expected and href.split("#")[0] != expected[l]:
                    problems.append(f"{v.page.label}: {what} hreflang={l} points to {href}, "
                                    f"expected {expected[l]}")
                elif l in expected and href[len(base_url):].split("#")[0] not in existing:
                    problems.append(f"{v.page.label}: {what} hreflang={l} points to {href}, "
                                    "which was not built")
    assert not problems, f"[{lang}] hreflang alternates:\n" + bullet_list(problems)


def test_nothing_but_diagrams_scrolls_sideways_on_a_phone(crawl, site, lang):
    """At 360 px the page never scrolls sideways. In the content, only an example diagram
    (.mc-diagram) may be wider than its box, and Material's table wrapper
    (.md-typeset__scrollwrap), which scrolls a wide Markdown table inside itself: both keep the
    page within the screen. Anything else wider than its box (cards, code, long words) fails."""
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
    assert not problems, (f"[{lang}] at {PHONE['width']}px wide, outside .mc-diagram:\n"
                          + bullet_list(problems))
