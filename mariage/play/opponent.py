"""The computer opponent: rules of thumb while the stock is open, perfect-information Monte Carlo
once it is closed or exhausted.

It reads only what its player may know (knowledge.py): its own cards and what the table has
shown. With the stock open it claims at 66, exchanges the trump seven (R10), declares its best
marriage (R12), closes (R11) when the solver says a close wins in the sampled deals, and
otherwise plays by thumb: lead low, take a trick worth taking cheaply, throw the least. With
the stock closed or exhausted it deals the unseen cards many ways consistent with what it has
seen, solves each deal double dummy (mariage.engine.solver) and picks the action best on
average, claims included. Every action it returns is one of `hand.legal_actions()`.
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.hand import Hand
from ..engine.solver import Solver
from .knowledge import Knowledge, knowledge, worlds

SAMPLES = 16              # deals sampled per decision once the stock is closed or exhausted
CLOSE_SAMPLES = 8         # deals sampled to judge a close
CLOSE_WINS = 0.75         # a close is made when it wins at least this share of the deals...
CLOSE_MARGIN = 1.0        # ...and gains at least this many game points on average


class Opponent:
    """Chooses `player`'s actions; seeded, so a game can be played again the same way."""

    def __init__(self, player: str, seed: int | None = None, samples: int = SAMPLES) -> None:
        self.player, self.samples = player, samples
        self.rng = random.Random(seed)

    def choose(self, hand: Hand) -> Action:
        assert hand.to_act == self.player, "the opponent acts only in its turn"
        legal = hand.legal_actions()
        if not hand.stock_open:
            return self._best_on_average(hand, legal, self.samples)
        if hand.led is not None:
            return self._answer(hand, legal)
        return self._lead(hand, legal)

    # ----- the stock open: rules of thumb
    def _lead(self, hand: Hand, legal: list[Action]) -> Action:
        verbs = {a.verb: a for a in legal}
        if hand.points(self.player) >= hand.profile.thresholds.claim:
            return verbs["claim"]                                      # R15
        if "exchange" in verbs:
            return verbs["exchange"]                                   # R10: a better trump
        marriages = [a for a in legal if a.verb == "marriage"]
        if marriages:                                                  # R12: trumps first
            trump = hand.trump_suit
            return max(marriages, key=lambda a: a.arg == trump)
        if "close" in verbs and self._close_pays(hand):
            return verbs["close"]
        plays = [a for a in legal if a.verb == "play"]
        return min(plays, key=lambda a: self._keep_value(hand, a.arg))

    def _answer(self, hand: Hand, legal: list[Action]) -> Action:
        deck = hand.deck
        led = deck.parse(str(hand.led))
        beats = deck.beats[hand.trump][led]
        winners = [a for a in legal if beats[deck.parse(a.arg)]]
        same_suit = [a for a in winners if deck.suit_of[deck.parse(a.arg)] == deck.suit_of[led]]
        if same_suit:                        # over the card led in its own suit: points home
            return max(same_suit, key=lambda a: deck.points[deck.parse(a.arg)])
        if winners and deck.points[led] >= 10:     # an ace or ten led: trump it as cheaply as may be
            return min(winners, key=lambda a: self._keep_value(hand, a.arg))
        return min(legal, key=lambda a: self._keep_value(hand, a.arg))

    def _keep_value(self, hand: Hand, card_text: str | None) -> tuple[int, int, int]:
        """How much a card is worth keeping (lowest is given up first): a trump, a half of a
        marriage still in hand, then its card points."""
        deck = hand.deck
        card = deck.parse(card_text)
        suit = deck.suit_of[card]
        held = hand._held[hand.players.index(self.player)]
        pair = hand._marriage_mask(suit)
        in_marriage = deck.rank_index("K") <= card % len(deck.ranks) <= deck.rank_index("Q") \
            and held & pair == pair and not hand._declared >> suit & 1
        return (suit == hand.trump, in_marriage, deck.points[card])

    def _close_pays(self, hand: Hand) -> bool:
        """R11: close when, over sampled deals, the close wins often and gains on average."""
        if hand.points(self.player) + hand.profile.bonuses.marriage < hand.profile.thresholds.opponent_safe:
            return False                     # far from 66: not worth the solver's time
        closed = [Action(self.player, "close")]
        values = []
        for world in worlds(hand, knowledge(hand, self.player), CLOSE_SAMPLES, self.rng):
            world.apply(closed[0])
            best = Solver(world).solve()
            values.append(0 if best.winner is None else
                          best.game_points if best.winner == self.player else -best.game_points)
        if not values:
            return False
        wins = sum(v > 0 for v in values) / len(values)
        return wins >= CLOSE_WINS and sum(values) / len(values) >= CLOSE_MARGIN

    # ----- the stock closed or exhausted: perfect-information Monte Carlo
    def _best_on_average(self, hand: Hand, legal: list[Action], samples: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        known: Knowledge = knowledge(hand, self.player)
        totals = {str(a): 0 for a in legal}
        for world in worlds(hand, known, samples, self.rng):
            sign = 1 if world.players[0] == self.player else -1   # the solver counts for A
            for text, value in Solver(world).values().items():
                totals[text] += sign * value
        best = max(totals.values())
        return next(a for a in legal if totals[str(a)] == best)


def random_player(player: str, seed: int | None = None):
    """A player who plays a random legal card, and passes at the end (never a lead option)."""
    rng = random.Random(seed)

    def choose(hand: Hand) -> Action:
        legal = hand.legal_actions()
        plays = [a for a in legal if a.verb in ("play", "pass")]
        return rng.choice(plays)
    return choose


def simple_player(player: str, seed: int | None = None):
    """The engine's simple rule (as the strategy page's close study plays): a marriage whenever
    one can be declared, a claim at 66, otherwise a random card."""
    rng = random.Random(seed)

    def choose(hand: Hand) -> Action:
        legal = hand.legal_actions()
        marriages = [a for a in legal if a.verb == "marriage"]
        if marriages:
            return marriages[0]
        if hand.led is None and hand.points(player) >= hand.profile.thresholds.claim:
            return Action(player, "claim")
        return rng.choice([a for a in legal if a.verb in ("play", "pass")])
    return choose

