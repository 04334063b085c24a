"""R13-R18: points, claiming 66, the natural end and the closed hand.

Hearts are trump (indicator 9h or 8h) in the short hands below; A deals, B leads first.
Every expected total is added up by hand in the docstring or comment next to it.
"""

from __future__ import annotations

import pytest

from mariage import End, Hand, IllegalActionError

from engine.conftest import deal, legal_options, play, refused
from engine.full_hands import (HELD_ACTIONS, HELD_DECK, LAST_TRICK_ACTIONS, LAST_TRICK_DECK,
                               SLAM_ACTIONS, SLAM_DECK, SWEEP_ACTIONS, SWEEP_DECK, TIE_ACTIONS,
                               TIE_DECK)


def outcome_of(hand: Hand) -> tuple:
    o = hand.outcome
    assert o is not None, "the hand should be over"
    return (o.end, o.winner, o.game_points, o.points, o.tricks, o.ruling)


# ----- the worked example of RULES.md (R12, R13, R14, R15)

def worked_example() -> Hand:
    """B: Ac Js Ad Kh Qh 8c; A: Jc Qs Kd Qd 7d 9c; hearts trump.

    T1 B Ac, A Jc: B 13.  T2 B Js, A Qs: A 5.  T3 A declares diamonds (25), leads Kd; B Ad: B 28.
    B is on lead with Kh Qh, 28 points in captured cards; A has 25 points and one trick.
    """
    hand = deal(non_dealer=["Ac", "Js", "Ad", "Kh", "Qh", "8c"],
                dealer=["Jc", "Qs", "Kd", "Qd", "7d", "9c"], indicator="9h")
    return play(hand, "B play Ac", "A play Jc", "B play Js", "A play Qs",
                "A marriage d", "A play Kd", "B play Ad")


def test_r13_points_are_card_points_plus_marriages():
    """R13: A = 5 in cards + 20 declared; B = 28 in cards."""
    hand = worked_example()
    assert (hand.card_points("A"), hand.points("A")) == (5, 25)
    assert (hand.card_points("B"), hand.points("B")) == (28, 28)
    assert (hand.tricks("A"), hand.tricks("B")) == (1, 2)


def test_r15_worked_example_40_and_claim_scores_2():
    """RULES.md worked example: 28 + 40 = 68, claimed; opponent 25 with a trick: 2 (R15)."""
    hand = worked_example()
    play(hand, "B marriage h")
    assert hand.points("B") == 68
    play(hand, "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 2, {"A": 25, "B": 68}, {"A": 1, "B": 2}, "R15")
    assert hand.to_act is None and hand.legal_actions() == []


def test_r14_worked_example_leading_without_claiming_goes_on():
    """R14: leading at 68 without claiming ends nothing; B must wait to be on lead again."""
    hand = worked_example()
    play(hand, "B marriage h", "B play Kh")
    assert hand.outcome is None
    refused(hand, "B claim", ("R5", "R14"))       # B has led: no claim now
    refused(hand, "A claim", "R14")               # the responder never claims


# ----- R14: when a claim may be made

def boundary_hand() -> Hand:
    """B: Ac Kh Qh (+7c 7h 7s); A: 10c Jd 7d (+8c 8d 8h); hearts trump (9h).

    T1 B Ac, A 10c: B 21. Then B declares hearts (40): 61, and leads Qh.
    """
    hand = deal(non_dealer=["Ac", "Kh", "Qh"], dealer=["10c", "Jd", "7d"], indicator="9h")
    return play(hand, "B play Ac", "A play 10c", "B marriage h", "B play Qh")


def test_r15_claim_at_exactly_66_opponent_without_trick_scores_3():
    """R15: 21 + 40 + (Qh 3 + Jd 2) = 66, a correct claim; A has no trick: 3."""
    hand = play(boundary_hand(), "A play Jd")
    assert hand.points("B") == 66
    assert "B claim" in legal_options(hand)
    play(hand, "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 3, {"A": 0, "B": 66}, {"A": 0, "B": 2}, "R15")


def test_r16_claim_at_64_is_false_and_gives_2():
    """R16: 21 + 40 + 3 + 0 = 64 < 66: the opponent scores 2, though it has no trick."""
    hand = play(boundary_hand(), "A play 7d", "B claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "A", 2, {"A": 0, "B": 64}, {"A": 0, "B": 2},
                                "R16")


def test_r16_claim_on_the_first_lead_is_false():
    """R16: a claim with 0 points ends the hand: the opponent scores 2."""
    hand = deal(non_dealer=["Ac"], dealer=["10c"], indicator="9h")
    assert "B claim" in legal_options(hand)
    play(hand, "B claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "A", 2, {"A": 0, "B": 0}, {"A": 0, "B": 0},
                                "R16")


def test_r14_responder_never_claims():
    """R14: A, answering, may not claim even when B's claim would be false."""
    hand = boundary_hand()
    assert hand.to_act == "A"
    assert not any(a.verb == "claim" for a in hand.legal_actions())
    refused(hand, "A claim", "R14")


def test_r14_over_66_without_claim_waits_for_the_next_lead():
    """R14: B at 66 leads 7c instead of claiming; after winning that trick B claims (3)."""
    hand = play(boundary_hand(), "A play Jd", "B play 7c")
    assert hand.outcome is None and hand.points("B") == 66
    refused(hand, "B claim", ("R5", "R14"))
    play(hand, "A play 7d")                       # off-suit, not trump: B wins 0 points
    assert hand.to_act == "B"
    play(hand, "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 3, {"A": 0, "B": 66}, {"A": 0, "B": 3}, "R15")


def test_r14_claim_right_after_an_exchange():
    """R14: claim after an exchange (B has 5 from Qc + Jc): false, A scores 2."""
    hand = play(Hand(HELD_DECK), *HELD_ACTIONS[:2], "B exchange")
    assert "B claim" in legal_options(hand)
    play(hand, "B claim")
    assert outcome_of(hand)[:3] == (End.FALSE_CLAIM, "A", 2)


def test_r14_claim_after_the_last_trick_correct():
    """R14/R15: SWEEP: A wins trick 16 with 100 and claims: B 20 with tricks gives 2.

    A claim is not the natural end: R17's 10 for the last trick is not added.
    """
    hand = play(Hand(SWEEP_DECK), *SWEEP_ACTIONS)
    assert hand.to_act == "A" and hand.holding("A") == [] and hand.holding("B") == []
    assert legal_options(hand) == {"A claim", "A pass"}
    play(hand, "A claim")
    assert outcome_of(hand) == (End.CLAIM, "A", 2, {"A": 100, "B": 20}, {"A": 6, "B": 10},
                                "R15")


def test_r14_claim_after_the_last_trick_counts_no_bonus():
    """R14/R16/R17: LAST_TRICK: A has 57 after trick 16; 57 + 10 would be 67, but the bonus
    belongs to the natural end (nobody claims), so A's claim is false: B scores 2."""
    hand = play(Hand(LAST_TRICK_DECK), *LAST_TRICK_ACTIONS)
    assert hand.points("A") == 57
    play(hand, "A claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "B", 2, {"A": 57, "B": 63}, {"A": 6, "B": 10},
                                "R16")


def test_r14_pass_only_after_the_last_trick():
    """R14: 'pass' (declining to claim) exists only when both hands are empty."""
    hand = boundary_hand()
    play(hand, "A play Jd")
    assert "B pass" not in legal_options(hand)
    refused(hand, "B pass", "R14")


def test_r14_nothing_after_the_end():
    """R14: once the hand has ended, no action is accepted."""
    hand = play(boundary_hand(), "A play Jd", "B claim")
    refused(hand, "B play 7c", "R14")
    refused(hand, "A claim", "R14")


# ----- R15: the three rates

def rate_hand(a_second_card: str) -> Hand:
    """B: Ac Jd As Kh Qh 7c; A: 10c Ad 10d Ks Qs 8c; hearts trump (8h).

    T1 B Ac, A 10c: B 21.  T2 B Jd, A Ad (13) or 10d (12): A wins.
    T3 A declares spades: 33 or 32; A leads Ks, B As: B 21 + 15 = 36.
    T4 B declares hearts: 76.
    """
    hand = deal(non_dealer=["Ac", "Jd", "As", "Kh", "Qh", "7c"],
                dealer=["10c", "Ad", "10d", "Ks", "Qs", "8c"], indicator="8h")
    return play(hand, "B play Ac", "A play 10c", "B play Jd", f"A play {a_second_card}",
                "A marriage s", "A play Ks", "B play As", "B marriage h")


@pytest.mark.parametrize("a_card, a_points, game_points", [("Ad", 33, 1), ("10d", 32, 2)])
def test_r15_opponent_33_or_more_1_else_2(a_card, a_points, game_points):
    """R15: 1 game point if the loser has 33 or more, 2 below 33 (with a trick)."""
    hand = rate_hand(a_card)
    assert hand.points("A") == a_points and hand.points("B") == 76
    play(hand, "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", game_points, {"A": a_points, "B": 76},
                                {"A": 1, "B": 2}, "R15")


def test_r15_marriage_points_count_for_the_loser_too():
    """R13/R15: A's 33 = 13 in cards + 20 declared: it is the total that counts, so 1."""
    hand = rate_hand("Ad")
    assert hand.card_points("A") == 13
    play(hand, "B claim")
    assert hand.outcome.game_points == 1


# ----- R17: the natural end

def test_r17_tie_scores_nothing():
    """R17: TIE: 65 + 0 for B, 55 + 10 for A: equal totals, nobody scores."""
    hand = play(Hand(TIE_DECK), *TIE_ACTIONS)
    assert (hand.points("A"), hand.points("B")) == (55, 65)
    assert hand.outcome is None
    play(hand, "A pass")
    assert outcome_of(hand) == (End.EXHAUSTED, None, 0, {"A": 65, "B": 65}, {"A": 6, "B": 10},
                                "R17")


def test_r17_last_trick_10_decides_and_scores_1():
    """R17: LAST_TRICK: A 57 + 10 = 67 against 63: A wins; B has 33 or more: 1."""
    hand = play(Hand(LAST_TRICK_DECK), *LAST_TRICK_ACTIONS)
    hand.finish()
    assert outcome_of(hand) == (End.EXHAUSTED, "A", 1, {"A": 67, "B": 63}, {"A": 6, "B": 10},
                                "R17")


def test_r17_loser_below_33_with_tricks_gives_2():
    """R17: SWEEP: A 100 + 10 = 110, B 20 with 10 tricks: 2."""
    hand = play(Hand(SWEEP_DECK), *SWEEP_ACTIONS, "A pass")
    assert outcome_of(hand) == (End.EXHAUSTED, "A", 2, {"A": 110, "B": 20}, {"A": 6, "B": 10},
                                "R17")


def test_r17_loser_without_trick_gives_3():
    """R17: SLAM: B takes all 16 tricks, 120 + 10; A 0 with no trick: 3."""
    hand = play(Hand(SLAM_DECK), *SLAM_ACTIONS, "B pass")
    assert outcome_of(hand) == (End.EXHAUSTED, "B", 3, {"A": 0, "B": 130}, {"A": 0, "B": 16},
                                "R17")


def test_r17_finish_before_the_last_trick_is_refused():
    """R14/R17: a hand ends early only by a claim."""
    hand = play(Hand(TIE_DECK), *TIE_ACTIONS[:-2])
    with pytest.raises(IllegalActionError) as info:
        hand.finish()
    assert str(info.value).startswith("R14")
    assert hand.outcome is None


# ----- R18: the closed hand

def close_after_trick_won_by_opponent() -> Hand:
    """B: 7c 10d Kh Qh 10s Ac; A: Jc 8d 7s As Ah 10c; stock 7d 9s 8s 8c 9d 9c; hearts trump.

    T1 B 7c, A Jc: A 2 (A draws 7d, B 9s).  T2 A 8d, B 10d: B 10 (B 8s, A 8c).
    T3 B declares hearts: 50; leads Kh, A 7s: B 54 (B 9d, A 9c).
    T4 B closes: A's state is recorded: 2 points, one trick.
    """
    hand = deal(non_dealer=["7c", "10d", "Kh", "Qh", "10s", "Ac"],
                dealer=["Jc", "8d", "7s", "As", "Ah", "10c"], indicator="9h",
                stock=["7d", "9s", "8s", "8c", "9d", "9c"])
    return play(hand, "B play 7c", "A play Jc", "A play 8d", "B play 10d",
                "B marriage h", "B play Kh", "A play 7s", "B close")


def test_r18_closer_claim_scores_on_the_state_recorded_at_closing():
    """R18: after the close A catches up to 37 (>= 33) but B's correct claim scores 2,
    by A's state at closing (2 points, a trick), not 1.

    T4 B 10s, A As (must beat): A 23.  T5 A Ah, B Qh (must trump): A 37.
    T6 A 10c, B Ac (must beat): B 54 + 21 = 75.  B claims.
    """
    hand = play(close_after_trick_won_by_opponent(), "B play 10s", "A play As", "A play Ah",
                "B play Qh", "A play 10c", "B play Ac")
    assert (hand.points("A"), hand.points("B")) == (37, 75)
    play(hand, "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 2, {"A": 37, "B": 75}, {"A": 3, "B": 3}, "R18")


def close_before_opponent_trick() -> Hand:
    """B: Ac Kh Qh 10s Ad (+7h); A: 7c 7d As 10d (+7s 8c); hearts trump (9h).

    T1 B Ac, A 7c: B 11.  T2 B declares hearts: 51; leads Kh, A 7d: B 55.
    T3 B closes: A's state is recorded: 0 points, no trick.
    """
    hand = deal(non_dealer=["Ac", "Kh", "Qh", "10s", "Ad"], dealer=["7c", "7d", "As", "10d"],
                indicator="9h")
    return play(hand, "B play Ac", "A play 7c", "B marriage h", "B play Kh", "A play 7d",
                "B close")


def test_r18_closer_claim_scores_3_when_opponent_had_no_trick_at_closing():
    """R18: A wins a trick after the close (21 points), B's claim still scores 3.

    T3 B 10s, A As: A 21.  T4 A 10d, B Ad: B 55 + 21 = 76.  B claims.
    """
    hand = play(close_before_opponent_trick(), "B play 10s", "A play As", "A play 10d",
                "B play Ad", "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 3, {"A": 21, "B": 76}, {"A": 1, "B": 3}, "R18")


def test_r18_recorded_state_includes_the_opponents_marriage():
    """R11/R18: A has 13 in cards + 20 declared = 33 when B closes: B's claim scores 1.

    rate_hand('Ad'), then T4: B leads Kh, A discards 8c: B 80. T5: B closes and claims.
    """
    hand = play(rate_hand("Ad"), "B play Kh", "A play 8c", "B close", "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 1, {"A": 33, "B": 80}, {"A": 1, "B": 3}, "R18")


def test_r18_recorded_state_below_33_scores_2():
    """R11/R18: the same with A at 32 (12 + 20): 2."""
    hand = play(rate_hand("10d"), "B play Kh", "A play 8c", "B close", "B claim")
    assert outcome_of(hand) == (End.CLAIM, "B", 2, {"A": 32, "B": 80}, {"A": 1, "B": 3}, "R18")


def test_r18_closer_false_claim_gives_2():
    """R18: B closes at 54 and claims: false; A had a trick at closing: A scores 2."""
    hand = play(close_after_trick_won_by_opponent(), "B claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "A", 2, {"A": 2, "B": 54}, {"A": 1, "B": 2},
                                "R18")


def test_r18_closer_false_claim_gives_3_when_opponent_had_no_trick():
    """R18: B closes at 55 and claims: false; A had no trick at closing: A scores 3."""
    hand = play(close_before_opponent_trick(), "B claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "A", 3, {"A": 0, "B": 55}, {"A": 0, "B": 2},
                                "R18")


def closed_low_hand() -> Hand:
    """B: Ac 7s 8s 9s 7d 8d (+9d drawn); A: 7c As 10s Ks Ad 10d (+Kd drawn); hearts trump.

    T1 B Ac, A 7c: B 11 (B draws 9d, A Kd).  T2 B closes (A: 0 points, no trick), leads 7s.
    """
    hand = deal(non_dealer=["Ac", "7s", "8s", "9s", "7d", "8d"],
                dealer=["7c", "As", "10s", "Ks", "Ad", "10d"], indicator="9h",
                stock=["9d", "Kd"])
    return play(hand, "B play Ac", "A play 7c", "B close", "B play 7s")


CLOSED_LOW_REST = ["A play Ks",              # T2: Ks beats 7s: A 4
                   "A play As", "B play 8s",   # T3: A 15
                   "A play 10s", "B play 9s",  # T4: A 25
                   "A play Kd", "B play 7d",   # T5: A 29
                   "A play Ad", "B play 8d",   # T6: A 40
                   "A play 10d", "B play 9d"]  # T7: A 50, all cards played


def test_r18_closer_fails_when_the_cards_run_out_3():
    """R18: B never reaches 66; all cards are played: A scores 3 (no trick at closing).
    No last trick bonus: A keeps 50."""
    hand = play(closed_low_hand(), *CLOSED_LOW_REST)
    assert hand.holding("A") == [] and hand.holding("B") == []
    assert legal_options(hand) == {"A claim", "A pass"}
    play(hand, "A pass")
    assert outcome_of(hand) == (End.CLOSER_FAILED, "A", 3, {"A": 50, "B": 11}, {"A": 6, "B": 1},
                                "R18")


def test_r18_closer_fails_via_finish():
    """R18: Hand.finish() ends the closed hand the same way as a pass."""
    hand = play(closed_low_hand(), *CLOSED_LOW_REST)
    outcome = hand.finish()
    assert (outcome.end, outcome.winner, outcome.game_points) == (End.CLOSER_FAILED, "A", 3)


def test_r18_opponent_false_claim_gives_the_closer_2():
    """R18/R16: A claims with 50 after the last trick: an ordinary false claim: B scores 2."""
    hand = play(closed_low_hand(), *CLOSED_LOW_REST, "A claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "B", 2, {"A": 50, "B": 11}, {"A": 6, "B": 1},
                                "R16")


def test_r18_opponent_false_claim_mid_hand_gives_the_closer_2():
    """R18/R16: A claims with 4 on trick 3: B scores 2 (not 3, whatever the recorded state)."""
    hand = play(closed_low_hand(), "A play Ks", "A claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "B", 2, {"A": 4, "B": 11}, {"A": 1, "B": 1},
                                "R16")


def closed_rich_hand() -> Hand:
    """B: Ac Ks Qs Kd Qd Jc (+9c drawn); A: 7c As 10s Ad 10d 10c (+Kc drawn); hearts trump.

    T1 B Ac, A 7c: B 11.  T2 B closes (A: 0 points, no trick), leads Ks.
    T2 A 10s: 14.  T3 A As, B Qs: 28.  T4 A Ad, B Kd: 43.  T5 A 10d, B Qd: 56.
    T6 A 10c, B Jc (cannot beat): 68.
    """
    hand = deal(non_dealer=["Ac", "Ks", "Qs", "Kd", "Qd", "Jc"],
                dealer=["7c", "As", "10s", "Ad", "10d", "10c"], indicator="9h",
                stock=["9c", "Kc"])
    return play(hand, "B play Ac", "A play 7c", "B close", "B play Ks", "A play 10s",
                "A play As", "B play Qs", "A play Ad", "B play Kd", "A play 10d", "B play Qd",
                "A play 10c", "B play Jc")


def test_r18_opponent_correct_claim_first_scores_3():
    """R18: A reaches 68 and claims before B can: A scores 3 (no trick at closing)."""
    hand = closed_rich_hand()
    assert hand.points("A") == 68
    play(hand, "A claim")
    assert outcome_of(hand) == (End.CLAIM, "A", 3, {"A": 68, "B": 11}, {"A": 5, "B": 1}, "R18")


def closed_rich_hand_with_trick() -> Hand:
    """B: 8c Jd Ks Qs Kd Qd; A: Jc 7d As 10s Ad 10d; stock 10c 9c 8h 7s; hearts trump.

    T1 B 8c, A Jc: A 2 (A draws 10c, B 9c).  T2 A 7d, B Jd: B 2 (B draws 8h, A 7s).
    T3 B closes (A: 2 points, a trick), leads Ks; A 10s: 16.  T4 A As, B Qs: 30.
    T5 A Ad, B Kd: 45.  T6 A 10d, B Qd: 58.  T7 A 10c, B 9c: 68.
    """
    hand = deal(non_dealer=["8c", "Jd", "Ks", "Qs", "Kd", "Qd"],
                dealer=["Jc", "7d", "As", "10s", "Ad", "10d"], indicator="9h",
                stock=["10c", "9c", "8h", "7s"])
    return play(hand, "B play 8c", "A play Jc", "A play 7d", "B play Jd", "B close",
                "B play Ks", "A play 10s", "A play As", "B play Qs", "A play Ad", "B play Kd",
                "A play 10d", "B play Qd", "A play 10c", "B play 9c")


def test_r18_opponent_correct_claim_first_scores_2():
    """R18: A had a trick at closing: A's correct claim scores 2."""
    hand = closed_rich_hand_with_trick()
    assert hand.points("A") == 68
    play(hand, "A claim")
    assert outcome_of(hand) == (End.CLAIM, "A", 2, {"A": 68, "B": 2}, {"A": 6, "B": 1}, "R18")


def test_r18_closer_fails_2_and_no_last_trick_bonus():
    """R18: A does not claim; T8 A 7s, B trumps with 8h and wins the last trick (0 points).
    B, the closer, has 2 and passes: A scores 2; B gets no 10 for the last trick."""
    hand = play(closed_rich_hand_with_trick(), "A play 7s", "B play 8h")
    assert hand.to_act == "B" and hand.holding("B") == []
    play(hand, "B pass")
    assert outcome_of(hand) == (End.CLOSER_FAILED, "A", 2, {"A": 68, "B": 2}, {"A": 6, "B": 2},
                                "R18")


def test_r18_closer_false_claim_after_the_last_trick():
    """R18: the closer on lead after the last trick claims with 2: false: A scores 2."""
    hand = play(closed_rich_hand_with_trick(), "A play 7s", "B play 8h", "B claim")
    assert outcome_of(hand) == (End.FALSE_CLAIM, "A", 2, {"A": 68, "B": 2}, {"A": 6, "B": 2},
                                "R18")


def test_r18_opponent_correct_claim_after_the_last_trick_scores_3():
    """R14/R18: SWEEP closed by B on trick 10 (A: 0 points, no trick); A takes the last six
    tricks from hand and claims with 92 after the last one: 3.

    After nine tricks B: 10h Kh 10d Kd 10s 9s (20 points), A: Ac 10c Ah Ad As 8s.
    T10 B 9s, A As (must beat): 11.  T11 A Ad, B Kd: 26.  T12 A Ah, B 10h: 47.
    T13 A Ac (trump, B has none): B 10s: 68.  T14 A 10c, B 10d: 88.  T15 A 8s, B Kh: 92.
    """
    hand = play(Hand(SWEEP_DECK), *SWEEP_ACTIONS[:18])
    assert len(hand.stock()) == 2
    play(hand, "B close", "B play 9s", "A play As", "A play Ad", "B play Kd", "A play Ah",
         "B play 10h", "A play Ac", "B play 10s", "A play 10c", "B play 10d", "A play 8s",
         "B play Kh")
    assert hand.holding("A") == [] and hand.holding("B") == [] and hand.to_act == "A"
    play(hand, "A claim")
    assert outcome_of(hand) == (End.CLAIM, "A", 3, {"A": 92, "B": 20}, {"A": 6, "B": 9}, "R18")
