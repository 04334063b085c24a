"""Random simulations: thousands of seeded hands checked after every action (R1-R18).

Two checks run side by side. The engine's own invariants (check_invariants) and facts that hold
in any hand: every card of the deck accounted for, captured card points at most the deck's total
(exactly that once every trick is played), a legal action on offer until the end, game points
within the profile's rates. And a small reference model written here from RULES.md, independent
of the engine, which says what must be legal and what must happen; the engine has to agree with
it at every step. The model reads its numbers from the profile under test, so each runs under
every profile (tests/conftest.py: PROFILES), the distinct one included.
"""

from __future__ import annotations

import copy
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mariage import Hand, IllegalActionError
from mariage.engine.profile import Profile, load_profile

from conftest import PROFILES
from engine.conftest import cards

PLAYERS = ("A", "B")


def other(p: str) -> str:
    return "B" if p == "A" else "A"


def all_cards(profile: Profile) -> list[str]:
    return [r + s.code for s in profile.deck.suits for r in profile.deck.ranks]


# ---------------------------------------------------------------------------------------------
# The reference model: the rules of RULES.md in their plainest form.

class Model:
    def __init__(self, deck: list[str], dealer: str, profile: Profile) -> None:
        self.rules, self.options, self.dealer = profile, profile.options, dealer
        nd = other(dealer)
        self.held: dict[str, set[str]] = {nd: set(), dealer: set()}
        rest, indicator = list(deck), None
        turned = profile.deal.indicator_after or len(profile.deal.packets)
        for round_, packet in enumerate(profile.deal.packets):               # R3
            if round_ == turned:
                indicator = rest.pop(0)
            for p in (nd, dealer):
                self.held[p] |= set(rest[:packet])
                del rest[:packet]
        indicator = indicator or rest.pop(0)
        self.trump = indicator[-1]
        self.stock = rest + [indicator]              # drawing order, indicator last (R3)
        self.leader, self.led = nd, None             # R5
        self.won = {p: set() for p in PLAYERS}
        self.tricks = {p: 0 for p in PLAYERS}
        self.bonus = {p: 0 for p in PLAYERS}
        self.pending = {p: 0 for p in PLAYERS}       # marriages waiting for a trick (R12 option)
        self.declared: set[str] = set()
        self.exchanged = self.married = False         # this lead
        self.marriage_suit: str | None = None
        self.closer: str | None = None
        self.drawn: tuple[str, str] | None = None      # the last trick's draw (R11 option)
        self.recorded: tuple[int, bool] | None = None
        self.trick_number = 1
        self.last_winner: str | None = None
        self.outcome: tuple | None = None

    def card_points(self, card: str) -> int:
        return self.rules.deck.card_points[card[:-1]]                         # R1

    def points(self, p: str) -> int:
        return sum(self.card_points(c) for c in self.won[p]) + self.bonus[p]

    @property
    def stock_open(self) -> bool:
        return self.closer is None and bool(self.stock)

    @property
    def to_act(self) -> str | None:
        if self.outcome is not None:
            return None
        return self.leader if self.led is None else other(self.leader)

    def legal(self) -> set[str]:
        p = self.to_act
        if p is None:
            return set()
        if self.led is not None:
            return {f"{p} play {c}" for c in self.responses(self.held[p])}
        out = {f"{p} claim"}                                                  # R14
        seven = self.rules.deck.ranks[-1] + self.trump                       # the lowest trump
        won_one = self.tricks[p] > 0
        may_exchange = won_one or not self.options.exchange_needs_trick
        if not self.exchanged and not self.married and self.stock_open and may_exchange \
                and len(self.stock) >= self.options.exchange_min_stock and seven in self.held[p]:
            out.add(f"{p} exchange")                                          # R10
        closing = self.rules.closing
        if not self.married and self.stock_open and self.trick_number >= closing.min_trick \
                and len(self.stock) >= closing.min_stock:
            out.add(f"{p} close")                                             # R11
        if closing.before_drawing and self.drawn and self.closer is None and not self.exchanged \
                and not self.married \
                and self.trick_number >= closing.min_trick \
                and len(self.stock) + 2 >= closing.min_stock:
            out.add(f"{p} close before")                                      # R11 option
        may_marry = won_one or self.options.marriage_before_trick == "counts_later"
        may_marry = may_marry and (self.stock_open or not self.options.marriage_needs_open_stock)
        if not self.married and may_marry:                                    # R12
            for s in (suit.code for suit in self.rules.deck.suits):
                if s not in self.declared and {"K" + s, "Q" + s} <= self.held[p]:
                    out.add(f"{p} marriage {s}")
        if not self.held["A"] and not self.held["B"]:
            out.add(f"{p} pass")
        leads = self.held[p]
        if self.marriage_suit is not None:
            leads = leads & {"K" + self.marriage_suit, "Q" + self.marriage_suit}
        return out | {f"{p} play {c}" for c in leads}

    def responses(self, hand: set[str]) -> set[str]:
        if self.stock_open:                                                   # R7
            return set(hand)
        led = self.led
        same = {c for c in hand if c[-1] == led[-1]}                          # R9
        if same and not self.options.strict_play_must_beat:
            return same
        if same:
            return {c for c in same if self.rank_of(c) < self.rank_of(led)} or same
        return {c for c in hand if c[-1] == self.trump} or set(hand)

    def rank_of(self, card: str) -> int:
        """Strength: 0 for the strongest rank (R1)."""
        return self.rules.deck.ranks.index(card[:-1])

    def beats(self, card: str, led: str) -> bool:                             # R6
        if card[-1] == led[-1]:
            return self.rank_of(card) < self.rank_of(led)
        return card[-1] == self.trump

    def apply(self, action: str) -> None:
        p, verb, *arg = action.split()
        getattr(self, "do_" + verb)(p, *arg)

    def do_play(self, p: str, card: str) -> None:
        self.held[p].remove(card)
        if self.led is None:
            self.led = card
            self.exchanged = self.married = False
            self.marriage_suit = None
            return
        winner = p if self.beats(card, self.led) else self.leader
        self.won[winner] |= {card, self.led}
        self.tricks[winner] += 1
        self.bonus[winner] += self.pending[winner]
        self.pending[winner] = 0
        self.led, self.leader, self.last_winner = None, winner, winner
        self.trick_number += 1
        self.drawn = None
        if self.stock_open:                                                   # R8
            self.drawn = (self.stock.pop(0), self.stock.pop(0))
            self.held[winner].add(self.drawn[0])
            self.held[other(winner)].add(self.drawn[1])

    def do_exchange(self, p: str) -> None:
        seven = self.rules.deck.ranks[-1] + self.trump
        self.held[p].remove(seven)
        self.held[p].add(self.stock[-1])
        self.stock[-1] = seven
        self.exchanged = True

    def do_close(self, p: str, when: str | None = None) -> None:
        if when == "before":                      # the draw goes back: the winner's on top
            mine, theirs = self.drawn
            self.held[p].remove(mine)
            self.held[other(p)].remove(theirs)
            self.stock[:0] = [mine, theirs]
        self.closer = p
        o = other(p)
        self.recorded = (self.points(o), self.tricks[o] > 0)

    def do_marriage(self, p: str, suit: str) -> None:
        bonuses = self.rules.bonuses
        bonus = bonuses.trump_marriage if suit == self.trump else bonuses.marriage
        if self.tricks[p]:
            self.bonus[p] += bonus
        else:
            self.pending[p] += bonus
        self.declared.add(suit)
        self.marriage_suit = suit
        self.married = True

    def rate(self, points: int, has_trick: bool) -> int:                      # R15
        rates = self.rules.rates
        if not has_trick:
            return rates.opponent_no_trick
        return rates.opponent_safe if points >= self.rules.thresholds.opponent_safe \
            else rates.opponent_has_trick

    def penalty(self) -> int:                                                 # R18
        assert self.recorded is not None
        rates = self.rules.rates
        return rates.closer_failed if self.recorded[1] else rates.closer_failed_no_trick

    def do_claim(self, p: str) -> None:
        o = other(p)
        correct = self.points(p) >= self.rules.thresholds.claim
        if self.closer is None:
            if correct:
                self.end("claim", p, self.rate(self.points(o), self.tricks[o] > 0), "R15")
            else:
                self.end("false_claim", o, self.false_rate(o), "R16")
        elif p == self.closer:
            if correct:
                at_claim = (self.points(o), self.tricks[o] > 0)
                state = self.recorded if self.rules.closing.scored_at == "close" else at_claim
                self.end("claim", p, self.rate(*state), "R18")
            elif self.options.closer_false_claim == "false_claim":
                self.end("false_claim", o, self.false_rate(o), "R16")
            else:
                self.end("false_claim", o, self.penalty(), "R18")
        elif correct:
            beaten = self.rules.rates.closer_beaten
            self.end("claim", p, self.penalty() if beaten is None else beaten, "R18")
        else:
            self.end("false_claim", o, self.false_rate(o), "R16")

    def false_rate(self, o: str) -> int:                                      # R16
        rates = self.rules.rates
        if rates.false_claim_no_trick is not None and not self.tricks[o]:
            return rates.false_claim_no_trick
        return rates.false_claim

    def do_pass(self, p: str) -> None:
        if self.closer is not None:
            self.end("closer_failed", other(self.closer), self.penalty(), "R18")
            return
        self.bonus[self.last_winner] += self.rules.bonuses.last_trick         # R17
        a, b = self.points("A"), self.points("B")
        if self.options.natural_end == "last_trick_wins":
            w = self.last_winner
        elif a == b and self.options.natural_tie == "non_dealer":
            w = other(self.dealer)
        elif a == b:
            self.end("exhausted", None, 0, "R17")
            return
        else:
            w = "A" if a > b else "B"
        fixed = self.rules.rates.natural_end                                  # R17
        self.end("exhausted", w, fixed if fixed is not None else
                 self.rate(self.points(other(w)), self.tricks[other(w)] > 0), "R17")

    def end(self, kind: str, winner: str | None, game_points: int, ruling: str) -> None:
        self.outcome = (kind, winner, game_points, {p: self.points(p) for p in PLAYERS},
                        dict(self.tricks), ruling)


# ---------------------------------------------------------------------------------------------
# Driving random hands

def well_formed(profile: Profile) -> list[str]:
    """Every well-formed action of the profile's deck: both players, all verbs and cards."""
    return [f"{p} {v}" for p in PLAYERS for v in ("exchange", "close", "close before", "claim", "pass")] + \
           [f"{p} marriage {s.code}" for p in PLAYERS for s in profile.deck.suits] + \
           [f"{p} play {c}" for p in PLAYERS for c in all_cards(profile)]


def choose(rng: random.Random, legal: list[str], model: Model) -> str:
    """A random legal action, biased so that hands are long and every option gets used."""
    by_verb: dict[str, list[str]] = {}
    for a in legal:
        by_verb.setdefault(a.split()[1], []).append(a)
    p = model.to_act
    if "pass" in by_verb:
        return rng.choice(by_verb["pass"] + by_verb["claim"])
    enough = model.points(p) >= model.rules.thresholds.claim
    if "claim" in by_verb and rng.random() < (0.6 if enough else 0.01):
        return by_verb["claim"][0]
    for verb, chance in (("exchange", 0.6), ("close", 0.06), ("marriage", 0.6)):
        if verb in by_verb and rng.random() < chance:
            return rng.choice(by_verb[verb])
    return rng.choice(by_verb["play"])


def public_state(hand: Hand) -> tuple:
    return (hand.to_act, str(hand.led) if hand.led else None,
            {p: cards(hand.holding(p)) for p in PLAYERS},
            {p: cards(hand.captured(p)) for p in PLAYERS},
            {p: hand.points(p) for p in PLAYERS}, {p: hand.tricks(p) for p in PLAYERS},
            [str(c) for c in hand.stock()], hand.closer, len(hand.log), hand.outcome)


def check_accounting(hand: Hand, model: Model) -> None:
    """Every card in exactly one place; captured points at most the deck's total, exactly it
    once every trick is played (R1)."""
    hand.check_invariants()
    deck = all_cards(model.rules)
    places = [cards(hand.holding("A")), cards(hand.holding("B")), cards(hand.captured("A")),
              cards(hand.captured("B")), cards(hand.stock()), cards(hand.out_of_play()),
              {str(hand.led)} if hand.led else set()]
    assert sum(map(len, places)) == len(deck)
    assert set().union(*places) == set(deck)
    captured = sum(model.card_points(c) for p in PLAYERS for c in cards(hand.captured(p)))
    assert captured <= model.rules.deck.total_points
    if 2 * (hand.tricks("A") + hand.tricks("B")) == len(deck):
        assert captured == model.rules.deck.total_points


def check_against_model(hand: Hand, model: Model) -> None:
    assert hand.to_act == model.to_act
    assert {str(a) for a in hand.legal_actions()} == model.legal()
    assert (str(hand.led) if hand.led else None) == model.led
    for p in PLAYERS:
        assert cards(hand.holding(p)) == model.held[p], p
        assert cards(hand.captured(p)) == model.won[p], p
        assert hand.tricks(p) == model.tricks[p]
        assert hand.points(p) == model.points(p), p
    assert [str(c) for c in hand.stock()] == (model.stock if model.closer is None else [])
    assert hand.closer == model.closer


def random_deal(seed: int, profile: Profile) -> tuple[list[str], str, random.Random]:
    rng = random.Random(seed)
    deck = all_cards(profile)
    rng.shuffle(deck)
    return deck, rng.choice(PLAYERS), rng


def run_hand(seed: int, profile: Profile, sweep: bool = False) -> Hand:
    deck, dealer, rng = random_deal(seed, profile)
    hand, model = Hand(deck, dealer=dealer, profile=profile), Model(deck, dealer, profile)
    check_against_model(hand, model)
    while not hand.is_over:
        legal = [str(a) for a in hand.legal_actions()]
        assert legal, "R14: someone must be able to act until the hand ends"
        if sweep:
            sweep_actions(hand, set(legal))
        action = choose(rng, legal, model)
        hand.apply(action)
        model.apply(action)
        check_accounting(hand, model)
        check_against_model(hand, model)
        assert len(hand.log) < 100
    o = hand.outcome
    assert (o.end.value, o.winner, o.game_points, o.points, o.tricks, o.ruling) == model.outcome
    assert o.game_points in {0, *profile.rates.values()}
    assert (o.winner is None) == (o.game_points == 0)
    assert hand.legal_actions() == [] and hand.to_act is None
    for action in well_formed(profile):
        with pytest.raises(IllegalActionError):
            hand.apply(action)
    return hand


def sweep_actions(hand: Hand, legal: set[str]) -> None:
    """Every legal action applies; every other well-formed action is refused, changing nothing."""
    before = public_state(hand)
    memo = {id(hand.profile): hand.profile, id(hand.deck): hand.deck}
    for action in well_formed(hand.profile):
        if action in legal:
            trial = copy.deepcopy(hand, dict(memo))
            trial.apply(action)
            trial.check_invariants()
        else:
            with pytest.raises(IllegalActionError) as info:
                hand.apply(action)
            assert re.match(r"R\d+: ", str(info.value)), str(info.value)
    assert public_state(hand) == before


# ---------------------------------------------------------------------------------------------
# The tests, under every profile

RULES = {path.stem: load_profile(path) for path in PROFILES}
CHUNKS, PER_CHUNK = 2, 400           # 800 seeded hands per profile against the model


@pytest.mark.parametrize("name", RULES)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_r1_r18_random_hands_agree_with_the_rules_model(chunk, name):
    """R1-R18: 800 seeded random hands per profile: invariants and the reference model after
    every action."""
    ends = set()
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        ends.add(run_hand(seed, RULES[name]).outcome.end.value)
    assert len(ends) >= 3            # the policy reaches several kinds of ending


@pytest.mark.parametrize("name", RULES)
@pytest.mark.parametrize("chunk", range(2))
def test_r5_r14_every_legal_action_applies_and_every_other_is_refused(chunk, name):
    """R5-R14: in 80 seeded hands per profile, at every step every well-formed action (both
    players, all cards and verbs) is tried: the legal ones apply, the others raise
    IllegalActionError."""
    for seed in range(10_000 + chunk * 40, 10_000 + (chunk + 1) * 40):
        run_hand(seed, RULES[name], sweep=True)


@pytest.mark.parametrize("name", RULES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_r1_r18_hypothesis_hands(name, seed):
    """R1-R18: hypothesis-chosen seeds, with the full refusal sweep."""
    run_hand(seed, RULES[name], sweep=True)


@pytest.mark.parametrize("name", RULES)
def test_r1_r18_policy_reaches_every_ending_and_option(name):
    """The simulations really exercise closes, exchanges, marriages and all four endings."""
    ends, verbs = set(), set()
    for seed in range(20_000, 20_400):
        hand = run_hand(seed, RULES[name])
        ends.add(hand.outcome.end.value)
        verbs |= {a.verb for a in hand.log}
    assert ends == {"claim", "false_claim", "closer_failed", "exhausted"}
    assert verbs == {"play", "exchange", "close", "marriage", "claim", "pass"}
