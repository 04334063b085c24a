"""Seeded matches of the computer opponent against another player, for `mariage play`.

Hand i is dealt from seed + i; the opponent sits at A in even hands and at B in odd ones, and
the deal alternates (R2), so neither seat nor deal favours a side. The hands also run as games
to the profile's target (R19): a game ends when a side reaches it, and the next hand starts a
new one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from ..engine.actions import Action
from ..engine.cards import deck_for
from ..engine.hand import Hand
from ..engine.schema import Profile
from .opponent import Opponent, random_player, simple_player

Player = Callable[[Hand], Action]
OTHERS: dict[str, Callable[[str, int], Player]] = {
    "random": random_player, "simple": simple_player,
    "self": lambda player, seed: Opponent(player, seed).choose}


@dataclass
class Tally:
    hands: int = 0
    won: int = 0                          # hands the opponent won
    lost: int = 0
    tied: int = 0
    points_for: int = 0                   # game points the opponent scored
    points_against: int = 0
    games_won: int = 0
    games_lost: int = 0
    score: dict[str, int] = field(default_factory=lambda: {"opponent": 0, "other": 0})

    def as_json(self) -> dict[str, object]:
        hands = max(self.hands, 1)
        games = max(self.games_won + self.games_lost, 1)
        return {"hands": self.hands, "won": self.won, "lost": self.lost, "tied": self.tied,
                "win_rate": round(self.won / hands, 3),
                "game_points_per_hand": round(self.points_for / hands, 3),
                "conceded_per_hand": round(self.points_against / hands, 3),
                "games": self.games_won + self.games_lost, "games_won": self.games_won,
                "game_win_rate": round(self.games_won / games, 3)}


def play_hand(profile: Profile, seed: int, opponent_seat: int, against: str) -> Hand:
    """One hand dealt from `seed`, the opponent at `opponent_seat` against `against`."""
    rng = random.Random(seed)
    cards = [str(c) for c in deck_for(profile).cards]
    rng.shuffle(cards)
    players = profile.players
    hand = Hand(cards, dealer=players[seed % 2], profile=profile)
    me, other = players[opponent_seat], players[opponent_seat ^ 1]
    choose = {me: Opponent(me, seed).choose, other: OTHERS[against](other, seed + 1)}
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        hand.apply(choose[player](hand))        # apply() refuses an illegal action
    return hand


def match(profile: Profile, against: str, hands: int, seed: int = 0,
          progress: Callable[[int], None] | None = None) -> Tally:
    tally = Tally()
    target = profile.thresholds.game
    for number in range(hands):
        seat = number % 2
        outcome = play_hand(profile, seed + number, seat, against).outcome
        assert outcome is not None
        tally.hands += 1
        mine = profile.players[seat]
        if outcome.winner is None:
            tally.tied += 1
            continue
        side = "opponent" if outcome.winner == mine else "other"
        if side == "opponent":
            tally.won += 1
            tally.points_for += outcome.game_points
        else:
            tally.lost += 1
            tally.points_against += outcome.game_points
        tally.score[side] += outcome.game_points
        if tally.score[side] >= target:                     # R19: a game is won
            tally.games_won += side == "opponent"
            tally.games_lost += side == "other"
            tally.score = {"opponent": 0, "other": 0}
        if progress:
            progress(number + 1)
    return tally
