"""The hand-record notation (our PGN): reading records and replaying them to JSON results.

A hand record: {"dealer": "A", "deck": [32 cards, top first], "actions": ["A play Kh", ...]}.
A game record: {"first_dealer": "A", "hands": [{"deck": [...], "actions": [...]}, ...]}.
A file holds one record as JSON or YAML, several YAML documents, or JSON Lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import yaml

from .errors import MariageError, RecordError, SourceError
from .game import Game
from .hand import Hand
from .profile import Profile, default_profile
from .solver import OpenStockError, solve

HAND_KEYS = {"dealer", "deck", "actions"}
GAME_KEYS = {"first_dealer", "hands"}


@dataclass
class Record:
    data: Any
    source: str           # "file:line" where the record starts


def read_records(text: str, name: str) -> list[Record]:
    """Split a file's text into records; unreadable JSON or YAML is a SourceError with a line."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return [Record(json.loads(text), f"{name}:1")]
        except json.JSONDecodeError as whole:
            if whole.msg != "Extra data":
                raise SourceError(name, f"unreadable JSON: {whole.msg} (column {whole.colno})",
                                  line=whole.lineno, hint="fix the JSON syntax") from None
        return list(_json_lines(text, name))
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(name, f"unreadable YAML: {getattr(exc, 'problem', None) or exc}",
                          line=mark.line + 1 if mark else None,
                          hint="fix the YAML syntax") from None
    return [Record(doc, f"{name}:1") for doc in docs if doc is not None]


def _json_lines(text: str, name: str) -> Iterator[Record]:
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield Record(json.loads(line), f"{name}:{number}")
        except json.JSONDecodeError as exc:
            raise SourceError(name, f"unreadable JSON Lines record: {exc.msg} "
                              f"(column {exc.colno})", line=number,
                              hint="write one JSON record per line") from None


class ReplayError(MariageError):
    def __init__(self, message: str, action: int | None, hand: int | None = None) -> None:
        super().__init__(message)
        self.action, self.hand = action, hand

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": str(self), "action": self.action}
        if self.hand is not None:
            out["hand"] = self.hand
        return out


def replay_hand(data: Any, dealer: str | None = None, profile: Profile | None = None,
                finish: bool = True) -> Hand:
    """Replay a hand record; with `finish`, a record stopping after the last trick ends there by
    R17 or R18 (without it, the last trick's winner may still claim or pass, R14)."""
    profile = profile or default_profile()
    if not isinstance(data, dict):
        raise ReplayError("a hand record is a mapping with dealer, deck and actions", None)
    allowed = HAND_KEYS if dealer is None else HAND_KEYS - {"dealer"}
    _check_keys(data, allowed, required={"deck"} | ({"dealer"} if dealer is None else set()))
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not isinstance(data["deck"], (list, str)):
        raise ReplayError("'deck' is a list of cards and 'actions' a list of strings", None)
    try:
        hand = Hand(data["deck"], dealer=dealer or data["dealer"], profile=profile)
    except MariageError as exc:
        raise ReplayError(str(exc), None) from None
    try:
        hand.apply_all(actions)
    except MariageError as exc:
        raise ReplayError(str(exc), len(hand.log)) from None
    if finish and not hand.is_over and hand.all_played:
        hand.finish()
    return hand


def hand_result(hand: Hand) -> dict[str, Any]:
    if hand.outcome is not None:
        return hand.outcome.as_json()
    players = hand.players
    return {"end": None, "winner": None, "game_points": 0,
            "points": {p: hand.points(p) for p in players},
            "tricks": {p: hand.tricks(p) for p in players}, "to_act": hand.to_act}


def replay_game(data: dict[str, Any], profile: Profile | None = None) -> dict[str, Any]:
    _check_keys(data, GAME_KEYS, required=GAME_KEYS)
    if not isinstance(data["hands"], list):
        raise ReplayError("'hands' is a list of hand records", None)
    try:
        game = Game(data["first_dealer"], profile)
    except ValueError as exc:
        raise ReplayError(str(exc), None) from None
    results = []
    for number, hand_data in enumerate(data["hands"]):
        try:
            if game.hands and not game.hands[-1].is_over:
                raise ReplayError(f"R19: hand {number - 1} stopped mid-hand; only the last hand "
                                  "of a game record may", None)
            if game.winner is not None:
                raise ReplayError(f"R19: the game was decided before this hand "
                                  f"({game.winner} reached {game.profile.thresholds.game})", None)
            hand = replay_hand(hand_data, dealer=game.dealer, profile=game.profile)
        except ReplayError as exc:
            exc.hand = number
            raise
        game.hands.append(hand)
        if hand.outcome is not None:
            game.record(hand.outcome)
        results.append(hand_result(hand))
    return {"hands": results, "game_winner": game.winner, "game_points": game.game_points}


def replay(data: Any, profile: Profile | None = None) -> dict[str, Any]:
    """Replay one hand or game record to its JSON result, or to an error object."""
    try:
        if isinstance(data, dict) and "hands" in data:
            return replay_game(data, profile)
        return hand_result(replay_hand(data, profile=profile))
    except ReplayError as exc:
        return exc.as_json()


def solve_record(data: Any, profile: Profile | None = None) -> dict[str, Any]:
    """Perfect play from a hand record's last position: {"winner", "game_points", "line"}, or
    an error object as replay() gives."""
    try:
        if isinstance(data, dict) and "hands" in data:
            raise ReplayError("solve reads hand records: give the hand to solve on its own, "
                              "with its dealer", None)
        return solve(replay_hand(data, profile=profile, finish=False)).as_json()
    except ReplayError as exc:
        return exc.as_json()
    except OpenStockError as exc:
        return ReplayError(str(exc), None).as_json()


def _check_keys(data: dict[str, Any], allowed: set[str], required: set[str]) -> None:
    if required <= data.keys() <= allowed:
        return
    unknown = sorted(map(str, set(data) - allowed))
    if unknown:
        raise ReplayError(f"unknown key {unknown[0]!r} in the record; the keys are "
                          f"{', '.join(sorted(allowed))}", None)
    missing = sorted(required - set(map(str, data)))
    if missing:
        raise ReplayError(f"the record lacks {missing[0]!r}", None)


def load_record_file(path: str | Path) -> list[Record]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SourceError(path, f"cannot read the file ({reason})",
                          hint="check the path; - reads standard input") from None
    return read_records(text, str(path))


__all__ = ["Record", "ReplayError", "RecordError", "hand_result", "load_record_file",
           "read_records", "replay", "replay_game", "replay_hand", "solve_record"]
