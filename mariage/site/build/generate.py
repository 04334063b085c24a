"""Generate the site's Markdown tree: every page in every language, examples verified.

One straight pipeline (`generate`): 1. read the sources (profile, catalogs, templates,
examples) and check the catalogs; 2. replay each example with the engine, once; 3. render every
language (template pages, example pages, variant pages; then link the rulings cited); 4. run the
examples' doctests on each rendered page; 5. write. Each stage takes and returns plain data.

This is the whole generator; the MkDocs plugin only calls `generate()`, so a move to another
static-site tool keeps all of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, Template, TemplateError
from markupsafe import escape

from ...engine.errors import MariageError, SourceError
from ..read import catalogs
from ..replay import replayer
from ..replay.doctests import EXAMPLE_TIMEOUT, DoctestWorker, verify
from ..replay.examples import WORKED_EXAMPLE, Example, all_examples, claim_summary
from ..render.pages import SiteSource, render_site
from ..render.rulings import add_rulings_pages
from ..render.templating import (FALLBACK_CLOSE, FALLBACK_OPEN, RenderedPage, base_context,
                                 error_line, mark_fallbacks, render)
from ..render.variants import render_variants

_ = lambda message: message  # noqa: E731 - marks navigation titles for extraction

NAV_SECTIONS = [_("Tutorial"), _("Worked examples"), _("Variants"), _("Reference")]
NOT_FOUND = _("This page does not exist. Start again from the home page:")
HOME = _("Mariage, the rules")


def not_found_notes(source: SiteSource) -> list[dict[str, str]]:
    """The 404 page's message in every published language: hosts serve one 404 page for all
    of them. Translations are HTML-escaped here, as on every page: a catalog never adds markup;
    a note shown in English says so in its `lang`."""
    notes = []
    for lang in source.languages():
        tr = source.translations(lang)
        ships = getattr(tr, "ships", lambda msgid: True)
        url = "/" if lang == catalogs.SOURCE_LANGUAGE else f"/{lang}/"
        notes.append({"lang": lang if ships(NOT_FOUND) else catalogs.SOURCE_LANGUAGE,
                      "text": escape(tr.gettext(NOT_FOUND)), "home": escape(tr.gettext(HOME)),
                      "url": url})
    return notes


class CatalogError(SourceError):
    """Catalog mistakes that fail a strict build: every one, each on its own line."""

    def __init__(self, problems: list[catalogs.Problem]) -> None:
        self.problems = problems
        first = problems[0]
        super().__init__(first.path, f"{len(problems)} catalog problem(s); no message that "
                         "fails a check is shipped:\n" + "\n".join(f"  {p}" for p in problems),
                         hint="fix each one as it says, then run `mariage catalogs check`")


def check_catalogs(source: SiteSource, strict: bool = True) -> list[catalogs.Problem]:
    """Every catalog mistake of the site's languages. Strict: refuse them all at once; else
    return them, to be shown as warnings while the English text stands in."""
    problems = source.catalog_problems()
    if problems and strict:
        raise CatalogError(problems)
    return problems


@dataclass(frozen=True)
class ExampleData:
    """What the engine says of one example, computed once per build for every language: its
    positions step by step, perfect play from its first closed or exhausted stock, and the
    numbers of its claim. Plain data: a test can build one by hand."""
    steps: list[dict[str, Any]]
    perfect_play: dict[str, Any] | None
    claim_summary: dict[str, Any] | None


def replay_examples(examples: list[Example]) -> dict[str, ExampleData]:
    """Stage 2: each example's engine data, once."""
    return {e.name: ExampleData(replayer.steps(e), replayer.perfect_play(e), _maybe_claim(e))
            for e in examples}


def render_examples(source: SiteSource, lang: str, examples: list[Example],
                    data: dict[str, ExampleData]) -> list[RenderedPage]:
    """Stage 3, for the examples: each example's page in `lang`, and the examples' index. An
    example needs no site-wide values, so one can be checked under any profile."""
    env, languages = source.environment(), source.languages()
    context = base_context(source.profile, lang, languages)
    pages, titles = [], []
    with source.language(lang):
        for example in examples:
            known = data[example.name]
            extra = {"position_at": example.hand, "example": example,
                     "claim_summary": known.claim_summary, "replay_steps": known.steps,
                     "perfect_play": known.perfect_play}
            if example.variant:                 # its narrative's numbers are its profile's
                extra["rules"] = example.profile.as_context()
            try:
                text = mark_fallbacks(_template(env, example.body).render(context | extra))
            except (TemplateError, MariageError, ValueError, TypeError, KeyError) as exc:
                raise SourceError(example.relpath, f"cannot render the example ({lang}): "
                                  f"{exc}", line=error_line(exc)) from None
            text += mark_fallbacks(render(env, "example-run.md.j2", context | extra))
            pages.append(RenderedPage(lang, f"examples/{example.name}.md", text,
                                      example.relpath))
            titles.append((example, _title(text)))
        index = mark_fallbacks(render(env, "example-index.md.j2", context | {"examples": titles}))
    pages.append(RenderedPage(lang, "examples/index.md", index, "templates/example-index.md.j2"))
    return pages


@lru_cache(maxsize=256)
def _template(env: Environment, body: str) -> Template:
    """An example's template, compiled once for every language of the build."""
    return env.from_string(body)


def check_examples(pages: list[RenderedPage], examples: list[Example],
                   worker: DoctestWorker) -> None:
    """Stage 4: run the doctests of every example page, in every language, in `worker`."""
    by_path = {f"examples/{e.name}.md": e for e in examples}
    for page in pages:
        example = by_path.get(page.path)
        if example is not None:
            verify(example, page.text, page.lang, worker)


def verify_examples(source: SiteSource, example: Example, worker: DoctestWorker) -> int:
    """Render one example in every language and run its doctests on each page; returns the
    number of languages checked, or raises naming the example, the language and the line."""
    data = replay_examples([example])
    languages = source.languages()
    for lang in languages:
        check_examples(render_examples(source, lang, [example], data), [example], worker)
    return len(languages)


def _maybe_claim(example: Example) -> dict[str, Any] | None:
    return claim_summary(example) if example.actions and example.actions[-1].endswith("claim") else None


def _title(markdown: str) -> str:
    match = re.search(r"^# (.+)$", markdown, re.M)
    title = match.group(1).strip() if match else ""
    # an English title keeps its lang once, when the index page is marked
    return re.sub(r'<span lang="en">(.*?)</span>', FALLBACK_OPEN + r"\1" + FALLBACK_CLOSE, title)


def generate(out: Path, source: SiteSource, static: Path | None = None,
             strict: bool = True, timeout: float = EXAMPLE_TIMEOUT) -> list[RenderedPage]:
    """Render, verify and write the whole tree under out/<lang>/ (with the assets of `static`,
    default the project's docs/); returns the pages. A catalog mistake fails a strict build;
    otherwise the message shows in English (`check_catalogs` lists the mistakes). Each page's
    doctests get `timeout` s."""
    static = static if static is not None else source.root / "docs"
    check_catalogs(source, strict=strict)                               # 1. read and check sources
    examples = all_examples(source.examples, profile=source.profile)
    if WORKED_EXAMPLE not in {e.name for e in examples}:
        raise SourceError(source.examples, f"the worked example {WORKED_EXAMPLE}.md is missing")
    data = replay_examples(examples)                                   # 2. the engine, once
    pages = render_site(source)                                         # 3. render every language
    for lang in source.languages():
        pages += render_examples(source, lang, examples, data)
        pages += render_variants(source, lang, examples)
    pages = add_rulings_pages(pages, source)                            #    and link citations
    with DoctestWorker(timeout) as worker:
        check_examples(pages, examples, worker)                         # 4. check
    write_pages(pages, out, static)                                     # 5. write
    return pages


def write_pages(pages: list[RenderedPage], out: Path, static: Path | None = None) -> int:
    """Write pages under out/<lang>/, touching only files whose text changed (so `mkdocs
    serve`, which watches out/, does not loop); stale files are removed. The `assets/` folder
    of `static` (docs/) is copied too; docs/ notes such as translators.md are not pages.
    Returns the number of files written."""
    wanted: dict[Path, bytes] = {out / p.lang / p.path: p.text.encode("utf-8") for p in pages}
    if static is not None and (static / "assets").is_dir():
        for src in (static / "assets").rglob("*"):
            if src.is_file():
                wanted[out / src.relative_to(static)] = src.read_bytes()
    written = 0
    for path, data in wanted.items():
        if path.exists() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        written += 1
    if out.exists():
        for old in sorted(out.rglob("*"), reverse=True):
            if old.is_file() and old not in wanted:
                old.unlink()
            elif old.is_dir() and not any(old.iterdir()):
                old.rmdir()
    return written
