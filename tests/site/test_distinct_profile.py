"""The pages under the test profile whose values are all distinct (tests/profiles/distinct.yaml).

Under the teaching profile several keys share a value (three rates are 2, both closing limits
are 2), so a template that prints one key for another looks right. Under the distinct profile
each sentence below, written by hand from that profile's values, holds only if the template
prints the right key.
"""

import pytest

from conftest import DISTINCT
from mariage.engine.profile import load_profile
from mariage.site.render.pages import SiteSource, render_site



@pytest.fixture(scope="module")
def pages() -> dict[tuple[str, str], str]:
    """Every English page under the distinct profile (the sentences below are English; a
    preview of no other language renders English alone), rendered when a test of this module
    first runs: at import, each xdist worker rendered the whole site in every language (the
    closing study included) while collecting, whether or not it then ran these tests."""
    return {(p.lang, p.path): p.text
            for p in render_site(SiteSource(profile=load_profile(DISTINCT), preview=[]))}

# (page, the English sentence under the distinct profile, the keys it shows)
SENTENCES = [
    ("faq.md", "Closing is allowed only from the lead of trick 3 on", "closing.min_trick"),
    ("faq.md", "Up to the lead of trick 9, the last lead with 4 or more cards in the stock",
     "closing.min_stock, deal.stock_size"),
    ("faq.md", "1 if they have 88 points or more, 2 if they have fewer than 88 but at least one "
               "trick, 3 if they have no trick", "rates.opponent_*, thresholds.opponent_safe"),
    ("faq.md", "your opponent scores 4 game points", "rates.false_claim"),
    ("faq.md", "the winner of the last trick adds 15 points", "bonuses.last_trick"),
    ("faq.md", "the opponent scores 5 game points, or 6 if", "rates.closer_failed*"),
    ("faq.md", "to reach 9 or more wins the game", "thresholds.game"),
    ("faq.md", "an ace is worth 19, a ten 17, a king 14, a queen 12 and a jack 10",
     "deck.card_points"),
    ("faq.md", "The whole pack holds 348", "deck.total_points"),
    ("faq.md", "What if I claim with fewer than 175 points?", "thresholds.claim"),
    ("glossary.md", "It adds 25 points, or 45 in trumps", "bonuses.marriage, trump_marriage"),
    ("glossary.md", "The 15 points that the winner of the last trick adds", "bonuses.last_trick"),
    ("index.md", "for 25 points, or 45 in trumps", "bonuses.marriage, trump_marriage"),
    ("index.md", "The first player to reach 9 game points or more wins the game", "thresholds.game"),
    ("tutorial/02-cards-and-deal.md", "Together they form the **stock** of 20 cards",
     "deal.stock_size"),
    ("tutorial/02-cards-and-deal.md", "gives each player 6 cards", "deal.hand_size"),
    ("tutorial/04-marriages-and-claiming.md", "25 points for a marriage in a plain suit, 45 for "
     "the marriage in trumps", "bonuses.marriage, trump_marriage"),
    ("tutorial/05-exhausted-or-closed-stock.md", "at any lead from that of trick 3 up to that of "
     "trick 9, the last lead with 4 or more cards in the stock", "closing.*, deal.stock_size"),
    ("tutorial/05-exhausted-or-closed-stock.md", "Your opponent then scores 5 game points, or 6 if",
     "rates.closer_failed*"),
    ("tutorial/05-exhausted-or-closed-stock.md", "and you score 4 game points", "rates.false_claim"),
    ("tutorial/06-card-and-game-points.md", "| 88 points or more | 1 |",
     "thresholds.opponent_safe, rates.opponent_safe"),
    ("tutorial/06-card-and-game-points.md", "| fewer than 88 points, but at least one trick | 2 |",
     "rates.opponent_has_trick"),
    ("tutorial/06-card-and-game-points.md", "| no trick at all | 3 |", "rates.opponent_no_trick"),
    ("tutorial/06-card-and-game-points.md", "| the claimant’s opponent | 4 | R16 |",
     "rates.false_claim"),
    ("tutorial/06-card-and-game-points.md", "| the closer’s opponent | 5, or 6 if",
     "rates.closer_failed*"),
    ("tutorial/06-card-and-game-points.md", "| the closer | 4 | R16 |", "rates.false_claim"),
    ("tutorial/06-card-and-game-points.md", "adds 15 points, the **last trick bonus**",
     "bonuses.last_trick"),
    ("tutorial/06-card-and-game-points.md", "points are 175 or more", "thresholds.claim"),
    ("tutorial/06-card-and-game-points.md", "The pack holds 348 card points", "deck.total_points"),
]


@pytest.mark.parametrize("page,sentence,keys", SENTENCES, ids=[f"{p}:{k}" for p, _, k in SENTENCES])
def test_each_template_prints_the_right_key(pages, page, sentence, keys):
    assert sentence in pages[("en", page)], f"{page} no longer shows {keys} in its place"
