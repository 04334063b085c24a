"""What each field of the rules profile may hold, checked on the standard library alone: the
patterns of its strings (each with the plain words an error says), the bounds of its numbers
and lists (`Limit`), and `Checked`, the base of every class of `schema.py`, whose
__post_init__ checks them and then the class's own rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

# Strings that pages print: plain words only, so no profile can put Markdown or HTML (a link,
# an image, emphasis, an attribute list) on a page. \A...\Z: `$` would allow a final newline.
WORDS = r"\A(?:[^\W_]|[ \-'’.,])+\Z"
RANK = r"\A(?:[A-Z]|[1-9][0-9]?)\Z"
SUIT_CODE = r"\A[a-z]\Z"
SYMBOL = r"\A(?:[A-Za-z]|[^\x00-\x7f])\Z"
ONE_WORD = r"\A[^\W_]+\Z"
SOURCE_ID = r"\A[A-Za-z0-9-]+\Z"
# A title is shown as a link's text or a list item's: no Markdown mark, brace or control.
SOURCE_TITLE = r"\A[^\[\]<>`*_{}|\\\x00-\x1f\x7f]+\Z"
# A URL is a link's target: no space, quote, bracket or parenthesis that would end it.
SOURCE_URL = r"\A(?:https?://[^\s<>\"'()\[\]\\]+)?\Z"
LANGUAGE = r"\A[a-z]{2,3}\Z"                       # an ISO 639 code, as Babel names languages
PATTERNS = {
    SOURCE_ID: "letters, digits and - only",
    SOURCE_TITLE: "plain text (no [ ] < > ` * _ { } | \\ or control character)",
    LANGUAGE: "a language code of two or three lower-case letters, such as es",
    SOURCE_URL: "an http:// or https:// address without spaces, quotes, brackets or parentheses",
    WORDS: "plain words (letters, digits, spaces and - ' . , only)",
    RANK: "a rank written as one capital letter or a number, such as K or 10",
    SUIT_CODE: "one lowercase letter",
    SYMBOL: "one letter or one non-ASCII symbol such as ♣",
    ONE_WORD: "one word of letters or digits",
}


@dataclass(frozen=True)
class Limit:
    """A value's bounds (Annotated metadata), checked by each class's __post_init__; its
    messages are worded as msgspec words its own, so profile.py says them the same way."""
    ge: int | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None

    def problem(self, value: Any) -> str | None:
        """What is wrong with value, or None."""
        kind = "`str`" if isinstance(value, str) else "`array`"
        if self.ge is not None and value < self.ge:
            return f"Expected `int` >= {self.ge}"
        if self.min_length is not None and len(value) < self.min_length:
            return f"Expected {kind} of length >= {self.min_length}"
        if self.max_length is not None and len(value) > self.max_length:
            return f"Expected {kind} of length <= {self.max_length}"
        if self.pattern is not None and not re.search(self.pattern, value):
            return "must be " + PATTERNS.get(self.pattern, f"a string matching regex {self.pattern!r}")
        return None


PositiveInt = Annotated[int, Limit(ge=1)]
Points = Annotated[int, Limit(ge=0)]
Words = Annotated[str, Limit(pattern=WORDS)]


class Pinned(ValueError):
    """A check's error pinned to `key` (relative to the class), so the line is the key's."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


_LIMITS: dict[type, list[tuple[str, Limit, bool]]] = {}


def _limits(cls: type) -> list[tuple[str, Limit, bool]]:
    """Each field's Limits, and whether one holds for each item of a list (read once per class)."""
    if cls not in _LIMITS:
        found = []
        for name, hint in get_type_hints(cls, include_extras=True).items():
            for kind in (hint, *get_args(hint)) if get_origin(hint) is Union else (hint,):
                if get_origin(kind) is Annotated:
                    found += [(name, m, False) for m in kind.__metadata__ if isinstance(m, Limit)]
                    kind = get_args(kind)[0]
                if get_origin(kind) is list and get_origin(get_args(kind)[0]) is Annotated:
                    item = get_args(kind)[0]
                    found += [(name, m, True) for m in item.__metadata__ if isinstance(m, Limit)]
        _LIMITS[cls] = found
    return _LIMITS[cls]


class Checked:
    """Checks each field's Limits, then the class's own rules (`check`)."""

    def __post_init__(self) -> None:
        for name, limit, each in _limits(type(self)):
            value = getattr(self, name)
            if value is None:
                continue
            for index, item in enumerate(value) if each else [(None, value)]:
                problem = limit.problem(item)
                if problem:
                    raise Pinned(name if index is None else f"{name}.{index}", problem)
        self.check()

    def check(self) -> None:
        """The cross-field rules; raise Pinned naming the key at fault."""

