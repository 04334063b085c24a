"""A century as each language writes it, so that no translator types a number (issue 22)."""

from __future__ import annotations

import pytest

from mariage.site.render.numbers import century, english_ordinal, roman


@pytest.mark.parametrize("year,lang,written", [
    (1715, "en", "18th"), (1715, "en_GB", "18th"), (1801, "en", "19th"), (1900, "en", "19th"),
    (1001, "en", "11th"), (2001, "en", "21st"), (1150, "en", "12th"), (1250, "en", "13th"),
    (1715, "fr", "XVIII"), (1715, "es", "XVIII"), (1715, "pt", "XVIII"), (1715, "it", "XVIII"),
    (1715, "pt-BR", "XVIII"), (1399, "it", "XIV"), (1715, "de", "18"), (1715, "nl", "18")])
def test_a_century_is_written_as_its_language_writes_it(year, lang, written):
    assert century(year, lang) == written


@pytest.mark.parametrize("n,numeral", [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (19, "XIX"),
                                       (40, "XL"), (90, "XC"), (1999, "MCMXCIX")])
def test_roman_numerals(n, numeral):
    assert roman(n) == numeral


@pytest.mark.parametrize("n,word", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"),
                                    (12, "12th"), (13, "13th"), (21, "21st"), (22, "22nd"),
                                    (111, "111th"), (123, "123rd")])
def test_english_ordinals(n, word):
    assert english_ordinal(n) == word


# The catalog check reads the numbers a text states (facts.stated): digits, number words and
# Roman numerals of two letters or more (a lone "I" or "V" is a word or a letter). Each row's
# value is read by hand.
@pytest.mark.parametrize("text,lang,want", [
    ("au XVIIIe siècle", "fr", {18: "XVIII"}),
    ("nel XIX secolo", "it", {19: "XIX"}),
    ("en el siglo XVIII", "es", {18: "XVIII"}),
    ("le IVe et le IXe", "fr", {4: "IV", 9: "IX"}),
    ("Il joue", "fr", {}),                              # "Il": no numeral in a word
    ("IV-Stufe", "de", {4: "IV"}),
    ("XVIIIth", "en", {}),                              # glued to a word's letters
    ("I and V", "en", {}),                              # one letter: never read
    ("VIVID", "en", {}),
    ("the 66 and XX", "en", {66: "66", 20: "XX"}),
    ("%(n)s XIV `XV` R12", "fr", {14: "XIV"}),          # placeholders, code, rulings are out
    ("", "fr", {}),
])
def test_the_numbers_a_text_states(text, lang, want):
    from mariage.site.read.facts import stated
    assert stated(text, lang) == want
