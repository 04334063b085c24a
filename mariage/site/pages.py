"""Render the site's Markdown: profile + catalog + templates -> one page per language.

Templates live in templates/pages/ (each `*.md.j2` becomes the same path in every language) and
examples/ (each worked example becomes examples/<name>.md). Translations are HTML-escaped before
they reach a page, so a catalog can never inject markup; numbers come from the profile or the
engine's run of an example, never from a catalog.
"""

from __future__ import annotations

import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from babel import Locale
from babel.messages.catalog import Catalog
from babel.support import NullTranslations
from jinja2 import (Environment, FileSystemLoader, StrictUndefined, TemplateError,
                    TemplateSyntaxError, UndefinedError)
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from . import catalogs
from ..engine.errors import SourceError
from ..engine.profile import Profile, load_profile
from .project import Project


@dataclass
class RenderedPage:
    lang: str
    path: str          # relative to the language folder, e.g. "tutorial/04-marriages.md"
    text: str
    source: str        # the template (or example) it came from


# The translations in force while a page renders: one Environment (and one compilation of each
# template) serves every language.
_TRANSLATIONS: ContextVar[NullTranslations] = ContextVar(
    "translations", default=NullTranslations())  # noqa: B039 - the identity, never mutated


@contextmanager
def translated(translations: NullTranslations) -> Iterator[None]:
    """Render in the language of `translations` inside this block."""
    token = _TRANSLATIONS.set(translations)
    try:
        yield
    finally:
        _TRANSLATIONS.reset(token)


def _safe_callables() -> dict[str, Callable[..., Markup]]:
    """gettext functions whose translations are escaped: a catalog's '<' stays text."""
    tr = _TRANSLATIONS.get
    return {
        "gettext": lambda s: Markup(escape(tr().gettext(s))),
        "ngettext": lambda s, p, n: Markup(escape(tr().ngettext(s, p, n))),
        "pgettext": lambda c, s: Markup(escape(tr().pgettext(c, s))),
        "npgettext": lambda c, s, p, n: Markup(escape(tr().npgettext(c, s, p, n))),
    }


def environment(search_path: list[Path]) -> Environment:
    env = SandboxedEnvironment(
        loader=FileSystemLoader([str(p) for p in search_path]),
        extensions=["jinja2.ext.i18n"], autoescape=True, undefined=StrictUndefined,
        keep_trailing_newline=True, lstrip_blocks=True)
    env.policies["ext.i18n.trimmed"] = True  # msgids are one line, as babel.cfg extracts them
    env.install_gettext_callables(**_safe_callables(), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(language_name=language_name)
    env.filters["collate"] = collate
    return env


def collate(items: list[Any], attribute: str) -> list[Any]:
    """Sort for readers: letters with accents among their base letters, case ignored."""
    def key(item: Any) -> str:
        text = str(item[attribute] if isinstance(item, dict) else getattr(item, attribute))
        return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                       if not unicodedata.combining(c))
    return sorted(items, key=key)


def language_name(lang: str) -> str:
    """The language's own name, as its speakers write it ("español")."""
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def base_context(profile: Profile, lang: str, languages: list[str]) -> dict[str, Any]:
    return {"rules": profile.as_context(), "lang": lang, "languages": languages,
            "profile": profile}


def render(env: Environment, template: str, context: dict[str, Any]) -> str:
    """Render one template; a syntax or undefined-name error names the file and line."""
    try:
        return env.get_template(template).render(context)
    except TemplateSyntaxError as exc:
        raise SourceError(exc.filename or template, f"template syntax error: {exc.message}",
                          line=exc.lineno, hint="fix the Jinja syntax") from None
    except UndefinedError as exc:
        raise SourceError(_template_file(env, template), f"undefined name in template: {exc.message}",
                          line=error_line(exc), hint="use a value the profile provides") from None
    except TemplateError as exc:
        raise SourceError(_template_file(env, template), f"template error: {exc}",
                          line=error_line(exc)) from None


def _template_file(env: Environment, template: str) -> str:
    for base in getattr(env.loader, "searchpath", []):
        if (Path(base) / template).exists():
            return str(Path(base) / template)
    return template


def error_line(exc: Exception) -> int | None:
    """The template line of a render-time error, read from the traceback Jinja rewrote."""
    tb, line = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".j2") or tb.tb_frame.f_code.co_filename.endswith(".md"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def page_templates(templates: Path) -> list[str]:
    """Template names of the site's pages (relative to templates/), sorted."""
    return sorted(str(p.relative_to(templates)) for p in (templates / "pages").rglob("*.md.j2"))


def output_path(template: str) -> str:
    return template.removeprefix("pages/").removesuffix(".j2")


@dataclass
class SiteSource:
    """Everything the pages are made from; tests build one pointing at altered copies. What
    is not given comes from the project the command runs in (see `Project.find`)."""

    profile: Profile = None  # type: ignore[assignment]  # filled in __post_init__
    locales: Path = None  # type: ignore[assignment]
    root: Path = None  # type: ignore[assignment]       # the project: templates/, examples/
    extra_context: dict[str, Any] = field(default_factory=dict)
    _env: Environment | None = field(default=None, init=False, repr=False)
    _translations: dict[str, NullTranslations] = field(default_factory=dict, init=False, repr=False)
    _catalogs: dict[str, Catalog] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.profile is None or self.locales is None or self.root is None:
            project = Project.find(self.root)
            self.root = self.root or project.root
            self.locales = self.locales or project.locales
            self.profile = self.profile or load_profile(project.profile)

    @classmethod
    def of(cls, project: Project, profile: Profile | None = None) -> "SiteSource":
        return cls(profile or load_profile(project.profile), project.locales, project.root)

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def examples(self) -> Path:
        return self.root / "examples"

    def environment(self) -> Environment:
        if self._env is None:
            self._env = environment([self.templates, self.root])
        return self._env

    def catalog(self, lang: str) -> Catalog:
        """A language's catalog, read (and its syntax checked) once per site build."""
        if lang not in self._catalogs:
            self._catalogs[lang] = catalogs.read_catalog(lang, self.locales)
        return self._catalogs[lang]

    def translations(self, lang: str) -> NullTranslations:
        """A language's catalog compiled in memory once; English is the identity."""
        if lang not in self._translations:
            self._translations[lang] = (NullTranslations() if lang == catalogs.SOURCE_LANGUAGE
                                        else catalogs.compile_catalog(self.catalog(lang)))
        return self._translations[lang]

    def language(self, lang: str):
        """A block in which pages render in `lang`."""
        return translated(self.translations(lang))

    def languages(self) -> list[str]:
        return catalogs.languages(self.locales)

    def context(self) -> dict[str, Any]:
        """Site-wide values: the catalogs' status and the numbers of section 07's example."""
        from .examples import WORKED_EXAMPLE, claim_summary, read_example

        if "catalog_stats" not in self.extra_context:
            self.extra_context["catalog_stats"] = [
                catalogs.stats(lang, catalog=self.catalog(lang)) for lang in self.languages()[1:]]
        if "worked_example" not in self.extra_context:
            example = read_example(self.examples / f"{WORKED_EXAMPLE}.md", self.profile)
            self.extra_context["worked_example"] = claim_summary(example)
        return self.extra_context


def render_site(source: SiteSource,
                renderers: Sequence[Callable[..., list[RenderedPage]]] = ()) -> list[RenderedPage]:
    """Every page in every language: the template pages, then what each renderer adds."""
    pages: list[RenderedPage] = []
    languages = source.languages()
    env = source.environment()
    for lang in languages:
        context = base_context(source.profile, lang, languages) | source.context()
        with source.language(lang):
            for template in page_templates(source.templates):
                pages.append(RenderedPage(lang, output_path(template),
                                          render(env, template, context), template))
            for renderer in renderers:
                pages.extend(renderer(env, context))
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
