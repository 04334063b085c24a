"""Render the site's Markdown: profile + catalog + templates -> one page per language.

Templates live in templates/pages/ (each `*.md.j2` becomes the same path in every language) and
examples/ (each worked example becomes examples/<name>.md). Translations are HTML-escaped before
they reach a page (see `templating`), so a catalog can never inject markup; numbers come from
the profile or the engine's run of an example, never from a catalog.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel.support import NullTranslations
from jinja2 import Environment

from ...engine.profile import Profile, load_profile
from ..read import catalogs, termbase
from ..read.project import Project, output_path
from ..replay.examples import WORKED_EXAMPLE, claim_summary, read_example
from ..replay.study import STUDY_DEALS, close_study
from .tables import SCORE_SHEET, score_sheet
from .templating import (RenderedPage, base_context, environment, mark_fallbacks, render,
                         translated)
from .variants import summaries, variant_profiles


def page_templates(templates: Path) -> list[str]:
    """Template names of the site's pages (relative to templates/), sorted."""
    return sorted(str(p.relative_to(templates)) for p in (templates / "pages").rglob("*.md.j2"))


@dataclass
class SiteSource:
    """Everything the pages are made from; tests build one pointing at altered copies. What
    is not given comes from the project the command runs in (see `Project.find`)."""

    profile: Profile = None  # type: ignore[assignment]  # filled in __post_init__
    locales: Path = None  # type: ignore[assignment]
    root: Path = None  # type: ignore[assignment]       # the project: templates/, examples/
    examples_folder: Path | None = None                  # default: the project's examples/
    extra_context: dict[str, Any] = field(default_factory=dict)
    min_translated: int | None = None       # default: the project's mkdocs.yml
    preview: list[str] | None = None        # `mkdocs serve` of these languages only (+ English)
    _env: Environment | None = field(default=None, init=False, repr=False)
    _translations: dict[str, NullTranslations] = field(default_factory=dict, init=False, repr=False)
    _checked: dict[str, catalogs.CheckedCatalog] = field(default_factory=dict, init=False,
                                                         repr=False)
    _variants: list[tuple[str, Profile]] | None = field(default=None, init=False, repr=False)
    _configured: list[str] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.profile is None or self.locales is None or self.root is None:
            project = Project.find(self.root)
            self.root = self.root or project.root
            self.locales = self.locales or project.locales
            self.profile = self.profile or load_profile(project.profile)
            self.examples_folder = self.examples_folder or project.examples

    @classmethod
    def of(cls, project: Project, profile: Profile | None = None) -> "SiteSource":
        return cls(profile or load_profile(project.profile), project.locales, project.root,
                   project.examples)

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
        if self._env is None:
            self._env = environment([self.templates, self.root])
        return self._env

    def checked(self, lang: str) -> catalogs.CheckedCatalog:
        """A language's catalog with every check applied, once per site build."""
        if lang not in self._checked:
            self._checked[lang] = catalogs.check_catalog(lang, self.locales)
        return self._checked[lang]

    def translations(self, lang: str) -> NullTranslations:
        """What ships of a language's catalog, compiled in memory once; English is the
        identity."""
        if lang not in self._translations:
            self._translations[lang] = (NullTranslations() if lang == catalogs.SOURCE_LANGUAGE
                                        else self.checked(lang).translations())
        return self._translations[lang]

    def language(self, lang: str):
        """A block in which pages render in `lang`."""
        return translated(self.translations(lang))

    def configured_languages(self) -> list[str]:
        """Every language of the site's config (the source first), published or not."""
        if self._configured is None:
            self._configured = self.project.languages()
        return self._configured

    def threshold(self) -> int:
        if self.min_translated is None:
            self.min_translated = self.project.min_translated()
        return self.min_translated

    def unpublished(self) -> dict[str, str]:
        """The languages left out of the site, each with the reason."""
        reasons = {}
        for lang in self.configured_languages()[1:]:
            if self.preview is not None and lang not in self.preview:
                reasons[lang] = f"{lang} is left out of this preview (MARIAGE_LANGS)"
                continue
            s = self.checked(lang).stats()
            done = s.translated + s.failing      # a failing message is reported, not missing
            if not s.unreadable and s.total and 100 * done // s.total < self.threshold():
                reasons[lang] = (f"{lang} is {100 * done // s.total} % translated ({done} of "
                                 f"{s.total} messages), below min_translated "
                                 f"({self.threshold()} %): not published")
        return reasons

    def languages(self) -> list[str]:
        """The published languages, the source first."""
        left_out = self.unpublished()
        return [lang for lang in self.configured_languages() if lang not in left_out]

    def catalog_problems(self) -> list[catalogs.Problem]:
        """Every mistake in the catalogs of the site's languages (not untranslated or fuzzy
        messages, which are simply not shipped)."""
        return [p for lang in self.configured_languages()[1:] for p in self.checked(lang).errors]

    def variants(self) -> list[tuple[str, Profile]]:
        """The project's variant profiles (rules/variants/), read once per build."""
        if self._variants is None:
            self._variants = variant_profiles(self.root)
        return self._variants

    def context(self) -> dict[str, Any]:
        """Site-wide values: the catalogs' status, the numbers of section 07's example, the
        score sheet's game and the solver's study of closing (study.py)."""
        if "catalog_stats" not in self.extra_context:
            self.extra_context["catalog_stats"] = [
                self.checked(lang).stats() for lang in self.configured_languages()[1:]]
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
            self.extra_context["close_study"] = {
                "deals": STUDY_DEALS, "bands": [b.as_context() for b in close_study(self.profile)]}
        if "worked_example" not in self.extra_context:
            example = read_example(self.examples / f"{WORKED_EXAMPLE}.md", self.profile)
            self.extra_context["worked_example"] = claim_summary(example)
        return self.extra_context


def render_site(source: SiteSource) -> list[RenderedPage]:
    """Every template page (templates/pages/) in every language; the generator adds the
    examples' and the variants' pages beside them."""
    pages: list[RenderedPage] = []
    languages = source.languages()
    env = source.environment()
    for lang in languages:
        context = base_context(source.profile, lang, languages) | source.context()
        with source.language(lang):
            for template in page_templates(source.templates):
                pages.append(RenderedPage(lang, output_path(template),
                                          mark_fallbacks(render(env, template, context)),
                                          template))
    return pages
