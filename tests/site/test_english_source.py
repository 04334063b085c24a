"""The English source states the rulings exactly: each correction of issue 10 is held here."""

from __future__ import annotations

import re

import pytest

from mariage.site.pages import SiteSource, render_site
from mariage.site.generate import generate
from mariage.site.examples import all_examples


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> dict[str, str]:
    pages = generate(tmp_path_factory.mktemp("site"), SiteSource())
    return {p.path: re.sub(r"\s+", " ", p.text) for p in pages if p.lang == "en"}


def _summary_bullets(text: str) -> list[str]:
    return text.split("The game in one minute", 1)[1].split(" - ")[1:]


def test_the_one_minute_summary_states_r12s_conditions(english):
    marriage = next(b for b in _summary_bullets(english["index.md"]) if "king and queen" in b)
    assert "while the stock is open" in marriage
    assert "won a trick this hand" in marriage
    assert "lead one of the two" in marriage


def test_the_summary_puts_the_indicator_at_the_bottom_of_the_stock(english):
    deal = _summary_bullets(english["index.md"])[0]
    assert "indicator" in deal and "bottom card of the stock" in deal


def test_no_deal_in_packets_that_add_up_to_seven(english):
    assert not any("two, three and two" in text for text in english.values())


def test_a_false_claim_is_possible_not_forbidden(english):
    assert not any(re.search(r"cannot claim", text) for text in english.values())
    # The generator links the citation to the rulings page.
    assert "does not claim (a claim would be false, [R16](../rulings.md#r16))" in english["examples/06-tie.md"]


def test_the_indicator_is_never_under_the_stock_nor_a_trump_card(english):
    for path, text in english.items():
        assert "under the stock" not in text, path
        assert "trump card" not in text, path


def test_every_statement_of_the_alternating_deal_names_the_misdeal(english):
    for path in ["faq.md", "tutorial/02-cards-and-deal.md", "glossary.md"]:
        sentences = re.findall(r"[^.]*deal alternates[^.]*\.[^.]*\.", english[path])
        assert sentences, path
        for sentence in sentences:
            assert "misdeal" in sentence, (path, sentence)


def test_card_points_are_not_said_to_be_shared_in_a_closed_hand(english):
    text = english["tutorial/06-card-and-game-points.md"]
    assert "shared between the two players" not in text
    assert "in a closed hand, the cards left in the stock count for nobody" in text


def test_the_profile_does_not_claim_to_settle_irregularities(english):
    text = english["tutorial/01-origins.md"]
    assert "answers every question" not in text
    for irregularity in ["revoke", "out of turn", "looking back at tricks"]:
        assert irregularity in text


@pytest.mark.parametrize("overstatement", [
    "national card game", "grew from", "Both kept", "It keeps the marriages",
    "Some descriptions say that it leaves out the tens"])
def test_history_is_hedged(english, overstatement):
    assert overstatement not in english["history.md"] + english["tutorial/01-origins.md"]


def test_history_names_its_sources(english):
    text = english["history.md"]
    assert "Parlett" in text and "1715" in text and "pagat.com" in text
