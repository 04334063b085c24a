"""What the player on lead may do before leading, in order (R10-R12), and the claim (R14-R18)."""

from __future__ import annotations

from .deal import CLOSED, EXCHANGED, MARRIED
from .ending import HandEnd
from .errors import IllegalActionError
from .outcome import End


class LeadOptions(HandEnd):
    __slots__ = ()

    def _trump_seven(self) -> int:
        # R10 names the 7 of trumps: the lowest rank of the trump suit the profile deals.
        return self.deck.card_of(self.profile.deck.lowest_rank, self.trump)

    def _can_exchange(self, seat: int) -> str | None:
        """None when the R10 exchange is allowed, else why not."""
        if self._step >= EXCHANGED:
            return "the exchange comes before closing and before a marriage"
        if not self.stock_open:
            return "the stock must be open"
        if not self._tricks[seat] and self.profile.options.exchange_needs_trick:
            return "the exchange needs a trick won this hand"
        if len(self._stock) < self.profile.options.exchange_min_stock:
            return f"the exchange needs {self.profile.options.exchange_min_stock} or more cards in the stock"
        if not self._held[seat] >> self._trump_seven() & 1:
            return f"{self.players[seat]} does not hold {self.deck.card(self._trump_seven())}"
        return None

    def _can_close(self, seat: int) -> str | None:
        closing = self.profile.closing
        if self._step >= CLOSED:
            return "closing comes before a marriage, and only once"
        if not self.stock_open:
            return "the stock is already exhausted or closed"
        if self.trick_number < closing.min_trick:
            return f"closing is allowed from trick {closing.min_trick} on"
        if len(self._stock) < closing.min_stock:
            return f"closing needs {closing.min_stock} or more cards in the stock"
        return None

    def _can_close_before(self, seat: int) -> str | None:
        """None when the R11 option lets the trick's winner close before its draw, else why not."""
        closing = self.profile.closing
        if not closing.before_drawing:
            return "closing before drawing is not a rule of this profile"
        if self._drawn is None or self._step or self._led is not None:
            return "closing before drawing comes first, right after a trick that drew from the stock"
        if self.trick_number < closing.min_trick:
            return f"closing is allowed from trick {closing.min_trick} on"
        if len(self._stock) + 2 < closing.min_stock:
            return f"closing needs {closing.min_stock} or more cards in the stock"
        return None

    def _can_marry(self, seat: int, suit: int) -> str | None:
        if self._step >= MARRIED:
            return "one marriage per lead"
        if not self.stock_open and self.profile.options.marriage_needs_open_stock:
            return "closing or exhausting the stock ends all declarations"
        if not self._tricks[seat] and self.profile.options.marriage_before_trick == "forbidden":
            return "a marriage needs a trick won this hand"
        if self._declared >> suit & 1:
            return f"the marriage in {self.deck.suit_info[self.deck.suits[suit]].name} was already declared"
        pair = self._marriage_mask(suit)
        if self._held[seat] & pair != pair:
            return f"{self.players[seat]} does not hold both K and Q of that suit"
        return None

    def _do_exchange(self, seat: int, _: str | None) -> None:
        self._refuse("R10", self._can_exchange(seat))
        seven = self._trump_seven()
        self._held[seat] ^= (1 << seven) | (1 << self._stock[0])
        self._stock[0] = self._face_up = seven
        self._step = EXCHANGED

    def _do_close(self, seat: int, arg: str | None) -> None:
        if arg == "before":                     # R11 option: the draw goes back to the stock
            self._refuse("R11", self._can_close_before(seat))
            assert self._drawn is not None
            mine, theirs = self._drawn
            self._held[seat] ^= 1 << mine
            self._held[seat ^ 1] ^= 1 << theirs
            self._stock += [theirs, mine]
            self._drawn = None
        self._refuse("R11", self._can_close(seat))
        other = seat ^ 1
        self._closer = seat
        self._closed_state = (self._card_points[other] + self._bonus[other], self._tricks[other] > 0)
        self._step = CLOSED

    def _do_marriage(self, seat: int, arg: str | None) -> None:
        suit = self.deck.suit_index(arg or "")
        self._refuse("R12", self._can_marry(seat, suit))
        bonus = self.profile.marriage_bonus(suit == self.trump)
        if self._tricks[seat]:
            self._bonus[seat] += bonus
        else:                                   # counts once a trick is won (R12 option)
            self._pending[seat] += bonus
        self._declared |= 1 << suit
        self._marriage_suit = suit
        self._step = MARRIED

    def _do_claim(self, seat: int, _: str | None) -> None:
        other = seat ^ 1
        correct = self._card_points[seat] + self._bonus[seat] >= self.profile.thresholds.claim
        if self._closer is None:
            if correct:
                self._finish(End.CLAIM, seat, self._rate(other), "R15")
            else:
                self._finish(End.FALSE_CLAIM, other, self._false_claim_rate(other), "R16")
        elif seat == self._closer:
            if correct:
                self._finish(End.CLAIM, seat, self._closer_claim_rate(
                    self._card_points[other] + self._bonus[other], self._tricks[other] > 0), "R18")
            elif self.profile.options.closer_false_claim == "false_claim":
                self._finish(End.FALSE_CLAIM, other, self._false_claim_rate(other), "R16")
            else:
                self._finish(End.FALSE_CLAIM, other, self._closer_penalty(), "R18")
        elif correct:
            self._finish(End.CLAIM, seat, self._closer_beaten_rate(), "R18")
        else:
            self._finish(End.FALSE_CLAIM, other, self._false_claim_rate(other), "R16")

    def _false_claim_rate(self, opponent: int) -> int:
        """R16's rate, raised where the profile says so for an opponent with no trick yet."""
        rates = self.profile.rates
        if rates.false_claim_no_trick is not None and not self._tricks[opponent]:
            return rates.false_claim_no_trick
        return rates.false_claim

    @staticmethod
    def _refuse(ruling: str, reason: str | None) -> None:
        if reason is not None:
            raise IllegalActionError(ruling, reason)
