"""The sandboxed Jinja environment every page renders in: the translations in force (escaped,
so a catalog can never inject markup; English fallbacks marked), the language-aware filters,
and errors that name the template's file and line."""

from __future__ import annotations

import html
import re
import signal
import threading
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from io import IOBase
from pathlib import Path, PurePath
from types import ModuleType
from typing import Any, Callable, Iterator

from babel import Locale
from babel.lists import format_list as babel_format_list
from babel.numbers import format_percent as babel_format_percent
from babel.support import NullTranslations
from jinja2 import (Environment, FileSystemLoader, StrictUndefined, TemplateError, nodes,
                    TemplateSyntaxError, UndefinedError, pass_context)
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from ...engine.errors import MariageError, SourceError
from ...engine.profile import Profile
from .dependencies import parsed
from .messages import drawing, note
from .numbers import century as _century


@dataclass
class RenderedPage:
    lang: str
    path: str          # relative to the language folder, e.g. "tutorial/04-marriages.md"
    text: str
    source: str        # the template (or example) it came from


# The translations in force while a page renders: one Environment (and one compilation of each
# template) serves every language.
ENGLISH = NullTranslations()         # the source language: the identity, never mutated
_TRANSLATIONS: ContextVar[NullTranslations] = ContextVar(
    "translations", default=ENGLISH)  # noqa: B039


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


def current_translations() -> NullTranslations:
    """The translations of the page being rendered."""
    return _TRANSLATIONS.get()


def _shown(text: str, msgid: str, context: str | None = None) -> Markup:
    """A translation, escaped (a catalog's '<' stays text), marked when it is English."""
    ships = getattr(_TRANSLATIONS.get(), "ships", None)
    if ships is None or ships(msgid, context):
        return Markup(escape(text))
    return Markup(FALLBACK_OPEN + escape(text) + FALLBACK_CLOSE)


def _safe_callables() -> dict[str, Callable[..., Markup]]:
    """gettext functions whose translations are escaped and whose English fallbacks are marked."""
    tr = _TRANSLATIONS.get

    def gettext(s: str) -> Markup:
        note(None, s)
        return _shown(tr().gettext(s), s)

    def ngettext(s: str, p: str, n: int) -> Markup:
        note(None, (s, p))
        return _shown(str(tr().ngettext(s, p, n)), s)

    def pgettext(c: str, s: str) -> Markup:
        note(c, s)
        return _shown(str(tr().pgettext(c, s)), s, c)

    def npgettext(c: str, s: str, p: str, n: int) -> Markup:
        note(c, (s, p))
        return _shown(str(tr().npgettext(c, s, p, n)), s, c)

    return {"gettext": gettext, "ngettext": ngettext, "pgettext": pgettext,
            "npgettext": npgettext}


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


# What a template may never hold or reach: objects that open files or lead to modules.
_HANDLES = (PurePath, ModuleType, IOBase, Profile)


MAX_ITEMS = 10_000          # a range() or a repeated string or list in a template
MAX_EXPONENT = 64


class DataSandbox(SandboxedEnvironment):
    """Jinja's sandbox, plus: no attribute of a path, module, file or profile object, nor any
    attribute whose value is one. Templates get data (dicts, lists, strings, numbers) and the
    engine's positions; an example's narrative cannot open, read or write a file through them.
    Sizes are bounded too: range() and `*` on strings and lists make at most MAX_ITEMS items,
    `**` takes exponents up to MAX_EXPONENT."""

    intercepted_binops = frozenset(["*", "**"])

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.globals["range"] = _bounded_range

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        parsed(source, tree)             # its page's key needs what it names: parsed once
        return tree

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, _HANDLES) or isinstance(value, _HANDLES):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for items, count in ((left, right), (right, left)):
                if (isinstance(items, (str, list, tuple)) and isinstance(count, int)
                        and len(items) * count > MAX_ITEMS):
                    raise SecurityError(f"a template may repeat a string or list to at most "
                                        f"{MAX_ITEMS:,} items")
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"a template's exponents are at most {MAX_EXPONENT}")
        return super().call_binop(context, operator, left, right)


RENDER_TIMEOUT = 30.0      # seconds to render one example's narrative in one language


class RenderTimeout(MariageError):
    pass


@contextmanager
def time_limit(seconds: float = RENDER_TIMEOUT) -> Iterator[None]:
    """Stop the block with RenderTimeout after `seconds` (a narrative's loops run in the build's
    own process). Only the main thread can take the alarm; elsewhere the block runs unbounded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise RenderTimeout(f"it did not finish within {seconds:g} s; a narrative must not loop")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _bounded_range(*args: int) -> range:
    items = range(*args)
    if len(items) > MAX_ITEMS:
        raise SecurityError(f"a template's range() has at most {MAX_ITEMS:,} items")
    return items


# Characters Python-Markdown reads as markup and lets a backslash escape (tables adds |).
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+!|])")


def plain(value: Any) -> Markup:
    """A profile string shown as text: Markdown marks escaped, then HTML."""
    return Markup(escape(_MARKDOWN.sub(r"\\\1", str(value))))


def environment(search_path: list[Path]) -> Environment:
    """The sandboxed environment of templates found in `search_path`: one per path for the
    process, so `mkdocs serve` compiles a template once (Jinja reloads a file that changed)."""
    return _environment(tuple(str(p) for p in search_path))


@lru_cache(maxsize=16)
def _environment(search_path: tuple[str, ...]) -> Environment:
    env = DataSandbox(
        loader=FileSystemLoader(list(search_path)),
        extensions=["jinja2.ext.i18n"], autoescape=True, undefined=StrictUndefined,
        keep_trailing_newline=True, lstrip_blocks=True)
    env.policies["ext.i18n.trimmed"] = True  # msgids are one line, as babel.cfg extracts them
    env.install_gettext_callables(**_safe_callables(), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(language_name=language_name, once=drawing(_TRANSLATIONS.get))
    env.filters["collate"] = collate
    env.filters["striptags"] = striptags   # keeps a translation's no-break spaces
    env.filters["format_list"] = format_list
    env.filters["format_percent"] = format_percent
    env.filters["plain"] = plain
    env.filters["century"] = century
    env.filters["signed"] = signed
    env.filters["language_in_page"] = language_in_page
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
def language_in_page(context: Any, code: str) -> str:
    """A language's name as the page's language writes it inside a sentence, from Babel's CLDR
    data ("es": "Spanish", "español", "Spanisch"); the code itself where CLDR has none."""
    return Locale.parse(_locale(context)).languages.get(str(code), str(code))


def signed(number: int) -> str:
    """A balance with its sign, as typesetters print it: +12, −738 (U+2212 MINUS SIGN, not the
    hyphen), 0."""
    number = int(number)
    return f"+{number}" if number > 0 else f"\u2212{-number}" if number < 0 else "0"


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
    """Sort for readers: letters with accents among their base letters, case ignored, and a
    headword that lists its forms ("reclamación, reclamar") before its compounds."""
    def key(item: Any) -> str:
        text = strip_fallbacks(str(item[attribute] if isinstance(item, dict)
                                   else getattr(item, attribute))).split(",")[0]
        return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                       if not unicodedata.combining(c))
    return sorted(items, key=key)


def language_name(lang: str, in_lang: str | None = None) -> str:
    """The language's own name, as its speakers write it ("Español"); with `in_lang`, its name
    in that language (the Spanish pages' "Inglés")."""
    name = Locale.parse(lang).get_display_name(in_lang or lang) or lang
    return name[:1].upper() + name[1:]


def base_context(profile: Profile, lang: str, languages: list[str]) -> dict[str, Any]:
    return {"rules": profile.as_context(), "lang": lang, "languages": languages}


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
