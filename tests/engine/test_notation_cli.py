"""Record notation and `mariage replay`: JSON, YAML, JSON Lines, stdin, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mariage import Action, Hand, RecordError
from mariage.engine.notation import read_records, replay

from engine.conftest import build_deck
from engine.full_hands import TIE_ACTIONS, TIE_DECK

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "mariage"

# BOUNDARY (A deals, hearts trump): B 21 + 40 + 5 = 66 and claims; A has no trick: 3 (R15).
DECK = build_deck(non_dealer=["Ac", "Kh", "Qh"], dealer=["10c", "Jd", "7d"], indicator="9h")
ACTIONS = ["B play Ac", "A play 10c", "B marriage h", "B play Qh", "A play Jd", "B claim"]
RECORD = {"dealer": "A", "deck": DECK, "actions": ACTIONS}
RESULT = {"end": "claim", "winner": "B", "game_points": 3,
          "points": {"A": 0, "B": 66}, "tricks": {"A": 0, "B": 2}}
# The same deck, B claiming on the first lead: false, A scores 2 (R16).
FALSE = {"dealer": "A", "deck": DECK, "actions": ["B claim"]}
FALSE_RESULT = {"end": "false_claim", "winner": "A", "game_points": 2,
                "points": {"A": 0, "B": 0}, "tricks": {"A": 0, "B": 0}}


def run(*args: str, stdin: str | None = None, script: bool = False):
    """The checkout's code (`python -m mariage.cli`), or with `script` the installed command."""
    command = [str(SCRIPT)] if script else [sys.executable, "-m", "mariage.cli"]
    return subprocess.run(command + list(args), capture_output=True, text=True, input=stdin,
                          cwd=ROOT, timeout=60)


def lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def yaml_record(rec: dict) -> str:
    return (f"dealer: {rec['dealer']}\n"
            f"deck: [{', '.join(rec['deck'])}]\n"
            "actions:\n" + "".join(f"  - {a}\n" for a in rec["actions"]))


# ----- reading records (in-process)

def test_notation_replay_hand_record_to_result():
    """R15 via notation.replay: a hand record gives its JSON-able result."""
    assert replay(RECORD) == RESULT
    assert replay(FALSE) == FALSE_RESULT
    json.dumps(replay(RECORD))


def test_notation_deck_as_one_string():
    """R3: the deck may be written as one space-separated string."""
    assert replay(dict(RECORD, deck=" ".join(DECK))) == RESULT


def test_notation_record_stopped_midway_reports_who_acts():
    """R5: a record may stop mid-hand: no end, and the player to act."""
    result = replay(dict(RECORD, actions=ACTIONS[:2]))
    assert result == {"end": None, "winner": None, "game_points": 0,
                      "points": {"A": 0, "B": 21}, "tricks": {"A": 0, "B": 1}, "to_act": "B"}


def test_notation_record_stopping_after_the_last_trick_ends_by_r17():
    """R14/R17: a record may just stop after the last trick: the natural end applies."""
    result = replay({"dealer": "A", "deck": TIE_DECK, "actions": TIE_ACTIONS})
    assert result == {"end": "exhausted", "winner": None, "game_points": 0,
                      "points": {"A": 65, "B": 65}, "tricks": {"A": 6, "B": 10}}


def test_notation_illegal_action_gives_ruling_and_index():
    """R14 via a record: A claims while answering (action 3): error names R14 and index 3."""
    result = replay(dict(RECORD, actions=["B play Ac", "A play 10c", "B play Kh", "A claim"]))
    assert set(result) == {"error", "action"}
    assert result["error"].startswith("R14") and result["action"] == 3


@pytest.mark.parametrize("actions, index, ruling", [
    (["B close"], 0, "R11"),
    (["B play Ac", "A play 10c", "B marriage h", "B play Ac"], 3, "R5"),
    (["B play Ac", "A play 10c", "B marriage h", "B play 7c"], 3, "R12"),
    (["A play 10c"], 0, "R5"),
    (["B exchange"], 0, "R10"),      # B holds 7h but has won no trick
])
def test_notation_illegal_actions_name_their_ruling(actions, index, ruling):
    """R5/R10/R11/R12: the error starts with the ruling and gives the action's index."""
    result = replay(dict(RECORD, actions=actions))
    assert result["error"].split(":")[0] == ruling and result["action"] == index


def test_notation_unreadable_action_gives_its_index():
    """Record notation: 'B dance' is not an action: error at index 1."""
    result = replay(dict(RECORD, actions=["B play Ac", "B dance"]))
    assert result["action"] == 1 and "dance" in result["error"]


def test_notation_unknown_card_in_deck():
    """R1: a deck with 6s is not a Mariage deck: error, no action index."""
    deck = [("6s" if c == "7s" else c) for c in DECK]
    result = replay(dict(RECORD, deck=deck))
    assert "6s" in result["error"] and result["action"] is None


def test_notation_31_card_deck():
    """R1/R4: a 31-card deck is a misdeal."""
    result = replay(dict(RECORD, deck=DECK[:31]))
    assert result["error"].startswith("R1/R4") and result["action"] is None


@pytest.mark.parametrize("data", [[1, 2], "deck", {"dealer": "A"}, {**RECORD, "extra": 1}])
def test_notation_malformed_record_is_an_error_not_an_exception(data):
    """Record notation: a record that is not a hand or game mapping gives an error object."""
    result = replay(data)
    assert "error" in result


def test_notation_read_records_json_lines_and_yaml_documents():
    """Record notation: JSON Lines and several YAML documents give one record each."""
    jsonl = json.dumps(RECORD) + "\n\n" + json.dumps(FALSE) + "\n"
    assert [r.data for r in read_records(jsonl, "x.jsonl")] == [RECORD, FALSE]
    assert [r.source for r in read_records(jsonl, "x.jsonl")] == ["x.jsonl:1", "x.jsonl:3"]
    docs = "---\n" + yaml_record(RECORD) + "---\n" + yaml_record(FALSE)
    assert [r.data for r in read_records(docs, "x.yaml")] == [RECORD, FALSE]


def test_notation_action_parse():
    """Record notation: '<player> <verb> [<arg>]'."""
    assert Action.parse("B play 10h") == Action("B", "play", "10h")
    assert Action.parse("A marriage s") == Action("A", "marriage", "s")
    assert str(Action.parse("A claim")) == "A claim"
    for bad in ["B play", "B claim now", "B", "B fold", "B marriage"]:
        with pytest.raises(RecordError):
            Action.parse(bad)


def test_notation_unknown_marriage_suit_is_a_record_error():
    """Record notation: 'marriage x' names no suit."""
    hand = Hand(DECK)
    hand.apply("B play Ac")
    hand.apply("A play 10c")
    with pytest.raises(RecordError):
        hand.apply("B marriage x")


# ----- the command

def test_cli_replay_json_file(tmp_path):
    """`mariage replay FILE`: one JSON line, exit 0."""
    proc = run("replay", write(tmp_path, "hand.json", json.dumps(RECORD, indent=2)))
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stdout) == [RESULT]


def test_cli_replay_yaml_file_with_two_documents(tmp_path):
    """`mariage replay`: a YAML file with two documents gives two lines."""
    text = "---\n" + yaml_record(RECORD) + "---\n" + yaml_record(FALSE)
    proc = run("replay", write(tmp_path, "hands.yaml", text))
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stdout) == [RESULT, FALSE_RESULT]


def test_cli_replay_json_lines(tmp_path):
    """`mariage replay`: JSON Lines, one record a line."""
    text = json.dumps(RECORD) + "\n" + json.dumps(FALSE) + "\n"
    proc = run("replay", write(tmp_path, "hands.jsonl", text))
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stdout) == [RESULT, FALSE_RESULT]


def test_cli_replay_stdin():
    """`mariage replay -` reads the record from stdin."""
    proc = run("replay", "-", stdin=json.dumps(RECORD))
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stdout) == [RESULT]


def test_cli_replay_via_the_installed_script(tmp_path):
    """The installed `mariage` command works like `python -m mariage.cli`."""
    proc = run("replay", write(tmp_path, "hand.json", json.dumps(FALSE)), script=True)
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stdout) == [FALSE_RESULT]


def test_cli_illegal_action_exit_1(tmp_path):
    """R11 via the command: error line with ruling and index, exit 1."""
    rec = dict(RECORD, actions=["B play Ac", "A play 10c", "B play 7c", "A play 7d", "B close",
                                "B close"])
    proc = run("replay", write(tmp_path, "bad.json", json.dumps(rec)))
    assert proc.returncode == 1
    (out,) = lines(proc.stdout)
    assert out["error"].startswith("R11") and out["action"] == 5
    assert "Traceback" not in proc.stderr


def test_cli_unknown_card_exit_1(tmp_path):
    """R1 via the command: unknown card, exit 1."""
    rec = dict(RECORD, deck=[("Xs" if c == "7s" else c) for c in DECK])
    proc = run("replay", write(tmp_path, "bad.json", json.dumps(rec)))
    assert proc.returncode == 1
    (out,) = lines(proc.stdout)
    assert "Xs" in out["error"] and out["action"] is None


def test_cli_31_card_deck_exit_1(tmp_path):
    """R1/R4 via the command: wrong count, exit 1."""
    proc = run("replay", write(tmp_path, "short.json", json.dumps(dict(RECORD, deck=DECK[:31]))))
    assert proc.returncode == 1
    (out,) = lines(proc.stdout)
    assert out["error"].startswith("R1/R4") and out["action"] is None


def test_cli_bad_json_exit_2_with_file_and_line(tmp_path):
    """Unreadable JSON: exit 2, 'file:line' on stderr, no traceback, nothing on stdout."""
    text = '{\n  "dealer": "A",\n  "deck": [],\n  "actions": [oops]\n}\n'
    path = write(tmp_path, "broken.json", text)
    proc = run("replay", path)
    assert proc.returncode == 2
    assert f"{path}:4" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_cli_bad_json_lines_names_the_line(tmp_path):
    """Unreadable JSON Lines record on line 2: exit 2, 'file:2'."""
    text = json.dumps(RECORD) + "\n" + '{"dealer": "A", "deck": \n'
    path = write(tmp_path, "broken.jsonl", text)
    proc = run("replay", path)
    assert proc.returncode == 2
    assert f"{path}:2" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_bad_yaml_exit_2(tmp_path):
    """Unreadable YAML: exit 2 with a line number, no traceback."""
    path = write(tmp_path, "broken.yaml", "dealer: A\ndeck: [Ac, 10c\nactions: {\n")
    proc = run("replay", path)
    assert proc.returncode == 2
    assert proc.stderr.count(path + ":") == 1 and "Traceback" not in proc.stderr


def test_cli_missing_file_exit_2(tmp_path):
    """A file that does not exist: exit 2, no traceback."""
    proc = run("replay", str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and "nope.json" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_several_files_worst_status_wins(tmp_path):
    """Several files: each record printed; an unreadable file makes the exit 2."""
    good = write(tmp_path, "good.json", json.dumps(RECORD))
    bad = write(tmp_path, "bad.json", '{"dealer": ')
    illegal = write(tmp_path, "illegal.json", json.dumps(dict(RECORD, actions=["B close"])))
    proc = run("replay", good, illegal)
    assert proc.returncode == 1 and len(lines(proc.stdout)) == 2
    proc = run("replay", good, bad, illegal)
    assert proc.returncode == 2
    assert lines(proc.stdout)[0] == RESULT and len(lines(proc.stdout)) == 2
    assert "Traceback" not in proc.stderr


def test_cli_game_record(tmp_path):
    """R19 via the command: a game record gives one line with every hand."""
    game = {"first_dealer": "A", "hands": [{"deck": DECK, "actions": ACTIONS}]}
    proc = run("replay", write(tmp_path, "game.json", json.dumps(game)))
    assert proc.returncode == 0, proc.stderr
    assert lines(proc.stdout) == [{"hands": [RESULT], "game_winner": None,
                                   "game_points": {"A": 0, "B": 3}}]


def test_cli_record_with_non_string_keys_does_not_crash(tmp_path):
    """Record notation: a YAML mapping with numeric keys is reported, never a traceback."""
    path = write(tmp_path, "odd.yaml", yaml_record(RECORD) + "1: one\nx: two\n")
    proc = run("replay", path)
    assert proc.returncode in (1, 2)
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("bad_action", [None, 7, ["B", "play", "Ac"], {"B": "play Ac"}],
                         ids=["null", "number", "list", "mapping"])
def test_notation_non_string_action_is_an_error_object(bad_action):
    """Record notation: an action that is not a string gives an error at its index."""
    result = replay(dict(RECORD, actions=["B play Ac", bad_action]))
    assert set(result) == {"error", "action"} and result["action"] == 1


def test_cli_yaml_action_written_as_a_mapping_does_not_crash(tmp_path):
    """Record notation: '- B: play Ac' in YAML is a mapping, not an action: exit 1, no traceback."""
    text = yaml_record(dict(RECORD, actions=[])).replace("actions:\n", "actions:\n  - B: play Ac\n")
    proc = run("replay", write(tmp_path, "mapping.yaml", text))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1
    (out,) = lines(proc.stdout)
    assert out["action"] == 0


def test_notation_hand_replay_and_pasteable_repr():
    """Record notation: Hand.replay(deck, actions, dealer=) and a repr that replays the same hand."""
    hand = Hand.replay(DECK, ACTIONS[:4], dealer="A")
    assert hand.to_act == "A" and hand.points("B") == 61
    again = eval(repr(hand), {"Hand": Hand})
    assert [str(a) for a in again.log] == ACTIONS[:4]
    assert again.points("B") == 61 and again.to_act == "A"
