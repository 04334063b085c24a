"""A catalog compared with its template (locales/messages.pot), as GNU msgcmp compares them:
a message the template does not have (an edited msgid, a dropped or changed msgctxt) and a
template message the catalog lacks. Neither is ever shipped."""

from __future__ import annotations

import difflib
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from . import checks
from .checks import Problem
from .po_messages import message_key, msgids, msgstr_line

TEMPLATE = "template"
Key = tuple[str, str | None]          # (msgid, msgctxt)


def compare(catalog: Catalog, path: Path, lines: list[str], template: dict[Key, Message],
            pot: Path) -> tuple[set[Key], int, list[Problem]]:
    """The catalog's messages the template does not have (stale), the count of template
    messages the catalog lacks, and a problem for each, in that order."""
    ours = {message_key(m): m for m in catalog if m.id}
    by_msgid: dict[str, list[Message]] = {}
    for message in template.values():
        by_msgid.setdefault(msgids(message)[0], []).append(message)
    stale: set[Key] = set()
    missing, problems = 0, []
    for key, message in ours.items():
        known = template.get(key)
        if known is not None and msgids(known) == msgids(message):
            continue
        stale.add(key)
        detail, hint = _drift(message, known, by_msgid.get(key[0], []),
                              {k: m for k, m in template.items() if k not in ours})
        problems.append(Problem(path, msgstr_line(lines, message.lineno), key[0], detail,
                                check=TEMPLATE, hint=hint))
    for key, message in template.items():
        if key not in ours:
            missing += 1
            problems.append(Problem(pot, message.lineno, key[0], f"this message of the "
                                    f"template is missing from {checks.PATH}",
                                    check=TEMPLATE, hint="run `mariage catalogs update`, "
                                    "which adds it; never delete an entry by hand",
                                    refers=path))
    return stale, missing, problems


def _drift(message: Message, known: Message | None, same_msgid: list[Message],
           lacking: dict) -> tuple[str, str]:
    """What is wrong with a catalog message the template does not have; `lacking` is the
    template's messages the catalog does not have (what an edited msgid was)."""
    restore = "restore the msgid (and msgctxt) exactly as locales/messages.pot has them: only " \
              "msgstr lines are yours to edit"
    if known is not None:
        return ("the English plural (msgid_plural) differs from the template's", restore)
    if same_msgid:
        contexts = ", ".join(repr(m.context) if m.context else "none" for m in same_msgid)
        now = repr(message.context) if message.context else "none"
        return (f"the msgctxt is {now}, but the template has this msgid with msgctxt "
                f"{contexts}", "restore the msgctxt line as the template has it")
    guess = _was(message, lacking)
    guess = f" (the template has {checks._short(guess, 60)!r})" if guess else ""
    return (f"this msgid is not in the template{guess}: it was edited, or the English text was "
            "removed", restore + "; `mariage catalogs update` turns a removed message into an "
            "obsolete #~ entry")


def _was(message: Message, template: dict) -> str | None:
    """The template message an edited msgid most likely was, among those the catalog lacks:
    the one written at the same source lines (`#:`), else the closest text."""
    here = set(message.locations)
    same = [m for m in template.values() if here and here & set(m.locations)]
    if len(same) == 1:
        return msgids(same[0])[0]
    close = difflib.get_close_matches(msgids(message)[0], [k[0] for k in template], n=1,
                                      cutoff=0.6)
    return close[0] if close else None

