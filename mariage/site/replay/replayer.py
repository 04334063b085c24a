"""The step-through replayer's data: the engine's state after each action of an example.

Computed at build time, once per example, and serialized into every language's page; the
browser only shows these states, it never applies a rule. Captions are rendered from the
catalogs by templates/_replayer.j2, from the plain facts of each step given here.
"""

from __future__ import annotations

from typing import Any

from ...engine.game import Game
from ...engine.hand import Hand
from ...engine.solver import solve
from ...engine.errors import SourceError
from ...play.steps import hand_steps as _hand_steps
from .examples import Example


def steps(example: Example) -> list[dict[str, Any]]:
    """Step 0 is the deal; step n the position after the record's n-th action. A record that
    stops after the last trick ends there, as `mariage replay` ends it (R17, R18). A game
    example's steps run through its hands in turn, each with the game's score sheet."""
    if example.is_game:
        return _game_steps(example)
    meta = example.meta
    hand = Hand(meta["deck"], dealer=meta["dealer"], profile=example.profile)
    return _hand_steps(hand, example.actions, 0)


def _game_steps(example: Example) -> list[dict[str, Any]]:
    """Every hand of a game example in turn; each step carries the hand's number and the score
    sheet so far: the game points of every hand already ended (R19), as Game.record scores them."""
    game = example.game()
    sheet: list[dict[str, Any]] = []
    tally = Game(game.first_dealer, example.profile)
    out: list[dict[str, Any]] = []
    for number, (hand, source) in enumerate(zip(game.hands, example.game_hands()), 1):
        fresh = Hand(source.meta["deck"], dealer=hand.dealer, profile=example.profile)
        states = _hand_steps(fresh, source.actions, len(out))
        outcome = hand.outcome
        for state in states:
            state |= {"hand": number, "sheet": list(sheet), "score": dict(tally.game_points)}
        if outcome is not None:
            scored = tally.record(outcome)
            sheet.append({"hand": number, "dealer": hand.dealer, "winner": outcome.winner,
                          "game_points": scored})
            states[-1] |= {"sheet": list(sheet), "score": dict(tally.game_points)}
        out += states
    return out


def perfect_play(example: Example) -> dict[str, Any] | None:
    """At the record's first position whose stock is closed or exhausted (the hand not over),
    what perfect play by both players gives (mariage.engine.solver), claiming only correctly,
    and what the record gave; and, where it differs, what a deliberate false claim (R16, R18)
    would make of it."""
    if example.is_game:
        return None
    meta = example.meta
    hand = Hand(meta["deck"], dealer=meta["dealer"], profile=example.profile)
    for number, text in enumerate(example.actions):
        if not hand.stock_open and not hand.is_over:
            return _compare(example, hand, number)
        hand.apply(text)
    return None


def _compare(example: Example, hand: Hand, number: int) -> dict[str, Any]:
    best, loose = solve(hand, false_claims=False), solve(hand)
    played = example.hand().outcome
    if played is None:
        raise SourceError(example.relpath, "the record stops before the hand ends, after its "
                          "stock was closed or exhausted; the page compares the result with "
                          "perfect play, so record the hand to its end", key="actions")
    result: dict[str, Any] = {
        "step": number, "winner": best.winner, "game_points": best.game_points,
        "line": best.line, "played_winner": played.winner,
        "played_game_points": played.game_points,
        "found": (played.winner, played.game_points) == (best.winner, best.game_points)}
    if (loose.winner, loose.game_points) != (best.winner, best.game_points):
        result["false_claim"] = {"winner": loose.winner, "game_points": loose.game_points,
                                 "line": loose.line}
    return result
