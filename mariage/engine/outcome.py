"""How a hand ended: an Outcome keeps the ending a player claims apart from the automatic ones."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class End(str, Enum):
    CLAIM = "claim"                  # R15, R18: a correct claim, whoever made it
    FALSE_CLAIM = "false_claim"      # R16, R18: a false claim, the closer's included
    CLOSER_FAILED = "closer_failed"  # R18: a closed hand ran out of cards with no correct claim
    EXHAUSTED = "exhausted"          # R17: all tricks played in an open hand, no claim

    def __repr__(self) -> str:
        return f"End.{self.name}"


class Outcome(NamedTuple):
    """How a hand ended: immutable, and cheap to make (one per replayed record)."""
    end: End
    winner: str | None          # None only for a tie at the natural end (R17)
    game_points: int
    points: dict[str, int]
    tricks: dict[str, int]
    ruling: str                 # the ruling that decided the score, e.g. "R15"

    def as_json(self) -> dict[str, object]:
        return {"end": self.end.value, "winner": self.winner, "game_points": self.game_points,
                "points": dict(self.points), "tricks": dict(self.tricks)}
