"""The step-through replayer's data: the engine's state after each action of an example.

Computed at build time, once per example, and serialized into every language's page; the
browser only shows these states, it never applies a rule. Captions are rendered from the
catalogs by templates/_replayer.j2, from the plain facts of each step given here.
"""

from __future__ import annotations

from typing import Any

from ...engine.hand import Hand
from ...engine.solver import solve
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
    sheet so far: the game points of every hand already ended (R19)."""
    game = example.game()
    sheet: list[dict[str, Any]] = []
    score = {p: 0 for p in game.players}
    out: list[dict[str, Any]] = []
    for number, (hand, source) in enumerate(zip(game.hands, example.game_hands()), 1):
        fresh = Hand(source.meta["deck"], dealer=hand.dealer, profile=example.profile)
        states = _hand_steps(fresh, source.actions, len(out))
        outcome = hand.outcome
        for state in states:
            state |= {"hand": number, "sheet": list(sheet), "score": dict(score)}
        if outcome is not None:
            sheet.append({"hand": number, "dealer": hand.dealer, "winner": outcome.winner,
                          "game_points": outcome.game_points})
            if outcome.winner is not None:
                score[outcome.winner] += outcome.game_points
            states[-1] |= {"sheet": list(sheet), "score": dict(score)}
        out += states
    return out


def perfect_play(example: Example) -> dict[str, Any] | None:
    """At the record's first position whose stock is closed or exhausted (the hand not over),
    what perfect play by both players gives (mariage.engine.solver), and what the record gave."""
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
    best = solve(hand)
    played = example.hand().outcome
    assert played is not None, "an example record plays its hand to the end"
    return {"step": number, "winner": best.winner, "game_points": best.game_points,
            "line": best.line, "played_winner": played.winner,
            "played_game_points": played.game_points,
            "found": (played.winner, played.game_points) == (best.winner, best.game_points)}
