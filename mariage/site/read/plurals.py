"""The plural rule of a catalog's Plural-Forms header, compared with the language's CLDR rule
through Babel, and the rule a new catalog gets."""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from typing import Callable, Sequence

from babel import Locale
from babel.localedata import locale_identifiers

# Counts a page can show: the header must group them as the language does.
PLURAL_SAMPLE = range(0, 1000)


def plural_header(text: str) -> tuple[int | None, str | None]:
    match = re.search(r'^"Plural-Forms:\s*([^"\\]*)', text, re.M)
    if not match:
        return None, None
    return match.start(), match.group(1)


@lru_cache(maxsize=None)
def cldr_groupings(lang: str) -> frozenset[tuple[int, ...]]:
    """How CLDR groups the sample counts for the language and each of its regions (European
    and Brazilian Portuguese differ on 0); each grouping as the first count of each n's group."""
    codes = [code for code in locale_identifiers()
             if code == lang or (code.startswith(lang + "_") and "_" not in code[len(lang) + 1:])]
    groupings = set()
    for code in codes:
        rule = Locale.parse(code).plural_form
        groupings.add(_grouping([rule(n) for n in PLURAL_SAMPLE]))
    return frozenset(groupings)


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
    try:
        count, rule = parse_plural_forms(forms)
        indices = [rule(n) for n in PLURAL_SAMPLE]
    except (ValueError, ZeroDivisionError, OverflowError, RecursionError) as exc:
        return f"Plural-Forms is not valid: {exc}"
    if any(not 0 <= i < count for i in indices):
        return f"Plural-Forms picks a form number outside 0..{count - 1}"
    categories = len(Locale.parse(lang).plural_form.tags | {"other"})
    if count > categories:
        return f"nplurals={count}, but {lang!r} has {categories} plural categories (CLDR)"
    real = cldr_groupings(lang)
    if real and _grouping(indices) not in real:
        wrong = next(n for n in PLURAL_SAMPLE if all(g[n] != _grouping(indices)[n] for g in real))
        return (f"Plural-Forms `{forms.strip()}` does not match {lang!r}'s plural rule (CLDR), "
                f"first at n={wrong}")
    return None


def expected_plural_forms(lang: str) -> str:
    """The header a new catalog gets: GNU gettext's rule for the language when it agrees with
    CLDR (two forms for French, as translators' tools write it), else Babel's CLDR rule."""
    from babel.messages.plurals import get_plural
    from babel.plural import to_gettext

    gnu = _GNU_PLURALS.get(lang.split("_")[0])
    if gnu and _matches_cldr(lang, gnu):
        return gnu
    babel_rule = str(get_plural(lang))
    if _matches_cldr(lang, babel_rule):
        return babel_rule
    return to_gettext(Locale.parse(lang).plural_form)


def _matches_cldr(lang: str, forms: str) -> bool:
    try:
        count, rule = parse_plural_forms(forms)
        return _grouping([rule(n) for n in PLURAL_SAMPLE]) in cldr_groupings(lang)
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
