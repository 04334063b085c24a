"""Translation catalogs (locales/<lang>/LC_MESSAGES/messages.po): checked, then read with Babel.

Catalogs are compiled in memory at build time, so no .mo file is ever written or committed.
Only messages that pass every check of `checks.py` are compiled: fuzzy, untranslated and
failing messages are left out, so the page shows the English text instead.
"""

from __future__ import annotations

import copy
import hashlib
import io
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import NullTranslations, Translations

from ...engine.errors import SourceError
from ..cache import file_digest
from . import checks, file_checks, message_checks, template_drift, termbase
from .checks import Problem
from .po_messages import message_key, msgids, msgstr_line, msgstrs, state

SOURCE_LANGUAGE = "en"
DOMAIN = "messages"


def po_path(lang: str, locales: Path) -> Path:
    return locales / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog_languages(locales: Path) -> list[str]:
    """Every language that has a catalog in locales/, sorted."""
    return sorted(p.parent.parent.name for p in locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
                  if p.parent.parent.name != SOURCE_LANGUAGE)


def check_languages(configured: list[str], locales: Path, config: Path,
                    unlisted: bool = True) -> None:
    """One list of languages: the MkDocs config's. A listed language without a catalog is an
    error, and so (for the site, `unlisted`) is a catalog it does not list."""
    found = catalog_languages(locales)
    for lang in configured[1:]:
        if not file_checks.known_language(lang):
            raise SourceError(config, f"{lang!r} is not a language code Babel knows",
                              key="i18n languages", hint="use a code such as de, pt or pt_BR")
        if lang not in found:
            raise SourceError(config, f"{lang!r} is listed but {po_path(lang, locales)} does not "
                              "exist", key="i18n languages", hint=f"run `mariage catalogs init "
                              f"{lang}`, or remove the language from mkdocs.yml")
    for lang in found if unlisted else []:
        if lang not in configured:
            raise SourceError(po_path(lang, locales), f"the catalog of {lang!r} is not listed "
                              f"in {config.name}", hint=f"run `mariage catalogs init {lang}`: "
                              "it keeps the catalog and adds the language's termbase and its "
                              "entry to the i18n plugin's languages (`- locale: "
                              f"{lang}`); or remove the catalog")


class ShippedTranslations(Translations):
    """A compiled catalog that can say whether a message is translated (else English shows)."""

    def ships(self, msgid: str, context: str | None = None) -> bool:
        key = msgid if context is None else f"{context}\x04{msgid}"
        return key in self._catalog or (key, 0) in self._catalog      # type: ignore[attr-defined]


class NothingShipped(NullTranslations):
    """A language whose catalog cannot be used at all: every message shows in English."""

    def ships(self, msgid: str, context: str | None = None) -> bool:
        return False


@dataclass
class CheckedCatalog:
    """A catalog with every check applied: what ships, what does not, and why."""
    lang: str
    path: Path
    catalog: Catalog | None                   # None: the file cannot be read at all
    problems: list[Problem] = field(default_factory=list)
    failing: set[tuple[str, str | None]] = field(default_factory=set)   # (msgid, msgctxt)
    stale: set[tuple[str, str | None]] = field(default_factory=set)     # not in the template
    missing: int = 0                          # template messages the catalog lacks

    def moved_to(self, locales: Path) -> "CheckedCatalog":
        """The same check for the same files in another copy of locales/ (a clone, a test's
        copy): its paths, and the files its problems refer to, point into `locales`. No
        problem's text holds a path (checks.PATH): each is shown when the problem is, from the
        working folder of that moment."""
        old = self.path.parents[2]
        if old == locales:
            return self

        def moved(path: Path) -> Path:
            return locales / path.relative_to(old) if path.is_relative_to(old) else path
        return replace(self, path=moved(self.path),
                       problems=[replace(p, path=moved(p.path), refers=p.refers and moved(p.refers))
                                 for p in self.problems])

    @property
    def bad_plural_rule(self) -> bool:
        return any(p.check == checks.PLURAL_RULE.id for p in self.problems)

    @property
    def errors(self) -> list[Problem]:
        """The problems that are mistakes (not merely an untranslated or fuzzy message)."""
        return [p for p in self.problems if p.check not in ("untranslated", "fuzzy")]

    def shipped(self, message: Message) -> bool:
        return state(message) == "translated" and (message_key(message) not in self.failing)

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
            if message.id and message_key(message) not in self.stale:
                kind = state(message)
                counts["failing" if kind == "translated" and not self.shipped(message)
                       else kind] += 1
        return Stats(self.lang, counts["translated"], counts["fuzzy"], counts["untranslated"],
                     failing=counts["failing"], stale=len(self.stale), missing=self.missing)


# `mkdocs serve` rebuilds in one process: a catalog is not checked again while the files the
# check reads (the catalog, its termbase, the concepts, the template) hold the same bytes, in
# this folder or in another copy of them. The oldest entry goes first beyond _KEEP.
_CHECKED: dict[tuple[str, tuple[str, ...]], CheckedCatalog] = {}
_KEEP = 32


def _contents(*paths: Path) -> tuple[str, ...]:
    """The content hash of each file ('' for a missing one)."""
    return tuple(file_digest(path) for path in paths)


def _remember(memo: dict, key: object, value: object) -> None:
    if len(memo) >= _KEEP:
        memo.pop(next(iter(memo)))
    memo[key] = value


def template_path(locales: Path) -> Path:
    return locales / f"{DOMAIN}.pot"


def check_catalog(lang: str, locales: Path) -> CheckedCatalog:
    """Apply every file and message check to one catalog, with its termbase and its template;
    nothing here raises for a mistake."""
    path = po_path(lang, locales)
    read = (path, termbase.language_path(lang, locales), termbase.source_path(locales),
            template_path(locales))
    key = (lang, _contents(*read))
    cached = _CHECKED.get(key)
    if cached is None:
        cached = _check_catalog(lang, path, locales)
        if _contents(*read) == key[1]:        # not edited while it was checked
            _remember(_CHECKED, key, cached)
    return cached.moved_to(locales)


def _check_catalog(lang: str, path: Path, locales: Path) -> CheckedCatalog:
    text, problems = file_checks.check_file(path, lang)
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
    words = _termbase(result, lang, locales)
    for message in result.catalog:
        if message.id:
            _check_message(result, message, lines, words,
                           counted=msgids(message)[0] not in miscounted)
            if msgids(message)[0] in miscounted:
                result.failing.add(message_key(message))
    if result.bad_plural_rule:
        _hold_plurals(result)
    _compare_with_template(result, lines, template_path(locales))
    return result


def _hold_plurals(result: CheckedCatalog) -> None:
    """With a wrong Plural-Forms no plural message can be shipped: say so once, on the header's
    problem, and leave every plural message out."""
    assert result.catalog is not None
    plural = [m for m in result.catalog if m.id and isinstance(m.id, (list, tuple))]
    result.failing.update(message_key(m) for m in plural)
    result.problems = [replace(p, message=f"{p.message}; until it is fixed, none of the "
                               f"{len(plural)} plural messages is shipped")
                       if p.check == checks.PLURAL_RULE.id else p for p in result.problems]


def _termbase(result: CheckedCatalog, lang: str, locales: Path) -> termbase.Termbase | None:
    """The language's termbase, or None with the problem said when it is missing. A termbase
    that cannot be read is a SourceError (file, line, key), as a bad profile is: no message
    can be checked against it."""
    where = termbase.language_path(lang, locales)
    if not where.exists():
        result.problems.append(Problem(result.path, None, "", f"{checks.PATH} is missing",
                                       check=TERMBASE, hint=f"run `mariage catalogs init {lang}`"
                                       " to write it with every concept, then fill in your terms",
                                       refers=where))
        return None
    return termbase.Termbase.load(lang, locales)


@lru_cache(maxsize=50_000)
def _entry_findings(entry: message_checks.Entry) -> tuple[tuple[checks.Check, str], ...]:
    """Every check one message fails: a pure function of the message, so once per text."""
    return tuple(checks.check_entry(entry))


def _check_message(result: CheckedCatalog, message: Message, lines: list[str], words,
                   counted: bool) -> None:
    msgid, line = msgids(message)[0], msgstr_line(lines, message.lineno)
    kind = state(message)
    if kind != "translated":
        if counted:          # a plural message with a form too few is already named
            message_text, hint = _STATE[kind]
            if kind == "fuzzy" and "python-format" in message.flags:
                hint = hint.replace("from its `#,` line", "from its `#,` line (keep "
                                    "`python-format`)")
            result.problems.append(Problem(result.path, line, msgid, message_text, check=kind,
                                           hint=hint))
        return
    assert result.catalog is not None
    entry = message_checks.Entry(msgids(message), msgstrs(message), result.catalog.num_plurals,
                                 message.context, notes=tuple(message.auto_comments)
                                 + tuple(message.user_comments), lang=result.lang)
    found = [checks.problem(result.path, line, msgid, check, detail)
             for check, detail in _entry_findings(entry)]
    if words is not None:
        found += [Problem(result.path, line, msgid, detail, check=TERMBASE, hint=hint,
                          refers=words.path)
                  for detail, hint in words.findings(entry.sources, entry.strings)]
    result.problems.extend(found)
    if found:
        result.failing.add(message_key(message))


TERMBASE = "termbase"
_STATE = {"fuzzy": ("fuzzy: readers see the English text", "review it, then remove the word "
                   "`fuzzy` from its `#,` line and any `#|` lines"),
          "untranslated": ("untranslated: readers see the English text", "translate it")}


def _compare_with_template(result: CheckedCatalog, lines: list[str], pot: Path) -> None:
    """What GNU msgcmp says (`template_drift.py`); a message either way is never shipped."""
    template = _template(pot)
    if template is None or result.catalog is None:
        return
    stale, missing, problems = template_drift.compare(result.catalog, result.path, lines,
                                                      template, pot)
    result.stale |= stale
    result.failing |= stale
    result.missing += missing
    result.problems += problems


_TEMPLATES: dict[str, dict | None] = {}


def _template(pot: Path) -> dict[tuple[str, str | None], Message] | None:
    """The template's messages by (msgid, msgctxt), parsed once per text of the file, wherever
    it is; None without one."""
    try:
        data = pot.read_bytes()
    except OSError:
        return None
    key = hashlib.sha256(data).hexdigest()
    if key not in _TEMPLATES:
        try:
            messages = {message_key(m): m for m in read_po(io.BytesIO(data)) if m.id}
        except (PoFileError, ValueError):
            messages = None
        _remember(_TEMPLATES, key, messages)
    return _TEMPLATES[key]


def read_catalog(lang: str, locales: Path) -> Catalog:
    """The catalog, or a SourceError naming its first file-level problem."""
    checked = check_catalog(lang, locales)
    if checked.catalog is None:
        first = checked.problems[0]
        raise SourceError(first.path, first.said, line=first.line, hint=first.advice)
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
    stale: int = 0           # messages the template does not have (an edited msgid or msgctxt)
    missing: int = 0         # template messages the catalog does not have

    @property
    def total(self) -> int:
        """The template's messages: what readers would see translated."""
        return self.translated + self.fuzzy + self.untranslated + self.failing + self.missing

    @property
    def mismatched(self) -> int:
        """Messages where the catalog and the template disagree (msgcmp's complaints)."""
        return self.stale + self.missing

    @property
    def percent(self) -> int:
        """Rounded down: 99.6 % shows as 99 %, never 100 %."""
        return 100 * self.translated // self.total if self.total else 0


def stats(lang: str, locales: Path) -> Stats:
    """Messages shipped, fuzzy, untranslated and failing in one catalog (header excluded)."""
    return check_catalog(lang, locales).stats()
