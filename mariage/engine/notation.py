"""The hand-record notation (our PGN): reading records and replaying them to JSON results.

A hand record: {"dealer": "A", "deck": [32 cards, top first], "actions": ["A play Kh", ...]}.
A game record: {"first_dealer": "A", "hands": [{"deck": [...], "actions": [...]}, ...]}.
A file holds one record as JSON or YAML, several YAML documents, or JSON Lines.
"""

from __future__ import annotations

import io
import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import yaml

from . import bounded
from .errors import MariageError, RecordError, SourceError
from .game import Game
from .hand import Hand
from .profile import Profile, default_profile

HAND_KEYS = {"dealer", "deck", "actions"}
GAME_KEYS = {"first_dealer", "hands"}
_HAND_NEEDS, _GAME_HAND_KEYS, _GAME_HAND_NEEDS = {"dealer", "deck"}, {"deck", "actions"}, {"deck"}


class Record:
    """One record read from a file, and where it starts ("file:line")."""

    __slots__ = ("data", "name", "line")

    def __init__(self, data: Any, name: str, line: int) -> None:
        self.data, self.name, self.line = data, name, line

    @property
    def source(self) -> str:
        return f"{self.name}:{self.line}"

    def __repr__(self) -> str:
        return f"Record({self.data!r}, {self.source!r})"


def read_records(text: str, name: str) -> list[Record]:
    """Split a file's text into records; unreadable JSON or YAML is a SourceError with a line."""
    return list(iter_records(io.BytesIO(text.encode("utf-8")), name))


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """The records of a stream, each yielded as soon as it is read: JSON Lines one line at a
    time (memory flat in the number of records); a JSON or YAML document whole, within
    bounded.MAX_FILE. A breach of a limit is a SourceError naming the line."""
    first = _read_line(stream, name, 1)
    if first.lstrip().startswith((b"{", b"[")):
        try:
            data = bounded.json_record(first)
        except bounded.NotText as exc:
            raise SourceError(name, str(exc), line=exc.line or 1) from None
        except json.JSONDecodeError:       # a JSON document spread over several lines
            yield _json_document(first + _rest(stream, name), name)
            return
        except bounded.BadInput as exc:
            raise SourceError(name, f"unreadable JSON: {exc}", line=1) from None
        yield Record(data, name, 1)
        yield from _json_lines(stream, name)
        return
    data = first + _rest(stream, name)
    if len(data) > bounded.MAX_YAML:
        raise SourceError(name, f"a YAML record file is at most {bounded.MAX_YAML >> 20} MB",
                          hint="write large records as JSON Lines, one record per line, which "
                          "are read one at a time") from None
    text = _text(data, name, 1)
    try:
        for data, line in bounded.load_all(text):
            if data is not None:
                yield Record(data, name, line)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(name, f"unreadable YAML: {getattr(exc, 'problem', None) or exc}",
                          line=mark.line + 1 if mark else None,
                          hint="fix the YAML syntax") from None


def _read_line(stream: BinaryIO, name: str, number: int) -> bytes:
    line = stream.readline(bounded.MAX_LINE + 1)
    if len(line) > bounded.MAX_LINE:
        _too_long(name, number)
    return line


def _lines(stream: BinaryIO, name: str, first: int = 2) -> Iterator[bytes]:
    """The rest of a stream's lines (numbered from `first`), read in blocks of what is there
    (read1: a pipe's reader gets each line as soon as it is written), none longer than
    bounded.MAX_LINE."""
    limit, number, rest = bounded.MAX_LINE, first, b""
    read = getattr(stream, "read1", stream.read)
    while block := read(1 << 16):
        lines = (rest + block).split(b"\n") if rest else block.split(b"\n")
        rest = lines.pop()
        for line in lines:
            if len(line) >= limit:
                _too_long(name, number)
            number += 1
            yield line
        if len(rest) >= limit:
            _too_long(name, number)
    if rest:
        yield rest


def _too_long(name: str, number: int) -> None:
    raise SourceError(name, f"a line longer than {bounded.MAX_LINE >> 20} MB", line=number,
                      hint="a record is a few kilobytes; is this the right file?")


def _rest(stream: BinaryIO, name: str) -> bytes:
    try:
        return bounded.read_bounded(stream)
    except bounded.BadInput as exc:
        raise SourceError(name, f"the file is {exc}", hint="split it into JSON Lines, one "
                          "record per line, which are read one at a time") from None


def _text(data: bytes, name: str, first_line: int) -> str:
    try:
        return bounded.decode(data)
    except bounded.NotText as exc:
        raise SourceError(name, str(exc), line=first_line - 1 + (exc.line or 1)) from None


def _json_document(data: bytes, name: str) -> Record:
    try:
        return Record(bounded.json_loads(_text(data, name, 1)), name, 1)
    except json.JSONDecodeError as exc:
        raise SourceError(name, f"unreadable JSON: {exc.msg} (column {exc.colno})",
                          line=exc.lineno, hint="fix the JSON syntax") from None
    except bounded.BadInput as exc:
        raise SourceError(name, f"unreadable JSON: {exc}", line=1) from None


def _json_lines(stream: BinaryIO, name: str) -> Iterator[Record]:
    number, fast = 1, bounded.FAST_JSON
    for line in _lines(stream, name):
        number += 1
        try:
            yield Record(fast(line), name, number)    # the common case, read by msgspec
            continue
        except bounded.FAST_JSON_ERRORS:
            if not line or line.isspace():
                continue
        try:                                    # what msgspec refused: the standard path's word
            data = bounded.json_loads(bounded.decode(line))
        except bounded.NotText as exc:
            raise SourceError(name, str(exc), line=number - 1 + (exc.line or 1)) from None
        except json.JSONDecodeError as exc:
            raise SourceError(name, f"unreadable JSON Lines record: {exc.msg} "
                              f"(column {exc.colno})", line=number,
                              hint="write one JSON record per line") from None
        except bounded.BadInput as exc:
            raise SourceError(name, f"unreadable JSON Lines record: {exc}", line=number) from None
        yield Record(data, name, number)


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
    if dealer is None:
        _check_keys(data, HAND_KEYS, required=_HAND_NEEDS)
    else:                                   # a hand of a game record: the game deals
        _check_keys(data, _GAME_HAND_KEYS, required=_GAME_HAND_NEEDS)
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


def solve_record(data: Any, profile: Profile | None = None,
                 false_claims: bool = True) -> dict[str, Any]:
    """Perfect play from a hand record's last position: {"winner", "game_points", "line"}, or
    an error object as replay() gives; false_claims=False: a claim only when correct."""
    from .solver import OpenStockError, solve      # only `mariage solve` needs the solver
    try:
        if isinstance(data, dict) and "hands" in data:
            raise ReplayError("solve reads hand records: give the hand to solve on its own, "
                              "with its dealer", None)
        return solve(replay_hand(data, profile=profile, finish=False), false_claims).as_json()
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
    with open_records(path) as records:
        return list(records)


@contextmanager
def open_records(path: str | Path) -> Iterator[Iterator[Record]]:
    """The records of a file, read as they are replayed; an unreadable file is a SourceError."""
    try:
        stream = open(path, "rb")
    except OSError as exc:
        raise SourceError(path, f"cannot read the file ({exc.strerror})",
                          hint="check the path; - reads standard input") from None
    with stream:
        yield _guarded(iter_records(stream, str(path)), path)


def _guarded(records: Iterator[Record], path: str | Path) -> Iterator[Record]:
    try:
        yield from records
    except OSError as exc:              # e.g. a directory, or a read error mid-file
        raise SourceError(path, f"cannot read the file ({exc.strerror})",
                          hint="check the path; - reads standard input") from None


__all__ = ["Record", "ReplayError", "RecordError", "hand_result", "iter_records", "load_record_file",
           "open_records", "read_records", "replay", "replay_game", "replay_hand", "solve_record"]
