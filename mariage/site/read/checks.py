"""The checks every translated message and every catalog file must pass before it ships.

One table, used by the build (a failing message is never shipped) and by `mariage catalogs
check`. Each check has an id and one line a translator reads; a `Problem` names the file, the
msgstr's line, the msgid and what to do. The checks themselves, by family: `message_checks.py`
(one message against its English text), `facts.py` (the facts it states) and `file_checks.py`
(the whole file: GNU msgfmt, encoding, header, Plural-Forms against CLDR).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import facts, message_checks
from .message_checks import MAX_MESSAGE, Entry


# Where a problem's message or hint names another file (a missing termbase, the template a
# message is missing from), it holds PATH and the problem's `refers` holds the file: the path is
# shown when the problem is, so the same check of the same files says the right thing from any
# copy of the project and any working folder (`CheckedCatalog.moved_to`).
PATH = "\x00path\x00"


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int | None
    msgid: str
    message: str
    check: str = ""
    hint: str = ""
    refers: Path | None = None            # the file PATH stands for in message and hint

    @property
    def said(self) -> str:
        """The message as a translator reads it: PATH shown as the file it stands for."""
        return self._filled(self.message)

    @property
    def advice(self) -> str:
        """The hint as a translator reads it."""
        return self._filled(self.hint)

    def _filled(self, text: str) -> str:
        return text.replace(PATH, shown(self.refers)) if self.refers is not None else text

    def __str__(self) -> str:
        where = f"{shown(self.path)}:{self.line}" if self.line else shown(self.path)
        what = f"[{self.check}] {self.said}" if self.check else self.said
        text = f"{where}: {what}"
        if self.msgid:
            text += f": msgid {_short(self.msgid)!r}"
        return text + (f" ({self.advice})" if self.hint else "")


def shown(path: Path) -> str:
    """A path as problems show it: relative to the working folder when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass(frozen=True)
class Check:
    id: str
    explanation: str                               # the one line a translator sees
    test: Callable[[Entry], str | None]            # what is wrong, or None


# --- per-message checks ------------------------------------------------------------------

PLURAL_FORMS = Check("plural-forms", "give one msgstr[n] per plural form the header's "
                     "Plural-Forms declares", message_checks.plural_count)
SIZE = Check("size", f"keep a translation under {MAX_MESSAGE:,} characters (or 3 times the "
             "English text) and use each placeholder as often as the English text does",
             message_checks.size)
CHECKS: list[Check] = [
    SIZE,
    Check("characters", "remove the control or invisible character (type plain text; a "
          "no-break space is fine)", message_checks.characters),
    Check("placeholders", "keep every %(name)s placeholder of the English text exactly as it is "
          "written (you may move it); never type the number it stands for",
          message_checks.kept_placeholders),
    Check("percent", "write %% for a percent sign (it shows as one %): a lone % breaks the page",
          message_checks.percent_signs),
    PLURAL_FORMS,
    Check("markup", "keep the English text's Markdown and HTML (links, **emphasis**, `code`, "
          "| cells, [brackets], line breaks) and add none: the page shows it as it is written",
          message_checks.markup),
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
    """File checks look at the whole file (see `file_checks.check_file`), not at one message."""
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

