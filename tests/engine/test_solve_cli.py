"""`mariage solve`: perfect play from a record's last position, worked out by hand on the
traced hands of full_hands.py; errors and exit codes as in `mariage replay`."""

from __future__ import annotations

import json

import pytest

from mariage import Hand

from engine.full_hands import (LAST_TRICK_ACTIONS, LAST_TRICK_DECK, TIE_ACTIONS, TIE_DECK)
from engine.test_notation_cli import lines, run, write

# After ten tricks of TIE (stock exhausted), B leads with 65 points and nothing that can win a
# trick: A must beat or trump every lead (R9) and wins all six, 55 + 10 = 65 (R17). A tie, and
# B's only other choice, a false claim at 65, would give A 2 (R16). So perfect play gives 0.
TIE_AFTER_TEN = {"dealer": "A", "deck": TIE_DECK, "actions": TIE_ACTIONS[:20]}
# LAST_TRICK after ten tricks: B 63, A wins the six last tricks, 57 + 10 = 67 > 63, and B has
# 33 or more: A scores 1 (R17, R15). A cannot claim before (57 < 66); a claim after the last
# trick is false at 57, so A lets the hand end.
LAST_AFTER_TEN = {"dealer": "A", "deck": LAST_TRICK_DECK, "actions": LAST_TRICK_ACTIONS[:20]}
OPEN = {"dealer": "A", "deck": TIE_DECK, "actions": []}


def test_tie_after_ten_tricks_is_worth_nothing():
    [result] = lines(run("solve", "-", stdin=json.dumps(TIE_AFTER_TEN)).stdout)
    assert (result["winner"], result["game_points"]) == (None, 0)
    assert result["line"][-1] == "A pass" and len(result["line"]) == 13


def test_last_trick_bonus_decides_under_perfect_play():
    [result] = lines(run("solve", "-", stdin=json.dumps(LAST_AFTER_TEN)).stdout)
    assert (result["winner"], result["game_points"]) == ("A", 1)
    end = Hand.replay(LAST_TRICK_DECK, LAST_TRICK_ACTIONS[:20] + result["line"], dealer="A")
    assert end.outcome is not None and end.outcome.winner == "A"


def test_a_finished_hand_solves_to_its_own_result_with_no_line():
    record = {"dealer": "A", "deck": TIE_DECK, "actions": TIE_ACTIONS + ["A pass"]}
    [result] = lines(run("solve", "-", stdin=json.dumps(record)).stdout)
    assert result == {"winner": None, "game_points": 0, "line": []}


@pytest.mark.parametrize("record, error, action", [
    (OPEN, "the stock is open (20 cards to draw)", None),
    ({"dealer": "A", "deck": TIE_DECK, "actions": ["A play Kc"]}, "R5: it is B's turn", 0),
    ({"dealer": "A", "deck": TIE_DECK[:31]}, "R1/R4: the deck must hold 32", None),
    ({"first_dealer": "A", "hands": []}, "solve reads hand records", None),
    ({"dealer": "A", "deck": TIE_DECK, "moves": []}, "unknown key 'moves'", None),
])
def test_a_record_that_cannot_be_solved_is_an_error_line_and_exit_1(record, error, action):
    done = run("solve", "-", stdin=json.dumps(record))
    [result] = lines(done.stdout)
    assert done.returncode == 1 and result["error"].startswith(error) and result["action"] == action


def test_an_unreadable_file_exits_2_and_the_others_are_still_solved(tmp_path):
    good = write(tmp_path, "good.json", json.dumps(TIE_AFTER_TEN))
    done = run("solve", str(tmp_path / "missing.json"), good)
    assert done.returncode == 2 and "mariage solve: " in done.stderr
    assert [r["game_points"] for r in lines(done.stdout)] == [0]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("flags,winner,game_points,last", [
    ([], "A", 2, "B claim"),                          # B concedes 2 by a false claim (R16)
    (["--correct-claims-only"], "A", 3, "A claim"),    # tables that refuse it: A takes all (R18)
])
def test_solve_with_or_without_deliberate_false_claims(flags, winner, game_points, last):
    """05-false-claim-saves before B's claim: B, trickless at A's close, has won one trick."""
    from conftest import ROOT
    import yaml

    text = (ROOT / "examples" / "05-false-claim-saves.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    record = {"dealer": meta["dealer"], "deck": meta["deck"], "actions": meta["actions"][:-1]}
    [result] = lines(run("solve", *flags, "-", stdin=json.dumps(record)).stdout)
    assert (result["winner"], result["game_points"], result["line"][-1]) == \
        (winner, game_points, last)
