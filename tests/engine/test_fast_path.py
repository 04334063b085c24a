"""apply_all()'s fast path for plays agrees with apply() one action at a time, on legal records
and on records with one action broken: the same state, or the same error at the same action."""

from __future__ import annotations

import random

import pytest

from mariage import Hand, MariageError

from engine.conftest import ALL_CARDS, snapshot


def random_actions(rng: random.Random, deck: list[str], dealer: str) -> list[str]:
    hand = Hand(deck, dealer=dealer)
    while not hand.is_over and rng.random() > 0.01:
        actions = hand.legal_actions()
        plays = [a for a in actions if a.verb == "play"]
        hand.apply(rng.choice(plays if plays and rng.random() < 0.8 else actions))
    return [str(a) for a in hand.log]


def broken(rng: random.Random, actions: list[str]) -> list[str]:
    """One action replaced by a play of any card by either player: often illegal, not always."""
    if not actions:
        return ["B play " + rng.choice(ALL_CARDS)]
    out = list(actions)
    out[rng.randrange(len(out))] = f"{rng.choice('AB')} play {rng.choice(ALL_CARDS)}"
    return out


def one_by_one(deck: list[str], dealer: str, actions: list[str]) -> tuple[object, ...]:
    hand = Hand(deck, dealer=dealer)
    for index, action in enumerate(actions):
        try:
            hand.apply(action)
        except MariageError as exc:
            return ("error", index, str(exc), snapshot(hand))
    return ("ok", snapshot(hand))


def all_at_once(deck: list[str], dealer: str, actions: list[str]) -> tuple[object, ...]:
    hand = Hand(deck, dealer=dealer)
    try:
        hand.apply_all(actions)
    except MariageError as exc:
        return ("error", len(hand.log), str(exc), snapshot(hand))
    return ("ok", snapshot(hand))


@pytest.mark.parametrize("seed", range(300))
def test_apply_all_agrees_with_apply(seed):
    rng = random.Random(seed)
    deck, dealer = rng.sample(ALL_CARDS, 32), rng.choice("AB")
    actions = random_actions(rng, deck, dealer)
    for record in (actions, broken(rng, actions)):
        assert all_at_once(deck, dealer, record) == one_by_one(deck, dealer, record)
