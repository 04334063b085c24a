"""What the catalog checks read of one Babel message: its English text(s), its translation(s),
its state, its key, and the line of its msgstr in the file."""

from __future__ import annotations

from babel.messages.catalog import Message


def msgstrs(message: Message) -> tuple[str, ...]:
    value = message.string
    return tuple(value) if isinstance(value, (list, tuple)) else (value or "",)


def msgids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def state(message: Message) -> str:
    """"fuzzy", "translated" or "untranslated" (every plural form must be filled)."""
    if message.fuzzy:
        return "fuzzy"
    return "translated" if all(msgstrs(message)) else "untranslated"


def message_key(message: Message) -> tuple[str, str | None]:
    return msgids(message)[0], message.context


def msgstr_line(lines: list[str], msgid_line: int | None) -> int | None:
    """The line of an entry's (first) msgstr, from the line of its msgid."""
    if msgid_line is None:
        return None
    for i in range(msgid_line - 1, min(len(lines), msgid_line + 200)):
        if lines[i].startswith("msgstr"):
            return i + 1
    return msgid_line
