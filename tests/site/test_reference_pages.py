"""The reference pages: quick reference, strategy, at the table (and its score sheet). Expected
figures are worked out by hand from rules/mariage.yaml."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mariage.engine.errors import SourceError
from mariage.engine.profile import default_profile, load_profile
from mariage.site.render.pages import SiteSource, render_site
from mariage.site.render.tables import score_sheet
from helpers import site_languages

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "examples" / "records" / "score-sheet.yaml"
PAGES = ["quick-reference.md", "strategy.md", "at-the-table.md"]


def _english(source: SiteSource | None = None) -> dict[str, str]:
    return {p.path: p.text for p in render_site(source or SiteSource()) if p.lang == "en"}


def test_every_reference_page_exists_in_every_language():
    found = {(p.lang, p.path) for p in render_site(SiteSource()) if p.path in PAGES}
    assert found == {(lang, path) for lang in site_languages() for path in PAGES}


def test_the_figures_are_the_profiles():
    pages = _english()
    # 4 aces x 11 + 4 tens x 10 = 84 of 120 (R1); 52 - 32 = 20 cards taken out (2 to 6).
    assert "These 8 cards hold 84 of the 120 card points" in pages["strategy.md"]
    assert "take out the 6, 5, 4, 3 and 2 of every suit: 20 cards in all" in pages["at-the-table.md"]
    card = pages["quick-reference.md"]
    assert "| Card points | 11 | 10 | 4 | 3 | 2 | 0 | 0 | 0 |" in card
    assert "120 card points in all, 84 of them in the aces and tens" in card
    # A close against an opponent with no trick: 3 won (R15) or 3 lost (R18).
    assert "| no trick at all | 3 | 3 |" in pages["strategy.md"]


def test_a_changed_profile_changes_the_figures(profile_with):
    source = SiteSource(profile=load_profile(_bigger_ace(profile_with)))
    pages = _english(source)
    # 4 x 12 + 4 x 10 = 88 of 124.
    assert "These 8 cards hold 88 of the 124 card points" in pages["strategy.md"]
    assert "124 card points in all, 88 of them" in pages["quick-reference.md"]


def _bigger_ace(profile_with) -> Path:
    path = profile_with('card_points: {A: 11,', 'card_points: {A: 12,')
    text = path.read_text(encoding="utf-8").replace("total_points: 120", "total_points: 124")
    path.write_text(text, encoding="utf-8")
    return path


def test_the_score_sheet_follows_the_rules():
    rows = score_sheet(SHEET, default_profile())
    assert [r.dealer for r in rows] == ["B", "A"] * (len(rows) // 2) + ["B"] * (len(rows) % 2)  # R2
    totals = {"A": 0, "B": 0}
    for row in rows:
        if row.winner:
            totals[row.winner] += row.game_points
        assert row.totals == totals
        if row.end == "closer_failed":                           # R18: 3 when no trick at the close
            assert row.game_points == (3 if row.noted[1] == 0 else 2)
        if row.end == "claim" and row.closer == row.claimant:   # R18 on the state noted (R11)
            points, tricks = row.noted
            assert row.game_points == (3 if not tricks else 1 if points >= 33 else 2)
    assert max(totals.values()) >= 7 and sorted(totals.values())[0] < 7   # R19
    assert {"exhausted", "claim", "closer_failed"} <= {r.end for r in rows}


def test_the_sheet_on_the_page_is_the_engines():
    page = _english()["at-the-table.md"]
    rows = score_sheet(SHEET, default_profile())
    table = [line for line in page.splitlines() if re.match(r"^\| \d+ \|", line)]
    assert len(table) == len(rows)
    last = rows[-1]
    assert f"{last.winner} wins the game {last.totals[last.winner]} to" in page


@pytest.mark.parametrize("old,new,words", [
    ("first_dealer: B", "first_dealer: C", ["score-sheet.yaml", "first_dealer", "A or B"]),
    ("actions: [A play Jd, B play Kc", "actions: [B play Jd, B play Kc", ["score-sheet.yaml", "hand 1 does not replay"]),
    ("first_dealer: B", "dealer: B", ["score-sheet.yaml", "one game record"]),
])
def test_a_broken_score_sheet_record_names_the_file_and_hand(tmp_path, old, new, words):
    text = SHEET.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "score-sheet.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        score_sheet(bad, default_profile())
    for word in words:
        assert word in str(caught.value)


def test_a_game_that_does_not_reach_the_target_is_refused(tmp_path):
    lines = SHEET.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "score-sheet.yaml"
    bad.write_text("\n".join(lines[:-2]) + "\n", encoding="utf-8")      # drop the last hand
    with pytest.raises(SourceError) as caught:
        score_sheet(bad, default_profile())
    assert "nobody reaches 7 game points" in str(caught.value)
