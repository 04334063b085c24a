"""The crawl's search index (sitecheck.OwnSectionsOnly): each page gets its own sections with
the server's status and headers; what is not an index passes as the server sent it; the file
is fetched once per lane. A fake route stands for Playwright's: no browser needed."""

from __future__ import annotations

import json

import pytest

from browser.sitecheck import OwnSectionsOnly, SitePage

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
