"""The checks of a whole catalog file, before any message is read: size, encoding, PO syntax
(GNU msgfmt, its complaints put into plain words at the right line: `msgfmt.py`), the header
entry, its Language, and its Plural-Forms compared with CLDR through Babel (`plurals.py`).
Their ids and hints are the table's (`checks.FILE_CHECKS`).
"""

from __future__ import annotations

import re
from pathlib import Path

from babel import Locale, UnknownLocaleError

from . import msgfmt as gnu_msgfmt
from . import plurals
from .checks import (ENCODING, HEADER, LANGUAGE, PLURAL_FORMS, PLURAL_RULE, SYNTAX, Problem,
                     file_problem)

MAX_CATALOG = 8 << 20     # bytes of one catalog file (a complete one is about 320 KB)


def check_encoding(path: Path, data: bytes) -> list[Problem]:
    if data.startswith(b"\xef\xbb\xbf"):
        return [file_problem(path, 1, "", ENCODING, "the file starts with a byte-order mark",
                              "save it as UTF-8 without BOM")]
    if not re.search(rb'^msgid ""\r?\nmsgstr ""\r?\n"', data, re.M):
        return []                              # check_header names the missing header
    declared = re.search(rb'^"Content-Type: [^"]*charset=([^\\"\s;]+)', data, re.M)
    charset = declared.group(1).decode("ascii", "replace") if declared else "(none)"
    line = data[:declared.start()].count(b"\n") + 1 if declared else 1
    if charset.lower().replace("_", "-") not in ("utf-8", "utf8"):
        return [file_problem(path, line, "", ENCODING, f"the header declares charset={charset}")]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[:exc.start].count(b"\n") + 1
        return [file_problem(path, bad, "", ENCODING,
                              f"byte 0x{data[exc.start]:02x} is not UTF-8 (the file was saved in "
                              "another encoding, e.g. Latin-1)")]
    return []


def msgfmt(path: Path, text: str, lang: str = "") -> list[Problem]:
    """GNU `msgfmt --check`'s complaints as problems, in plain words at the right line."""
    if not gnu_msgfmt.available():
        return [file_problem(path, None, "", SYNTAX, "GNU msgfmt is missing",
                             "install gettext: apt-get install gettext, or brew install "
                             "gettext")]
    understood, found = gnu_msgfmt.complaints(text)
    lines, problems = text.splitlines(), []
    misspelt: list[int] = []            # lines of misspelt keywords
    for line, message in found:
        if gnu_msgfmt.miscounted(message):
            problems.append(_plural_count_problem(path, text, lines, line, lang))
            continue
        if any(abs(line - m) <= 2 for m in misspelt):
            continue                   # the follow-on complaints of a misspelt keyword
        keyword = gnu_msgfmt.misspelt_keyword(lines, line, message)
        if keyword:
            misspelt.append(line)
            problems.append(file_problem(path, line, gnu_msgfmt.msgid_at(lines, line), SYNTAX,
                                         *keyword))
            continue
        what, fix = gnu_msgfmt.plain(message)
        if "twice" in what:                    # msgfmt names the duplicate's msgid line
            line = next((i for i in range(line, min(len(lines), line + 50)) if
                         lines[i - 1].startswith("msgstr")), line)
        check = ENCODING if "UTF-8" in fix else PLURAL_RULE if "Plural-Forms" in what else SYNTAX
        if check is PLURAL_RULE:
            line, fix = _plural_header_line(text), plural_hint(lang)
        problems.append(file_problem(path, line, gnu_msgfmt.msgid_at(lines, line), check, what,
                                     fix))
    if not understood:
        problems.append(file_problem(path, None, "", SYNTAX, "GNU msgfmt refuses the file",
                                     "open it in Poedit or run `msgfmt --check` on it to see "
                                     "where"))
    return problems


def _plural_count_problem(path: Path, text: str, lines: list[str], line: int,
                          lang: str) -> Problem:
    """msgfmt's 'some messages have only N plural forms': the header is wrong when every
    plural message agrees, else that message is."""
    counts = {len(re.findall(r"^msgstr\[\d+\]", entry, re.M))
              for entry in re.split(r"\n\s*\n", text) if "\nmsgid_plural " in "\n" + entry}
    declared = plurals.plural_header(text)[1] or ""
    if len(counts) == 1:
        return file_problem(path, _plural_header_line(text), "", PLURAL_RULE,
                            f"Plural-Forms `{declared.strip()}` does not match the "
                            f"{counts.pop()} msgstr[n] forms of every plural message",
                            plural_hint(lang))
    at = next((i for i in range(line, min(len(lines), line + 50)) if
               lines[i - 1].startswith("msgstr")), line)
    return file_problem(path, at, gnu_msgfmt.msgid_at(lines, at), PLURAL_FORMS,
                        "this message's number of msgstr[n] forms differs from the header's "
                        "Plural-Forms", f"give it one msgstr[n] per form; {plural_hint(lang)}")


def plural_hint(lang: str) -> str:
    """The header to write for the language: CLDR's rule, as `mariage catalogs init` writes
    it."""
    if not known_language(lang):
        return "set it as `mariage catalogs init` writes it for the language"
    return f"for {plurals.language_name(lang)} write `Plural-Forms: " \
           f"{plurals.expected_plural_forms(lang)}`"


def _plural_header_line(text: str) -> int:
    offset = plurals.plural_header(text)[0]
    return text.count("\n", 0, offset) + 1 if offset is not None else 1


def check_plural_rule(path: Path, lang: str, text: str) -> list[Problem]:
    offset, forms = plurals.plural_header(text)
    line = text.count("\n", 0, offset) + 1 if offset is not None else 1
    detail = "the header has no Plural-Forms" if forms is None else plurals.rule_problem(lang,
                                                                                         forms)
    return [file_problem(path, line, "", PLURAL_RULE, detail, plural_hint(lang))] \
        if detail else []


def check_language(path: Path, lang: str, text: str) -> list[Problem]:
    match = re.search(r'^"Language:\s*([^"\\]*)', text, re.M)
    if not match or not match.group(1).strip():
        return [file_problem(path, _header_end(text), "", LANGUAGE, "the header has no "
                             "Language line", f'add "Language: {lang}\\n" to the header: '
                             "Poedit, Weblate and msgfmt read it")]
    declared = match.group(1).strip().replace("-", "_")
    if declared.split("_")[0].lower() != lang.split("_")[0].lower():
        return [file_problem(path, text.count("\n", 0, match.start()) + 1, "", LANGUAGE,
                              f"the header says Language: {declared}, but the catalog is in "
                              f"locales/{lang}/", "check that this is the right language's "
                              f"file, then set Language: {lang}")]
    return []


def _header_end(text: str) -> int:
    """The line of the header entry's last string."""
    head = re.match(r'(?:#[^\n]*\n|\s*\n)*msgid ""\nmsgstr ""\n(?:"[^\n]*\n)*', text)
    return text.count("\n", 0, head.end()) if head else 1


def check_header(path: Path, lang: str, text: str) -> list[Problem]:
    """A catalog starts with its header entry (msgid ""), which says how to read it."""
    if re.search(r'^msgid ""\nmsgstr ""\n"', text, re.M):
        return []
    rule = plurals.expected_plural_forms(lang) if known_language(lang) else "…"
    return [file_problem(path, 1, "", HEADER, "the catalog has no header entry (the first "
                         'entry, msgid "", with its Content-Type, Language and Plural-Forms)',
                         'put it back at the top: msgid "" / msgstr "" / "Content-Type: '
                         f'text/plain; charset=UTF-8\\n" / "Language: {lang}\\n" / '
                         f'"Plural-Forms: {rule}\\n"')]


def known_language(lang: str) -> bool:
    try:
        Locale.parse(lang)
        return re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2}|_[A-Z][a-z]{3})?", lang) is not None
    except (ValueError, UnknownLocaleError):
        return False


def check_file(path: Path, lang: str) -> tuple[str | None, list[Problem]]:
    """The file's text (None when it cannot be read at all) and its file-level problems."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_CATALOG + 1)
    except OSError as exc:
        return None, [file_problem(path, None, "", SYNTAX, f"cannot read the catalog "
                                    f"({exc.strerror})", "run `mariage catalogs init "
                                    f"{lang}` to start it")]
    if len(data) > MAX_CATALOG:
        return None, [file_problem(path, None, "", SYNTAX, f"the catalog is larger than "
                                    f"{MAX_CATALOG >> 20} MB", "a catalog is a few hundred "
                                    "kilobytes; remove what was pasted into it")]
    problems = check_encoding(path, data)
    if problems:
        return None, problems
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:         # no header, so no charset to blame
        bad = data[:exc.start].count(b"\n") + 1
        return None, [file_problem(path, bad, "", ENCODING, f"byte 0x{data[exc.start]:02x} is "
                                   "not UTF-8 (the file was saved in another encoding)")]
    header = check_header(path, lang, text)
    if header:
        return None, header
    problems = msgfmt(path, text, lang) + check_language(path, lang, text)
    if not any(p.check == PLURAL_RULE.id for p in problems):
        problems += check_plural_rule(path, lang, text)
    return text, problems
