"""Perfect play from a position whose stock is closed or exhausted, both hands seen (double
dummy): alpha-beta over the last tricks with a transposition table and move ordering, as Bo
Haglund's DDS does for bridge.

Each player maximizes their own game points minus the opponent's. On lead the choices are every
legal action: the plays, a claim (a false one too: R16/R18 can make it the least bad move), a
marriage where the profile allows one with the stock closed or exhausted (R12: then the claim or
the lead of its K or Q follows) and, after the last trick, the pass that lets the hand end by R17
or R18.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence

from .errors import MariageError
from .hand import Hand

_EXACT, _LOWER, _UPPER = 0, 1, 2


class OpenStockError(MariageError):
    """The solver reads only positions whose stock is closed or exhausted."""


@dataclass(frozen=True)
class Solution:
    winner: str | None
    game_points: int
    line: list[str]

    def as_json(self) -> dict[str, object]:
        return {"winner": self.winner, "game_points": self.game_points, "line": list(self.line)}


class _State(NamedTuple):
    """What the rest of the hand depends on: hands, who leads, the card led, points, whether
    each player has won a trick (all R12, R15 and R16 read of tricks). A plain tuple, so the
    state is its own transposition-table key."""

    held: tuple[int, int]
    leader: int
    led: int | None
    points: tuple[int, int]
    won: tuple[bool, bool]
    pending: tuple[int, int] = (0, 0)    # R12 option: marriage bonuses waiting for a trick
    declared: int = 0                    # R12: suits whose marriage was declared (bit per suit)
    marrying: int | None = None          # R12: the suit just declared; its K or Q is led next

    @property
    def to_act(self) -> int:
        return self.leader if self.led is None else self.leader ^ 1


_new = tuple.__new__     # a child state without the named constructor's Python frame: the hot path

MAX_CARDS = 12     # in the larger hand: 12 cards take seconds, 15 minutes and a gigabyte


class Solver:
    """Solves one hand's current position; `nodes` counts the positions searched."""

    def __init__(self, hand: Hand, false_claims: bool = True) -> None:
        if hand.stock_open:
            raise OpenStockError(f"the stock is open ({hand.stock_size} cards to draw): the solver "
                                 "reads only positions whose stock is closed or exhausted (R9)")
        held = max(len(hand.holding(p)) for p in hand.players)
        if held > MAX_CARDS:
            raise OpenStockError(f"a hand holds {held} cards: the solver reads positions of at "
                                 f"most {MAX_CARDS} cards in each hand (its search grows "
                                 "exponentially with them)")
        self.hand, self.deck, self.profile = hand, hand.deck, hand.profile
        self.players = hand.players
        self._closer = hand._closer
        self._options = hand.profile.options
        # False: a claim is a move only when it is correct, for tables that do not accept a
        # false claim made on purpose to concede less (R16, R18)
        self._false_claims = false_claims
        self._non_dealer = hand.players.index(hand.dealer) ^ 1
        # Each suit's K+Q mask (R12), and whether the profile lets a marriage be declared now
        self._marriages = [hand._marriage_mask(suit) for suit in range(len(hand.deck.suits))]
        self._may_marry = not self._options.marriage_needs_open_stock
        self._table: dict[_State, tuple[int, int]] = {}
        # the cards of a mask, most points first (ties: lowest index), as ("play", card) moves
        self._plays: dict[int, tuple[tuple[str, int], ...]] = {}
        self._by_points = sorted(range(self.deck.size), key=lambda c: -self.deck.points[c])
        self.nodes = 0
        # No hand is worth more game points than the profile's highest rate: a search in the
        # window (-most, most) is exact (a side that reaches the most is cut off at once), and
        # _wide is beyond any score.
        self._most = max(hand.profile.rates.values())
        self._wide = self._most + 1

    def solve(self) -> Solution:
        if self.hand.outcome is not None:
            return self._solution(self._outcome_value(), [])
        value = self.score()
        return self._solution(value, self._line(self._root(), value))

    def score(self) -> int:
        """A's game points minus B's under perfect play, without the line `solve` adds."""
        if self.hand.outcome is not None:
            return self._outcome_value()
        return self._search(self._root(), -self._most, self._most)

    def reaches(self, target: int) -> bool:
        """Whether perfect play gives A at least `target` game points more than B: a search in
        the null window (target - 1, target), which cuts far more than the exact value does."""
        if self.hand.outcome is not None:
            return self._outcome_value() >= target
        return self._search(self._root(), target - 1, target) >= target

    def values(self) -> dict[str, int]:
        """Each action open to the player to act, in the record notation, with its value under
        perfect play after it (A's game points minus B's); one table serves them all."""
        if self.hand.outcome is not None:
            return {}
        state, player = self._root(), self.hand.to_act
        return {f"{player} {verb}{self._arg(verb, card)}":
                self._value(state, (verb, card), -self._most, self._most)
                for verb, card in self._moves(state)}

    def _arg(self, verb: str, index: int) -> str:
        """A move's argument in the record notation: a card played, a suit declared (R12)."""
        if verb == "play":
            return f" {self.deck.card(index)}"
        return f" {self.deck.suits[index]}" if verb == "marriage" else ""

    # ----- the position and its moves
    def _root(self) -> _State:
        h = self.hand
        return _State(held=(h._held[0], h._held[1]), leader=h._leader, led=h._led,
                      points=(h.points(self.players[0]), h.points(self.players[1])),
                      won=(h._tricks[0] > 0, h._tricks[1] > 0),
                      pending=(h._pending[0], h._pending[1]),
                      declared=h._declared, marrying=h._marriage_suit if h._led is None else None)

    def _moves(self, s: _State) -> Sequence[tuple[str, int]]:
        """("play", card), ("marriage", suit), ("claim", 0), ("pass", 0), likeliest best first."""
        seat = s.to_act
        if s.led is None:
            held = s.held[seat] if s.marrying is None else s.held[seat] & self._marriages[s.marrying]
            plays = list(self._plays_of(held))
            enough = s.points[seat] >= self.profile.thresholds.claim
            claim = [("claim", 0)] if enough or self._false_claims else []
            ends = claim + ([("pass", 0)] if not (s.held[0] | s.held[1]) else [])
            marry = [("marriage", suit) for suit in self._can_marry(s)]
            if not enough:
                return marry + plays + ends
            return ends + marry + plays
        return self._plays_of(self._answers(s))

    def _plays_of(self, mask: int) -> tuple[tuple[str, int], ...]:
        plays = self._plays.get(mask)
        if plays is None:
            plays = self._plays[mask] = tuple(("play", c) for c in self._by_points
                                              if mask >> c & 1)
        return plays

    def _answers(self, s: _State) -> int:
        """R9: follow suit and beat if able, else trump if able, else any card."""
        deck, led = self.deck, s.led
        assert led is not None
        held = s.held[s.leader ^ 1]
        same = held & deck.suit_mask[deck.suit_of[led]]
        if same:
            return ((same & deck.stronger[led]) or same) if self._options.strict_play_must_beat \
                else same
        return (held & deck.suit_mask[self.hand.trump]) or held

    def _can_marry(self, s: _State) -> list[int]:
        """R12: the suits the player on lead may declare now (none where the profile says so)."""
        seat = s.leader
        if not self._may_marry or s.marrying is not None or (not s.won[seat] and
                                      self._options.marriage_before_trick == "forbidden"):
            return []
        return [suit for suit, pair in enumerate(self._marriages)
                if not s.declared >> suit & 1 and s.held[seat] & pair == pair]

    def _married(self, s: _State, suit: int) -> _State:
        """R12: the marriage declared; its bonus counts now, or once a trick is won."""
        seat, bonus = s.leader, self.profile.marriage_bonus(suit == self.hand.trump)
        points, pending = list(s.points), list(s.pending)
        if s.won[seat]:
            points[seat] += bonus
        else:
            pending[seat] += bonus
        return _State(s.held, s.leader, None, (points[0], points[1]), s.won,
                      (pending[0], pending[1]), s.declared | 1 << suit, suit)

    def _child(self, s: _State, card: int) -> _State:
        held, led = s.held, s.led
        if led is None:
            held = (held[0] ^ 1 << card, held[1]) if s.leader == 0 else \
                (held[0], held[1] ^ 1 << card)
            return _new(_State, (held, s.leader, card, s.points, s.won, s.pending, s.declared,
                                 None))
        deck, seat = self.deck, s.leader ^ 1
        held = (held[0] ^ 1 << card, held[1]) if seat == 0 else (held[0], held[1] ^ 1 << card)
        winner = seat if deck.beats[self.hand.trump][led][card] else s.leader   # R6
        taken = deck.points[led] + deck.points[card] + s.pending[winner]
        points, pending = s.points, s.pending
        if winner == 0:
            return _new(_State, (held, 0, None, (points[0] + taken, points[1]), (True, s.won[1]),
                                 (0, pending[1]), s.declared, None))
        return _new(_State, (held, 1, None, (points[0], points[1] + taken), (s.won[0], True),
                             (pending[0], 0), s.declared, None))

    # ----- the ends of the hand, as A's game points minus B's (R15-R18)
    def _claim(self, s: _State, seat: int) -> int:
        other, rates = seat ^ 1, self.profile.rates
        correct = s.points[seat] >= self.profile.thresholds.claim
        false = rates.false_claim if rates.false_claim_no_trick is None or s.won[other] \
            else rates.false_claim_no_trick                               # R16
        if self._closer is None:
            won = (seat, self._rate(s.points[other], s.won[other])) if correct \
                else (other, false)
        elif seat == self._closer:
            if correct:
                won = (seat, self.hand._closer_claim_rate(s.points[other], s.won[other]))
            elif self._options.closer_false_claim == "false_claim":
                won = (other, false)
            else:
                won = (other, self._closer_penalty())
        else:
            won = (seat, self.hand._closer_beaten_rate()) if correct else (other, false)
        return _signed(*won)

    def _natural_end(self, s: _State) -> int:
        if self._closer is not None:                     # R18: the closer failed
            return _signed(self._closer ^ 1, self._closer_penalty())
        points = list(s.points)
        points[s.leader] += self.profile.bonuses.last_trick   # R17: the last trick's winner
        if self._options.natural_end == "last_trick_wins":
            winner = s.leader
        elif points[0] != points[1]:
            winner = 0 if points[0] > points[1] else 1
        elif self._options.natural_tie == "non_dealer":
            winner = self._non_dealer
        else:
            return 0
        fixed = self.profile.rates.natural_end                            # R17
        return _signed(winner, fixed if fixed is not None else
                       self._rate(points[winner ^ 1], s.won[winner ^ 1]))

    def _rate(self, loser_points: int, loser_has_trick: bool) -> int:
        return self.hand._rate_of(loser_points, loser_has_trick)       # R15, as the hand scores it

    def _closer_penalty(self) -> int:
        return self.hand._closer_penalty()                              # R18, as the hand scores it

    # ----- alpha-beta with a transposition table; values are A's game points minus B's
    def _value(self, s: _State, move: tuple[str, int], alpha: int, beta: int) -> int:
        verb, card = move
        if verb == "claim":
            return self._claim(s, s.to_act)
        if verb == "pass":
            return self._natural_end(s)
        if verb == "marriage":
            return self._search(self._married(s, card), alpha, beta)
        return self._search(self._child(s, card), alpha, beta)

    def _search(self, s: _State, alpha: int, beta: int) -> int:
        self.nodes += 1
        known = self._table.get(s)
        if known is not None:
            value, bound = known
            if bound == _EXACT or (bound == _LOWER and value >= beta) \
                    or (bound == _UPPER and value <= alpha):
                return value
        low, high = alpha, beta
        maximizing = (s.leader if s.led is None else s.leader ^ 1) == 0
        best = -self._wide if maximizing else self._wide
        for move in self._moves(s):
            verb, card = move
            value = self._search(self._child(s, card), alpha, beta) if verb == "play" \
                else self._value(s, move, alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        self._table[s] = (best, _UPPER if best <= low else _LOWER if best >= high else _EXACT)
        return best

    def _line(self, s: _State, value: int) -> list[str]:
        """One optimal continuation: at each step the first move that keeps the value."""
        line: list[str] = []
        while True:
            player = self.players[s.to_act]
            for move in self._moves(s):
                if self._value(s, move, -self._most, self._most) == value:
                    break
            else:                                         # pragma: no cover - value came from here
                raise AssertionError("no move keeps the solved value")
            verb, card = move
            if verb == "marriage":
                line.append(f"{player} marriage {self.deck.suits[card]}")
                s = self._married(s, card)
                continue
            if verb != "play":
                return line + [f"{player} {verb}"]
            line.append(f"{player} play {self.deck.card(card)}")
            s = self._child(s, card)

    def _outcome_value(self) -> int:
        outcome = self.hand.outcome
        assert outcome is not None
        if outcome.winner is None:
            return 0
        return _signed(self.players.index(outcome.winner), outcome.game_points)

    def _solution(self, value: int, line: list[str]) -> Solution:
        winner = None if value == 0 else self.players[0 if value > 0 else 1]
        return Solution(winner=winner, game_points=abs(value), line=line)


def solve(hand: Hand, false_claims: bool = True) -> Solution:
    """The result of `hand` from its current position under perfect play by both players;
    with false_claims=False, neither claims unless the claim is correct."""
    return Solver(hand, false_claims).solve()


def _signed(winner: int, game_points: int) -> int:
    return game_points if winner == 0 else -game_points

