"""One hand of Mariage: the deal, the tricks, the lead options and the end (R3-R18).

The state API is small: `to_act`, `legal_actions()`, `apply(action)`, `outcome`. Every refusal
is an IllegalActionError whose message starts with the ruling that forbids the action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .cards import Card, Deck, bits, deck_for, mask_of
from .errors import IllegalActionError, RecordError
from .outcome import End, Outcome
from .profile import Profile, default_profile

VERBS = ("play", "exchange", "close", "marriage", "claim", "pass")
_NEEDS_ARG = {"play": "a card, as in 'A play Kh'", "marriage": "a suit, as in 'A marriage h'"}

# Steps of the lead sequence: exchange (1), close (2), marriage (3) go in that order.
_EXCHANGED, _CLOSED, _MARRIED = 1, 2, 3


@dataclass(frozen=True)
class Action:
    """An action in the record notation: Action.parse('A play Kh')."""

    player: str
    verb: str
    arg: str | None = None

    @classmethod
    def parse(cls, text: str) -> "Action":
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise RecordError(f"an action is a string such as 'A play Kh', not {text!r}")
        parts = text.split()
        if len(parts) < 2 or parts[1] not in VERBS:
            raise RecordError(f"cannot read action {text!r}: write '<player> <verb> [<arg>]' "
                              f"with a verb among {', '.join(VERBS)}")
        player, verb, rest = parts[0], parts[1], parts[2:]
        if (verb in _NEEDS_ARG) != bool(rest) or len(rest) > 1:
            need = _NEEDS_ARG.get(verb, "nothing after the verb")
            raise RecordError(f"cannot read action {text!r}: '{verb}' takes {need}")
        return cls(player, verb, rest[0] if rest else None)

    def __str__(self) -> str:
        return " ".join(p for p in (self.player, self.verb, self.arg) if p)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


class Hand:
    """A hand dealt from a deck order (top card first) by `dealer`, under a rules profile."""

    def __init__(self, deck: Sequence[str | Card], dealer: str = "A",
                 profile: Profile | None = None) -> None:
        self.profile = profile or default_profile()
        self.deck: Deck = deck_for(self.profile)
        self.players = list(self.profile.players)
        if dealer not in self.players:
            raise RecordError(f"unknown dealer {dealer!r}: use {' or '.join(self.players)}")
        self.dealer = dealer
        self.order = self._read_deck(deck)
        self._deal()

    # ----- the deal (R1, R3, R4)
    def _read_deck(self, deck: Sequence[str | Card]) -> list[int]:
        if isinstance(deck, str):
            deck = deck.split()
        order = [self.deck.parse(c) for c in deck]
        if len(order) != self.deck.size or len(set(order)) != len(order):
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
        held = [0, 0]
        pos = 0
        for packet in self.profile.deal.packets:
            for seat in (first, first ^ 1):
                held[seat] |= mask_of(self.order[pos:pos + packet])
                pos += packet
        self.indicator = self.order[pos]
        self.trump = self.deck.suit_of[self.indicator]
        self._face_up = self.indicator     # the card lying face up: the 7 after an exchange
        # The stock pops from the end: drawing order reversed, the indicator drawn last.
        self._stock = [self.indicator] + self.order[pos + 1:][::-1]
        self._held = held
        self._won = [0, 0]
        self._card_points = [0, 0]
        self._bonus = [0, 0]
        self._tricks = [0, 0]
        self._declared = 0                 # suits whose marriage was declared (bit per suit)
        self._leader = first               # R5
        self._led: int | None = None
        self._step = 0
        self._marriage_suit: int | None = None
        self._closer: int | None = None
        self._closed_state: tuple[int, bool] | None = None
        self._last_winner: int | None = None
        self._outcome: Outcome | None = None
        self.trick_number = 1
        self.log: list[Action] = []

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
    def all_played(self) -> bool:
        """Both players' cards are all played: only a final claim (R14) or the end remains."""
        return not (self._held[0] or self._held[1])

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
    def stock_open(self) -> bool:
        return self._closer is None and bool(self._stock)

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
        for suit in range(len(self.deck.suits)):
            if self._can_marry(seat, suit) is None:
                options.append(Action(player, "marriage", self.deck.suits[suit]))
        options.append(Action(player, "claim"))
        if self.all_played:
            options.append(Action(player, "pass"))
        return options + plays

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
            return (same & deck.stronger[led]) or same
        return (held & deck.suit_mask[self.trump]) or held

    def _marriage_mask(self, suit: int) -> int:
        return (1 << self.deck.card_of("K", suit)) | (1 << self.deck.card_of("Q", suit))

    def _trump_seven(self) -> int:
        # R10 names the 7 of trumps: the lowest rank of the trump suit.
        return self.deck.card_of(self.deck.ranks[-1], self.trump)

    def _can_exchange(self, seat: int) -> str | None:
        """None when the R10 exchange is allowed, else why not."""
        if self._step >= _EXCHANGED:
            return "the exchange comes before closing and before a marriage"
        if not self.stock_open:
            return "the stock must be open"
        if not self._tricks[seat]:
            return "the exchange needs a trick won this hand"
        if not self._held[seat] >> self._trump_seven() & 1:
            return f"{self.players[seat]} does not hold {self.deck.card(self._trump_seven())}"
        return None

    def _can_close(self, seat: int) -> str | None:
        closing = self.profile.closing
        if self._step >= _CLOSED:
            return "closing comes before a marriage, and only once"
        if not self.stock_open:
            return "the stock is already exhausted or closed"
        if self.trick_number < closing.min_trick:
            return f"closing is allowed from trick {closing.min_trick} on"
        if len(self._stock) < closing.min_stock:
            return f"closing needs {closing.min_stock} or more cards in the stock"
        return None

    def _can_marry(self, seat: int, suit: int) -> str | None:
        if self._step >= _MARRIED:
            return "one marriage per lead"
        if not self.stock_open:
            return "closing or exhausting the stock ends all declarations"
        if not self._tricks[seat]:
            return "a marriage needs a trick won this hand"
        if self._declared >> suit & 1:
            return f"the marriage in {self.deck.suit_info[self.deck.suits[suit]].name} was already declared"
        pair = self._marriage_mask(suit)
        if self._held[seat] & pair != pair:
            return f"{self.players[seat]} does not hold both K and Q of that suit"
        return None

    # ----- applying actions
    def apply(self, action: Action | str) -> "Hand":
        """Apply one action; an illegal one raises IllegalActionError and changes nothing."""
        action = action if isinstance(action, Action) else Action.parse(action)
        if self._outcome is not None:
            raise IllegalActionError("R14", "the hand is over; no action follows its end")
        seat = self._seat(action.player)
        if action.player != self.to_act:
            role = "lead" if self._led is None else "respond"
            raise IllegalActionError("R5", f"it is {self.to_act}'s turn to {role}, "
                                     f"not {action.player}'s")
        if action.verb != "play" and self._led is not None:
            raise IllegalActionError(self._lead_ruling(action.verb),
                                     f"only the player on lead may {action.verb}")
        getattr(self, "_do_" + action.verb)(seat, action.arg)
        self.log.append(action)
        return self

    @staticmethod
    def _lead_ruling(verb: str) -> str:
        return {"exchange": "R10", "close": "R11", "marriage": "R12"}.get(verb, "R14")

    def _do_exchange(self, seat: int, _: None) -> None:
        self._refuse("R10", self._can_exchange(seat))
        seven = self._trump_seven()
        self._held[seat] ^= (1 << seven) | (1 << self._stock[0])
        self._stock[0] = self._face_up = seven
        self._step = _EXCHANGED

    def _do_close(self, seat: int, _: None) -> None:
        self._refuse("R11", self._can_close(seat))
        other = seat ^ 1
        self._closer = seat
        self._closed_state = (self._card_points[other] + self._bonus[other], self._tricks[other] > 0)
        self._step = _CLOSED

    def _do_marriage(self, seat: int, arg: str | None) -> None:
        suit = self.deck.suit_index(arg or "")
        self._refuse("R12", self._can_marry(seat, suit))
        self._bonus[seat] += self.profile.marriage_bonus(suit == self.trump)
        self._declared |= 1 << suit
        self._marriage_suit = suit
        self._step = _MARRIED

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
        return "R9", (f"with the stock exhausted or closed, {self.deck.card(card)} may not answer "
                      f"{led}: follow suit and beat if able, else trump if able")

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
        self._led, self._leader, self._last_winner = None, winner, winner
        self.trick_number += 1
        if self.stock_open:                              # R8: winner draws first
            self._held[winner] |= 1 << self._stock.pop()
            self._held[winner ^ 1] |= 1 << self._stock.pop()

    def _refuse(self, ruling: str, reason: str | None) -> None:
        if reason is not None:
            raise IllegalActionError(ruling, reason)

    # ----- ends of the hand (R14-R18)
    def _do_claim(self, seat: int, _: None) -> None:
        other = seat ^ 1
        correct = self.points(self.players[seat]) >= self.profile.thresholds.claim
        rates = self.profile.rates
        if self._closer is None:
            if correct:
                self._finish(End.CLAIM, seat, self._rate(other), "R15")
            else:
                self._finish(End.FALSE_CLAIM, other, rates.false_claim, "R16")
        elif seat == self._closer:
            assert self._closed_state is not None
            if correct:
                self._finish(End.CLAIM, seat, self._rate_of(*self._closed_state), "R18")
            else:
                self._finish(End.FALSE_CLAIM, other, self._closer_penalty(), "R18")
        elif correct:
            self._finish(End.CLAIM, seat, self._closer_penalty(), "R18")
        else:
            self._finish(End.FALSE_CLAIM, other, rates.false_claim, "R16")

    def _do_pass(self, seat: int, _: None) -> None:
        if not self.all_played:
            raise IllegalActionError("R14", "only the winner of the last trick may pass, "
                                     "declining to claim; otherwise lead a card")
        self._natural_end()

    def _natural_end(self) -> None:
        if self._closer is not None:                     # R18: no last trick bonus
            self._finish(End.CLOSER_FAILED, self._closer ^ 1, self._closer_penalty(), "R18")
            return
        assert self._last_winner is not None
        self._bonus[self._last_winner] += self.profile.bonuses.last_trick   # R17
        a, b = self.points(self.players[0]), self.points(self.players[1])
        if a == b:
            self._finish(End.EXHAUSTED, None, 0, "R17")
        else:
            winner = 0 if a > b else 1
            self._finish(End.EXHAUSTED, winner, self._rate(winner ^ 1), "R17")

    def finish(self) -> Outcome:
        """End a hand whose last trick is played and whose winner does not claim (R14, R17, R18)."""
        if self._outcome is None:
            if not self.all_played:
                raise IllegalActionError("R14", "the hand ends early only by a claim")
            self._natural_end()
        assert self._outcome is not None
        return self._outcome

    def _rate(self, loser: int) -> int:
        """R15's rate on the loser's current state."""
        return self._rate_of(self._card_points[loser] + self._bonus[loser], self._tricks[loser] > 0)

    def _rate_of(self, loser_points: int, loser_has_trick: bool) -> int:
        rates, safe = self.profile.rates, self.profile.thresholds.opponent_safe
        if not loser_has_trick:
            return rates.opponent_no_trick
        return rates.opponent_safe if loser_points >= safe else rates.opponent_has_trick

    def _closer_penalty(self) -> int:
        assert self._closed_state is not None
        no_trick = not self._closed_state[1]
        rates = self.profile.rates
        return rates.closer_failed_no_trick if no_trick else rates.closer_failed

    def _finish(self, end: End, winner: int | None, game_points: int, ruling: str) -> None:
        self._outcome = Outcome(
            end=end, winner=None if winner is None else self.players[winner],
            game_points=game_points,
            points={p: self.points(p) for p in self.players},
            tricks={p: self.tricks(p) for p in self.players}, ruling=ruling)

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
        hand = cls(deck, dealer=dealer, profile=profile)
        for action in actions:
            hand.apply(action)
        return hand
