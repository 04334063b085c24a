"""The score sheet of the "At the table" page: a whole game record, replayed by the engine.

examples/records/score-sheet.yaml holds a game to the target (dealer, deck and actions of each
hand). Every build replays it; the page prints what the engine computes, hand by hand: who
dealt, how the hand ended, the points, the opponent's state noted at a close, and the running
game points.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...engine.errors import SourceError
from ...engine.game import Game
from ...engine.hand import Hand
from ...engine.notation import ReplayError, load_record_file, replay_hand
from ...engine.profile import Profile

SCORE_SHEET = Path("records") / "score-sheet.yaml"     # under the project's examples/


@dataclass(frozen=True)
class SheetRow:
    number: int
    dealer: str
    end: str                       # an outcome's End value: claim, false_claim, ...
    claimant: str | None           # who claimed, if the hand ended by a claim
    winner: str | None
    game_points: int
    points: dict[str, int]
    closer: str | None
    noted: tuple[int, int] | None  # the closer's opponent at the close: points, tricks
    totals: dict[str, int]         # game points after this hand


def score_sheet(path: Path, profile: Profile) -> list[SheetRow] | None:
    """The rows of the score sheet, or a SourceError naming the record and what is wrong; None
    for a project without one (the site of another game of the family)."""
    if not path.exists():
        return None
    records = load_record_file(path)
    data = records[0].data if len(records) == 1 else None
    if not isinstance(data, dict) or set(data) != {"first_dealer", "hands"}:
        raise SourceError(path, "the score sheet needs one game record: first_dealer and hands",
                          line=1)
    try:
        if data["first_dealer"] not in profile.players:
            raise ValueError(f"the first dealer is {' or '.join(profile.players)} (R2)")
        game = Game(data["first_dealer"], profile)
    except ValueError as exc:
        raise SourceError(path, str(exc), key="first_dealer") from None
    if not isinstance(data["hands"], list) or not data["hands"]:
        raise SourceError(path, "'hands' is the list of the game's hands", key="hands")
    rows = []
    for number, record in enumerate(data["hands"], 1):
        dealer = game.dealer
        hand = _replay(path, number, record, dealer, profile)
        game.hands.append(hand)
        outcome = hand.outcome
        if outcome is None:
            raise SourceError(path, f"hand {number} does not end", hint="record every action")
        game.record(outcome)
        rows.append(SheetRow(number, dealer, outcome.end.value, _as_player(profile, _claimant(record)),
                             outcome.winner,
                             outcome.game_points, dict(outcome.points), hand.closer,
                             _noted(path, number, record, dealer, profile), dict(game.game_points)))
        if game.winner is not None and number < len(data["hands"]):
            raise SourceError(path, f"the game is won after hand {number}; remove the hands after it")
    if game.winner is None:
        raise SourceError(path, f"nobody reaches {profile.thresholds.game} game points",
                          hint="record the whole game (R19)")
    return rows


def _replay(path: Path, number: int, record: object, dealer: str, profile: Profile,
            stop: int | None = None) -> Hand:
    try:
        if not isinstance(record, dict):
            raise ReplayError("a hand is a mapping with deck and actions", None)
        actions = record.get("actions", [])
        if not isinstance(actions, list):
            raise ReplayError("'actions' is a list of actions such as 'A play Kh'", None)
        part = {"deck": record.get("deck"), "actions": actions[:stop]}
        return replay_hand(part, dealer=dealer, profile=profile, finish=stop is None)
    except ReplayError as exc:
        raise SourceError(path, f"hand {number} does not replay: {exc}",
                          hint="fix the record so every action is legal") from None


def _as_player(profile: Profile, name: str | None) -> str | None:
    """The profile's own object for a player named in a record (a page prints it by name)."""
    return None if name is None else profile.players[profile.players.index(name)]


def _claimant(record: dict) -> str | None:
    claims = [str(a).split()[0] for a in record.get("actions", []) if str(a).split()[1:2] == ["claim"]]
    return claims[-1] if claims else None


def _noted(path: Path, number: int, record: dict, dealer: str, profile: Profile) -> tuple[int, int] | None:
    """The closer's opponent's points and tricks at the moment of closing (R11)."""
    verbs = [str(a).split()[1:2] for a in record.get("actions", [])]
    if ["close"] not in verbs:
        return None
    at = verbs.index(["close"])
    before = _replay(path, number, record, dealer, profile, stop=at)
    opponent = next(p for p in before.players if p != before.to_act)
    return before.points(opponent), before.tricks(opponent)
