"""The Play page's table (mariage/play/table.py), driven as the page drives it: JSON in and out.
The legal actions are the engine's, a refusal is the engine's with its ruling, the record
replays to the outcome the table reports, and a game runs to the target (R19)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from conftest import PROFILE, PROFILES, ROOT
from mariage.engine.notation import replay
from mariage.engine.profile import load_profile
from mariage.engine.schema import Profile
from mariage.play import table


def _start(path, seed: int) -> dict:
    return json.loads(table.start(json.dumps(load_profile(path).as_data()), seed))


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_a_game_to_the_target_played_through_the_table(path):
    profile = load_profile(path)
    rng = random.Random(5)
    state, hands = _start(path, 5), 0
    while True:
        while state["outcome"] is None:
            assert state["to_act"] == profile.players[0] and state["legal"]
            result = replay(state["record"], profile)
            assert result["to_act"] == profile.players[0]
            state = json.loads(table.call("act", rng.choice(state["legal"])))
            assert "error" not in state, state
        want = replay(state["record"], profile)
        assert state["outcome"] == {k: want[k] for k in ("end", "winner", "game_points", "points",
                                                          "tricks")}
        hands += 1
        if state["game_winner"]:
            break
        state = json.loads(table.call("next_hand"))
    assert max(state["score"].values()) >= profile.thresholds.game        # R19
    assert sum(state["score"].values()) <= hands * max(profile.rates.values())
    assert "error" in json.loads(table.call("next_hand"))                 # R19: the game is over


def test_every_refused_card_carries_the_engines_ruling():
    """Played until strict play refuses a card (R9); each refusal is the engine's own."""
    rulings = set()
    for seed in range(10):
        state = _start(PROFILE, seed)
        while state["outcome"] is None:
            for action, why in state["refused"].items():
                assert why["message"].startswith(why["ruling"] + ": ")
                assert why["text"] == load_profile(PROFILE).ruling(why["ruling"])
                assert action not in state["legal"]
                rulings.add(why["ruling"])
            plays = [a for a in state["legal"] if " play " in a] or state["legal"]
            state = json.loads(table.call("act", plays[0]))
    assert "R9" in rulings


@pytest.mark.parametrize("action,ruling", [
    ("B play 7c", "R5"),              # the reader plays A, never B
    ("A marriage x", None),           # not a suit: a RecordError, said as an error
    ("A fly", None),
])
def test_a_mistaken_action_is_an_error_not_a_crash(action, ruling):
    _start(PROFILE, 3)
    answer = json.loads(table.call("act", action))
    assert "error" in answer
    if ruling:
        assert answer["ruling"] == ruling


def test_the_record_after_a_hand_steps_through_to_its_end():
    state = _start(PROFILE, 8)
    while state["outcome"] is None:
        state = json.loads(table.call("act", state["legal"][-1]))
    steps = json.loads(table.call("steps"))
    assert len(steps) == len(state["record"]["actions"]) + 1
    assert steps[-1]["outcome"]["winner"] == state["outcome"]["winner"]


def test_the_play_path_imports_only_the_standard_library():
    """Pyodide's core has no PyYAML and no msgspec: the table, the opponent and the engine they
    use must import without them, with the profile handed in as plain data."""
    code = ("import sys, json; sys.modules['yaml'] = None; sys.modules['msgspec'] = None\n"
            "from mariage.play import table\n"
            "print(json.loads(table.start(sys.stdin.read(), 1))['to_act'])")
    data = json.dumps(load_profile(PROFILE).as_data())
    run = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "A"


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_a_profile_read_from_plain_data_is_the_profile(path):
    profile = load_profile(path)
    plain = Profile.from_plain(json.loads(json.dumps(profile.as_data())))
    assert plain.as_data() == profile.as_data()


@pytest.mark.parametrize("record,says", [
    ({"dealer": "A", "deck": ["Ac"] * 32, "actions": []}, "R1/R4"),
    ({"dealer": "A", "deck": "not a deck", "actions": []}, "unknown card"),
    ({"dealer": "A"}, "a hand record holds"),
    ([], "a hand record holds"),
    ("{", "Expecting"),
], ids=["duplicate-cards", "bad-deck", "no-deck", "a-list", "bad-json"])
def test_a_link_to_a_record_the_engine_refuses_is_an_error(record, says):
    """A link to a hand (#replay=...) can hold anything: the engine's refusal comes back."""
    text = record if isinstance(record, str) else json.dumps(record)
    answer = json.loads(table.steps_of(json.dumps(load_profile(PROFILE).as_data()), text))
    assert says in answer["error"]


def test_a_link_to_a_finished_hand_steps_through_it():
    state = _start(PROFILE, 4)
    while state["outcome"] is None:
        state = json.loads(table.call("act", state["legal"][0]))
    steps = json.loads(table.steps_of(json.dumps(load_profile(PROFILE).as_data()),
                                      json.dumps(state["record"])))
    assert steps == json.loads(table.call("steps"))
