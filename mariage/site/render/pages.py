"""Render the site's Markdown: profile + catalog + templates -> one page per language.

Templates live in templates/pages/ (each `*.md.j2` becomes the same path in every language) and
examples/ (each worked example becomes examples/<name>.md). Translations are HTML-escaped before
they reach a page (see `templating`), so a catalog can never inject markup; numbers come from
the profile or the engine's run of an example, never from a catalog.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from babel.support import NullTranslations
from jinja2 import Environment

from ...engine.profile import Profile, load_profile
from .seats import Seat, letter, named, player_name, seated
from ..cache import MISSING, StageCache, digest, file_digest
from ..read import catalogs, termbase
from ..read.project import Project, output_path
from ..replay.examples import WORKED_EXAMPLE, claim_summary, read_example
from ..replay.study import STUDY_DEALS, StudyProcess, close_study
from .messages import Shipped, render_cached, shipped
from .tables import SCORE_SHEET, score_sheet
from .dependencies import template_inputs
from .templating import (ENGLISH, RenderedPage, base_context, environment, mark_fallbacks, render,
                         translated)
from .variants import VARIANTS, summaries, variant_profiles


def page_templates(templates: Path) -> list[str]:
    """Template names of the site's pages (relative to templates/), sorted."""
    return sorted(str(p.relative_to(templates)) for p in (templates / "pages").rglob("*.md.j2"))


@dataclass
class SiteSource:
    """Everything the pages are made from; tests build one pointing at altered copies. What
    is not given comes from the project the command runs in (see `Project.find`). What it
    derives (checked catalogs, variant profiles, the closing study) goes through the stage
    cache, keyed by the files it reads."""

    profile: Profile = None  # type: ignore[assignment]  # filled in __post_init__
    locales: Path = None  # type: ignore[assignment]
    root: Path = None  # type: ignore[assignment]       # the project: templates/, examples/
    examples_folder: Path | None = None                  # default: the project's examples/
    extra_context: dict[str, Any] = field(default_factory=dict)
    min_translated: int | None = None       # default: the project's mkdocs.yml
    preview: list[str] | None = None        # `mkdocs serve` of these languages only (+ English)
    cache: StageCache = field(default_factory=StageCache)   # default: this process's memory
    _site_digest: str = field(default="", init=False, repr=False)   # of context(), once filled
    _study: StudyProcess | None = field(default=None, init=False, repr=False)   # running ahead

    def __post_init__(self) -> None:
        if self.profile is None or self.locales is None or self.root is None:
            project = Project.find(self.root)
            self.root = self.root or project.root
            self.locales = self.locales or project.locales
            self.profile = self.profile or load_profile(project.profile)
            self.examples_folder = self.examples_folder or project.examples
        self.profile = seated(self.profile)

    @classmethod
    def of(cls, project: Project, profile: Profile | None = None,
           cache: StageCache | None = None) -> "SiteSource":
        return cls(profile or load_profile(project.profile), project.locales, project.root,
                   project.examples, cache=cache or StageCache())

    @property
    def project(self) -> Project:
        return Project.at(self.root, locales=self.locales)

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def examples(self) -> Path:
        return self.examples_folder or self.root / "examples"

    def environment(self) -> Environment:
        env = environment([self.templates, self.root])
        env.globals.setdefault("player_name", player_name)
        env.filters.setdefault("letter", letter)
        env.globals.setdefault("named", named)
        env.globals.setdefault("seat", Seat)
        return env

    def catalog_digest(self, lang: str) -> str:
        """The content hash of what a language's catalog check reads ('' for the English
        source): the catalog, its termbase, the concepts and the template. Where they are is
        not part of it: a problem shows its paths when it is shown (checks.PATH), so another
        copy of the project shares the entry (`checked`)."""
        if lang == catalogs.SOURCE_LANGUAGE:
            return ""
        read = (catalogs.po_path(lang, self.locales), termbase.language_path(lang, self.locales),
                termbase.source_path(self.locales), catalogs.template_path(self.locales))
        return digest(*(file_digest(path) for path in read))

    def checked(self, lang: str) -> catalogs.CheckedCatalog:
        """A language's catalog with every check applied, once per catalog text; its files'
        paths are this project's even when another copy's build kept the entry."""
        return self.cache.get("catalog", digest(lang, self.catalog_digest(lang)),
                              lambda: catalogs.check_catalog(lang, self.locales)
                              ).moved_to(self.locales)

    def translations(self, lang: str) -> NullTranslations:
        """What ships of a language's catalog, compiled in memory once per catalog text;
        English is the identity."""
        if lang == catalogs.SOURCE_LANGUAGE:
            return ENGLISH
        return self.cache.get("translations", digest(lang, self.catalog_digest(lang)),
                              lambda: self.checked(lang).translations())

    def shipped(self, lang: str) -> Shipped:
        """What ships of a language's catalog as plain data, for the keys of its pages."""
        return self.cache.get("shipped", digest(lang, self.catalog_digest(lang)),
                              lambda: shipped(self.translations(lang)))

    def language(self, lang: str):
        """A block in which pages render in `lang`."""
        return translated(self.translations(lang))

    def configured_languages(self) -> list[str]:
        """Every language of the site's config (the source first), published or not: read
        from mkdocs.yml and checked against the catalogs once per text of theirs."""
        project = self.project
        key = digest(file_digest(project.config), catalogs.catalog_languages(self.locales))
        return list(self.cache.get("languages", key, project.languages))

    def context_digest(self, lang: str) -> str:
        """The content hash of what a page in `lang` is given: the language and every
        site-wide value. Not its catalog: a page is kept by the messages it looked up
        (messages.py)."""
        self.context()
        return digest(lang, self.languages(), self.profile, self._site_digest)

    def threshold(self) -> int:
        if self.min_translated is None:
            self.min_translated = self.project.min_translated()
        return self.min_translated

    def progress(self, lang: str) -> tuple[int, int, int]:
        """(percent, messages done, messages in all) of a language; a failing message counts
        as done: it is reported, not missing."""
        s = self.stats(lang)
        done = s.translated + s.failing
        return (100 * done // s.total if s.total else 100), done, s.total

    def below_threshold(self, lang: str) -> bool:
        return not self.stats(lang).unreadable and \
            self.progress(lang)[0] < self.threshold()

    def unpublished(self) -> dict[str, str]:
        """The languages left out of the site, each with the reason. A preview
        (`MARIAGE_LANGS=de mkdocs serve`) shows its languages even below min_translated, as
        drafts."""
        reasons = {}
        for lang in self.configured_languages()[1:]:
            if self.preview is not None and lang not in self.preview:
                reasons[lang] = f"{lang} is left out of this preview (MARIAGE_LANGS)"
            elif self.preview is None and self.below_threshold(lang):
                percent, done, total = self.progress(lang)
                reasons[lang] = (f"{lang} is {percent} % translated ({done} of {total} "
                                 f"messages): not published (below {self.threshold()} %)")
        return reasons

    def drafts(self) -> dict[str, int]:
        """The languages a preview shows although they are below min_translated, with their
        percent: each page of theirs is marked as a draft."""
        return {lang: self.progress(lang)[0] for lang in self.preview or []
                if lang in self.configured_languages() and self.below_threshold(lang)}

    def stats(self, lang: str) -> catalogs.Stats:
        """A language's messages shipped, fuzzy, untranslated and failing."""
        return self.cache.get("stats", digest(lang, self.catalog_digest(lang)),
                              lambda: self.checked(lang).stats())

    def languages(self) -> list[str]:
        """The published languages, the source first."""
        left_out = self.unpublished()
        return [lang for lang in self.configured_languages() if lang not in left_out]

    def catalog_problems(self) -> list[catalogs.Problem]:
        """Every mistake in the catalogs of the site's languages (not untranslated or fuzzy
        messages, which are simply not shipped)."""
        return [p for lang in self.configured_languages()[1:] for p in self.checked(lang).errors]

    def variants(self) -> list[tuple[str, Profile]]:
        """The project's variant profiles (rules/variants/), read once per text of theirs;
        each names its file in this project, even when another copy's build kept them."""
        files = sorted((self.root / VARIANTS).glob("*.yaml"))
        kept = self.cache.get("variants", digest(*[(p.name, file_digest(p)) for p in files]),
                              lambda: variant_profiles(self.root))
        return [(name, profile if profile.source == str(path) else profile.replace(
                    source=str(path))) for (name, profile), path in zip(kept, files)]

    def _rules(self) -> Profile:
        """What the closing study reads of the profile: its rules, not their wording (a
        ruling's text edited keeps the study)."""
        return self.profile.without_prose()

    def _study_key(self) -> str:
        return digest(self._rules(), STUDY_DEALS)

    @contextmanager
    def study_ahead(self) -> Iterator[bool]:
        """Within it, the closing study (when not cached) runs in another process from the
        start, so that the checks and the templates' compiling before `context()` need it
        overlap it on the second core. Yields whether it runs. Within an outer one (the MkDocs
        plugin starts it before it checks which languages to publish), it is the outer's."""
        if self._study is not None:
            yield True
            return
        if "close_study" in self.extra_context or \
                self.cache.find("study", self._study_key()) is not MISSING:
            yield False
            return
        self._study = StudyProcess(self._rules())
        try:
            yield True
        finally:
            self._study.close()
            self._study = None

    def context(self) -> dict[str, Any]:
        """Site-wide values: the catalogs' status, the numbers of section 07's example, the
        score sheet's game and the solver's study of closing (study.py)."""
        if "catalog_stats" not in self.extra_context:
            self.extra_context["catalog_stats"] = [
                self.stats(lang) for lang in self.configured_languages()[1:]]
            self.extra_context["min_translated"] = self.threshold()
            self.extra_context["below_threshold"] = [
                lang for lang in self.configured_languages()[1:] if self.below_threshold(lang)]
        if "terms" not in self.extra_context:
            self.extra_context["terms"] = termbase.glossary_rows(self.languages(), self.locales)
        if "score_sheet" not in self.extra_context:
            # The record is a game played under the project's own profile: a site built under
            # another profile (a test's, a variant's) leaves the sheet out.
            own = Path(self.profile.source).resolve() == Project.find(self.root).profile.resolve() \
                if self.profile.source else False
            self.extra_context["score_sheet"] = (
                score_sheet(self.examples / SCORE_SHEET, self.profile) if own else None)
        if "variants" not in self.extra_context:
            self.extra_context["variants"] = summaries(self.profile, self.variants())
        if "close_study" not in self.extra_context:
            self.extra_context["close_study"] = self.cache.get(
                "study", self._study_key(), self._study.result if self._study
                else lambda: close_study(self._rules()).as_context())
        if "worked_example" not in self.extra_context:
            example = read_example(self.examples / f"{WORKED_EXAMPLE}.md", self.profile)
            self.extra_context["worked_example"] = claim_summary(example)
        if not self._site_digest:
            self._site_digest = digest(self.extra_context)
        return self.extra_context


def render_site(source: SiteSource) -> list[RenderedPage]:
    """Every template page (templates/pages/) in every language; the generator adds the
    examples' and the variants' pages beside them. A page is rendered again only when its
    template (or one it imports), a message it uses in its language's catalog or a value it
    is given changed."""
    pages: list[RenderedPage] = []
    languages = source.languages()
    env = source.environment()
    for lang in languages:
        context = base_context(source.profile, lang, languages) | source.context()
        inputs = source.context_digest(lang)
        for template in page_templates(source.templates):
            text = render_cached(
                source.cache, "page",
                digest(template, template_inputs(env, template, cache=source.cache), inputs),
                source.shipped(lang), lambda: _render(source, env, template, lang, context))
            pages.append(RenderedPage(lang, output_path(template), text, template))
    return pages


def _render(source: SiteSource, env: Environment, template: str, lang: str,
            context: dict[str, Any]) -> str:
    with source.language(lang):
        return mark_fallbacks(render(env, template, context))
