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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, Template, TemplateError
from markupsafe import Markup, escape

from babel.numbers import format_percent

from ...engine.errors import MariageError, SourceError
from . import publish
from ..read import catalogs
from . import badges
from ..replay import replayer
from ..cache import StageCache, digest
from ..replay.doctests import EXAMPLE_TIMEOUT, DoctestWorker, page_inputs, verify
from ..replay.examples import WORKED_EXAMPLE, Example, all_examples, claim_summary
from ..replay.examples import inputs as example_inputs
from ..render.messages import render_cached
from ..render.pages import SiteSource, render_site
from ..render.replayer_data import replayer_data
from ..render.rulings import add_rulings_pages
from ..render.seats import named, seated
from ..render.dependencies import compile_templates, template_inputs
from ..render.templating import (FALLBACK_CLOSE, FALLBACK_OPEN, RenderedPage, base_context,
                                 error_line, mark_fallbacks, render, time_limit)
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
        super().__init__(first.path, f"{len(problems)} catalog problem(s): fix each one as it "
                         "says, then run `mariage catalogs check` (no message that fails a check "
                         "is shipped)\n" + "\n".join(f"  {p}" for p in problems))


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

    @cached_property
    def digest(self) -> str:
        """The content hash of the data, once per object: a page's key holds it, so a page
        rendered from hand-made data is never one rendered from the engine's."""
        return digest(self.steps, self.perfect_play, self.claim_summary)


def replay_examples(examples: list[Example],
                    cache: StageCache | None = None) -> dict[str, ExampleData]:
    """Stage 2: each example's engine data, once per text of the example and its profile."""
    cache = cache or StageCache()
    return {e.name: cache.get("replay", example_inputs(e), lambda: _replay(e)) for e in examples}


def _replay(example: Example) -> ExampleData:
    # the record goes through the checked path first (`hand()`, `game()`), so a mistake names
    # the example, the key and the line
    example.game() if example.is_game else example.hand()
    return ExampleData(replayer.steps(example), replayer.perfect_play(example),
                       _maybe_claim(example))


def render_examples(source: SiteSource, lang: str, examples: list[Example],
                    data: dict[str, ExampleData],
                    timeout: float = EXAMPLE_TIMEOUT) -> list[RenderedPage]:
    """Stage 3, for the examples: each example's page in `lang`, and the examples' index. An
    example needs no site-wide values, so one can be checked under any profile. A page is
    rendered again only when the example, its data, a template or a message it uses changed. A
    narrative gets `timeout` s to render, as its doctests do."""
    env, languages = source.environment(), source.languages()
    context = base_context(source.profile, lang, languages)
    inputs = digest(lang, context, template_inputs(env, "example-run.md.j2", cache=source.cache))
    strings = source.shipped(lang)
    pages, titles = [], []
    shared: dict[Any, Any] = {}              # the replayer's faces and labels, per deck
    for example in examples:
        key = digest(inputs, example.name, example.relpath, example_inputs(example),
                     data[example.name].digest,
                     template_inputs(env, body=example.body, cache=source.cache))
        text = render_cached(source.cache, "page", key, strings, lambda: _render_example(
            source, env, lang, context, example, data[example.name], shared, timeout))
        pages.append(RenderedPage(lang, f"examples/{example.name}.md", text, example.relpath))
        titles.append((example, _title(text)))
    key = digest(inputs, template_inputs(env, "example-index.md.j2", cache=source.cache),
                 [(e.name, example_inputs(e), title) for e, title in titles])
    index = render_cached(source.cache, "page", key, strings,
                          lambda: _render_index(source, env, lang, context, titles))
    pages.append(RenderedPage(lang, "examples/index.md", index, "templates/example-index.md.j2"))
    return pages


def _render_example(source: SiteSource, env: Environment, lang: str, context: dict[str, Any],
                    example: Example, known: ExampleData, shared: dict[Any, Any],
                    timeout: float) -> str:
    context_of = example.as_context()
    context_of["meta"] = named(context_of["meta"])
    extra = {"position_at": example.hand, "example": context_of,
             "claim_summary": named(known.claim_summary), "replay_steps": known.steps,
             "perfect_play": known.perfect_play}
    if example.variant:                 # its narrative's numbers are its profile's
        extra["rules"] = example.profile.as_context()
    with source.language(lang):
        try:
            with time_limit(timeout):
                text = mark_fallbacks(_template(env, example.body).render(context | extra))
        except (TemplateError, MariageError, ValueError, TypeError, KeyError) as exc:
            raise SourceError(example.relpath, f"cannot render the example ({lang}): "
                              f"{exc}", line=error_line(exc)) from None
        except RecursionError:
            raise SourceError(example.relpath, f"cannot render the example ({lang}): it "
                              "includes itself or nests too deeply") from None
        extra["replayer_data"] = replayer_data(env, context | extra, known.steps, shared)
        return text + mark_fallbacks(render(env, "example-run.md.j2", context | extra))


def _render_index(source: SiteSource, env: Environment, lang: str, context: dict[str, Any],
                  titles: list[tuple[Example, str]]) -> str:
    with source.language(lang):
        # the heading as rendered: translations in it are escaped already
        examples = [(e.as_context(), Markup(title)) for e, title in titles]
        return mark_fallbacks(render(env, "example-index.md.j2", context | {"examples": examples}))


@lru_cache(maxsize=256)
def _template(env: Environment, body: str) -> Template:
    """An example's template, compiled once for every language of the build."""
    return env.from_string(body)


def check_examples(pages: list[RenderedPage], examples: list[Example], worker: DoctestWorker,
                   cache: StageCache | None = None) -> None:
    """Stage 4: run the doctests of every example page, in every language, in `worker`; a
    page whose doctests passed before, with the same inputs, is not run again."""
    cache = cache or StageCache()
    by_path = {f"examples/{e.name}.md": e for e in examples}
    for page in pages:
        example = by_path.get(page.path)
        if example is not None:
            cache.get("doctest", digest(page_inputs(example, page.text), worker.timeout),
                      lambda: _verified(example, page, worker))


def _verified(example: Example, page: RenderedPage, worker: DoctestWorker) -> bool:
    verify(example, page.text, page.lang, worker)
    return True


def verify_examples(source: SiteSource, example: Example, worker: DoctestWorker) -> int:
    """Render one example in every language and run its doctests on each page; returns the
    number of languages checked, or raises naming the example, the language and the line."""
    data = replay_examples([example], source.cache)
    languages = source.languages()
    for lang in languages:
        check_examples(render_examples(source, lang, [example], data, worker.timeout),
                       [example], worker, source.cache)
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
    doctests get `timeout` s. Two cores work: the closing study, when not cached, runs in
    its own process from the start, and the first language's doctests run while the other
    languages render."""
    static = static if static is not None else source.root / "docs"
    with source.study_ahead() as studying, DoctestWorker(timeout) as worker, \
            ThreadPoolExecutor(1, thread_name_prefix="doctests") as doctests:
        examples = read_examples(source, strict)                        # 1. read and check sources
        data = replay_examples(examples, source.cache)                 # 2. the engine, once
        languages = source.languages()
        first = render_examples(source, languages[0], examples, data, timeout)
        checked = doctests.submit(check_examples, first, examples, worker, source.cache)
        if studying:                    # the wait for the study compiles what pages need
            compile_templates(source.environment(), source.templates)
        pages = render_site(source)                                     # 3. render every language
        for lang in languages:
            pages += first if lang == languages[0] else \
                render_examples(source, lang, examples, data, timeout)
            pages += render_variants(source, lang, examples)
        pages = add_rulings_pages(pages, source)                        #    and link citations
        checked.result()
        check_examples(pages, examples, worker, source.cache)           # 4. check (the rest)
    pages = mark_drafts(pages, source)
    publish.claim(out)                                                  # 5. write
    write_pages(pages, out, static, files=badges.files(
        source.context()["catalog_stats"], source.threshold()))
    return pages


def read_examples(source: SiteSource, strict: bool) -> list[Example]:
    """Stage 1: the catalogs checked (strict: a mistake fails the build) and the examples
    read, their players named as the pages name them (render/seats.py)."""
    check_catalogs(source, strict=strict)
    examples = all_examples(source.examples, profile=source.profile)
    for example in examples:
        example.profile = seated(example.profile)
    if WORKED_EXAMPLE not in {e.name for e in examples}:
        raise SourceError(source.examples, f"the worked example {WORKED_EXAMPLE}.md is missing")
    return examples


# Translators: the note at the top of every page of a language that a translator previews
# before it is published (`MARIAGE_LANGS=de mkdocs serve`); percent and threshold are
# percentages such as "2 %" and "80 %".
DRAFT = _("Draft: this language is %(percent)s translated, so it is not published (below "
          "%(threshold)s). This preview shows it so that its translators can read their work.")


def mark_drafts(pages: list[RenderedPage], source: SiteSource) -> list[RenderedPage]:
    """Each page of a previewed language below min_translated gets a draft note under its
    title, in the language when its catalog has the note, else in English."""
    drafts = source.drafts()
    if not drafts:
        return pages
    marked = []
    for page in pages:
        if page.lang in drafts:
            tr = source.translations(page.lang)
            ships = getattr(tr, "ships", lambda msgid: False)
            note = str(escape(tr.gettext(DRAFT) % {
                "percent": format_percent(drafts[page.lang] / 100, locale=page.lang),
                "threshold": format_percent(source.threshold() / 100, locale=page.lang)}))
            if not ships(DRAFT):
                note = FALLBACK_OPEN + note + FALLBACK_CLOSE
            block = mark_fallbacks(f'\n<div class="admonition warning" markdown>\n{note}\n'
                                   '</div>\n\n')
            text = re.sub(r"^(# .*\n)", lambda m: m.group(1) + block, page.text, count=1,
                          flags=re.M)
            page = replace(page, text=text)
        marked.append(page)
    return marked


def write_pages(pages: list[RenderedPage], out: Path, static: Path | None = None,
                files: dict[str, bytes] | None = None) -> int:
    """Write pages under out/<lang>/, touching only files whose text changed (so `mkdocs
    serve`, which watches out/, does not loop); stale files are removed. The `assets/` folder
    of `static` (docs/) is copied too; docs/ notes such as translators.md are not pages; `files`
    (path under out/ -> bytes) are made at build time, like the status badges.
    Returns the number of files written."""
    wanted: dict[Path, bytes] = {out / p.lang / p.path: p.text.encode("utf-8") for p in pages}
    wanted.update({out / path: data for path, data in (files or {}).items()})
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
            if old.is_file() and old not in wanted and old != out / publish.OWNER:
                old.unlink()
            elif old.is_dir() and not any(old.iterdir()):
                old.rmdir()
    return written
