"""The computer opponent (mariage/play): every move a legal engine action, under every profile;
it never sees the other player's cards; what it infers is true; and it beats random play."""

from __future__ import annotations

import random

import pytest

from conftest import PROFILES
from mariage.engine.hand import Hand
from mariage.engine.profile import load_profile
from mariage.play.knowledge import knowledge
from mariage.play.match import match, play_hand
from mariage.play.opponent import Opponent, random_player


def _deal(profile, seed: int) -> Hand:
    rng = random.Random(seed)
    cards = [f"{r}{s.code}" for s in profile.deck.suits for r in profile.deck.ranks]
    rng.shuffle(cards)
    return Hand(cards, dealer=rng.choice(profile.players), profile=profile)


def _played_out(profile, seed: int):
    """One hand, the opponent at A against random play at B: every position the opponent met,
    with the action it chose (each checked against the engine's legal actions)."""
    hand = _deal(profile, seed)
    me, other = Opponent("A", seed), random_player("B", seed)
    met = []
    while not hand.is_over:
        if hand.to_act == "A":
            action = me.choose(hand)
            assert action in hand.legal_actions(), (repr(hand), action)
            met.append((Hand.replay([str(hand.deck.card(i)) for i in hand.order], hand.log,
                                    dealer=hand.dealer, profile=profile), action))
        else:
            action = other(hand)
        hand.apply(action)
    return hand, met


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_move_is_a_legal_engine_action(path):
    profile = load_profile(path)
    for seed in range(6):
        for seat in (0, 1):
            hand = play_hand(profile, seed, seat, "self" if seed % 3 == 0 else "simple")
            assert hand.is_over and hand.outcome is not None


def _swapped(hand: Hand, seat: int) -> Hand | None:
    """The same public history, with one card the opponent cannot see (the other's hidden card)
    exchanged for another unseen one (in the stock, or set aside by a close): None if no such
    pair keeps the record legal."""
    known = knowledge(hand, hand.players[seat])
    theirs = [c for c in range(hand.deck.size)
              if hand._held[seat ^ 1] >> c & 1 and known.unseen >> c & 1]
    stock = [c for c in hand._stock if known.unseen >> c & 1]
    for a in theirs:
        for b in stock:
            order = [b if i == a else a if i == b else i for i in hand.order]
            try:
                return Hand.replay([str(hand.deck.card(i)) for i in order], hand.log,
                                   dealer=hand.dealer, profile=hand.profile)
            except ValueError:
                continue
    return None


def test_the_opponent_never_sees_the_other_players_cards():
    """From the same public history, the opponent's choice does not change when the cards it
    cannot see are dealt otherwise (same seed, same choice), open stock and strict play alike."""
    profile = load_profile(PROFILES[0])
    checked = {"open": 0, "strict": 0}
    for seed in range(8):
        _, met = _played_out(profile, seed)
        for position, chosen in met:
            other = _swapped(position, 0)
            if other is None:
                continue
            assert Opponent("A", seed).choose(position) == Opponent("A", seed).choose(other), \
                repr(position)
            checked["open" if position.stock_open else "strict"] += 1
    assert checked["open"] > 10 and checked["strict"] > 3, checked


def test_what_the_opponent_infers_is_true():
    """Cards it knows the other holds are held; cards it rules out (R9: a failure to follow,
    to beat or to trump) are not."""
    profile = load_profile(PROFILES[0])
    inferred = 0
    for seed in range(15):
        hand, met = _played_out(profile, seed)
        for position, _ in met:
            known = knowledge(position, "A")
            held = position._held[1]
            assert known.theirs & ~held == 0
            assert known.lacks & held == 0, repr(position)
            assert known.unseen & position._held[0] == 0
            inferred += bool(known.lacks)
    assert inferred > 5


def test_the_opponent_beats_random_play_and_the_simple_rule():
    profile = load_profile(PROFILES[0])
    for against, share in (("random", 0.8), ("simple", 0.7)):
        tally = match(profile, against, 24, seed=7)
        assert tally.won / tally.hands >= share, (against, tally.as_json())
        assert tally.points_for > 2 * tally.points_against
