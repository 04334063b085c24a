"""The strategy page's closing study (mariage/site/replay/study.py): what the solver says about closes.

The expected edges and outcomes are worked out from the profile and the rulings by hand; the
study's own figures are checked for what must hold whatever the seed, and on the page."""

from __future__ import annotations

import msgspec
import pytest

from mariage.engine.profile import default_profile
from mariage.site.render.pages import SiteSource, render_site
from mariage.site.replay.study import STUDY_DEALS, close_study
from helpers import site_languages


@pytest.fixture(scope="module")
def study():
    return close_study(default_profile())


def _with(**sections):
    profile = default_profile()
    changed = {name: msgspec.structs.replace(getattr(profile, name), **values)
               for name, values in sections.items()}
    return profile.replace(**changed)


@pytest.mark.parametrize("sections,edges", [
    # R15: opponent_safe 33; R12/R14: one marriage (20) short of the claim (66) is 46.
    ({}, [(0, 32), (33, 45), (46, None)]),
    ({"thresholds": {"opponent_safe": 40}}, [(0, 39), (40, 45), (46, None)]),
    ({"bonuses": {"marriage": 30}}, [(0, 32), (33, 35), (36, None)]),
    # a marriage worth more than the gap: the middle band shrinks to the one value 33
    ({"bonuses": {"marriage": 60}}, [(0, 32), (33, 33), (34, None)]),
])
def test_the_bands_come_from_the_profile(sections, edges):
    bands = close_study(_with(**sections), deals=5)
    assert [(b.low, b.high) for b in bands] == edges


def test_the_study_is_the_same_at_every_build(study):
    assert close_study(default_profile()) == study


def test_every_close_is_filed_once(study):
    closes = sum(b.closes for b in study)
    assert 0 < closes <= STUDY_DEALS
    assert all(0 <= b.won <= b.closes for b in study)


def test_an_unreachable_claim_wins_no_close():
    """R18: the closer wins only by a correct claim. With the claim at 250, more than all
    120 card points, four marriages (100) and the last trick (10), no close can be won."""
    bands = close_study(_with(thresholds={"claim": 250}), deals=40)
    assert sum(b.closes for b in bands) > 0
    assert [b.won for b in bands] == [0, 0, 0]


def test_more_points_at_the_close_win_more_often(study):
    """Not a rule, but what the page concludes from the figures: it must stay true."""
    rates = [b.won / b.closes for b in study]
    assert rates == sorted(rates) and rates[0] < 0.2 < 0.8 < rates[-1]


@pytest.fixture(scope="module")
def strategy_pages():
    return {p.lang: p.text for p in render_site(SiteSource()) if p.path == "strategy.md"}


@pytest.mark.parametrize("lang", site_languages())
def test_the_strategy_page_prints_the_study(study, strategy_pages, lang):
    page = strategy_pages[lang]
    for band in study:
        row = [line for line in page.splitlines()
               if line.startswith("| ") and line.endswith(f"| {band.closes} | {band.won} |")]
        assert len(row) == 1 and str(band.low) in row[0], (lang, band)
