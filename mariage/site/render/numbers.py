"""Numbers a page writes as its language does where Babel has no pattern: a century.

Babel spells no ordinals, so a century reaches the catalogs as a placeholder in the form the
language writes it: "18th" in English, Roman numerals where that is the custom ("XVIII":
French adds its "ᵉ" in the translation), plain digits elsewhere (German adds its "."). No
translator types the number.
"""

from __future__ import annotations

ROMAN_CENTURIES = {"es", "pt", "fr", "it", "ca", "ro", "pl", "cs", "hu", "ru"}
_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    out = []
    for value, letters in _ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def english_ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def century(year: int, lang: str) -> str:
    """The century of a year, written for `lang` (a language code such as "fr" or "pt_BR")."""
    n = (year - 1) // 100 + 1
    base = lang.replace("-", "_").split("_")[0]
    if base in ROMAN_CENTURIES:
        return roman(n)
    return english_ordinal(n) if base == "en" else str(n)
