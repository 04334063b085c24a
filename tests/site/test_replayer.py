"""The replayer's data for each example equals the engine's states, step by step; captions
carry the numbers of the example's hand-written comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from mariage.site.examples import all_examples, read_example
from mariage.site.replayer import steps

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = all_examples(ROOT / "examples")


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_each_step_is_the_engine_state_after_that_many_actions(example):
    data = steps(example)
    assert len(data) == len(example.actions) + 1
    for number, state in enumerate(data):
        hand = example.hand(None if number == len(example.actions) else number)
        players = hand.players
        assert state["step"] == number
        assert state["hands"] == {p: [str(c) for c in hand.holding(p)] for p in players}
        assert state["points"] == {p: hand.points(p) for p in players}
        assert state["tricks"] == {p: hand.tricks(p) for p in players}
        assert state["to_act"] == hand.to_act
        assert state["stock"] == hand.stock_size and state["closer"] == hand.closer
        assert state["indicator"] == str(hand.indicator_card)
        if hand.led is not None:
            assert state["table"] == [str(hand.led)]
        outcome = hand.outcome
        assert state["outcome"] == (None if outcome is None else {
            "end": outcome.end.value, "winner": outcome.winner,
            "game_points": outcome.game_points})


def test_the_events_of_05_closing_are_its_comments():
    """examples/05-closing.md's comments, worked by hand: trick 1 B takes 2 + 11 = 13; A's
    trump marriage 21 + 40 = 61; the close by A; A claims at 69 and scores 2 (R18)."""
    events = [s["event"] for s in steps(read_example(ROOT / "examples" / "05-closing.md"))]
    assert events[0] == {"kind": "deal", "dealer": "B", "player": "A", "trump": "7c"}
    assert events[2] == {"kind": "trick", "player": "B", "card": "Ad", "led": "Jd",
                         "winner": "B", "won": 13}
    assert events[5] == {"kind": "marriage", "player": "A", "suit": "c", "before": 21,
                         "bonus": 40, "total": 61}
    assert events[8] == {"kind": "close", "player": "A"}
    assert events[-1] == {"kind": "claim", "player": "A", "points": 69}
