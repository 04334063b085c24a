"""The deal of a hand (R1, R3, R4) and the state it sets up: hands, stock, indicator, trump."""

from __future__ import annotations

from operator import itemgetter
from typing import Callable, Sequence

from .actions import Action
from .cards import Card, Deck, deck_for
from .errors import RecordError
from .outcome import Outcome
from .schema import Profile, per_profile

# Steps of the lead sequence: exchange (1), close (2), marriage (3) go in that order.
EXCHANGED, CLOSED, MARRIED = 1, 2, 3


@per_profile
def deal_plan(profile: Profile) -> tuple[Callable[[list[int]], tuple[int, ...]],
                                         Callable[[list[int]], tuple[int, ...]], int, int]:
    """Where a profile's deal puts each position of the deck (R3), worked out once: a getter of
    the first hand's cards, one of the second's, the indicator's position and the stock's start."""
    hands: tuple[list[int], list[int]] = ([], [])
    pos, turned, at = 0, profile.deal.indicator_round, None
    for round_, packet in enumerate(profile.deal.packets):
        if round_ == turned:                         # the indicator is turned between packets
            at, pos = pos, pos + 1
        for seat in (0, 1):
            hands[seat].extend(range(pos, pos + packet))
            pos += packet
    if at is None:
        at, pos = pos, pos + 1
    first, second = (_getter(h) for h in hands)
    return first, second, at, pos


def _getter(positions: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """The items at positions, always as a tuple (itemgetter gives a bare item for one)."""
    if len(positions) > 1:
        return itemgetter(*positions)
    at = positions[0]

    def one(order: list[int]) -> tuple[int, ...]:
        return (order[at],)
    return one


class Deal:
    """A hand dealt from a deck order (top card first) by `dealer`, under a rules profile."""

    # Slots: a replayed record builds one of these per hand, and reads its state per card.
    __slots__ = ("profile", "deck", "players", "dealer", "order", "indicator", "trump",
                 "_face_up", "_stock", "_held", "_won", "_card_points", "_bonus", "_pending",
                 "_tricks", "_declared", "_leader", "_led", "_step", "_marriage_suit", "_closer",
                 "_closed_state", "_last_winner", "_outcome", "trick_number", "log", "_drawn")

    def __init__(self, deck: Sequence[str | Card], dealer: str = "A",
                 profile: Profile | None = None) -> None:
        if profile is None:                             # the project's own (YAML, msgspec)
            from .profile import default_profile
            profile = default_profile()
        self.profile = profile
        self.deck: Deck = deck_for(profile)
        players = self.players = list(profile.players)
        if dealer not in players:
            raise RecordError(f"unknown dealer {dealer!r}: use {' or '.join(players)}")
        self.dealer = players[players.index(dealer)]      # the profile's own name object
        self.order = self._read_deck(deck)
        self._deal()

    def _read_deck(self, deck: Sequence[str | Card]) -> list[int]:
        if isinstance(deck, str):
            deck = deck.split()
        table = self.deck
        try:
            order = list(map(table.by_text.__getitem__, deck))   # type: ignore[arg-type]
        except (KeyError, TypeError):                   # Card objects, symbols or a mistake
            order = [table.parse(c) for c in deck]
        if len(order) != table.size or len(set(order)) != len(order):
            seen, dupes = set(), []
            for i in order:
                if i in seen:
                    dupes.append(str(self.deck.card(i)))
                seen.add(i)
            detail = (f"duplicates {' '.join(dupes)}" if dupes else
                      f"{len(order)} card{'s' if len(order) != 1 else ''} given")
            raise RecordError(f"R1/R4: the deck must hold {self.deck.size} distinct cards, "
                              f"top card first ({detail}): a wrong count is a misdeal")
        return order

    def _deal(self) -> None:
        first = self.players.index(self.dealer) ^ 1     # R3: the non-dealer gets the first packet
        to_first, to_second, at, pos = deal_plan(self.profile)
        table, order = self.deck, self.order
        bit = table.bit.__getitem__
        held = [0, 0]
        held[first] = sum(map(bit, to_first(order)))
        held[first ^ 1] = sum(map(bit, to_second(order)))
        indicator = self.indicator = self._face_up = order[at]   # face up: the 7 after an exchange
        self.trump = table.suit_of[indicator]
        # The stock pops from the end: drawing order reversed, the indicator drawn last.
        stock = order[pos:]
        stock.append(indicator)
        stock.reverse()
        self._stock = stock
        self._held = held
        self._won = [0, 0]
        self._card_points = [0, 0]
        self._bonus = [0, 0]
        self._pending = [0, 0]             # R12 option: marriages that count once a trick is won
        self._tricks = [0, 0]
        self._declared = 0                 # suits whose marriage was declared (bit per suit)
        self._leader = first               # R5
        self._led: int | None = None
        self._step = 0
        self._marriage_suit: int | None = None
        self._closer: int | None = None
        self._closed_state: tuple[int, bool] | None = None
        self._last_winner: int | None = None
        self._drawn: tuple[int, int] | None = None   # the last trick's draw: winner's, loser's
        self._outcome: Outcome | None = None
        self.trick_number = 1
        self.log: list[Action] = []

    @property
    def stock_open(self) -> bool:
        return self._closer is None and bool(self._stock)

    @property
    def all_played(self) -> bool:
        """Both players' cards are all played: only a final claim (R14) or the end remains."""
        return not (self._held[0] or self._held[1])

    def points(self, player: str) -> int:
        """R13: card points captured plus marriage bonuses (plus R17's last trick bonus)."""
        seat = self._seat(player)
        return self._card_points[seat] + self._bonus[seat]

    def tricks(self, player: str) -> int:
        return self._tricks[self._seat(player)]

    def _seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise RecordError(f"unknown player {player!r}: use {' or '.join(self.players)}") from None

    def _marriage_mask(self, suit: int) -> int:
        return (1 << self.deck.card_of("K", suit)) | (1 << self.deck.card_of("Q", suit))
