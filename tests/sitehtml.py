"""Reading a built site's HTML: the ruling citations and the links of each page's article."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

CITATION = re.compile(r"(?<![\w#/.\-])R[1-9][0-9]*(?![\w\-])")
_NOT_PROSE = {"code", "pre", "script", "style", "h1", "h2", "h3", "h4", "h5", "h6"}


class ArticleReader(HTMLParser):
    """The article of a Material page: its ids, its links, and the rulings it names in running
    text that is not a link (headings and code are not citations)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.unlinked: list[str] = []
        self._open: list[str] = []
        self._depth = 0            # > 0 inside <article>

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "article":
            self._depth += 1
        if self._depth and tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag not in {"br", "img", "hr", "input", "meta", "link", "wbr"}:
            self._open.append(tag)

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open.pop() != tag:
                pass
        if tag == "article":
            self._depth -= 1

    def handle_data(self, data):
        if self._depth and not ({"a"} | _NOT_PROSE) & set(self._open):
            for ruling in CITATION.findall(data):
                self.unlinked.append(f"{ruling} in {data.strip()[:80]!r}")


def read(page: Path) -> ArticleReader:
    reader = ArticleReader()
    reader.feed(page.read_text(encoding="utf-8"))
    return reader


def url_of(site: Path, page: Path) -> str:
    """The page's URL path from the site root, e.g. "/es/faq/"."""
    rel = page.relative_to(site).as_posix()
    return "/" + rel.removesuffix("index.html")


def resolve(site: Path, page: Path, href: str) -> tuple[Path | None, str]:
    """The built file a local link points to (None for another host) and its fragment."""
    parts = urlsplit(urljoin(url_of(site, page), href))
    if parts.scheme or parts.netloc:
        return None, ""
    path = parts.path if not parts.path.endswith("/") else parts.path + "index.html"
    return site / path.lstrip("/"), parts.fragment
