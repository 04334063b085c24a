"""Cards and the deck of a profile.

Rank order (strength) and card points are kept apart: the profile lists ranks strongest first
and gives each rank its points, so a 9, 8 or 7 is worth 0 and still beats a lower rank (R1).
Inside the engine a card is an int index (suit * ranks + rank position), and a set of cards is
an int bit mask, so legality checks are a few bit operations.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from .errors import RecordError
from .schema import Profile, per_profile

SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


class Card:
    """A card such as Card('Kh') (king of hearts); 'K♥' is read the same way."""

    __slots__ = ("rank", "suit")
    rank: str
    suit: str

    def __init__(self, text: str) -> None:
        text = str(text).strip()
        if len(text) < 2:
            raise RecordError(f"unknown card {text!r}: write a rank and a suit, such as 'Kh'")
        rank, suit = text[:-1].upper(), SUIT_SYMBOLS.get(text[-1], text[-1].lower())
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and (self.rank, self.suit) == (other.rank, other.suit)

    def __hash__(self) -> int:
        return hash((self.rank, self.suit))


class Deck:
    """The deck a profile describes, with the tables the engine needs (built once per profile)."""

    def __init__(self, profile: Profile) -> None:
        spec = profile.deck
        self.ranks = list(spec.ranks)
        self.suits = [s.code for s in spec.suits]
        self.suit_info = {s.code: s for s in spec.suits}
        n = len(self.ranks)
        self.size = n * len(self.suits)
        self.cards = [Card(r + s) for s in self.suits for r in self.ranks]
        self.index = {card: i for i, card in enumerate(self.cards)}
        self.by_text = {str(card): i for i, card in enumerate(self.cards)}    # the fast path
        self.points = [spec.card_points[c.rank] for c in self.cards]
        self.suit_of = [i // n for i in range(self.size)]
        self.suit_mask = [((1 << n) - 1) << (s * n) for s in range(len(self.suits))]
        # Cards of the same suit that beat card i: those before it in the strength order.
        self.stronger = [self.suit_mask[i // n] & ((1 << i) - 1) for i in range(self.size)]
        self.full = (1 << self.size) - 1
        self.bit = [1 << i for i in range(self.size)]     # bit[i] == 1 << i, for sum(map(...))
        # beats[trump][led][card]: whether card, answering led, takes the trick (R6)
        self.beats = [[[(self.stronger[led] >> card & 1 == 1) if self.suit_of[card] == self.suit_of[led]
                        else self.suit_of[card] == trump for card in range(self.size)]
                       for led in range(self.size)] for trump in range(len(self.suits))]

    def parse(self, text: object) -> int:
        found = self.by_text.get(text) if isinstance(text, str) else None
        if found is not None:
            return found
        card = text if isinstance(text, Card) else Card(str(text))
        try:
            return self.index[card]
        except KeyError:
            raise RecordError(
                f"unknown card {str(text)!r}: a card is a rank ({' '.join(self.ranks)}) and a "
                f"suit ({' '.join(self.suits)}, or {' '.join(SUIT_SYMBOLS)})") from None

    def card(self, i: int) -> Card:
        return self.cards[i]

    def rank_index(self, rank: str) -> int:
        return self.ranks.index(rank)

    def card_of(self, rank: str, suit: int) -> int:
        return suit * len(self.ranks) + self.ranks.index(rank)

    def suit_index(self, code: str) -> int:
        code = SUIT_SYMBOLS.get(code, code)
        try:
            return self.suits.index(code)
        except ValueError:
            raise RecordError(f"unknown suit {code!r}: use one of {' '.join(self.suits)}") from None

    def mask_points(self, mask: int) -> int:
        return sum(self.points[i] for i in bits(mask))

    def to_cards(self, mask: int) -> list[Card]:
        return [self.cards[i] for i in bits(mask)]


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indices: Iterable[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


@per_profile
def deck_for(profile: Profile) -> Deck:
    """The Deck of a profile, built once."""
    return Deck(profile)
