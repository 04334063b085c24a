"""A hand's positions step by step, as the step-through replayer shows them: the engine's state
after each action, and what the action did in numbers a caption can use.

The worked examples' replayer (mariage.site.replayer) computes these at build time; the Play
page's replay view computes them in the browser, with the same engine code.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.hand import Hand


def hand_steps(hand: Hand, actions: list[str], first: int) -> list[dict[str, Any]]:
    """Step 0 is the deal; step n the position after the n-th action. A record that stops after
    the last trick ends there, as `mariage replay` ends it (R17, R18)."""
    out = [state(hand, first, {"kind": "deal", "dealer": hand.dealer, "player": hand.to_act,
                               "trump": str(hand.indicator_card)})]
    for number, text in enumerate(actions, 1):
        action = Action.parse(text)
        before_led, before_points = hand.led, hand.points(action.player)
        face_up = str(hand.indicator_card)
        hand.apply(action)
        done = event(hand, action, before_led, before_points, face_up)
        if number == len(actions) and not hand.is_over and hand.all_played:
            hand.finish()
        out.append(state(hand, first + number, done))
    return out


def event(hand: Hand, action: Action, led: object, points_before: int,
          face_up: str) -> dict[str, Any]:
    """What the action did, in numbers a caption can use."""
    done: dict[str, Any] = {"kind": action.verb, "player": action.player}
    card = None if action.verb != "play" else hand.deck.parse(action.arg)   # 'K♥' reads as 'Kh'
    if card is not None and led is None:
        done |= {"kind": "lead", "card": str(hand.deck.card(card))}
    elif card is not None:
        # A trick's winner leads the next one (R5): the hand is on them now.
        done |= {"kind": "trick", "card": str(hand.deck.card(card)), "led": str(led),
                 "winner": hand.to_act,
                 "won": hand.deck.points[hand.deck.parse(str(led))] + hand.deck.points[card]}
    elif action.verb == "close" and action.arg == "before":
        done["kind"] = "close_before"                                        # R11 option
    elif action.verb == "exchange":
        done |= {"card": face_up, "rank": hand.profile.deck.lowest_rank}    # R10
    elif action.verb == "marriage":
        total = hand.points(action.player)
        suit = hand.deck.suit_index(action.arg or "")
        bonuses = hand.profile.bonuses
        worth = bonuses.trump_marriage if suit == hand.trump else bonuses.marriage
        done |= {"suit": hand.deck.suits[suit], "before": points_before,
                 "bonus": total - points_before, "total": total}
        if total == points_before:          # R12 option: it counts once a trick is won
            done |= {"kind": "marriage_held", "bonus": worth}
    elif action.verb == "claim":
        done["points"] = points_before
    return done


def state(hand: Hand, number: int, done: dict[str, Any]) -> dict[str, Any]:
    players = hand.players
    outcome = hand.outcome
    table = [done["led"], done["card"]] if done["kind"] == "trick" else (
        [str(hand.led)] if hand.led is not None else [])
    return {
        "step": number, "event": done,
        "hands": {p: [str(c) for c in hand.holding(p)] for p in players},
        "table": table, "indicator": str(hand.indicator_card), "stock": hand.stock_size,
        "closer": hand.closer, "to_act": hand.to_act,
        "points": {p: hand.points(p) for p in players},
        "tricks": {p: hand.tricks(p) for p in players},
        "outcome": None if outcome is None else {
            "end": outcome.end.value, "winner": outcome.winner,
            "game_points": outcome.game_points},
    }
