"""The crawl's search index (sitecheck.OwnSectionsOnly): each page gets its own sections with
the server's status and headers; what is not an index passes as the server sent it; the file
is fetched once per lane (a fake route stands for Playwright's: no browser needed). And in the
browser: the crawl's way of answering it (sitecheck.intercept) leaves the HTTP cache on."""

from __future__ import annotations

import json

import pytest

from browser.sitecheck import (Monitor, OwnSectionsOnly, SitePage, intercept,
                               site_context, visit)

pytestmark = pytest.mark.xdist_group("browser")      # the folder's session (the crawl) is one

INDEX = {"config": {"lang": ["en"]}, "docs": [
    {"location": "faq/", "title": "FAQ"}, {"location": "faq/#r14", "title": "R14"},
    {"location": "fr/faq/", "title": "FAQ fr"}, {"location": "", "title": "Home"}]}


class Response:
    def __init__(self, status: int, body: bytes) -> None:
        self.status, self.ok, self._body = status, 200 <= status < 300, body
        self.headers = {"content-type": "application/json", "content-length": str(len(body))}

    def body(self) -> bytes:
        return self._body


class Route:
    def __init__(self, response: Response, fetched: list[int]) -> None:
        self.response, self.fetched, self.fulfilled = response, fetched, {}

    def fetch(self) -> Response:
        self.fetched.append(1)
        return self.response

    def fulfill(self, **given) -> None:
        self.fulfilled = given


def _serve(response: Response, paths: list[str]) -> tuple[list[dict], int]:
    index, fetched, out = OwnSectionsOnly(), [], []
    for path in paths:
        route = Route(response, fetched)
        index(route, SitePage(path, "en", path, None))      # type: ignore[arg-type]
        out.append(route.fulfilled)
    return out, len(fetched)


def test_each_page_gets_its_own_sections_from_one_fetch():
    served, fetched = _serve(Response(200, json.dumps(INDEX).encode()), ["faq/", "fr/faq/", ""])
    assert fetched == 1
    assert [[d["title"] for d in s["json"]["docs"]] for s in served] == \
        [["FAQ", "R14"], ["FAQ fr"], ["Home"]]
    assert all(s["json"]["config"] == INDEX["config"] and s["status"] == 200 for s in served)
    assert all("content-length" not in s["headers"] for s in served)


@pytest.mark.parametrize("status,body", [
    (200, json.dumps(INDEX).encode()[:60]),             # truncated
    (404, b"not found"),                                 # no index
    (200, b'{"docs": "none"}'),                          # not an index
    (500, json.dumps(INDEX).encode()),                   # a server error, whatever the body
])
def test_what_is_not_an_index_is_passed_on_as_sent(status, body):
    served, fetched = _serve(Response(status, body), ["faq/", "fr/faq/"])
    assert fetched == 1
    assert all(s == {"status": status, "headers": {"content-type": "application/json"},
                     "body": body} for s in served), served


def _second_visit(browser, base_url: str, site, how: str) -> tuple[list[str], list[list[str]]]:
    """Visit two pages of the session's site in one page, the search index answered per page
    (`how`: the crawl's `intercept`, or Playwright's own route); the URLs of the second
    visit that the HTTP cache answered, and for each visit the pages whose sections its index
    held."""
    context = site_context(browser)
    try:
        page, pages = context.new_page(), site.pages_in("en")
        first, second = next(p for p in pages if p.rel == ""), next(p for p in pages
                                                                     if p.rel == "faq/")
        visiting, index, monitor, sent = [first], OwnSectionsOnly(), Monitor(page), []

        def answer(route) -> None:
            fulfill = route.fulfill

            def recorded(**given) -> None:
                sent.append(sorted({d["location"].split("#")[0]
                                    for d in (given.get("json") or {}).get("docs", [])}))
                fulfill(**given)
            route.fulfill = recorded
            index(route, visiting[-1])

        if how == "intercept":
            intercept(context, page, "*/search/search_index.json", answer)
        else:
            context.route("**/search/search_index.json", answer)
        network = context.new_cdp_session(page)
        asked: dict[str, str] = {}           # request id: URL
        cached: list[str] = []
        network.on("Network.requestWillBeSent",
                   lambda e: asked.__setitem__(e["requestId"], e["request"]["url"]))
        network.on("Network.requestServedFromCache",
                   lambda e: cached.append(asked.get(e["requestId"], e["requestId"])))
        visit(monitor, base_url + first.path, expect_ok=True)
        network.send("Network.enable")
        visiting.append(second)
        visit(monitor, base_url + second.path, expect_ok=True)
        return cached, sent
    finally:
        context.close()


@pytest.mark.parametrize("how,from_cache", [("intercept", True), ("route", False)])
def test_the_crawl_keeps_the_http_cache_and_still_serves_each_page_its_sections(
        browser, base_url, site, how, from_cache):
    """The crawl answers the index through the Fetch domain (sitecheck.intercept): the next
    page takes Material's scripts from the HTTP cache, and gets its own sections. Playwright's
    route, the row that must differ, turns the cache off."""
    cached, sent = _second_visit(browser, base_url, site, how)
    if from_cache:
        assert any("/assets/javascripts/bundle." in url for url in cached), cached
    else:
        assert cached == [], cached
    assert len(sent) == 2 and sent[-1] == ["faq/"], sent
