"""The plural rule of a catalog's Plural-Forms header, compared with the language's CLDR rule
through Babel, and the rule a new catalog gets."""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from typing import Callable, Sequence

from babel import Locale
from babel.localedata import locale_identifiers
from babel.messages.plurals import get_plural
from babel.plural import to_gettext

# Counts a page can show: the header must group them as the language does.
PLURAL_SAMPLE = range(0, 1000)


def plural_header(text: str) -> tuple[int | None, str | None]:
    match = re.search(r'^"Plural-Forms:\s*([^"\\]*)', text, re.M)
    if not match:
        return None, None
    return match.start(), match.group(1)


@lru_cache(maxsize=None)
def cldr_formulas(lang: str) -> frozenset[str]:
    """CLDR's rule for the language and each of its regions (European and Brazilian
    Portuguese differ on 0), as a gettext formula (Babel's to_gettext); a count is never
    written in compact notation, so its exponent `e` is 0."""
    codes = [code for code in locale_identifiers()
             if code == lang or (code.startswith(lang + "_") and "_" not in code[len(lang) + 1:])]
    return frozenset(re.sub(r"\be\b", "0", to_gettext(Locale.parse(code).plural_form))
                     for code in codes)


@lru_cache(maxsize=None)
def cldr_groupings(lang: str) -> frozenset[tuple[int, ...]]:
    """How CLDR groups the sample counts for the language and each of its regions; each
    grouping as the first count of each n's group."""
    return frozenset(formula_grouping(formula) for formula in cldr_formulas(lang))


@lru_cache(maxsize=256)
def formula_grouping(forms: str) -> tuple[int, ...]:
    """How a Plural-Forms formula groups the sample counts (ValueError when it is not valid)."""
    rule = parse_plural_forms(forms)[1]
    return _grouping([rule(n) for n in PLURAL_SAMPLE])


@lru_cache(maxsize=None)
def known_formulas(lang: str) -> frozenset[str]:
    """The formulas translators' tools write for the language (GNU gettext's, Babel's) and
    CLDR's own, each normalized: a header that is one of them needs no further check."""
    formulas = {*cldr_formulas(lang), str(get_plural(lang))}
    gnu = _GNU_PLURALS.get(lang.split("_")[0])
    return frozenset(normalized(f) for f in (formulas | {gnu} if gnu else formulas)
                     if _matches_cldr(lang, f))


def normalized(forms: str) -> str:
    """A Plural-Forms value without its spaces and its last semicolon."""
    return re.sub(r"\s+", "", forms).rstrip(";")


def _grouping(labels: Sequence[object]) -> tuple[int, ...]:
    first: dict[object, int] = {}
    return tuple(first.setdefault(label, n) for n, label in enumerate(labels))


def parse_plural_forms(forms: str) -> tuple[int, Callable[[int], int]]:
    """`nplurals=N; plural=EXPR;` as (N, function); ValueError when it is not valid."""
    match = re.fullmatch(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*", forms)
    if not match:
        raise ValueError("it is not of the form `nplurals=N; plural=EXPRESSION;`")
    count = int(match.group(1))
    if not 1 <= count <= 6:
        raise ValueError(f"nplurals={count}: a language has 1 to 6 plural forms")
    try:
        return count, gettext.c2py(match.group(2))
    except (ValueError, SyntaxError, RecursionError) as exc:
        raise ValueError(f"the plural expression cannot be read ({exc})") from None


def rule_problem(lang: str, forms: str) -> str | None:
    """What is wrong with the Plural-Forms `forms` for `lang`, or None when it is CLDR's rule."""
    if normalized(forms) in known_formulas(lang):
        return None                  # the formula itself is a known one: nothing to evaluate
    try:
        count, rule = parse_plural_forms(forms)
        indices = [rule(n) for n in PLURAL_SAMPLE]
    except (ValueError, ZeroDivisionError, OverflowError, RecursionError) as exc:
        return f"Plural-Forms is not valid: {exc}"
    if any(not 0 <= i < count for i in indices):
        return f"Plural-Forms picks a form number outside 0..{count - 1}"
    categories = len(Locale.parse(lang).plural_form.tags | {"other"})
    if count > categories:
        return f"nplurals={count}, but {language_name(lang)} has {categories} plural " \
               "categories (CLDR)"
    real = cldr_groupings(lang)
    if real and _grouping(indices) not in real:
        return f"Plural-Forms `{forms.strip()}` {_first_difference(lang, indices)}"
    return None


def _first_difference(lang: str, indices: Sequence[int]) -> str:
    """Where the header groups numbers otherwise than the language: the first n whose form
    differs from the one the right rule gives it."""
    _, right = parse_plural_forms(expected_plural_forms(lang))
    n = next((n for n in PLURAL_SAMPLE if right(n) != indices[n]), None)
    if n is None:                 # the same grouping under other form numbers
        return f"does not group numbers as {language_name(lang)} does (CLDR)"
    return (f"gives n={n} msgstr[{indices[n]}], but {language_name(lang)} shows "
            f"msgstr[{right(n)}] for {n} (CLDR)")


def language_name(lang: str) -> str:
    """'French (fr)': the language's English name and code."""
    return f"{Locale.parse(lang).get_display_name('en')} ({lang})"


def native_name(lang: str) -> str:
    """The language's name in itself, as the language selector shows it ("Deutsch")."""
    name = Locale.parse(lang).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def expected_plural_forms(lang: str) -> str:
    """The header a new catalog gets: GNU gettext's rule for the language when it agrees with
    CLDR (two forms for French, as translators' tools write it), else Babel's CLDR rule."""
    gnu = _GNU_PLURALS.get(lang.split("_")[0])
    if gnu and _matches_cldr(lang, gnu):
        return gnu
    babel_rule = str(get_plural(lang))
    if _matches_cldr(lang, babel_rule):
        return babel_rule
    return to_gettext(Locale.parse(lang).plural_form)


def _matches_cldr(lang: str, forms: str) -> bool:
    try:
        return formula_grouping(forms) in cldr_groupings(lang)
    except (ValueError, ZeroDivisionError):
        return False


# GNU gettext's rules (its manual, "Plural forms") for the languages most sites add.
_GNU_PLURALS = {
    **dict.fromkeys(["en", "de", "nl", "sv", "da", "no", "nb", "nn", "fo", "es", "pt", "it",
                     "bg", "el", "fi", "et", "hu", "eo", "ca", "gl", "eu", "he"],
                    "nplurals=2; plural=(n != 1);"),
    **dict.fromkeys(["fr", "oc"], "nplurals=2; plural=(n > 1);"),
    **dict.fromkeys(["ja", "ko", "zh", "vi", "th", "id", "tr"], "nplurals=1; plural=0;"),
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    **dict.fromkeys(["ru", "uk", "sr", "hr", "bs"], "nplurals=3; plural=(n%10==1 && n%100!=11 ? "
                    "0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"),
    **dict.fromkeys(["cs", "sk"], "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"),
}
