"""The replayer's data for each example equals the engine's states, step by step; captions
carry the numbers of the example's hand-written comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from mariage.site.replay.examples import all_examples, read_example
from mariage.site.replay.replayer import perfect_play, steps

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [e for e in all_examples(ROOT / "examples") if not e.is_game]


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


def test_perfect_play_after_the_close_of_05_closing_is_what_was_played():
    """After A's close (the 8th action), A holds Qc, the top trump left (Ac, 10c and Kc are
    played): A wins a trick with it, 65 + 3 or more is a correct claim, and R18 scores it on
    B's state at the close, 13 points and a trick: 2. B, at 13, cannot reach 66 first. So
    perfect play gives A 2, which the record gives too."""
    pp = perfect_play(read_example(ROOT / "examples" / "05-closing.md"))
    assert pp is not None
    assert (pp["step"], pp["winner"], pp["game_points"], pp["found"]) == (8, "A", 2, True)
    assert pp["line"][-1] == "A claim"


def test_no_perfect_play_is_shown_for_a_hand_that_never_leaves_the_open_stock():
    assert perfect_play(read_example(ROOT / "examples" / "07-marriage-claim.md")) is None


def test_the_game_to_seven_runs_through_its_hands_with_the_score_sheet():
    """06-game-to-seven: the hands of six examples, whose results their own doctests work out
    by hand: B 3, A 2, A 2, A 2, a tie, A 1; A reaches 7 in hand 6 (R19)."""
    game = read_example(ROOT / "examples" / "06-game-to-seven.md")
    hands = game.game_hands()
    data = steps(game)
    assert len(data) == sum(len(h.actions) + 1 for h in hands)
    assert [s["step"] for s in data] == list(range(len(data)))
    first = 0
    for number, example in enumerate(hands, 1):
        own = steps(example)
        for mine, theirs in zip(data[first:first + len(own)], own):
            assert mine["hand"] == number
            assert {k: mine[k] for k in theirs if k != "step"} == \
                {k: v for k, v in theirs.items() if k != "step"}
        first += len(own)
    assert [(r["winner"], r["game_points"]) for r in data[-1]["sheet"]] == [
        ("B", 3), ("A", 2), ("A", 2), ("A", 2), (None, 0), ("A", 1)]
    assert data[-1]["score"] == {"A": 7, "B": 3}
    assert data[0]["score"] == {"A": 0, "B": 0}


@pytest.mark.parametrize("name,replayer", [("02-deal", False), ("05-closing", True)])
def test_a_record_with_no_moves_shows_no_replayer(name, replayer):
    """02-deal plays nothing: its one position is the deal, which its diagrams show; four
    disabled buttons would be noise (issue 23). A hand with moves keeps its replayer."""
    from mariage.site.build.generate import render_examples, replay_examples
    from mariage.site.render.pages import SiteSource

    source = SiteSource()
    example = read_example(ROOT / "examples" / f"{name}.md")
    page = render_examples(source, "en", [example], replay_examples([example]))[0]
    assert ("data-replayer" in page.text) is replayer
    assert ("Step through the hand" in page.text) is replayer


def test_a_close_before_the_draw_has_its_own_caption_event():
    """R11 option (Sixty-Six after Hoyle): the step shows the draw gone back to the stock."""
    from conftest import ROOT as root
    from mariage.engine.hand import Hand
    from mariage.engine.profile import load_profile
    from mariage.site.replay.replayer import _hand_steps

    deck = ["Ah", "9s", "Kc", "Jh", "Qd", "Jd", "Qc", "Jc", "10c", "9h", "9d", "9c", "As",
            "10s", "Ks", "Qs", "Js", "Ac", "10h", "Kh", "Qh", "Ad", "10d", "Kd"]
    hand = Hand(deck, dealer="A", profile=load_profile(root / "rules/variants/sixty-six.yaml"))
    states = _hand_steps(hand, ["B play Ah", "A play Jh", "B close before"], 0)
    assert states[-1]["event"] == {"kind": "close_before", "player": "B"}
    assert len(states[-1]["hands"]["B"]) == 5 and states[-1]["closer"] == "B"
    assert states[-1]["stock"] == 0
