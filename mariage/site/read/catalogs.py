"""Translation catalogs (locales/<lang>/LC_MESSAGES/messages.po): checked, then read with Babel.

Catalogs are compiled in memory at build time, so no .mo file is ever written or committed.
Only messages that pass every check of `checks.py` are compiled: fuzzy, untranslated and
failing messages are left out, so the page shows the English text instead.
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import NullTranslations, Translations

from ...engine.errors import SourceError
from . import checks
from .checks import Problem

SOURCE_LANGUAGE = "en"
DOMAIN = "messages"


def po_path(lang: str, locales: Path) -> Path:
    return locales / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog_languages(locales: Path) -> list[str]:
    """Every language that has a catalog in locales/, sorted."""
    return sorted(p.parent.parent.name for p in locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
                  if p.parent.parent.name != SOURCE_LANGUAGE)


def check_languages(configured: list[str], locales: Path, config: Path) -> None:
    """One list of languages: the MkDocs config's. A catalog it does not list, or a listed
    language without a catalog, is an error."""
    found = catalog_languages(locales)
    for lang in configured[1:]:
        if not checks.known_language(lang):
            raise SourceError(config, f"{lang!r} is not a language code Babel knows",
                              key="i18n languages", hint="use a code such as de, pt or pt_BR")
        if lang not in found:
            raise SourceError(config, f"{lang!r} is listed but {po_path(lang, locales)} does not "
                              "exist", key="i18n languages", hint=f"run `mariage catalogs init "
                              f"{lang}`, or remove the language from mkdocs.yml")
    for lang in found:
        if lang not in configured:
            raise SourceError(po_path(lang, locales), f"the catalog of {lang!r} is not listed "
                              f"in {config.name}", hint=f"add `- locale: {lang}` (with its "
                              "name and `build: true`) to the i18n plugin's languages, or "
                              "remove the catalog")


class ShippedTranslations(Translations):
    """A compiled catalog that can say whether a message is translated (else English shows)."""

    def ships(self, msgid: str, context: str | None = None) -> bool:
        key = msgid if context is None else f"{context}\x04{msgid}"
        return key in self._catalog or (key, 0) in self._catalog      # type: ignore[attr-defined]


class NothingShipped(NullTranslations):
    """A language whose catalog cannot be used at all: every message shows in English."""

    def ships(self, msgid: str, context: str | None = None) -> bool:
        return False


def _strings(message: Message) -> tuple[str, ...]:
    value = message.string
    return tuple(value) if isinstance(value, (list, tuple)) else (value or "",)


def _sources(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def state(message: Message) -> str:
    """"fuzzy", "translated" or "untranslated" (every plural form must be filled)."""
    if message.fuzzy:
        return "fuzzy"
    return "translated" if all(_strings(message)) else "untranslated"


@dataclass
class CheckedCatalog:
    """A catalog with every check applied: what ships, what does not, and why."""
    lang: str
    path: Path
    catalog: Catalog | None                   # None: the file cannot be read at all
    problems: list[Problem] = field(default_factory=list)
    failing: set[tuple[str, str | None]] = field(default_factory=set)   # (msgid, msgctxt)

    @property
    def bad_plural_rule(self) -> bool:
        return any(p.check == checks.PLURAL_RULE.id for p in self.problems)

    @property
    def errors(self) -> list[Problem]:
        """The problems that are mistakes (not merely an untranslated or fuzzy message)."""
        return [p for p in self.problems if p.check not in ("untranslated", "fuzzy")]

    def shipped(self, message: Message) -> bool:
        return state(message) == "translated" and (_key(message) not in self.failing)

    def translations(self) -> NullTranslations:
        if self.catalog is None:
            return NothingShipped()
        kept = copy.copy(self.catalog)
        kept._messages = copy.copy(self.catalog._messages)       # type: ignore[attr-defined]
        for message in list(self.catalog):
            if message.id and not self.shipped(message):
                kept.delete(message.id, context=message.context)
        if self.bad_plural_rule:         # its plural messages are left out: any valid rule will do
            kept.mime_headers = [(k, v) for k, v in kept.mime_headers
                                 if k.lower() != "plural-forms"] + [("Plural-Forms",
                                                                     "nplurals=1; plural=0;")]
        buffer = io.BytesIO()
        write_mo(buffer, kept, use_fuzzy=False)
        buffer.seek(0)
        return ShippedTranslations(fp=buffer, domain=DOMAIN)

    def stats(self) -> "Stats":
        if self.catalog is None:
            return Stats(self.lang, 0, 0, 0, failing=0, unreadable=True)
        counts = {"translated": 0, "fuzzy": 0, "untranslated": 0, "failing": 0}
        for message in self.catalog:
            if message.id:
                kind = state(message)
                counts["failing" if kind == "translated" and not self.shipped(message)
                       else kind] += 1
        return Stats(self.lang, counts["translated"], counts["fuzzy"], counts["untranslated"],
                     failing=counts["failing"])


def _key(message: Message) -> tuple[str, str | None]:
    return _sources(message)[0], message.context


# `mkdocs serve` rebuilds in one process: an unchanged catalog is not checked again.
_CHECKED: dict[tuple[Path, str], tuple[tuple[int, int], CheckedCatalog]] = {}


def check_catalog(lang: str, locales: Path) -> CheckedCatalog:
    """Apply every file and message check to one catalog; nothing here raises for a mistake."""
    path = po_path(lang, locales)
    try:
        stat = path.stat()
        version = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        return _check_catalog(lang, path)
    cached = _CHECKED.get((path, lang))
    if cached is None or cached[0] != version:
        cached = _CHECKED[(path, lang)] = (version, _check_catalog(lang, path))
    return cached[1]


def _check_catalog(lang: str, path: Path) -> CheckedCatalog:
    text, problems = checks.check_file(path, lang)
    result = CheckedCatalog(lang, path, None, problems)
    if text is None or any(p.check in (checks.SYNTAX.id, checks.ENCODING.id) for p in problems):
        return result
    try:
        result.catalog = read_po(io.StringIO(text), locale=lang, abort_invalid=True)
    except (PoFileError, ValueError) as exc:
        if any(p.check == checks.PLURAL_RULE.id for p in problems):
            return result          # already said: the header and the forms disagree
        result.problems.append(checks.file_problem(path, getattr(exc, "lineno", None), "",
                                                    checks.SYNTAX, f"Babel cannot read it: {exc}"))
        return result
    lines = text.splitlines()
    miscounted = {p.msgid for p in problems if p.check == checks.PLURAL_FORMS.id}
    for message in result.catalog:
        if message.id:
            _check_message(result, message, lines, result.bad_plural_rule)
            if _sources(message)[0] in miscounted:
                result.failing.add(_key(message))
    return result


def _check_message(result: CheckedCatalog, message: Message, lines: list[str],
                   bad_rule: bool) -> None:
    msgid, line = _sources(message)[0], msgstr_line(lines, message.lineno)
    kind = state(message)
    if kind != "translated":
        message_text, hint = _STATE[kind]
        result.problems.append(Problem(result.path, line, msgid, message_text, check=kind,
                                       hint=hint))
        return
    assert result.catalog is not None
    entry = checks.Entry(_sources(message), _strings(message), result.catalog.num_plurals,
                         message.context)
    failures = checks.check_entry(entry)
    if bad_rule and entry.plural:
        failures.append((checks.PLURAL_RULE, "the header's Plural-Forms is wrong, so this "
                         "plural message cannot be shipped"))
    for check, detail in failures:
        result.problems.append(checks.problem(result.path, line, msgid, check, detail))
    if failures:
        result.failing.add(_key(message))


_STATE = {"fuzzy": ("fuzzy: readers see the English text", "review it, then remove the word "
                   "`fuzzy` from its `#,` line (keep `python-format`) and any `#|` lines"),
          "untranslated": ("untranslated: readers see the English text", "translate it")}


def msgstr_line(lines: list[str], msgid_line: int | None) -> int | None:
    """The line of an entry's (first) msgstr, from the line of its msgid."""
    if msgid_line is None:
        return None
    for i in range(msgid_line - 1, min(len(lines), msgid_line + 200)):
        if lines[i].startswith("msgstr"):
            return i + 1
    return msgid_line


def read_catalog(lang: str, locales: Path) -> Catalog:
    """The catalog, or a SourceError naming its first file-level problem."""
    checked = check_catalog(lang, locales)
    if checked.catalog is None:
        first = checked.problems[0]
        raise SourceError(first.path, f"{first.message}", line=first.line, hint=first.hint)
    return checked.catalog


def translations(lang: str, locales: Path) -> NullTranslations:
    """What ships of one catalog, compiled in memory; English is the identity."""
    if lang == SOURCE_LANGUAGE:
        return NullTranslations()
    return check_catalog(lang, locales).translations()


@dataclass(frozen=True)
class Stats:
    lang: str
    translated: int          # shipped: translated and passing every check
    fuzzy: int
    untranslated: int
    failing: int = 0         # translated but failing a check: not shipped
    unreadable: bool = False

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated + self.failing

    @property
    def percent(self) -> int:
        """Rounded down: 99.6 % shows as 99 %, never 100 %."""
        return 100 * self.translated // self.total if self.total else 0


def stats(lang: str, locales: Path) -> Stats:
    """Messages shipped, fuzzy, untranslated and failing in one catalog (header excluded)."""
    return check_catalog(lang, locales).stats()
