"""The Play page's table: a game to the target (R19) between the reader and the computer.

The page's script calls these functions through Pyodide and only shows what they return (JSON
text): the reader's cards, the table, each legal action in the record notation, why any other
card is refused (the engine's own IllegalActionError and its ruling), the record, the outcome
as `mariage replay` prints it, and what perfect play would have given. No rule lives in the
script; every one is the engine's.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..engine.actions import Action
from ..engine.cards import deck_for
from ..engine.errors import IllegalActionError, MariageError, RecordError
from ..engine.game import Game
from ..engine.hand import Hand
from ..engine.schema import Profile
from ..engine.solver import solve
from .opponent import Opponent
from .steps import event, hand_steps


class Table:
    """The reader plays `reader` (the profile's first player), the computer the other."""

    def __init__(self, profile: Profile, seed: int) -> None:
        self.profile, self.rng = profile, random.Random(seed)
        self.reader, self.computer = profile.players
        self.game = Game(self.rng.choice(list(profile.players)), profile)     # R2
        self.opponent = Opponent(self.computer, seed)
        self.hand: Hand = self._deal()

    def _deal(self) -> Hand:
        cards = [str(c) for c in deck_for(self.profile).cards]
        self.rng.shuffle(cards)
        return self.game.new_hand(cards)

    # ----- what the page asks
    def start(self) -> dict[str, Any]:
        """The deal, and the computer's moves up to the reader's first turn."""
        events = [{"kind": "deal", "dealer": self.hand.dealer, "player": self.hand.to_act,
                   "trump": str(self.hand.indicator_card)}]
        return self.view(events + self._computer_moves())

    def act(self, text: str) -> dict[str, Any]:
        """The reader's action (the engine refuses an illegal one, naming its ruling), then
        the computer's moves up to the reader's next turn or the end of the hand."""
        action = Action.parse(text)
        if action.player != self.reader:
            raise IllegalActionError("R5", f"you play {self.reader}, not {action.player}")
        events = [self._apply(action)]
        return self.view(events + self._computer_moves())

    def next_hand(self) -> dict[str, Any]:
        if not self.hand.is_over:
            raise IllegalActionError("R19", "the hand has not ended")
        self.hand = self._deal()                  # Game.new_hand refuses once the game is won
        return self.start()

    def explain(self, text: str) -> dict[str, Any]:
        """Why the engine refuses `text` now: its ruling, its message and the profile's statement
        of the ruling; {} if it is allowed."""
        trial = Hand.replay([str(self.hand.deck.card(i)) for i in self.hand.order], self.hand.log,
                            dealer=self.hand.dealer, profile=self.profile)
        try:
            trial.apply(text)
        except IllegalActionError as exc:
            return {"ruling": exc.ruling, "message": str(exc), "text": self._ruling_text(exc.ruling)}
        return {}

    def _ruling_text(self, ruling: str) -> str:
        """The profile's own statement of the ruling (English), numbers filled in."""
        try:
            return self.profile.ruling(ruling)
        except KeyError:                  # pragma: no cover - the engine cites only R1..R19
            return ""

    # ----- the hand
    def _apply(self, action: Action) -> dict[str, Any]:
        hand = self.hand
        led, points, face_up = hand.led, hand.points(action.player), str(hand.indicator_card)
        hand.apply(action)
        if hand.outcome is not None:
            self.game.record(hand.outcome)                                  # R19
        return event(hand, action, led, points, face_up) | {"action": str(action)}

    def _computer_moves(self) -> list[dict[str, Any]]:
        events = []
        while not self.hand.is_over and self.hand.to_act == self.computer:
            events.append(self._apply(self.opponent.choose(self.hand)))
        return events

    def view(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        hand, reader = self.hand, self.reader
        players = hand.players
        mine = [str(c) for c in hand.holding(reader)]
        to_act = hand.to_act
        legal = [str(a) for a in hand.legal_actions()] if to_act == reader else []
        refused = {}
        if to_act == reader:
            for card in mine:
                text = f"{reader} play {card}"
                if text not in legal:
                    refused[text] = self.explain(text)
        outcome = hand.outcome
        return {
            "events": events, "reader": reader, "computer": self.computer,
            "dealer": hand.dealer, "hand_number": len(self.game.hands),
            "holding": mine, "computer_cards": len(hand.holding(self.computer)),
            "table": [] if hand.led is None else [str(hand.led)],
            "indicator": str(hand.indicator_card), "stock": hand.stock_size,
            "closer": hand.closer, "to_act": to_act, "legal": legal, "refused": refused,
            "points": {p: hand.points(p) for p in players},
            "tricks": {p: hand.tricks(p) for p in players},
            "record": self.record(),
            "outcome": None if outcome is None else outcome.as_json(),
            "perfect": self._perfect_play() if outcome is not None else None,
            "score": dict(self.game.game_points), "game_winner": self.game.winner,
            "target": self.profile.thresholds.game,
        }

    def record(self) -> dict[str, Any]:
        """The hand so far in the record notation `mariage replay` reads."""
        hand = self.hand
        return {"dealer": hand.dealer, "deck": [str(hand.deck.card(i)) for i in hand.order],
                "actions": [str(a) for a in hand.log]}

    def _perfect_play(self) -> dict[str, Any] | None:
        """From the hand's first position whose stock was closed or exhausted (the hand not yet
        over), the result under perfect play by both players, every card seen (the solver)."""
        record = self.record()
        replayed = Hand(record["deck"], dealer=record["dealer"], profile=self.profile)
        for number, text in enumerate(record["actions"]):
            if not replayed.stock_open and not replayed.is_over:
                best = solve(replayed)
                return {"step": number, "winner": best.winner, "game_points": best.game_points,
                        "line": best.line}
            replayed.apply(text)
        return None

    def steps(self) -> list[dict[str, Any]]:
        """The finished hand's positions, step by step, for the page's replayer."""
        return replay_steps(self.profile, self.record())


def replay_steps(profile: Profile, record: dict[str, Any]) -> list[dict[str, Any]]:
    """A hand record's positions step by step (a link to a hand opens them in the replayer);
    a record the engine refuses raises its error."""
    if not isinstance(record, dict) or not {"dealer", "deck", "actions"} <= record.keys():
        raise RecordError("a hand record holds dealer, deck and actions")
    hand = Hand(record["deck"], dealer=record["dealer"], profile=profile)
    return hand_steps(hand, list(record["actions"]), 0)


# ----- the page's entry points: JSON text in and out (Pyodide passes strings as they are)
_TABLE: Table | None = None


def start(profile_json: str, seed: int) -> str:
    """A new game under the profile (validated at build time), the first hand dealt."""
    global _TABLE
    _TABLE = Table(Profile.from_plain(json.loads(profile_json)), int(seed))
    return json.dumps(_TABLE.start())


def steps_of(profile_json: str, record_json: str) -> str:
    """The steps of a hand record under a profile, as JSON; {"error": message} if the engine
    refuses the record (a link can hold anything)."""
    try:
        steps = replay_steps(Profile.from_plain(json.loads(profile_json)), json.loads(record_json))
    except (MariageError, ValueError, TypeError) as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps(steps)


def call(name: str, argument: str = "") -> str:
    """act, explain, next_hand or steps on the current table, as JSON; a refusal comes back as
    {"error": message, "ruling": id} for the page to show (an unreadable action has no ruling)."""
    if _TABLE is None:
        return json.dumps({"error": "no game has started"})
    try:
        if name == "act":
            result: Any = _TABLE.act(argument)
        elif name == "explain":
            result = _TABLE.explain(argument)
        elif name == "next_hand":
            result = _TABLE.next_hand()
        elif name == "steps":
            result = _TABLE.steps()
        else:
            raise ValueError(f"unknown call {name!r}")
    except MariageError as exc:
        result = {"error": str(exc), "ruling": getattr(exc, "ruling", None)}
    return json.dumps(result)
