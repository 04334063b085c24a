"""The facts a translator still types, compared with the English text, message by message:
ruling references (R12), numbers, code spans and web addresses. Part of the one table of
checks (`checks.CHECKS`) that the build and `mariage catalogs check` share.

Numbers are compared as values, not as digits: "les six dernières levées" states 6 as the
English "the last six tricks" does, and "cinq" would state 5. The words of each language come
from num2words (cardinals from three up: the words for one and two are also articles and
"both", and "first" and "second" ordinary words, in every language of the site). In a plural form shown
only for n = 1 (Spanish, Portuguese, Italian msgstr[0]), the count may be written as the
word for one ("una baza"), as those languages' style asks.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Protocol

from num2words import num2words

from .plurals import PLURAL_SAMPLE, expected_plural_forms, parse_plural_forms


class Entry(Protocol):
    """What these checks read of a message (message_checks.Entry)."""
    @property
    def sources(self) -> tuple[str, ...]: ...

    @property
    def strings(self) -> tuple[str, ...]: ...

    @property
    def notes(self) -> tuple[str, ...]: ...

    @property
    def lang(self) -> str: ...

    @property
    def plural(self) -> bool: ...

    def pairs(self) -> list[tuple[str, str]]: ...

RULING = re.compile(r"(?<![\w-])R\d{1,3}(?!\w)")
CODE = re.compile(r"(`+)(.+?)\1", re.S)
URL = re.compile(r"\b(?:https?|ftp|mailto):[^\s<>()\[\]\"'`]+|\]\(([^)\s]+)")
PLACEHOLDER = re.compile(r"%\([^()]*\)[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|%%")
DIGITS = re.compile(r"(?<![\w])\d+(?![\w])|(?<![\w])\d+(?=e|er|re|ème|º|ª|°)")
# (?=[IVX]): a numeral starts with one of its letters; without it, the empty match at every
# word's start made this the slowest of the catalog checks.
ROMAN = re.compile(r"(?<![\w])(?=[IVX])(X{0,3}(?:IX|IV|V?I{0,3}))(?=e\b|ᵉ|er\b|\b)")
LARGEST = 100                      # number words are known up to here
# Words that are also something else in one language: never read as numbers there.
HOMOGRAPHS = {"fr": {"neuf"},      # "un jeu neuf": a new pack
              "it": {"sei"}}       # "sei di mano": you are on lead


def rulings(entry: Entry) -> str | None:
    """The same ruling references as the English text: each becomes a link to that ruling."""
    for source, string in _translated(entry):
        want, got = Counter(RULING.findall(source)), Counter(RULING.findall(string))
        if want != got:
            extra, lost = sorted((got - want).elements()), sorted((want - got).elements())
            if extra and lost:
                return f"cites {', '.join(extra)} where the English text cites {', '.join(lost)}"
            if extra:
                return f"cites {', '.join(extra)}, which the English text does not cite"
            return f"drops the reference to {', '.join(lost)}"
    return None


def code_spans(entry: Entry) -> str | None:
    """Code between backquotes is the engine's notation: copied exactly, never translated."""
    for source, string in _translated(entry):
        want = Counter(m.group(2) for m in CODE.finditer(source))
        got = Counter(m.group(2) for m in CODE.finditer(string))
        if want and want != got:
            changed = sorted((got - want).elements())
            kept = sorted((want - got).elements())
            if changed and kept:
                return f"changes the code `{changed[0]}` (the English text has `{kept[0]}`)"
            return f"loses the code `{kept[0]}`" if kept else f"adds the code `{changed[0]}`"
    return None


def urls(entry: Entry) -> str | None:
    """Web addresses and link targets, exactly as in the English text."""
    for source, string in _translated(entry):
        want, got = Counter(_urls(source)), Counter(_urls(string))
        if want != got:
            changed = sorted((got - want).elements())
            kept = sorted((want - got).elements())
            if changed and kept:
                return f"changes the link target {kept[0]} to {changed[0]}"
            return f"loses the link target {kept[0]}" if kept else \
                f"adds the link target {changed[0]}"
    return None


def _urls(text: str) -> list[str]:
    return [m.group(1) or m.group(0) for m in URL.finditer(text)]


def numbers(entry: Entry) -> str | None:
    """No number the English text does not state, whether written in digits or in words."""
    for source, string in _translated(entry):
        want = set(stated(source, "en"))
        for value, written in stated(string, entry.lang).items():
            if value not in want:
                said = f"{value} ({written!r})" if written != str(value) else str(value)
                return f"states {said}, a number the English text does not state" + (
                    f" (it states {', '.join(map(str, sorted(want)))})" if want else "")
    return None


@lru_cache(maxsize=4096)
def stated(text: str, lang: str) -> dict[int, str]:
    """The numbers a text states, each with how it is first written, after its placeholders,
    code, web addresses and ruling references are taken out."""
    for pattern in (PLACEHOLDER, CODE, URL, RULING):
        text = pattern.sub(" ", text)
    found: dict[int, str] = {}
    for match in DIGITS.finditer(text):
        found.setdefault(int(match.group(0)), match.group(0))
    for match in ROMAN.finditer(text):
        if len(match.group(1)) > 1:
            found.setdefault(_roman(match.group(1)), match.group(1))
    values = _words(lang.split("_")[0])
    for phrase in _phrases(text, values, _first_words(lang.split("_")[0])):
        found.setdefault(values[phrase.lower()], phrase)
    return found


def _phrases(text: str, values: dict[str, int], firsts: frozenset[str]) -> list[str]:
    """The number words of a text, longest first where words join ("dix-huit", "sesenta y
    seis"): each run of up to four words is looked up, whole, in the language's words."""
    words = list(_WORD.finditer(text))
    found, i = [], 0
    while i < len(words):
        if words[i].group(0).lower() not in firsts:    # no number word starts with it
            i += 1
            continue
        for n in range(min(4, len(words) - i), 0, -1):
            phrase = text[words[i].start():words[i + n - 1].end()]
            if phrase.lower() in values and _JOINED.fullmatch(phrase):
                found.append(phrase)
                i += n
                break
        else:
            i += 1
    return found


@lru_cache(maxsize=None)
def _first_words(lang: str) -> frozenset[str]:
    """The first word of each of the language's number words ("dix" of "dix-huit"): a phrase
    that starts with any other word is none of them."""
    return frozenset(m.group(0) for m in map(_WORD.match, _words(lang)) if m)


_WORD = re.compile(r"[^\W\d_]+")
_JOINED = re.compile(r"[^\W\d_]+(?:(?: |-)[^\W\d_]+)*")


def _roman(text: str) -> int:
    value = {"I": 1, "V": 5, "X": 10}
    total = 0
    for i, char in enumerate(text):
        later = value[text[i + 1]] if i + 1 < len(text) else 0
        total += -value[char] if value[char] < later else value[char]
    return total


@lru_cache(maxsize=None)
def _words(lang: str) -> dict[str, int]:
    """Every number word of the language from three to LARGEST (cardinals and ordinals, with
    their gender and number endings), lowercase. One and two are left out: their words are
    also articles and "both" ("les deux joueurs")."""
    values: dict[str, int] = {}
    try:
        one = num2words(1, lang=lang).lower()
        for n in range(LARGEST, 2, -1):
            word = num2words(n, lang=lang).lower()
            values[word] = n
            if word.startswith(one + " "):           # "one hundred": "a hundred", "hundred"
                values[word[len(one) + 1:]] = n
            if lang == "en":                         # card ranks: "the nines", "sixes"
                values[word + ("es" if word.endswith("x") else "s")] = n
            for form in _inflected(num2words(n, lang=lang, to="ordinal").lower()):
                values[form] = n
    except (NotImplementedError, OverflowError, KeyError, ValueError):
        return {}
    for word in HOMOGRAPHS.get(lang, ()):
        values.pop(word, None)
    return values


def _inflected(ordinal: str) -> set[str]:
    """An ordinal with its gender and number endings: décimo, décima, décimos, décimas;
    decimo, decima, decimi, decime; dixième, dixièmes."""
    forms = {ordinal, ordinal + "s"}
    if ordinal.endswith(("o", "a")):
        stem = ordinal[:-1]
        forms |= {stem + end for end in ("o", "a", "os", "as", "i", "e")}
    return forms


def _translated(entry: Entry) -> list[tuple[str, str]]:
    return [(source, string) for source, string in entry.pairs() if string]


# --- a count written as the word for one -------------------------------------------------

def one_only_forms(lang: str) -> frozenset[int]:
    """The plural forms (msgstr[n]) the language shows only for n = 1."""
    try:
        _, rule = parse_plural_forms(expected_plural_forms(lang))
    except (ValueError, KeyError):
        return frozenset()
    users: dict[int, set[int]] = {}
    for n in PLURAL_SAMPLE:
        users.setdefault(rule(n), set()).add(n)
    return frozenset(form for form, ns in users.items() if ns == {1})


def count_placeholder(singular: str, plural: str) -> str | None:
    """The placeholder that counts in a plural message: the last one before the first word
    that the plural changes ("%(count)s game point" / "%(count)s game points")."""
    one, many = singular.split(), plural.split()
    differ = next((i for i, (a, b) in enumerate(zip(one, many)) if a != b), None)
    if differ is None:
        return None
    before = PLACEHOLDER.findall(" ".join(one[:differ + 1]))
    return before[-1] if before and before[-1] != "%%" else None


def spells_one(entry: Entry, form: int, string: str, missing: list[str]) -> bool:
    """Whether a form shown only for n = 1 writes its count as the word for one instead of
    the count placeholder (Spanish "una baza"), and misses nothing else."""
    if not entry.plural or not entry.lang or form not in one_only_forms(entry.lang):
        return False
    count = count_placeholder(entry.sources[0], entry.sources[1])
    return missing == [count] and _one_word(entry.lang.split("_")[0]).search(string) is not None


@lru_cache(maxsize=None)
def _one_word(lang: str) -> re.Pattern[str]:
    """The language's word for one with its gender endings: un, una, uno, um, uma, une."""
    try:
        word = num2words(1, lang=lang).lower()
    except (NotImplementedError, KeyError):
        return re.compile(r"(?!x)x")
    stem = word.rstrip("aeos") or word
    return re.compile(rf"(?<!\w){re.escape(stem)}(?:[aeo]|e[nmrs]|s)?(?!\w)", re.I)


# --- English pasted in as the translation ------------------------------------------------

SAME = "stays as in English"      # the marker, in a `#.` note or the translator's `#` comment


def unchanged(entry: Entry) -> str | None:
    """A translation that is its English text, letter for letter, unless a note says the
    message stays as in English (a name, notation). Texts of fewer than two letters (card
    letters, separators) are left alone."""
    if any(SAME in note for note in entry.notes):
        return None
    for source, string in _translated(entry):
        letters = re.findall(r"[^\W\d_]", PLACEHOLDER.sub("", source))
        if string == source and len(letters) >= 2:
            return "the translation is the English text itself"
    return None


# --- placeholders whose order carries the meaning ----------------------------------------

ORDER = "keep their order"        # in a `#.` note: the placeholders' order is the meaning


def order_changed(entry: Entry, source: str, string: str) -> str | None:
    """Where a note says so, the named placeholders appear in the English text's order:
    "%(dealer)s deals, so %(other)s is the non-dealer" swapped inverts who deals, which no
    other check can see. Elsewhere a translation may reorder them as its grammar needs."""
    if not any(ORDER in note for note in entry.notes):
        return None
    want, got = _first_seen(source), _first_seen(string)
    if [p for p in got if p in want] != [p for p in want if p in got]:
        return (f"the placeholders are in the order {', '.join(got)}, but the note says to keep "
                f"the English text's: {', '.join(want)}")
    return None


def _first_seen(text: str) -> list[str]:
    seen: list[str] = []
    for match in PLACEHOLDER.finditer(text):
        if match.group(0) != "%%" and match.group(0) not in seen:
            seen.append(match.group(0))
    return seen
