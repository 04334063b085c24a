"""Translation catalogs (locales/<lang>/LC_MESSAGES/messages.po), read with Babel.

Catalogs are compiled in memory at build time, so no .mo file is ever written or committed, and
fuzzy entries are left out (they are never shipped). Checking a catalog is the job of GNU
msgfmt and translate-toolkit's pofilter, see `check.py`.
"""

from __future__ import annotations

import ast
import io
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.support import NullTranslations, Translations

from ..engine.errors import SourceError

SOURCE_LANGUAGE = "en"
DOMAIN = "messages"


def po_path(lang: str, locales: Path) -> Path:
    return locales / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(locales: Path) -> list[str]:
    """English (the source) first, then every language that has a catalog, sorted."""
    found = sorted(p.parent.parent.name for p in locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE_LANGUAGE] + [lang for lang in found if lang != SOURCE_LANGUAGE]


def read_catalog(lang: str, locales: Path) -> Catalog:
    path = po_path(lang, locales)
    _check_syntax(path)
    try:
        with path.open("rb") as handle:
            return read_po(handle, locale=lang, abort_invalid=True)
    except PoFileError as exc:
        line = getattr(exc, "lineno", None)
        raise SourceError(path, f"malformed catalog: {exc}", line=line,
                          hint="fix the .po syntax, then run `make check-catalogs`") from None
    except OSError as exc:
        raise SourceError(path, f"cannot read the catalog ({exc.strerror})") from None


def _check_syntax(path: Path) -> None:
    """Babel's reader forgives malformed entries (an unterminated string loses a character);
    translate-toolkit's parser refuses them, naming the line."""
    from translate.storage.poparser import PoParseError
    from translate.storage.pypo import pofile

    try:
        pofile.parsefile(str(path))
    except PoParseError as exc:
        raise SourceError(path, f"malformed catalog: {str(exc).split(' on line ')[0]}",
                          line=_error_line(path, str(exc)),
                          hint="fix the .po syntax, then run `mariage catalogs check`") from None
    except OSError as exc:
        raise SourceError(path, f"cannot read the catalog ({exc.strerror})") from None


def _error_line(path: Path, message: str) -> int | None:
    """The file line of a parse error: the parser numbers lines within the entry it read, so
    find the offending text it quotes in the file itself."""
    quoted = re.search(r" on line (\d+): (['\"].*['\"])$", message, re.S)
    if not quoted:
        return None
    try:
        text = ast.literal_eval(quoted.group(2)).rstrip("\n")
    except (ValueError, SyntaxError):
        return int(quoted.group(1))
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((i for i, line in enumerate(lines, 1) if text in line), int(quoted.group(1)))


def translations(lang: str, locales: Path) -> NullTranslations:
    """The catalog compiled in memory, fuzzy entries excluded; English is the identity."""
    if lang == SOURCE_LANGUAGE:
        return NullTranslations()
    return compile_catalog(read_catalog(lang, locales))


def compile_catalog(catalog: Catalog) -> Translations:
    """Compile a read catalog in memory, leaving its fuzzy entries out (never shipped)."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def state(message: Message) -> str:
    """"fuzzy", "translated" or "untranslated" (every plural form must be filled)."""
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    if message.fuzzy:
        return "fuzzy"
    return "translated" if all(strings) else "untranslated"


@dataclass(frozen=True)
class Stats:
    lang: str
    translated: int
    fuzzy: int
    untranslated: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def percent(self) -> int:
        return round(100 * self.translated / self.total) if self.total else 100


def stats(lang: str, locales: Path | None = None, catalog: Catalog | None = None) -> Stats:
    """Messages translated, fuzzy and untranslated in one catalog (the header excluded)."""
    if catalog is None:
        if locales is None:
            raise TypeError("stats() needs the locales folder or the catalog")
        catalog = read_catalog(lang, locales)
    counts = Counter(state(message) for message in catalog if message.id)
    return Stats(lang, counts["translated"], counts["fuzzy"], counts["untranslated"])
