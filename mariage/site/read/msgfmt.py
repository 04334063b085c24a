"""GNU msgfmt, the reference reader of PO files: its complaints about a catalog, each at its
line and put into plain words a translator can act on."""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from typing import Sequence


def available() -> bool:
    return shutil.which("msgfmt") is not None


def complaints(text: str) -> tuple[bool, list[tuple[int, str]]]:
    """`msgfmt --check` on the text: whether it understood it (False: it refused the file
    without a line to show) and each complaint as (line, message). Its format and plural-count
    complaints about the header are left out; the line is the one msgfmt means (it writes
    `file:line:column:`, and the column is not a line)."""
    run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", "-"], input=text.encode(),
                         capture_output=True)
    if run.returncode == 0:
        return True, []
    found, understood = [], False
    for raw in run.stderr.decode("utf-8", "replace").splitlines():
        match = re.match(r"^<stdin>:(\d+):(?:\d+:)? (.*)$", raw)
        if raw.startswith("msgfmt: ") and _MSGFMT_OWN.search(raw):
            understood = True
        if not match or "warning:" in raw:
            continue
        understood = True
        if _MSGFMT_OWN.search(match.group(2)) or _HEADER_COUNT.match(match.group(2)):
            continue
        line = int(match.group(1)) - ("end-of-line within string" in raw)  # counted after the \n
        found.append((line, match.group(2)))
    return understood, found


def miscounted(message: str) -> bool:
    """msgfmt's 'some messages have only N plural forms'."""
    return _ENTRY_COUNT.search(message) is not None


# GNU msgfmt's messages in plain words: (pattern, what happened, what to do). Its format and
# plural-count complaints are left out: the message checks (message_checks.py) say the same per message.
_MSGFMT_OWN = re.compile(r"format specification|not a valid Python format string|"
                         r"fatal error|location of the first definition")
_HEADER_COUNT = re.compile(r"^nplurals = (\d+)\.\.\.$")
_ENTRY_COUNT = re.compile(r"but some messages have (?:only )?(\w+) plural forms?")
_MSGFMT: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"entries do not both (?:begin|end) with '\\n'"), "the translation starts or "
     "ends with a line break (\\n) and the English text does not, or the other way round",
     "begin and end the msgstr as the msgid does: add or remove the \\n"),
    (re.compile(r'keyword "(.*)" unknown'), 'a quotation mark " inside the text ends the string '
     "early", r'write \" for each quotation mark inside a string'),
    (re.compile(r"end-of-line within string"), "a string is not closed on its line",
     'end the line with the closing "'),
    (re.compile(r"end-of-file within string"), "the last string is not closed",
     'end it with the closing "'),
    (re.compile(r"invalid control sequence"), r"a backslash \ starts an unknown escape",
     r'write \\ for a backslash, \" for a quotation mark'),
    (re.compile(r"duplicate message definition"), "this msgid appears twice in the file",
     "keep one of the two entries and delete the other"),
    (re.compile(r"missing 'msgstr'"), "the entry has no msgstr line", 'add msgstr ""'),
    (re.compile(r"msgid_plural|msgstr\[\d+\]"), "the entry mixes plural and non-plural lines",
     "restore the entry as `mariage catalogs update` wrote it"),
    (re.compile(r"invalid multibyte sequence|incomplete multibyte|invalid character"),
     "the text is not valid in the declared charset", "save the file as UTF-8"),
    (re.compile(r"plural expression|nplurals|Plural-Forms"), "the header's Plural-Forms is not "
     "valid", "set it as `mariage catalogs init` writes it for the language"),
    (re.compile(r"syntax error"), "the line is not valid PO syntax",
     r'check for a quotation mark written " instead of \" or a missing quote'),
]


_KEYWORDS = ["msgid", "msgstr", "msgctxt", "msgid_plural"]


def misspelt_keyword(lines: Sequence[str], line: int, message: str) -> tuple[str, str] | None:
    """msgfmt's 'keyword "msgtsr" unknown' for a line that starts with that word: a misspelt
    keyword (the same complaint mid-line is a quotation mark that ends a string early)."""
    word = re.search(r'keyword "(.*)" unknown', message)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if word is None or not text.startswith(word.group(1)):
        return None
    close = difflib.get_close_matches(word.group(1), _KEYWORDS, n=1, cutoff=0.5)
    return (f"`{word.group(1)}` is not a PO keyword",
            f"write {close[0]}" if close else f"use one of {', '.join(_KEYWORDS)}")


def plain(message: str) -> tuple[str, str]:
    for pattern, what, fix in _MSGFMT:
        match = pattern.search(message)
        if match:
            return what, fix
    return "the file is not valid gettext PO here", "compare the entry with its neighbours"


def msgid_at(lines: Sequence[str], line: int) -> str:
    """The msgid of the entry that holds `line` (1-based), '' for the header."""
    for i in range(min(line, len(lines)) - 1, -1, -1):
        match = re.match(r'^msgid "(.*)"$', lines[i])
        if match:
            return match.group(1).replace('\\"', '"')
        if i < line - 1 and not lines[i].strip():
            break
    for i in range(min(line, len(lines)), len(lines)):
        match = re.match(r'^msgid "(.*)"$', lines[i])
        if match:
            return match.group(1).replace('\\"', '"')
        if not lines[i].strip():
            break
    return ""
