"""Generate the site's Markdown tree: every page in every language, examples verified.

This is the whole generator; the MkDocs plugin only calls `generate()`, so a move to another
static-site tool keeps all of it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jinja2 import Environment, TemplateError
from markupsafe import escape

from . import catalogs, replayer
from ..engine.errors import MariageError, SourceError
from .doctests import EXAMPLE_TIMEOUT, DoctestWorker
from .examples import WORKED_EXAMPLE, Example, all_examples, claim_summary, verify
from .pages import (FALLBACK_CLOSE, FALLBACK_OPEN, RenderedPage, SiteSource, base_context,
                    error_line, mark_fallbacks, render, render_site, write_pages)
from .rulings import add_rulings_pages
from .variants import variant_renderer

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


def example_renderer(examples: list[Example], worker: DoctestWorker):
    compiled: dict[str, Any] = {}      # each example's template, compiled once for all languages
    states: dict[str, tuple[Any, Any]] = {}    # each example's steps and perfect play, once

    def render_examples(env: Environment, context: dict[str, Any]) -> list[RenderedPage]:
        pages, titles = [], []
        for example in examples:
            if example.name not in states:
                states[example.name] = (replayer.steps(example), replayer.perfect_play(example))
            steps, perfect = states[example.name]
            extra = {"position_at": example.hand, "example": example,
                     "claim_summary": _maybe_claim(example), "replay_steps": steps,
                     "perfect_play": perfect}
            if example.variant:                 # its narrative's numbers are its profile's
                extra["rules"] = example.profile.as_context()
            try:
                if example.name not in compiled:
                    compiled[example.name] = env.from_string(example.body)
                text = mark_fallbacks(compiled[example.name].render(context | extra))
            except (TemplateError, MariageError, ValueError, TypeError, KeyError) as exc:
                raise SourceError(example.relpath, f"cannot render the example ({context['lang']}): "
                                  f"{exc}", line=error_line(exc)) from None
            verify(example, text, context["lang"], worker)
            text += mark_fallbacks(render(env, "example-run.md.j2", context | extra))
            pages.append(RenderedPage(context["lang"], f"examples/{example.name}.md", text,
                                      example.relpath))
            titles.append((example, _title(text)))
        index = mark_fallbacks(render(env, "example-index.md.j2", context | {"examples": titles}))
        pages.append(RenderedPage(context["lang"], "examples/index.md", index,
                                  "templates/example-index.md.j2"))
        return pages
    return render_examples


def verify_examples(source: SiteSource, example: Example, worker: DoctestWorker) -> int:
    """Render one example in every language and run its doctests on each page; returns the
    number of languages checked, or raises naming the example, the language and the line."""
    languages = source.languages()
    renderer = example_renderer([example], worker)
    for lang in languages:
        with source.language(lang):   # examples need no site-wide values: any profile will do
            renderer(source.environment(), base_context(source.profile, lang, languages))
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
    check_catalogs(source, strict=strict)
    examples = all_examples(source.examples, profile=source.profile)
    if WORKED_EXAMPLE not in {e.name for e in examples}:
        raise SourceError(source.examples, f"the worked example {WORKED_EXAMPLE}.md is missing")
    with DoctestWorker(timeout) as worker:
        pages = add_rulings_pages(
            render_site(source, [example_renderer(examples, worker),
                                 variant_renderer(source.profile, source.root, examples)]),
            source)
    write_pages(pages, out, static)
    return pages
