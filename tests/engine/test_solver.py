"""The double-dummy solver against an exhaustive minimax written here from RULES.md, on random
positions whose stock is closed or exhausted; its lines replay legally to the value it reports."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from mariage import Hand
from mariage.engine.solver import OpenStockError, Solver, solve

from engine.conftest import ALL_CARDS, RANKS, card_points
from engine.test_invariants import Model
from mariage import default_profile


def rank_of(card: str) -> int:
    """R1's rank order, strongest first: A 10 K Q J 9 8 7."""
    return RANKS.index(card[:-1])

OTHER = {"A": "B", "B": "A"}


def random_position(seed: int) -> tuple[list[str], str, list[str]]:
    """A record played at random until the stock is closed or exhausted, then a little further."""
    rng = random.Random(seed)
    deck, dealer = rng.sample(ALL_CARDS, 32), rng.choice("AB")
    hand = Hand(deck, dealer=dealer)
    extra = rng.randrange(0, 9)
    while not hand.is_over:
        if not hand.stock_open:
            if extra == 0:
                break
            extra -= 1
        actions = hand.legal_actions()
        closes = [a for a in actions if a.verb == "close"]
        plays = [a for a in actions if a.verb == "play"]
        if closes and rng.random() < 0.3:
            hand.apply(closes[0])
        elif plays:
            hand.apply(rng.choice(plays))
        else:
            break
    return deck, dealer, [str(a) for a in hand.log]


def minimax_value(deck: list[str], dealer: str, actions: list[str]) -> int:
    """A's game points minus B's under perfect play, by trying every continuation (R6, R9,
    R14-R18 restated here, with the reference model of the invariant tests for the record)."""
    model = Model(deck, dealer, default_profile())
    for action in actions:
        model.apply(action)
    assert model.outcome is None
    closer, recorded, trump = model.closer, model.recorded, model.trump

    def signed(winner: str | None, game_points: int) -> int:
        return 0 if winner is None else game_points if winner == "A" else -game_points

    def rate(points: int, has_trick: bool) -> int:
        return 3 if not has_trick else 1 if points >= 33 else 2

    def claim(p: str, points: dict[str, int], tricks: dict[str, int]) -> int:
        o = OTHER[p]
        correct = points[p] >= 66
        if closer is None:
            return signed(p, rate(points[o], tricks[o] > 0)) if correct else signed(o, 2)
        penalty = 2 if recorded[1] else 3
        if p == closer:
            return signed(p, rate(*recorded)) if correct else signed(o, penalty)
        return signed(p, penalty) if correct else signed(o, 2)

    def natural_end(last: str, points: dict[str, int], tricks: dict[str, int]) -> int:
        if closer is not None:
            return signed(OTHER[closer], 2 if recorded[1] else 3)
        points = dict(points, **{last: points[last] + 10})
        if points["A"] == points["B"]:
            return 0
        w = "A" if points["A"] > points["B"] else "B"
        return signed(w, rate(points[OTHER[w]], tricks[OTHER[w]] > 0))

    def answers(hand: frozenset[str], led: str) -> set[str]:
        same = {c for c in hand if c[-1] == led[-1]}
        if same:
            return {c for c in same if rank_of(c) < rank_of(led)} or same
        return {c for c in hand if c[-1] == trump} or set(hand)

    @lru_cache(maxsize=None)
    def value(a: frozenset[str], b: frozenset[str], leader: str, led: str | None,
              pa: int, pb: int, ta: int, tb: int) -> int:
        held, points, tricks = {"A": a, "B": b}, {"A": pa, "B": pb}, {"A": ta, "B": tb}
        p = leader if led is None else OTHER[leader]
        best = max if p == "A" else min
        if led is None:
            options = [claim(p, points, tricks)]
            if not a and not b:
                options.append(natural_end(leader, points, tricks))
            for card in held[p]:
                rest = dict(held, **{p: held[p] - {card}})
                options.append(value(rest["A"], rest["B"], leader, card, pa, pb, ta, tb))
            return best(options)
        options = []
        for card in answers(held[p], led):
            rest = dict(held, **{p: held[p] - {card}})
            beats = rank_of(card) < rank_of(led) if card[-1] == led[-1] else card[-1] == trump
            w = p if beats else leader
            won = card_points(card) + card_points(led)
            points2 = dict(points, **{w: points[w] + won})
            tricks2 = dict(tricks, **{w: tricks[w] + 1})
            options.append(value(rest["A"], rest["B"], w, None, points2["A"], points2["B"],
                                 tricks2["A"], tricks2["B"]))
        return best(options)

    return value(frozenset(model.held["A"]), frozenset(model.held["B"]), model.leader, model.led,
                 model.points("A"), model.points("B"), model.tricks["A"], model.tricks["B"])


def signed(solution) -> int:
    return 0 if solution.winner is None else (
        solution.game_points if solution.winner == "A" else -solution.game_points)


@pytest.mark.parametrize("seed", range(120))
def test_solver_agrees_with_exhaustive_minimax(seed):
    deck, dealer, actions = random_position(seed)
    hand = Hand.replay(deck, actions, dealer=dealer)
    if hand.is_over:
        pytest.fail("random_position must stop before the end")
    assert signed(solve(hand)) == minimax_value(deck, dealer, actions)


@pytest.mark.parametrize("seed", range(120))
def test_solver_line_replays_legally_to_its_value(seed):
    deck, dealer, actions = random_position(seed)
    solution = solve(Hand.replay(deck, actions, dealer=dealer))
    end = Hand.replay(deck, actions + solution.line, dealer=dealer)
    assert end.outcome is not None, "a line goes on to the end of the hand"
    assert (end.outcome.winner, end.outcome.game_points) == (solution.winner,
                                                              solution.game_points)


@pytest.mark.parametrize("seed", range(40))
def test_score_and_the_null_window_test_agree_with_exhaustive_minimax(seed):
    """score() is the value alone; reaches(t) answers "is A's value at least t?" with a
    null-window search (the study's second solve, R16), on either side of the value."""
    deck, dealer, actions = random_position(seed)
    hand = Hand.replay(deck, actions, dealer=dealer)
    value = minimax_value(deck, dealer, actions)
    assert Solver(hand).score() == value
    for target in range(-4, 5):
        assert Solver(hand).reaches(target) is (value >= target), (target, value)


@pytest.mark.parametrize("seed", range(40))
def test_each_action_s_value_agrees_with_exhaustive_minimax(seed):
    """values() (the Play page's opponent reads it): each action open to the player to act,
    valued after it is made, as the minimax values the position it leads to."""
    deck, dealer, actions = random_position(seed)
    values = Solver(Hand.replay(deck, actions, dealer=dealer)).values()
    assert values
    for action, value in values.items():
        after = Hand.replay(deck, actions + [action], dealer=dealer)
        if after.outcome is not None:
            winner, points = after.outcome.winner, after.outcome.game_points
            expected = 0 if winner is None else points if winner == "A" else -points
        else:
            expected = minimax_value(deck, dealer, actions + [action])
        assert value == expected, (action, value, expected)


def test_an_open_stock_is_refused():
    deck = random.Random(0).sample(ALL_CARDS, 32)
    with pytest.raises(OpenStockError, match=r"the stock is open \(20 cards to draw\)"):
        solve(Hand(deck))


def test_a_finished_hand_is_its_outcome():
    deck, dealer, actions = random_position(1)
    line = solve(Hand.replay(deck, actions, dealer=dealer)).line
    finished = Hand.replay(deck, actions + line, dealer=dealer)
    again = solve(finished)
    assert again.line == [] and (again.winner, again.game_points) == (
        finished.outcome.winner, finished.outcome.game_points)


# ----- every profile: the solver against a minimax over the engine's own moves and endings,
# so each switch of a variant (R9's duty to beat, R12's waiting marriage, R17's natural end and
# tie, R18's false claim by the closer) is searched as the engine scores it.
from conftest import PROFILES  # noqa: E402
from mariage import load_profile  # noqa: E402
from mariage.engine.cards import deck_for  # noqa: E402


def _engine_minimax(deck: list[str], dealer: str, actions: list[str], profile) -> int:
    hand = Hand.replay(deck, actions, dealer=dealer, profile=profile)
    if hand.outcome is not None:
        o = hand.outcome
        return 0 if o.winner is None else (o.game_points if o.winner == "A" else -o.game_points)
    values = [_engine_minimax(deck, dealer, actions + [str(a)], profile)
              for a in hand.legal_actions()]
    return max(values) if hand.to_act == "A" else min(values)


def _late_position(profile, seed: int) -> tuple[list[str], str, Hand]:
    """Random play under `profile` until the stock is closed or exhausted and each hand holds
    at most three cards, so the engine-based minimax stays small."""
    rng = random.Random(seed)
    deck = [str(deck_for(profile).card(i)) for i in range(deck_for(profile).size)]
    rng.shuffle(deck)
    dealer = rng.choice("AB")
    hand = Hand(deck, dealer=dealer, profile=profile)
    while not hand.is_over:
        late = not hand.stock_open and len(hand.holding("A")) + len(hand.holding("B")) <= 6
        if late and hand.led is None:
            break
        actions = hand.legal_actions()
        closes = [a for a in actions if a.verb == "close"]
        marriages = [a for a in actions if a.verb == "marriage"]
        plays = [a for a in actions if a.verb == "play"]
        choice = (closes[0] if closes and rng.random() < 0.2 else
                  marriages[0] if marriages and rng.random() < 0.7 else rng.choice(plays))
        hand.apply(choice)
    return deck, dealer, hand


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", range(12))
def test_solver_agrees_with_the_engine_under_every_profile(path, seed):
    profile = load_profile(path)
    deck, dealer, hand = _late_position(profile, seed)
    expected = _engine_minimax(deck, dealer, [str(a) for a in hand.log], profile)
    assert signed(solve(hand)) == expected, (path.stem, seed, [str(a) for a in hand.log])
