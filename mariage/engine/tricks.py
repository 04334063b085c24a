"""Trick play: which cards may be played (R7, R9, R12's lead), who wins (R6), the draw (R8)."""

from __future__ import annotations

from .deal import Deal
from .errors import IllegalActionError


class TrickPlay(Deal):
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
        seat = self._leader if self._led is None else self._leader ^ 1
        self._held[seat] ^= 1 << card
        if self._led is None:
            self._led = card
            self._step, self._marriage_suit = 0, None
            return
        led, deck = self._led, self.deck
        beats = (bool(deck.stronger[led] >> card & 1) if deck.suit_of[card] == deck.suit_of[led]
                 else deck.suit_of[card] == self.trump)
        winner = seat if beats else self._leader        # R6
        self._won[winner] |= (1 << led) | (1 << card)
        self._card_points[winner] += deck.points[led] + deck.points[card]
        self._tricks[winner] += 1
        if self._pending[winner]:                       # R12 option: the marriage now counts
            self._bonus[winner] += self._pending[winner]
            self._pending[winner] = 0
        self._led, self._leader, self._last_winner = None, winner, winner
        self.trick_number += 1
        if self.stock_open:                              # R8: winner draws first
            self._held[winner] |= 1 << self._stock.pop()
            self._held[winner ^ 1] |= 1 << self._stock.pop()
