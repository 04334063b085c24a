"""When is a close worth it? A seeded study the strategy page quotes, settled by the solver.

From a fixed seed, STUDY_DEALS hands are dealt and played by simple legal moves: a marriage
whenever one can be declared, otherwise a random card. At a lead chosen at random among those
where closing is allowed (R11), the player on lead closes, and the double-dummy solver
(mariage.engine.solver) plays the rest perfectly for both players, every card in view. Each
close is filed by the closer's points at that moment, in three bands whose edges come from the
profile: below `opponent_safe` (R15), then up to one marriage short of the claim (R12, R14),
then the rest. The engine decides every legal move; this module only chooses among them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...engine.actions import Action
from ...engine.cards import deck_for
from ...engine.hand import Hand
from ...engine.profile import Profile
from ...engine.solver import solve

STUDY_DEALS = 200
STUDY_SEED = 1966          # any fixed seed: the page must be the same at every build


@dataclass(frozen=True)
class Band:
    low: int               # the closer's points at the close, from low...
    high: int | None       # ...to high inclusive (None: no upper bound)
    closes: int            # closes that fell in this band
    won: int               # of them, hands the closer won under perfect play

    def as_context(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "closes": self.closes, "won": self.won}


def close_study(profile: Profile, deals: int = STUDY_DEALS, seed: int = STUDY_SEED) -> list[Band]:
    """The study's three bands, lowest points first (see the module's docstring)."""
    safe, claim = profile.thresholds.opponent_safe, profile.thresholds.claim
    near = max(safe + 1, claim - profile.bonuses.marriage)     # one marriage short of the claim
    edges = [(0, safe - 1), (safe, near - 1), (near, None)]
    counts = {edge: [0, 0] for edge in edges}
    rng = random.Random(seed)
    cards = [str(card) for card in deck_for(profile).cards]
    for _ in range(deals):
        closed = _play_to_a_close(profile, cards, rng)
        if closed is None:
            continue
        hand, closer, points = closed
        edge = next(e for e in edges if e[1] is None or points <= e[1])
        counts[edge][0] += 1
        counts[edge][1] += solve(hand).winner == closer
    return [Band(low, high, *counts[(low, high)]) for low, high in edges]


def _play_to_a_close(profile: Profile, cards: list[str],
                     rng: random.Random) -> tuple[Hand, str, int] | None:
    """One dealt hand, played to a lead where closing is allowed and closed there: the hand,
    the closer and the closer's points at the close; None if no lead ever allowed a close."""
    deck = cards[:]
    rng.shuffle(deck)
    dealer = rng.choice(profile.players)
    probe = Hand(deck, dealer=dealer, profile=profile)
    chances = []                       # how many moves were made at each lead that may close
    while not probe.is_over and probe.stock_open:
        actions = probe.legal_actions()
        if any(a.verb == "close" for a in actions):
            chances.append(len(probe.log))
        probe.apply(_move(actions, rng))
    if not chances:
        return None
    hand = Hand.replay(deck, probe.log[:rng.choice(chances)], dealer=dealer, profile=profile)
    closer = hand.to_act
    assert closer is not None
    points = hand.points(closer)
    hand.apply(Action(closer, "close"))
    return hand, closer, points


def _move(actions: list[Action], rng: random.Random) -> Action:
    marriages = [a for a in actions if a.verb == "marriage"]
    if marriages:
        return marriages[0]
    return rng.choice([a for a in actions if a.verb == "play"])
