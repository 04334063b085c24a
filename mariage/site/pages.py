"""Render the site's Markdown: profile + catalog + templates -> one page per language.

Templates live in templates/pages/ (each `*.md.j2` becomes the same path in every language) and
examples/ (each worked example becomes examples/<name>.md). Translations are HTML-escaped before
they reach a page, so a catalog can never inject markup; numbers come from the profile or the
engine's run of an example, never from a catalog.
"""

from __future__ import annotations

import html
import re
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from babel import Locale
from babel.lists import format_list as babel_format_list
from babel.numbers import format_percent as babel_format_percent
from babel.support import NullTranslations
from jinja2 import (Environment, FileSystemLoader, StrictUndefined, TemplateError,
                    TemplateSyntaxError, UndefinedError, pass_context)
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from . import catalogs, termbase
from .numbers import century as _century
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


# English shown in place of a missing or failing translation is marked while the page renders,
# then tagged `<span lang="en">` where HTML allows it (see `mark_fallbacks`).
FALLBACK_OPEN, FALLBACK_CLOSE = "\ue000", "\ue001"


def _shown(text: str, msgid: str, context: str | None = None) -> Markup:
    """A translation, escaped (a catalog's '<' stays text), marked when it is English."""
    ships = getattr(_TRANSLATIONS.get(), "ships", None)
    if ships is None or ships(msgid, context):
        return Markup(escape(text))
    return Markup(FALLBACK_OPEN + escape(text) + FALLBACK_CLOSE)


def _safe_callables() -> dict[str, Callable[..., Markup]]:
    """gettext functions whose translations are escaped and whose English fallbacks are marked."""
    tr = _TRANSLATIONS.get
    return {
        "gettext": lambda s: _shown(tr().gettext(s), s),
        "ngettext": lambda s, p, n: _shown(str(tr().ngettext(s, p, n)), s),
        "pgettext": lambda c, s: _shown(str(tr().pgettext(c, s)), s, c),
        "npgettext": lambda c, s, p, n: _shown(str(tr().npgettext(c, s, p, n)), s, c),
    }


_TAG = re.compile(r"<[^<>]*>")
_FENCE = re.compile(r"^\s*(```|~~~)")


def strip_fallbacks(text: str) -> str:
    return text.replace(FALLBACK_OPEN, "").replace(FALLBACK_CLOSE, "")


def mark_fallbacks(markdown: str) -> str:
    """Tag English fallback text `<span lang="en">` in running text; inside an HTML tag (an
    attribute), a code span or a code block, where a tag would show or break, drop the mark."""
    if FALLBACK_OPEN not in markdown:
        return markdown
    markdown = _TAG.sub(lambda m: strip_fallbacks(m.group(0)), markdown)
    lines, fenced = [], False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or line.startswith("    ") or _FENCE.match(line):
            lines.append(strip_fallbacks(line))
            continue
        pieces = line.split("`")
        pieces = [p if i % 2 == 0 else strip_fallbacks(p) for i, p in enumerate(pieces)]
        line = "`".join(pieces)
        if line.count(FALLBACK_OPEN) != line.count(FALLBACK_CLOSE):
            line = strip_fallbacks(line)
        lines.append(line.replace(FALLBACK_OPEN, '<span lang="en">').replace(FALLBACK_CLOSE,
                                                                              "</span>"))
    return "\n".join(lines)


def environment(search_path: list[Path]) -> Environment:
    env = SandboxedEnvironment(
        loader=FileSystemLoader([str(p) for p in search_path]),
        extensions=["jinja2.ext.i18n"], autoescape=True, undefined=StrictUndefined,
        keep_trailing_newline=True, lstrip_blocks=True)
    env.policies["ext.i18n.trimmed"] = True  # msgids are one line, as babel.cfg extracts them
    env.install_gettext_callables(**_safe_callables(), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(language_name=language_name)
    env.filters["collate"] = collate
    env.filters["striptags"] = striptags   # keeps a translation's no-break spaces
    env.filters["format_list"] = format_list
    env.filters["format_percent"] = format_percent
    env.filters["century"] = century
    return env


# The English source is written in British English ("6, 5 and 2", no serial comma).
_BABEL_LOCALES = {"en": "en_GB"}


def _locale(context: Any) -> str:
    """The language of the page being rendered (its `lang`), as Babel names it."""
    lang = str(context.get("lang") or "en").replace("-", "_")
    return _BABEL_LOCALES.get(lang, lang)


@pass_context
def format_list(context: Any, items: Any) -> Markup:
    """Items joined into a sentence the way the page's language does it ("6, 5, 4, 3 and 2",
    "6, 5, 4, 3 y 2"): Babel's list patterns for the page's locale. Each item is escaped."""
    return Markup(babel_format_list([str(escape(item)) for item in items], locale=_locale(context)))


@pass_context
def format_percent(context: Any, fraction: float) -> Markup:
    """A fraction as a percentage in the page's locale ("100%", "100\u00a0%", "100\u202f%")."""
    return Markup(escape(babel_format_percent(fraction, locale=_locale(context))))


@pass_context
def century(context: Any, year: int) -> str:
    """The century of a year as the page's language writes it ("18th", "XVIII", numbers.py)."""
    return _century(int(year), _locale(context))


def striptags(value: Any) -> str:
    """Jinja's striptags, except that only ASCII white space is collapsed: its str.split()
    would turn a French no-break space (U+00A0, U+202F) into a plain one."""
    text = re.sub(r"<!--.*?-->|<[^>]*>", "", str(value), flags=re.S)
    return re.sub(r"[ \t\n\r\f\v]+", " ", html.unescape(text)).strip(" \t\n\r\f\v")


def collate(items: list[Any], attribute: str) -> list[Any]:
    """Sort for readers: letters with accents among their base letters, case ignored."""
    def key(item: Any) -> str:
        text = strip_fallbacks(str(item[attribute] if isinstance(item, dict)
                                   else getattr(item, attribute)))
        return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                       if not unicodedata.combining(c))
    return sorted(items, key=key)


def language_name(lang: str, in_lang: str | None = None) -> str:
    """The language's own name, as its speakers write it ("Español"); with `in_lang`, its name
    in that language (the Spanish pages' "Inglés")."""
    name = Locale.parse(lang).get_display_name(in_lang or lang) or lang
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
            from .variants import variant_profiles

            self._variants = variant_profiles(self.root)
        return self._variants

    def context(self) -> dict[str, Any]:
        """Site-wide values: the catalogs' status, the numbers of section 07's example, the
        score sheet's game and the solver's study of closing (study.py)."""
        from .examples import WORKED_EXAMPLE, claim_summary, read_example

        if "catalog_stats" not in self.extra_context:
            self.extra_context["catalog_stats"] = [
                self.checked(lang).stats() for lang in self.configured_languages()[1:]]
        if "terms" not in self.extra_context:
            self.extra_context["terms"] = termbase.glossary_rows(self.languages(), self.locales)
        if "score_sheet" not in self.extra_context:
            from .tables import SCORE_SHEET, score_sheet
            # The record is a game played under the project's own profile: a site built under
            # another profile (a test's, a variant's) leaves the sheet out.
            own = Path(self.profile.source).resolve() == Project.find(self.root).profile.resolve() \
                if self.profile.source else False
            self.extra_context["score_sheet"] = (
                score_sheet(self.examples / SCORE_SHEET, self.profile) if own else None)
        if "variants" not in self.extra_context:
            from .variants import summaries

            self.extra_context["variants"] = summaries(self.profile, self.variants())
        if "close_study" not in self.extra_context:
            from .study import STUDY_DEALS, close_study

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
