"""When does a close pay? A seeded study the strategy page quotes, played out by the solver.

Design, as the page states it. From a fixed seed, STUDY_DEALS hands are dealt. Each is played
by simple legal moves (the exchange and a marriage whenever allowed, otherwise a random card)
up to a lead chosen at random among those where closing is allowed (R11); there the player on
lead closes. The double-dummy solver (mariage.engine.solver) then plays the rest perfectly for
both players, every card in view, each claiming only when the claim is correct. A close is
"won" when the closer then claims correctly (R18); its net is the game points the closer scores,
or minus those the opponent scores. Each close is filed by the closer's points at the close
(below `opponent_safe`, then up to one marriage short of the claim, then the rest: edges from
the profile) and by the trumps in the closer's hand (at most one, two, three or more). The
closes are solved once more with deliberate false claims allowed (R16): the study counts those
the opponent would then concede for less (only a close worth more than the least a false claim
pays can be one, so only those are searched again). The engine decides every legal move; this
module only chooses among them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from ...engine.actions import Action
from ...engine.cards import deck_for
from ...engine.errors import MariageError
from ...engine.hand import Hand
from ...engine.profile import Profile
from ...engine.solver import Solver

STUDY_DEALS = 1000
STUDY_SEED = 1966          # any fixed seed: the page must be the same at every build
TRUMPS = [(0, 1), (2, 2), (3, None)]     # trumps in the closer's hand: 0-1, 2, 3 or more


@dataclass(frozen=True)
class Cell:
    low: int               # the closer's points at the close, from low...
    high: int | None       # ...to high inclusive (None: no upper bound)
    trumps: tuple[int, int | None]      # trumps in the closer's hand, from, to (None: or more)
    closes: int            # closes that fell in this cell
    won: int               # of them, hands the closer won under perfect play
    net: int               # the closer's game points won, minus those lost

    def as_context(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "trumps": list(self.trumps),
                "closes": self.closes, "won": self.won, "net": self.net}


@dataclass(frozen=True)
class Study:
    cells: list[Cell]      # points bands (lowest first), each with its trump bands in order
    conceded: int          # closes an opponent's deliberate false claim would make cheaper

    def bands(self) -> list[tuple[int, int | None]]:
        return list(dict.fromkeys((c.low, c.high) for c in self.cells))

    def as_context(self) -> dict[str, Any]:
        rows = [{"low": low, "high": high,
                 "cells": [c.as_context() for c in self.cells if (c.low, c.high) == (low, high)]}
                for low, high in self.bands()]
        return {"deals": STUDY_DEALS, "rows": rows, "trumps": [list(t) for t in TRUMPS],
                "closes": sum(c.closes for c in self.cells),
                "won": sum(c.won for c in self.cells), "conceded": self.conceded}


def edges(profile: Profile) -> list[tuple[int, int | None]]:
    """The points bands: below opponent_safe (R15), up to one marriage short of the claim
    (R12, R14), then the rest."""
    safe, claim = profile.thresholds.opponent_safe, profile.thresholds.claim
    near = max(safe + 1, claim - profile.bonuses.marriage)
    return [(0, safe - 1), (safe, near - 1), (near, None)]


def close_study(profile: Profile, deals: int = STUDY_DEALS, seed: int = STUDY_SEED) -> Study:
    """The study's cells (see the module's docstring)."""
    bands = edges(profile)
    counts = {(band, trumps): [0, 0, 0] for band in bands for trumps in TRUMPS}
    conceded = 0
    rng = random.Random(seed)
    cards = [str(card) for card in deck_for(profile).cards]
    rates = profile.rates
    least_false = min(r for r in (rates.false_claim, rates.false_claim_no_trick) if r is not None)
    for _ in range(deals):
        closed = _play_to_a_close(profile, cards, rng)
        if closed is None:
            continue
        hand, closer, points, trumps = closed
        band = next(b for b in bands if b[1] is None or points <= b[1])
        held = next(t for t in TRUMPS if t[1] is None or trumps <= t[1])
        sign = 1 if closer == profile.players[0] else -1      # values are A's minus B's
        gain = sign * Solver(hand, false_claims=False).score()
        cell = counts[(band, held)]
        cell[0] += 1
        cell[1] += gain > 0
        cell[2] += gain
        # cheaper for the closer with false claims allowed? A null-window search says. Only a
        # close worth more than the least a false claim pays can be: the closer keeps the
        # play that wins `gain` without them, and the opponent's false claim, wherever made,
        # pays the closer a false-claim rate (R16), so the closer gets at least the lesser.
        if gain > least_false:
            conceded += not Solver(hand).reaches(gain) if sign == 1 \
                else Solver(hand).reaches(1 - gain)
    return Study([Cell(low, high, trumps, *counts[((low, high), trumps)])
                  for low, high in bands for trumps in TRUMPS], conceded)


def _play_to_a_close(profile: Profile, cards: list[str],
                     rng: random.Random) -> tuple[Hand, str, int, int] | None:
    """One dealt hand, played to a lead where closing is allowed and closed there: the hand,
    the closer, the closer's points and trumps at the close; None if no lead allowed a close."""
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
    trumps = sum(card.suit == hand.trump_suit for card in hand.holding(closer))
    hand.apply(Action(closer, "close"))
    return hand, closer, points, trumps


def _move(actions: list[Action], rng: random.Random) -> Action:
    for verb in ("exchange", "marriage"):
        chosen = [a for a in actions if a.verb == verb]
        if chosen:
            return chosen[0]
    return rng.choice([a for a in actions if a.verb == "play"])


class StudyProcess:
    """The study run in another process: a cold build's longest stage then works on a second
    core while this one checks the catalogs and compiles the templates. The process gets the
    profile's plain data and prints the study's context as JSON; `result()` waits for it."""

    def __init__(self, profile: Profile, deals: int = STUDY_DEALS) -> None:
        self._proc = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self._proc.stdin is not None
        # the process reads its whole request before it writes: this cannot deadlock
        self._proc.stdin.write(json.dumps({"profile": profile.as_data(), "deals": deals}).encode())
        self._proc.stdin.close()
        self._proc.stdin = None             # communicate() then only reads

    def result(self) -> dict[str, Any]:
        """The study's context; a process that failed or was killed is an error, never a guess."""
        out, err = self._proc.communicate()
        if self._proc.returncode != 0:
            lines = err.decode(errors="replace").strip().splitlines() or ["(no output)"]
            raise MariageError(f"the closing study's process ended with exit code "
                               f"{self._proc.returncode}: {lines[-1]}")
        context: dict[str, Any] = json.loads(out)
        return context

    def close(self) -> None:
        """Stop the process if its result was never read (a build that failed first)."""
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.communicate()


def _serve() -> None:
    request = json.load(sys.stdin)
    profile = Profile.from_plain(request["profile"])
    json.dump(close_study(profile, request["deals"]).as_context(), sys.stdout)


if __name__ == "__main__":
    _serve()
