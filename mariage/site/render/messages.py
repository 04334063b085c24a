"""The catalog messages a render looks up, so a rendered page is keyed by those messages
only, not by its whole catalog: a translator's save re-renders the pages that use the message
saved, in that language, and no other.

Every lookup a template makes (gettext, ngettext, pgettext, npgettext and `{% trans %}`) is
noted while a render runs. A page is kept under two keys: its inputs without the catalog give
the messages its last render looked up; those messages' shipped strings (every plural form), the
catalog's Plural-Forms and Language headers and the language's kind of translations then give
its text. A render is a function of its inputs and of the strings it looked up, so a page
whose messages all read as they did renders as it did; a render that looks up other
messages than before (a changed string steering an `{% if %}`) notes its new set.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, TypeVar
from weakref import WeakKeyDictionary

from babel.support import NullTranslations
from jinja2.runtime import Macro

from ..cache import MISSING, StageCache, digest

T = TypeVar("T")

# A message as noted: (msgctxt or None, msgid), the msgid a (singular, plural) pair for plurals.
Message = tuple[str | None, Any]

# The sets that the renders running now note their lookups into (an outer render's too).
_RECORDERS: ContextVar[tuple[set[Message], ...]] = ContextVar("recorders", default=())


def note(context: str | None, msgid: Any) -> None:
    """A message looked up by the render running now (none: nothing is noted)."""
    for seen in _RECORDERS.get():
        seen.add((context, msgid))


def noted(messages: Iterable[Message]) -> None:
    """Messages a render uses through a value made earlier (a cached page, a memo)."""
    for context, msgid in messages:
        note(context, msgid)


@contextmanager
def recording() -> Iterator[set[Message]]:
    """The messages looked up inside this block."""
    seen: set[Message] = set()
    token = _RECORDERS.set(_RECORDERS.get() + (seen,))
    try:
        yield seen
    finally:
        _RECORDERS.reset(token)


@dataclass(frozen=True)
class Shipped:
    """What a language's translations hold, as plain data (a warm build reads it from the
    stage cache instead of compiling the catalog): the kind of translations, each shipped
    string by its gettext key, and the headers that change how any message reads."""
    kind: str
    strings: dict[Any, str]
    plural_forms: str | None
    language: str | None


def shipped(translations: NullTranslations) -> Shipped:
    info = getattr(translations, "_info", {})
    return Shipped(type(translations).__name__, dict(getattr(translations, "_catalog", {})),
                   info.get("plural-forms"), info.get("language"))


def messages_digest(strings: Shipped, used: Iterable[Message]) -> str:
    """The content hash of what `used` read: each message's shipped string or plural forms
    (None or none when it does not ship: English shows) and the headers."""
    catalog = strings.strings
    values = []
    for context, msgid in used:
        singular = msgid[0] if isinstance(msgid, tuple) else msgid
        key = singular if context is None else f"{context}\x04{singular}"
        values.append([catalog.get((key, i)) for i in range(_forms(catalog, key))]
                      if isinstance(msgid, tuple) else catalog.get(key))
    return digest(strings.kind, strings.plural_forms, strings.language, list(used), values)


def _forms(catalog: dict[Any, str], key: str) -> int:
    count = 0
    while (key, count) in catalog:
        count += 1
    return count


def render_cached(cache: StageCache, stage: str, key: str, strings: Shipped,
                  compute: Callable[[], T]) -> T:
    """What `compute` renders in the language whose catalog ships `strings`, for inputs `key`
    (which leaves the catalog out): kept by `key` and the strings of the messages the render
    looked up."""
    used = cache.find(f"{stage}-messages", key)
    if used is not MISSING:
        value = cache.find(stage, digest(key, messages_digest(strings, used)))
        if value is not MISSING:
            cache.counts[f"{stage}:hit"] += 1
            noted(used)
            return value
    cache.counts[f"{stage}:miss"] += 1
    with recording() as seen:
        value = compute()
    used = sorted(seen, key=repr)
    cache.put(f"{stage}-messages", key, used)
    cache.put(stage, digest(key, messages_digest(strings, used)), value)
    return value


def remembered(memo: dict[Any, Any], key: Any, compute: Callable[[], T]) -> T:
    """`compute()` once per `key` in `memo`, the messages it looked up noted at each use: a
    page that reuses another's value depends on those messages as much as the first did."""
    if key not in memo:
        with recording() as seen:
            memo[key] = (compute(), sorted(seen, key=repr))
    value, used = memo[key]
    noted(used)
    return value


def drawing(current: Callable[[], NullTranslations]) -> Callable[..., Any]:
    """The templates' `once(macro, *args, **also)`: `macro(*args)`, rendered once per catalog
    in force (`current()`), macro code and arguments (and the values in `also` it reads from
    its context): _cards.j2 draws the same cards thousands of times a build. A recompiled
    template is new code; the messages a drawing used count for each page that shows it."""
    drawn: WeakKeyDictionary[NullTranslations, dict[Any, Any]] = WeakKeyDictionary()

    def once(macro: Macro, *args: Any, **also: Any) -> Any:
        if not isinstance(macro, Macro):
            raise TypeError("once() draws a macro of the template, e.g. once(_card, text)")
        memo = drawn.setdefault(current(), {})
        if len(memo) > 10_000:         # a serve's edited templates leave old code behind
            memo.clear()
        return remembered(memo, (macro._func.__code__, repr(args), repr(also)),
                          lambda: macro(*args))
    return once
