"""The end of a hand and its score in game points: claims, the natural end, the closer's fate
(R14-R18)."""

from __future__ import annotations

from .deal import Deal
from .errors import IllegalActionError
from .outcome import End, Outcome


class HandEnd(Deal):
    __slots__ = ()

    def _do_pass(self, seat: int, _: str | None) -> None:
        if not self.all_played:
            raise IllegalActionError("R14", "only the winner of the last trick may pass, "
                                     "declining to claim; otherwise lead a card")
        self._natural_end()

    def finish(self) -> Outcome:
        """End a hand whose last trick is played and whose winner does not claim (R14, R17, R18)."""
        if self._outcome is None:
            if not self.all_played:
                raise IllegalActionError("R14", "the hand ends early only by a claim")
            self._natural_end()
        assert self._outcome is not None
        return self._outcome

    def _natural_end(self) -> None:
        if self._closer is not None:                     # R18: no last trick bonus
            self._finish(End.CLOSER_FAILED, self._closer ^ 1, self._closer_penalty(), "R18")
            return
        assert self._last_winner is not None
        self._bonus[self._last_winner] += self.profile.bonuses.last_trick   # R17
        a, b = (self._card_points[seat] + self._bonus[seat] for seat in (0, 1))
        options = self.profile.options
        if options.natural_end == "last_trick_wins":
            winner: int | None = self._last_winner
        elif a != b:
            winner = 0 if a > b else 1
        else:
            winner = self.players.index(self.dealer) ^ 1 if options.natural_tie == "non_dealer" else None
        if winner is None:
            self._finish(End.EXHAUSTED, None, 0, "R17")
        else:
            self._finish(End.EXHAUSTED, winner, self._natural_rate(winner ^ 1), "R17")

    def _natural_rate(self, loser: int) -> int:
        """R17: the profile's fixed rate for a natural end, else R15's on the loser's state."""
        fixed = self.profile.rates.natural_end
        return self._rate(loser) if fixed is None else fixed

    def _rate(self, loser: int) -> int:
        """R15's rate on the loser's current state."""
        return self._rate_of(self._card_points[loser] + self._bonus[loser], self._tricks[loser] > 0)

    def _rate_of(self, loser_points: int, loser_has_trick: bool) -> int:
        rates, safe = self.profile.rates, self.profile.thresholds.opponent_safe
        if not loser_has_trick:
            return rates.opponent_no_trick
        return rates.opponent_safe if loser_points >= safe else rates.opponent_has_trick

    def _closer_claim_rate(self, points: int, has_trick: bool) -> int:
        """R18: the closer's correct claim, on the opponent's state at the close, or on its current
        `points` and `has_trick` where the profile scores it at the claim."""
        assert self._closed_state is not None
        at_close = self.profile.closing.scored_at == "close"
        return self._rate_of(*self._closed_state) if at_close else self._rate_of(points, has_trick)

    def _closer_beaten_rate(self) -> int:
        """R18: the closer's opponent claims correctly first."""
        fixed = self.profile.rates.closer_beaten
        return self._closer_penalty() if fixed is None else fixed

    def _closer_penalty(self) -> int:
        assert self._closed_state is not None
        no_trick = not self._closed_state[1]
        rates = self.profile.rates
        return rates.closer_failed_no_trick if no_trick else rates.closer_failed

    def _finish(self, end: End, winner: int | None, game_points: int, ruling: str) -> None:
        (a, b), cards, bonus, tricks = self.players, self._card_points, self._bonus, self._tricks
        self._outcome = Outcome(end, None if winner is None else self.players[winner], game_points,
                                {a: cards[0] + bonus[0], b: cards[1] + bonus[1]},
                                {a: tricks[0], b: tricks[1]}, ruling)
