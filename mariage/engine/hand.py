"""One hand of Mariage (R3-R18), joined from the game's own seams.

The state API is small: `to_act`, `legal_actions()`, `apply(action)`, `outcome`. Every refusal
is an IllegalActionError whose message starts with the ruling that forbids the action. Where
each part of the rules lives:

- `deal.py`: the deal (R1, R3, R4) and the state it sets up;
- `lead.py`: the lead options, exchange, close, marriage and claim (R10-R12, R14);
- `tricks.py`: trick play, legality, the winner and the draw (R5-R9);
- `ending.py`: the end of the hand and its game points (R14-R18).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from .actions import VERBS, Action
from .cards import Card, bits, deck_for, mask_of
from .errors import IllegalActionError
from .lead import LeadOptions
from .outcome import Outcome
from .schema import Profile, per_profile
from .tricks import TrickPlay, plays_of

__all__ = ["Action", "Hand", "VERBS"]


class Hand(LeadOptions, TrickPlay):
    """A hand dealt from a deck order (top card first) by `dealer`, under a rules profile."""

    __slots__ = ()

    # ----- public view
    @property
    def to_act(self) -> str | None:
        if self._outcome is not None:
            return None
        seat = self._leader if self._led is None else self._leader ^ 1
        return self.players[seat]

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def trump_suit(self) -> str:
        return self.deck.suits[self.trump]

    @property
    def indicator_card(self) -> Card:
        """The face-up trump card: the dealt indicator, or the trump seven after an exchange."""
        return self.deck.card(self._face_up)

    @property
    def stock_size(self) -> int:
        """Cards still to draw: 0 once the stock is exhausted or closed."""
        return 0 if self._closer is not None else len(self._stock)

    @property
    def closer(self) -> str | None:
        return None if self._closer is None else self.players[self._closer]

    @property
    def led(self) -> Card | None:
        return None if self._led is None else self.deck.card(self._led)

    def holding(self, player: str) -> list[Card]:
        return self.deck.to_cards(self._held[self._seat(player)])

    def captured(self, player: str) -> list[Card]:
        return self.deck.to_cards(self._won[self._seat(player)])

    def stock(self) -> list[Card]:
        """The cards left to draw, in drawing order (the indicator last); empty once closed."""
        return [] if self._closer is not None else [self.deck.card(i) for i in self._stock[::-1]]

    def out_of_play(self) -> list[Card]:
        """R11: the stock set aside by a close."""
        return [] if self._closer is None else [self.deck.card(i) for i in self._stock[::-1]]

    def card_points(self, player: str) -> int:
        return self._card_points[self._seat(player)]

    # ----- legal actions
    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        player = self.to_act
        assert player is not None
        plays = [Action(player, "play", str(self.deck.card(i))) for i in bits(self._play_mask())]
        if self._led is not None:
            return plays
        seat = self._leader
        options = []
        if self._can_exchange(seat) is None:
            options.append(Action(player, "exchange"))
        if self._can_close(seat) is None:
            options.append(Action(player, "close"))
        if self._can_close_before(seat) is None:
            options.append(Action(player, "close", "before"))
        for suit in range(len(self.deck.suits)):
            if self._can_marry(seat, suit) is None:
                options.append(Action(player, "marriage", self.deck.suits[suit]))
        options.append(Action(player, "claim"))
        if self.all_played:
            options.append(Action(player, "pass"))
        return options + plays

    # ----- applying actions
    def apply(self, action: Action | str) -> "Hand":
        """Apply one action; an illegal one raises IllegalActionError and changes nothing."""
        if type(action) is not Action:
            action = Action.parse(action)       # type: ignore[arg-type]  # parse reports a non-string
        if self._outcome is not None:
            raise IllegalActionError("R14", "the hand is over; no action follows its end")
        seat = self._seat(action.player)
        if seat != (self._leader if self._led is None else self._leader ^ 1):
            role = "lead" if self._led is None else "respond"
            raise IllegalActionError("R5", f"it is {self.to_act}'s turn to {role}, "
                                     f"not {action.player}'s")
        verb = action.verb
        if verb == "play":
            self._do_play(seat, action.arg)
        elif self._led is not None:
            raise IllegalActionError(self._lead_ruling(verb), f"only the player on lead may {verb}")
        else:
            _LEAD_VERBS[verb](self, seat, action.arg)
        self.log.append(action)
        return self

    def apply_all(self, actions: Iterable[Action | str]) -> "Hand":
        """Apply actions in turn, as apply() does; a refused one raises, and `len(log)` is then
        its position among the actions applied since this hand's deal."""
        # The fast path: a plainly legal play, known by its text, is checked and done here with
        # the state in locals (_play's work, inlined: records are mostly plays). Anything else
        # (a lead option, a play after a marriage, a refusal, a Card or Action object) goes
        # through apply(), which gives the ruling's error; the locals are stored before and
        # read again after. tests/engine/test_fast_path.py holds the two paths to one result.
        deck, log = self.deck, self.log
        find: Callable[[Any], Any] = _known_actions(self.profile).get
        record = log.append
        held, stock, won, pending = self._held, self._stock, self._won, self._pending
        card_points, tricks = self._card_points, self._tricks
        suit_of, stronger, suit_mask, points = deck.suit_of, deck.stronger, deck.suit_mask, deck.points
        options = self.profile.options
        trump, must_beat = self.trump, options.strict_play_must_beat
        waiting = options.marriage_before_trick != "forbidden"  # R12 option: bonuses may wait
        trumps, beats = suit_mask[trump], deck.beats[trump]
        led, leader, number = self._led, self._leader, self.trick_number
        slow = self._outcome is not None or self._marriage_suit is not None
        drawing, stepped = self._closer is None, self._step != 0
        try:
            for action in actions:
                try:
                    known = find(action)
                except TypeError:                                # unhashable: apply() says why
                    known = None
                method = None
                if known is not None and not slow:
                    seat, card, bit, parsed = known
                    if card < 0:                                 # a lead option, or a claim
                        if led is None and seat == leader:       # else apply() says why not
                            method = bit                         # its _do_ method
                    elif held[seat] & bit and (seat == leader if led is None else seat != leader):
                        mine = held[seat]
                        if led is None:                          # a lead (R5)
                            held[seat] = mine ^ bit
                            led = card
                            if stepped:
                                self._step, stepped = 0, False
                            record(parsed)
                            continue
                        if drawing and stock:                    # R7: any card
                            draw, allowed = True, bit
                        else:                                    # R9: strict play
                            draw, same = False, mine & suit_mask[suit_of[led]]
                            if same:
                                allowed = ((same & stronger[led]) or same) if must_beat else same
                            else:
                                allowed = (mine & trumps) or mine
                        if allowed & bit:
                            held[seat] = mine ^ bit
                            winner = seat if beats[led][card] else leader   # R6
                            won[winner] |= (1 << led) | bit
                            card_points[winner] += points[led] + points[card]
                            tricks[winner] += 1
                            if waiting and pending[winner]:      # R12 option: now it counts
                                self._bonus[winner] += pending[winner]
                                pending[winner] = 0
                            led, leader = None, winner
                            number += 1
                            if draw:                             # R8: the winner draws first
                                first, second = stock.pop(), stock.pop()
                                held[winner] |= 1 << first
                                held[winner ^ 1] |= 1 << second
                                self._drawn = (first, second)
                            else:
                                self._drawn = None
                            record(parsed)
                            continue
                self._store(led, leader, number)
                if method is not None:
                    method(self, seat, parsed.arg)               # may raise, changing nothing
                    record(parsed)
                else:
                    self.apply(action)
                led, leader, number = self._led, self._leader, self.trick_number
                slow = self._outcome is not None or self._marriage_suit is not None
                drawing, stepped = self._closer is None, self._step != 0
        finally:
            self._store(led, leader, number)
        return self

    def _store(self, led: int | None, leader: int, number: int) -> None:
        """apply_all's locals back into the hand (a trick played since sets the last winner)."""
        if number != self.trick_number:
            self._last_winner = leader
        self._led, self._leader, self.trick_number = led, leader, number

    @staticmethod
    def _lead_ruling(verb: str) -> str:
        return {"exchange": "R10", "close": "R11", "marriage": "R12"}.get(verb, "R14")

    # ----- records and invariants
    def check_invariants(self) -> None:
        """Every card is in exactly one place, and the points add up (used after every action in tests)."""
        table = 0 if self._led is None else 1 << self._led
        places = self._held + self._won + [mask_of(self._stock), table]
        union = 0
        for mask in places:
            assert not union & mask, "a card is in two places"
            union |= mask
        assert union == self.deck.full, "a card is missing"
        for seat in (0, 1):
            assert self._card_points[seat] == self.deck.mask_points(self._won[seat])
        assert sum(self._card_points) <= self.profile.deck.total_points

    def __repr__(self) -> str:
        deck = " ".join(str(self.deck.card(i)) for i in self.order)
        return (f"Hand.replay(dealer={self.dealer!r}, deck={deck!r}, "
                f"actions={[str(a) for a in self.log]!r})")

    @classmethod
    def replay(cls, deck: Sequence[str | Card] | str, actions: Iterable[str | Action] = (),
               dealer: str = "A", profile: Profile | None = None) -> "Hand":
        return cls(deck, dealer=dealer, profile=profile).apply_all(actions)


@per_profile
def _known_actions(profile: Profile) -> dict[str, tuple[int, int, Any, Action]]:
    """apply_all's table of every action text a record of this profile can hold, read once:
    'A play Kh' as (seat, card index, card bit, Action), and a lead option or claim such as
    'A close' or 'B marriage h' as (seat, -1, its _do_ method, Action)."""
    table: dict[str, tuple[int, int, Any, Action]] = dict(plays_of(profile))
    suits = deck_for(profile).suits
    for seat, player in enumerate(profile.players):
        for verb, method in _LEAD_VERBS.items():
            for arg in (suits if verb == "marriage" else [None, "before"] if verb == "close"
                        else [None]):
                action = Action(player, verb, arg)
                table[str(action)] = (seat, -1, method, action)
    return table


# The lead verbs and where each is done (trick play is dispatched first, being most actions).
_LEAD_VERBS: dict[str, Callable[[Any, int, str | None], None]] = {"exchange": Hand._do_exchange, "close": Hand._do_close,
               "marriage": Hand._do_marriage, "claim": Hand._do_claim, "pass": Hand._do_pass}
