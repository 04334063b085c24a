"""Trick play: which cards may be played (R7, R9, R12's lead), who wins (R6), the draw (R8)."""

from __future__ import annotations

from .actions import Action
from .cards import deck_for
from .deal import Deal
from .errors import IllegalActionError
from .schema import Profile


class TrickPlay(Deal):
    __slots__ = ()

    def legal_plays_mask(self) -> int:
        """The fast path for simulations: the playable cards as a bit mask of deck indices."""
        return self._play_mask() if self._outcome is None else 0

    def play_index(self, card: int) -> None:
        """The fast path for simulations: play a card from legal_plays_mask() (unchecked)."""
        self._play(card)

    def _play_mask(self) -> int:
        """The cards the player to act may play now."""
        if self._led is None:
            held = self._held[self._leader]
            if self._marriage_suit is not None:        # R12: lead the K or the Q just shown
                return held & self._marriage_mask(self._marriage_suit)
            return held
        held = self._held[self._leader ^ 1]
        if self.stock_open:                             # R7
            return held
        deck, led = self.deck, self._led                # R9
        same = held & deck.suit_mask[deck.suit_of[led]]
        if same:
            return ((same & deck.stronger[led]) or same) if self.profile.options.strict_play_must_beat else same
        return (held & deck.suit_mask[self.trump]) or held

    def _do_play(self, seat: int, arg: str | None) -> None:
        card = self.deck.by_text.get(arg) if type(arg) is str else None
        if card is None:
            card = self.deck.parse(arg)
        if not self._held[seat] >> card & 1:
            raise IllegalActionError("R5", f"{self.players[seat]} does not hold {self.deck.card(card)}")
        if not self._play_mask() >> card & 1:
            raise IllegalActionError(*self._why_not_playable(card))
        self._play(card)

    def _why_not_playable(self, card: int) -> tuple[str, str]:
        if self._led is None:
            suit = self.deck.suits[self._marriage_suit or 0]
            return "R12", f"after declaring the marriage, lead its K{suit} or Q{suit}"
        led = self.deck.card(self._led)
        duty = "follow suit and beat if able" if self.profile.options.strict_play_must_beat \
            else "follow suit if able"
        return "R9", (f"with the stock exhausted or closed, {self.deck.card(card)} may not answer "
                      f"{led}: {duty}, else trump if able")

    def _play(self, card: int) -> None:
        """Play a legal card (the fast path random play uses too)."""
        held, leader, led = self._held, self._leader, self._led
        if led is None:
            held[leader] ^= 1 << card
            self._led = card
            self._step, self._marriage_suit = 0, None
            return
        seat = leader ^ 1
        held[seat] ^= 1 << card
        deck = self.deck
        winner = seat if deck.beats[self.trump][led][card] else leader   # R6
        self._won[winner] |= (1 << led) | (1 << card)
        self._card_points[winner] += deck.points[led] + deck.points[card]
        self._tricks[winner] += 1
        if self._pending[winner]:                       # R12 option: the marriage now counts
            self._bonus[winner] += self._pending[winner]
            self._pending[winner] = 0
        self._led, self._leader, self._last_winner = None, winner, winner
        self.trick_number += 1
        stock = self._stock
        if self._closer is None and stock:               # R8: winner draws first
            first, second = stock.pop(), stock.pop()
            held[winner] |= 1 << first
            held[winner ^ 1] |= 1 << second
            self._drawn = (first, second)
        else:
            self._drawn = None


def plays_of(profile: Profile) -> dict[str, tuple[int, int, int, Action]]:
    """Every 'A play Kh' text of a profile: its seat, card index, card bit and Action."""
    deck = deck_for(profile)
    return {f"{player} play {card}": (seat, i, 1 << i, Action(player, "play", str(card)))
            for seat, player in enumerate(profile.players) for i, card in enumerate(deck.cards)}
