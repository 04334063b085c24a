"""What one player may know of a hand: their own cards and what the table has shown.

Everything here is public to `player`: the cards played, the face-up card, marriages shown,
an exchange, who drew the last card, and what the other player's answers under strict play
(R9) prove they lack. The other player's cards and the stock stay unknown; `worlds` deals them
at random, consistently with all of the above, for perfect-information Monte Carlo.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.cards import bits
from ..engine.hand import Hand


@dataclass(frozen=True)
class Knowledge:
    """`player`'s view: `theirs` cards known to be in the other hand, `lacks` cards proved
    absent from it (R9), `unseen` every card whose place `player` cannot know."""

    player: str
    theirs: int
    lacks: int
    unseen: int
    their_count: int


def knowledge(hand: Hand, player: str) -> Knowledge:
    """Replay the hand's public history and read what `player` knows now."""
    seat = hand.players.index(player)
    other = hand.players[seat ^ 1]
    deck, trump = hand.deck, hand.trump
    trumps = deck.suit_mask[trump]
    shown = lacks = 0
    view = Hand([str(deck.card(i)) for i in hand.order], dealer=hand.dealer, profile=hand.profile)
    for action in hand.log:
        if action.player == other:
            shown, lacks = _learn(view, action, shown, lacks, trumps)
        drew = view.stock_size
        face_up = view._face_up
        view.apply(action)
        if drew and not view.stock_size and view.closer is None:   # R8: the loser drew it
            loser = view.players[view._leader ^ 1]
            if loser == other:
                shown |= 1 << face_up
    held_other = hand._held[seat ^ 1]
    theirs = shown & held_other                      # shown and not yet played
    mine = hand._held[seat]
    gone = hand._won[0] | hand._won[1] | (0 if hand._led is None else 1 << hand._led)
    known_face_up = 1 << hand._face_up if (hand.stock_size or hand.closer is not None) \
        and not held_other >> hand._face_up & 1 else 0
    unseen = deck.full & ~(mine | gone | theirs | known_face_up)
    return Knowledge(player, theirs, lacks & unseen, unseen, bin(held_other).count("1"))


def _learn(view: Hand, action: Action, shown: int, lacks: int, trumps: int) -> tuple[int, int]:
    """What the other player's action shows: a marriage's two cards (R12), the indicator an
    exchange takes (R10), and under strict play (R9) the cards an answer proves they lack."""
    deck = view.deck
    if action.verb == "marriage":
        shown |= view._marriage_mask(deck.suit_index(action.arg or ""))
    elif action.verb == "exchange":
        shown |= 1 << view._face_up
    elif action.verb == "play" and view._led is not None and not view.stock_open:
        led, card = view._led, deck.parse(action.arg)
        suit = deck.suit_mask[deck.suit_of[led]]
        if deck.suit_of[card] != deck.suit_of[led]:
            lacks |= suit                                # void in the suit led
            if not trumps >> card & 1:
                lacks |= trumps                          # and in trumps
        elif view.profile.options.strict_play_must_beat and not deck.stronger[led] >> card & 1:
            lacks |= deck.stronger[led]                  # could not beat the card led
    return shown, lacks


def worlds(hand: Hand, known: Knowledge, count: int, rng: random.Random) -> list[Hand]:
    """Up to `count` hands as they may be: the other player's unknown cards drawn from the
    unseen ones they may hold, the rest into the stock; the same public history replayed.
    Only the positions of the unknown cards are read from `hand`, never their faces."""
    seat = hand.players.index(known.player)
    deck = hand.deck
    hidden_theirs = [c for c in bits(hand._held[seat ^ 1]) if not known.theirs >> c & 1]
    hidden_stock = [c for c in hand._stock if known.unseen >> c & 1]
    allowed = sorted(bits(known.unseen & ~known.lacks))
    if len(allowed) < len(hidden_theirs):                # an inference too strong: drop it
        allowed = sorted(bits(known.unseen))
    out: list[Hand] = []
    for _ in range(count):
        drawn = rng.sample(allowed, len(hidden_theirs))
        rest = sorted(bits(known.unseen & ~sum(1 << c for c in drawn)))
        rng.shuffle(rest)
        faces = dict(zip(hidden_theirs + hidden_stock, drawn + rest))
        order = [str(deck.card(faces.get(i, i))) for i in hand.order]
        try:
            world = Hand.replay(order, hand.log, dealer=hand.dealer, profile=hand.profile)
        except ValueError:                               # pragma: no cover - lacks rules it out
            continue
        out.append(world)
        if not hidden_stock and len(allowed) == len(hidden_theirs):
            break                                        # one world only: every card is known
    return out
