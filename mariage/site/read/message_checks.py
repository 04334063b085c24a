"""The checks of one translated message against its English text: placeholders, percent
signs, plural forms, size, invisible characters and Markdown/HTML structure. Each takes an
`Entry` and returns what is wrong, or None; `checks.CHECKS` is the table that orders them with
the facts checks (`facts.py`) and gives each its id and the line a translator reads.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from . import facts

INTERFACE = "interface"              # msgctxt of the theme's strings (mariage.site.interface)


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


def kept_placeholders(entry: Entry) -> str | None:
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


def percent_signs(entry: Entry) -> str | None:
    for string in entry.strings:
        # `{% … %}` is named by the markup check, a spaced placeholder by the placeholders one
        lone = [i for i in placeholders(string)[1] if string[i - 1:i] != "{"
                and string[i + 1:i + 2] != "}" and not _SPACED.match(string, i)]
        if lone:
            return f"a lone % in {_excerpt(string, lone[0])}"
    return None


def plural_count(entry: Entry) -> str | None:
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


def size(entry: Entry) -> str | None:
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


def characters(entry: Entry) -> str | None:
    """No control or invisible character the English text does not have: a NUL, a carriage
    return (a line break to Markdown), a zero-width space, a bidi override (120 shown as 021)."""
    for source, string in entry.pairs():
        if string.isprintable():     # no Cc, Cf, Cs, Co, Zl, Zp (nor Cn, Zs but the space)
            continue
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


def markup(entry: Entry) -> str | None:
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
