"""The checks every translated message and every catalog file must pass before it ships.

One table, used by the build (a failing message is never shipped) and by `mariage catalogs
check`. Each check has an id and one line a translator reads; a `Problem` names the file, the
msgstr's line, the msgid and what to do. File checks wrap GNU msgfmt (`msgfmt.py`: its errors
put into plain words, at the right line) and compare the Plural-Forms header with CLDR through
Babel (`plurals.py`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from babel import Locale, UnknownLocaleError

from . import facts
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
    notes: tuple[str, ...] = ()      # the `#.` notes and the translator's own `#` comments
    lang: str = ""                   # the catalog's language (number words, plural forms)

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
    for form, (source, string) in enumerate(entry.pairs()):
        if not string:
            continue
        spaced = _SPACED.search(string)
        if spaced:
            space = "a space" if spaced.group(2) == " " else _visible(spaced.group(2))
            return (f"{_visible(spaced.group(0))} has {space} inside it, so it is not a "
                    f"placeholder: write %({spaced.group(1)}){spaced.group(3)}")
        want, got = set(placeholders(source)[0]), set(placeholders(string)[0])
        extra = sorted(got - (allowed if entry.plural else want))
        if extra:
            return f"{extra[0]} is not a placeholder of the English text"
        # Every form keeps its number, the singular too: every number on a page is the profile's
        # or the engine's and each language's page must state the English page's numbers, and
        # a singular may also serve 0 (French: "0 levée"). A form shown only for 1 may write
        # the word for one instead ("una baza").
        missing = sorted(want - got)
        if missing and not facts.spells_one(entry, form, string, missing):
            return f"{missing[0]} is missing"
        swapped = facts.order_changed(entry, source, string)
        if swapped:
            return swapped
    return None


# A placeholder with a space typed into it: `%(size) s`, or a no-break space from a French
# keyboard's habit.
_SPACED = re.compile(r"%\((\w+)\)(\s+)([sdif])(?!\w)")


def _percent(entry: Entry) -> str | None:
    for string in entry.strings:
        # `{% … %}` is named by the markup check, a spaced placeholder by the placeholders one
        lone = [i for i in placeholders(string)[1] if string[i - 1:i] != "{"
                and string[i + 1:i + 2] != "}" and not _SPACED.match(string, i)]
        if lone:
            return f"a lone % in {_excerpt(string, lone[0])}"
    return None


def _plural_count(entry: Entry) -> str | None:
    if entry.plural and len(entry.strings) != entry.nplurals:
        return (f"{len(entry.strings)} msgstr[n] form(s), but the header's Plural-Forms "
                f"declares {entry.nplurals}")
    return None


def _excerpt(text: str, at: int) -> str:
    """The words around `at`, their invisible characters named."""
    start = text.rfind(" ", 0, max(0, at - 12)) + 1
    end = text.find(" ", at + 12)
    return "“" + _visible(text[start:end if end != -1 else len(text)]) + "”"


def _visible(text: str) -> str:
    """Text as a translator sees it, every invisible or unusual space named: never a Python
    escape such as \\xa0."""
    out = []
    for char in text:
        if char == "\n":
            out.append("⟨line break⟩")
        elif char != " " and (char.isspace() or unicodedata.category(char) in ("Cf", "Cc", "Zs")):
            out.append(f"⟨{unicodedata.name(char, f'U+{ord(char):04X}').lower()}⟩")
        else:
            out.append(char)
    return "".join(out)


MAX_CATALOG = 8 << 20     # bytes of one catalog file (a complete one is about 320 KB)
MAX_MESSAGE = 2000        # characters of one translation (or 3 times its English text)
MAX_REPEAT = 1            # uses of a placeholder beyond the English text's count


def _size(entry: Entry) -> str | None:
    """A bounded translation: at most MAX_MESSAGE characters (or 3 times the English text),
    and no placeholder repeated more than once beyond the English text's uses. Checked first:
    an oversized message is refused before any other check reads it."""
    for source, string in entry.pairs():
        limit = max(MAX_MESSAGE, 3 * len(source))
        if len(string) > limit:
            return f"the translation is {len(string):,} characters long; the limit is {limit:,}"
        if "%(" in string:
            want = Counter(placeholders(source)[0])
            for name, count in Counter(placeholders(string)[0]).items():
                if count > want[name] + MAX_REPEAT:
                    return (f"{name} is used {count:,} times; the English text uses it "
                            f"{want[name]} time(s)")
    return None


def _invisible_characters() -> str:
    """Control, format (zero-width, bidi), separator, private and surrogate code points."""
    ranges = [range(0x10000), range(0x110BD, 0x110CE), range(0x13430, 0x13440),
              range(0x1BCA0, 0x1BCA4), range(0x1D173, 0x1D17B), range(0xE0000, 0xE0080)]
    found = [chr(c) for r in ranges for c in r
             if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")
             and chr(c) != "\n"]                 # line breaks: the markup check counts them
    return "".join(re.escape(c) for c in found)


_INVISIBLE = re.compile(f"[{_invisible_characters()}\U000F0000-\U0010FFFF]")


def _characters(entry: Entry) -> str | None:
    """No control or invisible character the English text does not have: a NUL, a carriage
    return (a line break to Markdown), a zero-width space, a bidi override (120 shown as 021)."""
    for source, string in entry.pairs():
        for match in _INVISIBLE.finditer(string):
            char = match.group(0)
            if char not in source:
                name = unicodedata.name(char, "a control character")
                return (f"holds U+{ord(char):04X} ({name.lower()}) at character "
                        f"{match.start() + 1}, which the English text does not have")
    return None


# Markdown and HTML structure: what a translation must keep, and never add.
_STRUCTURE: list[tuple[str, re.Pattern[str]]] = [
    ("Jinja template braces `{{ … }}` (template code: the page would run it)",
     re.compile(r"\{\{|\}\}")),
    ("a Jinja statement `{% … %}` (template code: the page would run it)",
     re.compile(r"\{%|%\}")),
    ("a Jinja comment `{# … #}`", re.compile(r"\{#|#\}")),
    ("an HTML tag", re.compile(r"</?[A-Za-z!?][^<>]*>?")),       # [^<>]: linear on `<<<…`
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
    ("an underscore `_` (emphasis)", re.compile(r"_")),
    ("a backslash `\\` (it escapes the markup after it)", re.compile(r"\\")),
    ("a brace `{` or `}` (template or attribute syntax)", re.compile(r"[{}]")),
    ("an HTML entity such as `&nbsp;` (type the character itself)",
     re.compile(r"&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);")),
    ("a line break", re.compile(r"\n")),
    ("a heading, quote, list or code block at the start of a line",
     re.compile(r"(?:^|\n)[ \t]*(?:#|>|[-+*] |\d+[.)] |!!!|\?\?\?|:[ \t]|~~~|```| {4}|\t)")),
]


def structure(text: str) -> Counter[str]:
    return Counter(_structure(text))


@lru_cache(maxsize=8192)       # every catalog repeats the English texts: counted once each
def _structure(text: str) -> dict[str, int]:
    return {name: len(pattern.findall(text)) for name, pattern in _STRUCTURE}


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
SIZE = Check("size", f"keep a translation under {MAX_MESSAGE:,} characters (or 3 times the "
             "English text) and use each placeholder as often as the English text does", _size)
CHECKS: list[Check] = [
    SIZE,
    Check("characters", "remove the control or invisible character (type plain text; a "
          "no-break space is fine)", _characters),
    Check("placeholders", "keep every %(name)s placeholder of the English text exactly as it is "
          "written (you may move it); never type the number it stands for", _placeholders),
    Check("percent", "write %% for a percent sign (it shows as one %): a lone % breaks the page",
          _percent),
    PLURAL_FORMS,
    Check("markup", "keep the English text's Markdown and HTML (links, **emphasis**, `code`, "
          "| cells, [brackets], line breaks) and add none: the page shows it as it is written",
          _markup),
    Check("rulings", "keep the English text's ruling references (R1 to R19) exactly: each is "
          "a link to that ruling", facts.rulings),
    Check("numbers", "state only the English text's numbers, as digits or as words; a number "
          "that comes from the rules is a %(name)s placeholder, never typed", facts.numbers),
    Check("code", "copy the text between backquotes exactly: it is the engine's notation "
          "(moves, cards), which readers type as it is", facts.code_spans),
    Check("links", "copy every web address and link target exactly as the English text has it",
          facts.urls),
    Check("unchanged", "translate it; if it rightly stays as in English in your language, as "
          "a name or notation, put the comment line `# stays as in English` above its msgid",
          facts.unchanged),
]


def check_entry(entry: Entry) -> list[tuple[Check, str]]:
    """Every check this translation fails, with what is wrong."""
    failures = []
    for check in CHECKS:
        detail = check.test(entry)
        if detail:
            failures.append((check, detail))
            if check is SIZE:          # not read further: no check may take its size's time
                break
    return failures


def problem(path: Path, line: int | None, msgid: str, check: Check, detail: str) -> Problem:
    return Problem(path, line, msgid, detail, check=check.id, hint=check.explanation)


# --- file checks -----------------------------------------------------------------------

def _file_level(entry: Entry) -> None:
    """File checks look at the whole file (see `check_file`), not at one message."""
    return None


ENCODING = Check("encoding", "save the file as UTF-8 and declare `charset=UTF-8` in its header: "
                 "Poedit and every gettext tool can", _file_level)
SYNTAX = Check("syntax", "fix the PO syntax at this line", _file_level)
PLURAL_RULE = Check("plural-rule", "set the header's Plural-Forms to the language's rule "
                    "(CLDR), as `mariage catalogs init` writes it", _file_level)
LANGUAGE = Check("language", "the header's Language must be the catalog's folder name",
                 _file_level)
HEADER = Check("header", "the catalog starts with its header entry (msgid \"\")", _file_level)
FILE_CHECKS = [ENCODING, SYNTAX, PLURAL_RULE, LANGUAGE, HEADER]


def file_problem(path: Path, line: int | None, msgid: str, check: Check, detail: str,
                  hint: str | None = None) -> Problem:
    return Problem(path, line, msgid, detail, check=check.id, hint=hint or check.explanation)


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
