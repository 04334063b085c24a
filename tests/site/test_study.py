"""The strategy page's closing study (mariage/site/replay/study.py): what the solver says about closes.

The expected edges are worked out from the profile and the rulings by hand; the study's own
figures are checked for what must hold whatever the seed, for what the page concludes from
them, and on the page itself."""

from __future__ import annotations

import dataclasses
import random

import pytest

from conftest import PROFILES
from mariage.engine.cards import deck_for
from mariage.engine.profile import default_profile, load_profile
from mariage.engine.solver import Solver
from mariage.site.render.pages import SiteSource, render_site
from mariage.site.replay.study import (STUDY_DEALS, STUDY_SEED, TRUMPS, _play_to_a_close,
                                       close_study, edges)
from helpers import site_languages


@pytest.fixture(scope="module")
def study():
    return close_study(default_profile())


def _with(**sections):
    profile = default_profile()
    changed = {name: dataclasses.replace(getattr(profile, name), **values)
               for name, values in sections.items()}
    return profile.replace(**changed)


@pytest.mark.parametrize("sections,bands", [
    # R15: opponent_safe 33; R12/R14: one marriage (20) short of the claim (66) is 46.
    ({}, [(0, 32), (33, 45), (46, None)]),
    ({"thresholds": {"opponent_safe": 40}}, [(0, 39), (40, 45), (46, None)]),
    ({"bonuses": {"marriage": 30}}, [(0, 32), (33, 35), (36, None)]),
    # a marriage worth more than the gap: the middle band shrinks to the one value 33
    ({"bonuses": {"marriage": 60}}, [(0, 32), (33, 33), (34, None)]),
])
def test_the_bands_come_from_the_profile(sections, bands):
    assert edges(_with(**sections)) == bands
    assert close_study(_with(**sections), deals=5).bands() == bands


def test_the_study_is_the_same_at_every_build(study):
    assert close_study(default_profile()) == study


def test_every_close_is_filed_once(study):
    closes = sum(c.closes for c in study.cells)
    assert 0 < closes <= STUDY_DEALS
    assert len(study.cells) == 3 * len(TRUMPS)
    assert all(0 <= c.won <= c.closes for c in study.cells)
    assert 0 <= study.conceded <= closes


def test_an_unreachable_claim_wins_no_close():
    """R18: the closer wins only by a correct claim. With the claim at 250, more than all
    120 card points, four marriages (100) and the last trick (10), no close can be won, and
    each close costs the closer at least R18's 2."""
    study = close_study(_with(thresholds={"claim": 250}), deals=40)
    closes = sum(c.closes for c in study.cells)
    assert closes > 0 and [c.won for c in study.cells] == [0] * len(study.cells)
    assert sum(c.net for c in study.cells) <= -2 * closes


def _share(cell) -> float:
    return cell.won / cell.closes


def test_what_the_page_concludes_holds(study):
    """The page says: more points and more trumps won more closes, in every row and column;
    closes on few points lost game points on balance. Not rules: findings it must keep true."""
    rows = [[c for c in study.cells if (c.low, c.high) == band] for band in study.bands()]
    for row in rows:
        assert [_share(c) for c in row] == sorted(_share(c) for c in row)
        assert all(c.closes for c in row)
    for column in zip(*rows):
        assert [_share(c) for c in column] == sorted(_share(c) for c in column)
    assert all(c.net < 0 for c in rows[0])


@pytest.fixture(scope="module")
def strategy_pages(warm_stages):
    return {p.lang: p.text for p in render_site(SiteSource()) if p.path == "strategy.md"}


def _printed(net: int) -> str:
    """A balance as the page prints it: +12, 0, and −738 with the minus sign U+2212."""
    return f"+{net}" if net > 0 else f"\u2212{abs(net)}" if net < 0 else "0"


@pytest.mark.parametrize("lang", site_languages())
def test_the_strategy_page_prints_the_study(study, strategy_pages, lang):
    page = strategy_pages[lang]
    for low, high in study.bands():
        cells = [c for c in study.cells if (c.low, c.high) == (low, high)]
        row = [line for line in page.splitlines()
               if line.startswith("| ") and all(f"{c.won} " in line and f"{c.closes}" in line
                                                and _printed(c.net) in line for c in cells)]
        assert len(row) == 1 and str(low) in row[0], (lang, low)
    assert str(STUDY_DEALS) in page.replace("\u202f", "").replace(" ", "").replace(",", "").replace(".", "")


def test_the_english_page_states_the_design(strategy_pages):
    page = strategy_pages["en"]
    for words in ["1000 hands were dealt from a fixed seed", "at one lead chosen at random",
                  "claiming only when the claim was correct", "A close counts as won when",
                  "What the study cannot show"]:
        assert words in page
    assert "settles it" not in page and "a poor bet" not in page


def _conceded_by_definition(profile, deals: int) -> int:
    """The closes (dealt as the study deals them) in which the closer's opponent, allowed to
    claim falsely on purpose (R16), makes the closer's result worse than the solver's value
    without false claims: every close searched, none left out."""
    rng = random.Random(STUDY_SEED)
    cards = [str(card) for card in deck_for(profile).cards]
    conceded = 0
    for _ in range(deals):
        closed = _play_to_a_close(profile, cards, rng)
        if closed is None:
            continue
        hand, closer = closed[0], closed[1]
        sign = 1 if closer == profile.players[0] else -1
        plain = sign * Solver(hand, false_claims=False).score()
        with_false_claims = sign * Solver(hand).score()
        conceded += with_false_claims < plain
    return conceded


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_the_conceded_count_is_every_close_a_false_claim_makes_cheaper(path):
    """The study searches only the closes worth more than the least a false claim pays (a
    bound from R16's rates); every profile's count is the one searching every close gives."""
    profile = load_profile(path)
    assert close_study(profile, deals=300).conceded == _conceded_by_definition(profile, 300)
