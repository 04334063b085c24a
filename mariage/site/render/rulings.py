"""The rulings page and the links to it: every "R12" cited on a page links to `rulings.md#r12`.

Citations are linked once, here, in the rendered Markdown of every page and language, so no
template or catalog writes a link by hand. The rulings page lists R1..Rn from the profile, each
statement rendered through the catalogs (templates/_rulings.j2), with links to the tutorial
sections, FAQ entries and worked examples that cite it, found in the same language's pages.
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from babel.support import NullTranslations
from markdown.extensions.toc import slugify, unique

from ...engine.errors import SourceError
from .messages import render_cached
from .pages import SiteSource
from ..cache import digest
from .dependencies import template_inputs
from .templating import RenderedPage, base_context, render, translated

RULINGS_PAGE = "rulings.md"
RULINGS_TEMPLATE = "rulings.md.j2"
# Under MkDocs' logger, so that a warning fails a strict build.
log = logging.getLogger("mkdocs.plugins.mariage")
STATEMENTS = "_rulings.j2"
# A ruling's name standing alone: "R12", not "HR12", "R12a" or part of a link or anchor.
CITATION = re.compile(r"(?<![\w#/.\-\[])R([1-9][0-9]*)(?![\w\-\]])")
# What is never rewritten: fenced code, code spans, HTML tags, Markdown links, attribute lists.
_KEEP = re.compile(r"^```.*?^```[^\n]*$|`[^`\n]*`|<[^>\n]*>|!?\[[^\]\n]*\]\([^)\n]*\)|\{[#:][^}\n]*\}",
                   re.S | re.M)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)(?:\s+\{#([\w\-]+)\})?\s*$")


def anchor(ruling_id: str) -> str:
    return ruling_id.lower()


# ----------------------------------------------------------------- linking citations

def link_citations(page: RenderedPage, known: set[str] | frozenset[str]) -> RenderedPage:
    """The page with every ruling it cites outside headings, code and markup made a link to the
    rulings page; a ruling the profile does not have fails the build, naming page and language.
    Once per page text (a serve save links again only the pages it changed)."""
    return RenderedPage(page.lang, page.path, _linked_text(page.lang, page.path, page.text,
                                                           page.source, frozenset(known)),
                        page.source)


@lru_cache(maxsize=512)
def _linked_text(lang: str, path: str, text: str, source: str, known: frozenset[str]) -> str:
    page = RenderedPage(lang, path, text, source)
    target = posixpath.relpath(RULINGS_PAGE, posixpath.dirname(path) or ".")
    out = []
    for line in _lines_keeping_fences(text):
        out.append(line if _HEADING.match(line) or line.startswith("```")
                   else _link_line(line, target, known, page))
    return "".join(out)


def _lines_keeping_fences(text: str) -> Iterator[str]:
    """Lines of the page; a fenced code block comes as one piece, so it is never rewritten."""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")),
                       len(lines) - 1)
            yield "".join(lines[i:end + 1])
            i = end + 1
        else:
            yield lines[i]
            i += 1


def _link_line(line: str, target: str, known: frozenset[str], page: RenderedPage) -> str:
    if not CITATION.search(line):       # most lines cite nothing
        return line
    pieces, last = [], 0
    for keep in _KEEP.finditer(line):
        pieces.append(_link_text(line[last:keep.start()], target, known, page))
        pieces.append(keep.group(0))
        last = keep.end()
    pieces.append(_link_text(line[last:], target, known, page))
    return "".join(pieces)


def _link_text(text: str, target: str, known: frozenset[str], page: RenderedPage) -> str:
    def link(match: re.Match[str]) -> str:
        ruling = match.group(0)
        if ruling not in known:
            raise SourceError(page.source, f"{page.lang}/{page.path} cites {ruling}, which the "
                              "profile does not have", hint="cite a ruling of rules/mariage.yaml")
        return f"[{ruling}]({target}#{anchor(ruling)})"
    return CITATION.sub(link, text)


# ----------------------------------------------------------------- where each ruling is explained

@dataclass(frozen=True)
class Mention:
    page: str           # e.g. "faq.md"
    anchor: str         # the id MkDocs gives the heading above the citation
    title: str          # that heading's text (a tutorial mention: the page's title)


def mentions(page: RenderedPage, level: int) -> dict[str, list[Mention]]:
    """The rulings a page cites, each with the heading of `level` it is cited under: the page
    title (1), a tutorial section (2, titled by its page) or an FAQ question (3). Ids follow
    MkDocs' toc: explicit ids reserved first, the others slugified and made unique in order.
    Once per page text."""
    return {ruling: list(where) for ruling, where in _mentions(page.path, page.text, level).items()}


@lru_cache(maxsize=512)
def _mentions(path: str, text: str, level: int) -> dict[str, list[Mention]]:
    chunks = list(_lines_keeping_fences(text))
    ids = {h.group(3) for h in map(_HEADING.match, chunks) if h and h.group(3)}
    found: dict[str, list[Mention]] = {}
    title, current = "", None
    for line in chunks:
        heading = _HEADING.match(line)
        if heading:
            depth, text = len(heading.group(1)), _plain(heading.group(2))
            ident = heading.group(3) or unique(slugify(text, "-"), ids)
            title = text if depth == 1 else title
            if depth <= level:
                current = Mention(path, ident if depth > 1 else "", text if depth == 3 else title)
                current = current if depth in (1, level) else None
            continue
        if current is None or line.startswith("```"):
            continue
        for number in CITATION.findall(_KEEP.sub("", line)):
            entries = found.setdefault(f"R{number}", [])
            if current not in entries:
                entries.append(current)
    return found


def _plain(heading: str) -> str:
    """A heading's text as MkDocs' toc reads it: no emphasis marks, no tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>|[*_`]", "", heading)).strip()


def explained_by(pages: list[RenderedPage]) -> dict[str, dict[str, list[Mention]]]:
    """For one language's pages: ruling id -> {"tutorial"|"faq"|"examples": mentions}."""
    index: dict[str, dict[str, list[Mention]]] = {}
    for page in pages:
        kind, level = _kind(page.path)
        if kind is None:
            continue
        for ruling, where in mentions(page, level).items():
            bucket = index.setdefault(ruling, {}).setdefault(kind, [])
            for mention in where:    # every FAQ question; a page's first section otherwise
                if kind == "faq" or mention.page not in {b.page for b in bucket}:
                    bucket.append(mention)
    return index


def _kind(path: str) -> tuple[str | None, int]:
    if path.startswith("tutorial/"):
        return "tutorial", 1
    if path == "faq.md":
        return "faq", 3
    if path.startswith("examples/") and path != "examples/index.md":
        return "examples", 1
    return None, 0


# ----------------------------------------------------------------- the page

def untranslated_statements(source: SiteSource) -> dict[str, str]:
    """The profile's statement of each ruling whose English in templates/_rulings.j2 says
    something else (a profile that words a ruling its own way, or a template left behind)."""
    env = source.environment()
    context = base_context(source.profile, "en", source.languages())
    own = {}
    with translated(NullTranslations()):
        module = env.get_template(STATEMENTS).make_module(context)
        for ruling in source.profile.rulings:
            got = html.unescape(str(module.statement(ruling.id)))  # type: ignore[attr-defined]
            want = source.profile.ruling(ruling.id)
            if got != want:
                own[ruling.id] = want
    return own


def add_rulings_pages(pages: list[RenderedPage], source: SiteSource) -> list[RenderedPage]:
    """Every page with its citations linked, plus the rulings page of each language. A ruling
    the template does not word as the profile does is shown in the profile's English, marked
    as English, with a warning (which fails a strict build): no page states a ruling the
    profile does not say. A language's pages are linked again only when one of them changed."""
    env, languages = source.environment(), source.languages()
    own = source.cache.get("statements", digest(
        source.profile, languages, template_inputs(env, STATEMENTS, cache=source.cache)),
        lambda: untranslated_statements(source))
    for ruling_id, text in own.items():
        log.warning("%s: %s: the profile says %r, which the template's statement does not; it is "
                    "shown in English until templates/%s says the same and is translated",
                    source.profile.source, ruling_id, text, STATEMENTS)
    out = [p for p in pages if p.lang not in languages]
    for lang in languages:
        mine = [p for p in pages if p.lang == lang]
        key = digest(source.context_digest(lang), own, [(p.path, p.text, p.source) for p in mine],
                     template_inputs(env, RULINGS_TEMPLATE, cache=source.cache))
        out += render_cached(source.cache, "rulings", key, source.shipped(lang),
                             lambda: _linked(source, lang, mine, own))
    return out


def _linked(source: SiteSource, lang: str, pages: list[RenderedPage],
            own: dict[str, str]) -> list[RenderedPage]:
    """One language's pages with their citations linked, and its rulings page."""
    context = base_context(source.profile, lang, source.languages()) | source.context()
    context["explained"] = explained_by(pages)
    context["own_statements"] = own
    with source.language(lang):
        text = render(source.environment(), RULINGS_TEMPLATE, context)
    known = {r.id for r in source.profile.rulings}
    rulings = RenderedPage(lang, RULINGS_PAGE, text, f"templates/{RULINGS_TEMPLATE}")
    return [link_citations(p, known) for p in [*pages, rulings]]
