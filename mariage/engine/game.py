"""A game of hands to 7 game points, the deal alternating every hand (R2, R19)."""

from __future__ import annotations

import random
from typing import Sequence

from .cards import Card, deck_for
from .errors import IllegalActionError
from .hand import Hand
from .outcome import End, Outcome
from .schema import Profile


class Game:
    """Hands dealt in turn from `first_dealer`; the first to the profile's game target wins."""

    def __init__(self, first_dealer: str = "A", profile: Profile | None = None) -> None:
        self.profile = profile or _project_profile()
        self.players = list(self.profile.players)
        if first_dealer not in self.players:
            raise ValueError(f"unknown dealer {first_dealer!r}: use {' or '.join(self.players)}")
        self.first_dealer = first_dealer
        self.hands: list[Hand] = []
        self.game_points = {p: 0 for p in self.players}
        self.carried = 0           # R17 option: tied hands whose point goes to the next winner

    @classmethod
    def seeded(cls, seed: int, profile: Profile | None = None) -> "Game":
        """R2: the first dealer drawn at random, repeatably from a seed."""
        profile = profile or _project_profile()
        return cls(random.Random(seed).choice(list(profile.players)), profile)

    @property
    def dealer(self) -> str:
        """The dealer of the next hand: the deal alternates, a hand scoring nothing included."""
        first = self.players.index(self.first_dealer)
        return self.players[(first + len(self.hands)) % 2]

    @property
    def winner(self) -> str | None:
        target = self.profile.thresholds.game
        leaders = [p for p in self.players if self.game_points[p] >= target]
        return leaders[0] if leaders else None

    def new_hand(self, deck: Sequence[str | Card] | str) -> Hand:
        if self.winner is not None:
            raise IllegalActionError("R19", f"the game is over: {self.winner} reached "
                                     f"{self.profile.thresholds.game} game points")
        if self.hands and not self.hands[-1].is_over:
            raise IllegalActionError("R19", "the previous hand has not ended")
        hand = Hand(deck, dealer=self.dealer, profile=self.profile)
        self.hands.append(hand)
        return hand

    def record(self, outcome: Outcome) -> int:
        """Add a finished hand's game points to the score, and return them: with the point of
        each tied hand before it where the profile carries a tie to the next hand (R17)."""
        if outcome.winner is None:
            if outcome.end is End.EXHAUSTED and self.profile.options.natural_tie == "next_hand":
                self.carried += 1
            return 0
        scored, self.carried = outcome.game_points + self.carried, 0
        self.game_points[outcome.winner] += scored
        return scored

    def shuffled_deck(self, rng: random.Random) -> list[str]:
        cards = [str(c) for c in deck_for(self.profile).cards]
        rng.shuffle(cards)
        return cards


def _project_profile() -> Profile:
    """The project's own profile, read from YAML (msgspec): only when none is handed in."""
    from .profile import default_profile
    return default_profile()
