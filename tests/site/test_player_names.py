"""Players on a page: the engine's A and B, shown by the names the page's catalog gives them
(render/seats.py). German names them, since its card letters A and B are Ass and Bube; the
records, the engine and the JSON keep A and B in every language."""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import Markup, escape

from mariage.site.render.pages import SiteSource
from mariage.site.render.seats import Seat, letter, named
from mariage.site.build.generate import generate
from helpers import site_languages


@pytest.fixture(scope="module")
def site(warm_stages, tmp_path_factory) -> dict[tuple[str, str], str]:
    pages = generate(tmp_path_factory.mktemp("site"), SiteSource())
    return {(p.lang, p.path): p.text for p in pages}


@pytest.mark.parametrize("expression,value", [
    (lambda a: a == "A", True),                              # the engine compares names
    (lambda a: {"A": 1}[a], 1),                              # and keys dicts by them
    (lambda a: json.dumps(a), '"A"'),                        # JSON keeps the letter
    (lambda a: f"{a} play As", "A play As"),                 # so does the record notation
    (lambda a: letter(a) + " close", "A close"),             # a move built in a template
    (lambda a: type(letter(a)), str),
    (lambda a: str(escape(a)), "A"),                         # no catalog: the letter itself
    (lambda a: str(Markup("%s wins") % a), "A wins"),
])
def test_a_seat_is_the_engine_s_name_wherever_the_engine_reads_it(expression, value):
    assert expression(Seat("A")) == value


def test_named_maps_the_player_keys_of_an_event_only():
    event = named({"player": "A", "winner": "B", "card": "As", "points": 3})
    assert isinstance(event["player"], Seat) and isinstance(event["winner"], Seat)
    assert type(event["card"]) is str and event["points"] == 3


# What is not prose: code blocks (the doctests), scripts, card faces, tables, and the lines that quote the record notation
# (the key to the records says "In `A play As`, player A plays …" in every language).
PROSE = re.compile(r"^```.*?^```|<script.*?</script>|<span class=\"mc-card[^>]*>[^<]*</span>"
                   r"|<caption>.*?</caption>|^\|.*\|$|^[^\n]*`[^\n]*$", re.S | re.M)


@pytest.mark.parametrize("lang", site_languages())
def test_example_prose_names_the_players_as_the_catalog_does(site, lang):
    examples = {path: text for (code, path), text in site.items()
                if code == lang and path.startswith("examples/") and path != "examples/index.md"}
    data = json.loads(re.search(r"data-steps>(.*?)</script>",
                                site[(lang, "examples/05-closing-fails.md")], re.S).group(1))
    names = data["names"]
    assert set(names) == {"A", "B"}
    renamed = {letter_: name for letter_, name in names.items() if name != letter_}
    for path, text in examples.items():
        prose = PROSE.sub(" ", text)
        for letter_, name in renamed.items():
            # a bare letter standing for a player: a word of its own, outside code and cards
            assert not re.search(rf"(?<![\w(\[]){letter_}(?=[ ,.:;])", prose), (lang, path, letter_)
    if renamed:                         # the key to the records says which letter is whom
        key = site[(lang, "examples/05-closing-fails.md")]
        assert all(f"{name} ({letter_})" in key for letter_, name in renamed.items())


def test_german_names_the_players_and_english_keeps_the_letters(site):
    assert "Anton hat die ersten 2 Stiche gemacht" in site[("de", "examples/05-closing-fails.md")]
    assert "A has won the first 2 tricks" in site[("en", "examples/05-closing-fails.md")]
