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

from . import catalogs
from ..engine.errors import MariageError, SourceError
from .doctests import EXAMPLE_TIMEOUT, DoctestWorker
from .examples import WORKED_EXAMPLE, Example, all_examples, claim_summary, verify
from .pages import (RenderedPage, SiteSource, base_context, error_line, render, render_site,
                    write_pages)

_ = lambda message: message  # noqa: E731 - marks navigation titles for extraction

NAV_SECTIONS = [_("Tutorial"), _("Worked examples"), _("Reference")]
NOT_FOUND = _("This page does not exist. Start again from the home page:")
HOME = _("Mariage, the rules")


def not_found_notes(source: SiteSource) -> list[dict[str, str]]:
    """The 404 page's message in every language: hosts serve one 404 page for all of them.
    Translations are HTML-escaped here, as on every page: a catalog never adds markup."""
    notes = []
    for lang in source.languages():
        tr = source.translations(lang)
        url = "/" if lang == catalogs.SOURCE_LANGUAGE else f"/{lang}/"
        notes.append({"lang": lang, "text": escape(tr.gettext(NOT_FOUND)),
                      "home": escape(tr.gettext(HOME)), "url": url})
    return notes


def check_catalogs(source: SiteSource) -> None:
    """Refuse a catalog whose placeholders do not match its source (Babel's checkers)."""
    for lang in source.languages()[1:]:
        for message, errors in source.catalog(lang).check():
            if errors and not message.fuzzy:      # fuzzy entries are never shipped
                raise SourceError(catalogs.po_path(lang, source.locales),
                                  f"msgid {message.id!r}: {errors[0]}", line=message.lineno,
                                  hint="keep every %(name)s placeholder of the source, unchanged")


def _example_renderer(examples: list[Example], worker: DoctestWorker):
    compiled: dict[str, Any] = {}      # each example's template, compiled once for all languages

    def render_examples(env: Environment, context: dict[str, Any]) -> list[RenderedPage]:
        pages, titles = [], []
        for example in examples:
            extra = {"position_at": example.hand, "example": example,
                     "claim_summary": _maybe_claim(example)}
            try:
                if example.name not in compiled:
                    compiled[example.name] = env.from_string(example.body)
                text = compiled[example.name].render(context | extra)
            except (TemplateError, MariageError, ValueError, TypeError, KeyError) as exc:
                raise SourceError(example.relpath, f"cannot render the example ({context['lang']}): "
                                  f"{exc}", line=error_line(exc)) from None
            verify(example, text, context["lang"], worker)
            text += render(env, "example-run.md.j2", context | extra)
            pages.append(RenderedPage(context["lang"], f"examples/{example.name}.md", text,
                                      example.relpath))
            titles.append((example, _title(text)))
        index = render(env, "example-index.md.j2", context | {"examples": titles})
        pages.append(RenderedPage(context["lang"], "examples/index.md", index,
                                  "templates/example-index.md.j2"))
        return pages
    return render_examples


def verify_examples(source: SiteSource, example: Example, worker: DoctestWorker) -> int:
    """Render one example in every language and run its doctests on each page; returns the
    number of languages checked, or raises naming the example, the language and the line."""
    languages = source.languages()
    renderer = _example_renderer([example], worker)
    for lang in languages:
        with source.language(lang):
            renderer(source.environment(),
                     base_context(source.profile, lang, languages) | source.context())
    return len(languages)


def _maybe_claim(example: Example) -> dict[str, Any] | None:
    return claim_summary(example) if example.actions and example.actions[-1].endswith("claim") else None


def _title(markdown: str) -> str:
    match = re.search(r"^# (.+)$", markdown, re.M)
    return match.group(1).strip() if match else ""


def generate(out: Path, source: SiteSource, static: Path | None = None,
             timeout: float = EXAMPLE_TIMEOUT) -> list[RenderedPage]:
    """Render, verify and write the whole tree under out/<lang>/ (with the assets of `static`,
    default the project's docs/); returns the pages. Each page's doctests get `timeout` s."""
    static = static if static is not None else source.root / "docs"
    check_catalogs(source)
    examples = all_examples(source.examples, profile=source.profile)
    if WORKED_EXAMPLE not in {e.name for e in examples}:
        raise SourceError(source.examples, f"the worked example {WORKED_EXAMPLE}.md is missing")
    with DoctestWorker(timeout) as worker:
        pages = render_site(source, [_example_renderer(examples, worker)])
    write_pages(pages, out, static)
    return pages
