"""Helpers for the engine tests: decks built by hand, and short ways to play them.

Every expected number in these tests is written from RULES.md by hand. The helpers only
arrange cards (R3's deal order) and apply actions; they never ask the engine for an answer.
"""

from __future__ import annotations

from typing import Iterable

import pytest

from mariage import Hand, IllegalActionError

RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7"]          # R1: strength order, highest first
SUITS = ["c", "d", "h", "s"]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}   # R1
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
# Fillers go low cards first, so a card a test did not place rarely carries points.
_FILL_ORDER = [r + s for r in reversed(RANKS) for s in SUITS]

DEALER, NON_DEALER = "A", "B"      # the default deal below: A deals, B leads the first trick (R5)


def card_points(card: str) -> int:
    return POINTS[card[:-1]]


def build_deck(non_dealer: Iterable[str], dealer: Iterable[str], indicator: str,
               stock: Iterable[str] = ()) -> list[str]:
    """A 32-card deck, top first, dealt by R3.

    non_dealer / dealer: up to 6 cards each, in deal order (the first 3 are the first packet);
    indicator: card 13; stock: the first cards to be drawn (cards 14, 15, ...). Whatever is not
    given is filled deterministically with the unused cards, lowest ranks first.
    """
    nd, dl, st = list(non_dealer), list(dealer), list(stock)
    used = nd + dl + [indicator] + st
    unknown = [c for c in used if c not in ALL_CARDS]
    assert not unknown, f"not a card of the deck: {unknown}"
    assert len(set(used)) == len(used), f"a card is placed twice: {used}"
    assert len(nd) <= 6 and len(dl) <= 6 and len(st) <= 19
    rest = [c for c in _FILL_ORDER if c not in used]
    while len(nd) < 6:
        nd.append(rest.pop(0))
    while len(dl) < 6:
        dl.append(rest.pop(0))
    st += rest
    deck = nd[:3] + dl[:3] + nd[3:] + dl[3:] + [indicator] + st
    assert len(deck) == 32 and len(set(deck)) == 32
    return deck


def deal(non_dealer: Iterable[str], dealer: Iterable[str], indicator: str,
         stock: Iterable[str] = (), dealer_name: str = DEALER) -> Hand:
    """A Hand from build_deck(); by default A deals and B (the non-dealer) leads."""
    return Hand(build_deck(non_dealer, dealer, indicator, stock), dealer=dealer_name)


def play(hand: Hand, *actions: str) -> Hand:
    """Apply actions in order, checking the engine's invariants after each."""
    for action in actions:
        hand.apply(action)
        hand.check_invariants()
    return hand


def cards(items: Iterable[object]) -> set[str]:
    return {str(c) for c in items}


def legal_plays(hand: Hand) -> set[str]:
    return {a.arg for a in hand.legal_actions() if a.verb == "play"}


def legal_options(hand: Hand) -> set[str]:
    """The non-play actions on offer, as record text ('B close', 'B marriage h', ...)."""
    return {str(a) for a in hand.legal_actions() if a.verb != "play"}


def refused(hand: Hand, action: str, ruling: str | tuple[str, ...]) -> IllegalActionError:
    """Assert the action is refused under the ruling(s) and that nothing changed."""
    before = snapshot(hand)
    with pytest.raises(IllegalActionError) as info:
        hand.apply(action)
    rulings = (ruling,) if isinstance(ruling, str) else ruling
    assert str(info.value).split(":")[0] in rulings, str(info.value)
    assert snapshot(hand) == before, "a refused action changed the hand"
    return info.value


def snapshot(hand: Hand) -> tuple:
    return (hand.to_act, tuple(str(c) for c in hand.led and [hand.led] or []),
            tuple(tuple(sorted(cards(hand.holding(p)))) for p in "AB"),
            tuple(hand.points(p) for p in "AB"), tuple(hand.tricks(p) for p in "AB"),
            tuple(str(c) for c in hand.stock()), hand.closer, len(hand.log), hand.outcome,
            hand.trick_number, hand._step, hand._last_winner,
            tuple(map(str, hand.legal_actions())))
