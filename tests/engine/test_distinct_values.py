"""Rule values that coincide in the shipped profile (false_claim = opponent_has_trick = 2,
min_trick = min_stock = 2) made distinct, so reading the wrong one fails a test (mutants H3,
H5 of the test-suite audit). Expected values worked out by hand from RULES.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from mariage.engine.notation import replay
from mariage.engine.profile import load_profile

from engine.conftest import build_deck

ROOT = Path(__file__).resolve().parents[2]
DECK = build_deck(non_dealer=["Ac", "Kh", "Qh"], dealer=["10c", "Jd", "7d"], indicator="9h")


def _profile(tmp_path: Path, *changes: tuple[str, str]):
    text = (ROOT / "rules/mariage.yaml").read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "distinct.yaml"
    path.write_text(text, encoding="utf-8")
    return load_profile(path)


def test_a_false_claim_scores_false_claim_not_another_rate(tmp_path):
    """R16: B claims on the first lead with 0 points; A scores false_claim, here 5."""
    profile = _profile(tmp_path, ("  false_claim: 2 ", "  false_claim: 5 "))
    result = replay({"dealer": "A", "deck": DECK, "actions": ["B claim"]}, profile)
    assert (result["end"], result["winner"], result["game_points"]) == ("false_claim", "A", 5)


def test_closing_from_the_first_trick_follows_min_trick(tmp_path):
    """R11 with min_trick 1: B, on lead at trick 1 with 20 cards in the stock, may close."""
    profile = _profile(tmp_path, ("  min_trick: 2 ", "  min_trick: 1 "))
    result = replay({"dealer": "A", "deck": DECK, "actions": ["B close"]}, profile)
    assert "error" not in result, result
    assert result["to_act"] == "B"


@pytest.mark.parametrize("min_stock", ["21", "30"])
def test_closing_needs_min_stock_cards_in_the_stock(tmp_path, min_stock):
    """R11 with min_trick 1 and min_stock above the 20 cards of the stock: refused."""
    profile = _profile(tmp_path, ("  min_trick: 2 ", "  min_trick: 1 "),
                       ("  min_stock: 2 ", f"  min_stock: {min_stock} "))
    result = replay({"dealer": "A", "deck": DECK, "actions": ["B close"]}, profile)
    assert result["action"] == 0 and result["error"].startswith("R11")
    assert f"{min_stock} or more cards" in result["error"]
