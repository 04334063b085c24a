"""The checks every translated message and every catalog file must pass before it ships.

One table, used by the build (a failing message is never shipped) and by `mariage catalogs
check`. Each check has an id and one line a translator reads; a `Problem` names the file, the
msgstr's line, the msgid and what to do. File checks wrap GNU msgfmt (`msgfmt.py`: its errors
put into plain words, at the right line) and compare the Plural-Forms header with CLDR through
Babel (`plurals.py`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from babel import Locale, UnknownLocaleError

from . import msgfmt as gnu_msgfmt
from . import plurals


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int | None
    msgid: str
    message: str
    check: str = ""
    hint: str = ""

    def __str__(self) -> str:
        where = f"{_rel(self.path)}:{self.line}" if self.line else _rel(self.path)
        what = f"[{self.check}] {self.message}" if self.check else self.message
        text = f"{where}: {what}"
        if self.msgid:
            text += f": msgid {_short(self.msgid)!r}"
        return text + (f" ({self.hint})" if self.hint else "")


def _rel(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


INTERFACE = "interface"              # msgctxt of the theme's strings (mariage.site.interface)

# --- per-message checks ------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One message as the checks see it: the English source(s) and the translation(s)."""
    sources: tuple[str, ...]         # (msgid,) or (msgid, msgid_plural)
    strings: tuple[str, ...]         # (msgstr,) or (msgstr[0], msgstr[1], ...)
    nplurals: int                    # the catalog header's count
    context: str | None = None       # msgctxt; "interface" messages are the theme's, not Markdown

    @property
    def plural(self) -> bool:
        return len(self.sources) > 1

    def pairs(self) -> list[tuple[str, str]]:
        """Each translation with the English text it renders: msgstr[0] the singular (the
        plural for a one-form language), every other form the plural."""
        if not self.plural:
            return [(self.sources[0], self.strings[0])]
        first = self.sources[0] if self.nplurals > 1 else self.sources[1]
        return [(first if i == 0 else self.sources[1], s) for i, s in enumerate(self.strings)]


@dataclass(frozen=True)
class Check:
    id: str
    explanation: str                               # the one line a translator sees
    test: Callable[[Entry], str | None]            # what is wrong, or None


_SPEC = re.compile(r"%(?:\((?P<name>[^()]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                   r"[hlL]?(?P<type>[diouxXeEfFgGcrsa%])")


def placeholders(text: str) -> tuple[list[str], list[int]]:
    """The %-placeholders of a text, as written, and the offsets of lone `%` signs."""
    found, lone, i = [], [], 0
    while (i := text.find("%", i)) != -1:
        match = _SPEC.match(text, i)
        if match is None or text[i + 1:i + 2] == " " or (match.group("type") == "%"
                                                         and match.end() - i > 2):
            lone.append(i)
            i += 1
            continue
        if match.group(0) != "%%":
            found.append(match.group(0))
        i = match.end()
    return found, lone


def _placeholders(entry: Entry) -> str | None:
    """The same set of placeholders as the English text (one may be used twice)."""
    allowed = {p for s in entry.sources for p in placeholders(s)[0]}
    for source, string in entry.pairs():
        if not string:
            continue
        want, got = set(placeholders(source)[0]), set(placeholders(string)[0])
        extra = sorted(got - (allowed if entry.plural else want))
        if extra:
            return f"{extra[0]} is not a placeholder of the English text"
        # Every form keeps its number, the singular too: every number on a page is the profile's
        # or the engine's and each language's page must state the English page's numbers, and
        # a singular may also serve 0 (French: "0 levée").
        missing = sorted(want - got)
        if missing:
            return f"{missing[0]} is missing"
    return None


def _percent(entry: Entry) -> str | None:
    for string in entry.strings:
        lone = placeholders(string)[1]
        if lone:
            return f"a lone % at {_excerpt(string, lone[0])}"
    return None


def _plural_count(entry: Entry) -> str | None:
    if entry.plural and len(entry.strings) != entry.nplurals:
        return (f"{len(entry.strings)} msgstr[n] form(s), but the header's Plural-Forms "
                f"declares {entry.nplurals}")
    return None


def _excerpt(text: str, at: int) -> str:
    return repr(text[max(0, at - 12):at + 12])


# Markdown and HTML structure: what a translation must keep, and never add.
_STRUCTURE: list[tuple[str, re.Pattern[str]]] = [
    ("an HTML tag", re.compile(r"</?[A-Za-z!?][^>]*>?")),
    ("a link or image target `](`", re.compile(r"\]\(")),
    ("a reference link `][` or definition `]:`", re.compile(r"\]\[|\]:")),
    ("an image `![`", re.compile(r"!\[")),
    ("a web address", re.compile(r"\b(?:https?|ftp|javascript|data|mailto|vbscript):|//\w|www\.",
                                 re.I)),
    ("a bracket `[`", re.compile(r"\[")),
    ("a bracket `]`", re.compile(r"\]")),
    ("a code mark `` ` ``", re.compile(r"`")),
    ("a table cell separator `|`", re.compile(r"\|")),
    ("an emphasis mark `*`", re.compile(r"\*")),
    ("a brace `{` or `}` (template or attribute syntax)", re.compile(r"[{}]")),
    ("an HTML entity such as `&nbsp;` (type the character itself)",
     re.compile(r"&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);")),
    ("a line break", re.compile(r"\n")),
    ("a heading, quote, list or code block at the start of a line",
     re.compile(r"(?:^|\n)[ \t]*(?:#|>|[-+*] |\d+[.)] |!!!|\?\?\?|:[ \t]|~~~|```| {4}|\t)")),
]


def structure(text: str) -> Counter[str]:
    return Counter({name: len(pattern.findall(text)) for name, pattern in _STRUCTURE})


_BLOCK_START = _STRUCTURE[-1][0]


def _markup(entry: Entry) -> str | None:
    for source, string in entry.pairs():
        if not string:
            continue
        want, got = structure(source), structure(string)
        if entry.context == INTERFACE:
            # The theme's strings are plain text whose `#` is the theme's count placeholder
            # ("# more on this page"): kept anywhere in the sentence, never a heading.
            want[_BLOCK_START], got[_BLOCK_START] = source.count("#"), string.count("#")
            if got[_BLOCK_START] != want[_BLOCK_START]:
                return "changes the count of `#` (the theme's number placeholder): keep exactly one"
        for name, _ in _STRUCTURE:
            if got[name] > want[name]:
                return f"adds {name} that the English text does not have"
            if got[name] < want[name]:
                return f"loses {name} of the English text"
    return None


PLURAL_FORMS = Check("plural-forms", "give one msgstr[n] per plural form the header's "
                     "Plural-Forms declares", _plural_count)
CHECKS: list[Check] = [
    Check("placeholders", "keep every %(name)s placeholder of the English text exactly as it is "
          "written (you may move it); never type the number it stands for", _placeholders),
    Check("percent", "write %% for a percent sign (it shows as one %): a lone % breaks the page",
          _percent),
    PLURAL_FORMS,
    Check("markup", "keep the English text's Markdown and HTML (links, **emphasis**, `code`, "
          "| cells, [brackets], line breaks) and add none: the page shows it as it is written",
          _markup),
]


def check_entry(entry: Entry) -> list[tuple[Check, str]]:
    """Every check this translation fails, with what is wrong."""
    failures = []
    for check in CHECKS:
        detail = check.test(entry)
        if detail:
            failures.append((check, detail))
    return failures


def problem(path: Path, line: int | None, msgid: str, check: Check, detail: str) -> Problem:
    return Problem(path, line, msgid, detail, check=check.id, hint=check.explanation)


# --- file checks -----------------------------------------------------------------------

def _file_level(entry: Entry) -> None:
    """File checks look at the whole file (see `check_file`), not at one message."""
    return None


ENCODING = Check("encoding", "save the file as UTF-8 and declare `charset=UTF-8` in its header "
                 "(Poedit and every gettext tool can)", _file_level)
SYNTAX = Check("syntax", "fix the PO syntax at this line", _file_level)
PLURAL_RULE = Check("plural-rule", "set the header's Plural-Forms to the rule "
                    "`mariage catalogs init` writes for the language", _file_level)
LANGUAGE = Check("language", "the header's Language must be the catalog's folder name",
                 _file_level)
FILE_CHECKS = [ENCODING, SYNTAX, PLURAL_RULE, LANGUAGE]


def file_problem(path: Path, line: int | None, msgid: str, check: Check, detail: str,
                  hint: str | None = None) -> Problem:
    return Problem(path, line, msgid, detail, check=check.id, hint=hint or check.explanation)


def check_encoding(path: Path, data: bytes) -> list[Problem]:
    if data.startswith(b"\xef\xbb\xbf"):
        return [file_problem(path, 1, "", ENCODING, "the file starts with a byte-order mark",
                              "save it as UTF-8 without BOM")]
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


def msgfmt(path: Path, text: str) -> list[Problem]:
    """GNU `msgfmt --check`'s complaints as problems, in plain words at the right line."""
    if not gnu_msgfmt.available():
        return [file_problem(path, None, "", SYNTAX, "GNU msgfmt is missing",
                             "install gettext: apt-get install gettext, or brew install "
                             "gettext")]
    understood, found = gnu_msgfmt.complaints(text)
    lines, problems = text.splitlines(), []
    for line, message in found:
        if gnu_msgfmt.miscounted(message):
            problems.append(_plural_count_problem(path, text, lines, line))
            continue
        what, fix = gnu_msgfmt.plain(message)
        if "twice" in what:                    # msgfmt names the duplicate's msgid line
            line = next((i for i in range(line, min(len(lines), line + 50)) if
                         lines[i - 1].startswith("msgstr")), line)
        check = ENCODING if "UTF-8" in fix else PLURAL_RULE if "Plural-Forms" in what else SYNTAX
        if check is PLURAL_RULE:
            line = _plural_header_line(text)
        problems.append(file_problem(path, line, gnu_msgfmt.msgid_at(lines, line), check, what,
                                     fix))
    if not understood:
        problems.append(file_problem(path, None, "", SYNTAX, "GNU msgfmt refuses the file",
                                     "open it in Poedit or run `msgfmt --check` on it to see "
                                     "where"))
    return problems


def _plural_count_problem(path: Path, text: str, lines: list[str], line: int) -> Problem:
    """msgfmt's 'some messages have only N plural forms': the header is wrong when every
    plural message agrees, else that message is."""
    counts = {len(re.findall(r"^msgstr\[\d+\]", entry, re.M))
              for entry in re.split(r"\n\s*\n", text) if "\nmsgid_plural " in "\n" + entry}
    declared = plurals.plural_header(text)[1] or ""
    if len(counts) == 1:
        return file_problem(path, _plural_header_line(text), "", PLURAL_RULE,
                             f"Plural-Forms `{declared.strip()}` does not match the "
                             f"{counts.pop()} msgstr[n] forms of every plural message",
                             "set the header back, or run `mariage catalogs init` in a scratch "
                             "copy to see the rule for the language")
    at = next((i for i in range(line, min(len(lines), line + 50)) if
               lines[i - 1].startswith("msgstr")), line)
    return file_problem(path, at, gnu_msgfmt.msgid_at(lines, at), PLURAL_FORMS,
                         "this message's number of msgstr[n] forms differs from the header's "
                         "Plural-Forms")


def _plural_header_line(text: str) -> int:
    offset = plurals.plural_header(text)[0]
    return text.count("\n", 0, offset) + 1 if offset is not None else 1


def check_plural_rule(path: Path, lang: str, text: str) -> list[Problem]:
    offset, forms = plurals.plural_header(text)
    line = text.count("\n", 0, offset) + 1 if offset is not None else 1
    hint = f"for {lang!r} write `Plural-Forms: {plurals.expected_plural_forms(lang)}`"
    detail = "the header has no Plural-Forms" if forms is None else plurals.rule_problem(lang,
                                                                                         forms)
    return [file_problem(path, line, "", PLURAL_RULE, detail, hint)] if detail else []


def check_language(path: Path, lang: str, text: str) -> list[Problem]:
    match = re.search(r'^"Language:\s*([^"\\]*)', text, re.M)
    if not match or not match.group(1).strip():
        return []
    declared = match.group(1).strip().replace("-", "_")
    if declared.split("_")[0].lower() != lang.split("_")[0].lower():
        return [file_problem(path, text.count("\n", 0, match.start()) + 1, "", LANGUAGE,
                              f"the header says Language: {declared}, but the catalog is in "
                              f"locales/{lang}/", "check that this is the right language's "
                              f"file, then set Language: {lang}")]
    return []


def known_language(lang: str) -> bool:
    try:
        Locale.parse(lang)
        return re.fullmatch(r"[a-z]{2,3}(_[A-Z]{2}|_[A-Z][a-z]{3})?", lang) is not None
    except (ValueError, UnknownLocaleError):
        return False


def check_file(path: Path, lang: str) -> tuple[str | None, list[Problem]]:
    """The file's text (None when it cannot be read at all) and its file-level problems."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [file_problem(path, None, "", SYNTAX, f"cannot read the catalog "
                                    f"({exc.strerror})", "run `mariage catalogs init "
                                    f"{lang}` to start it")]
    problems = check_encoding(path, data)
    if problems:
        return None, problems
    text = data.decode("utf-8")
    problems = msgfmt(path, text) + check_language(path, lang, text)
    if not any(p.check == PLURAL_RULE.id for p in problems):
        problems += check_plural_rule(path, lang, text)
    return text, problems
