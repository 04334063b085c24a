"""R5-R9: leading, winning a trick, free play, drawing from the stock, strict play."""

from __future__ import annotations

import pytest

from mariage import Hand

from engine.conftest import cards, deal, legal_plays, play, refused
from engine.full_hands import (HELD_ACTIONS, HELD_DECK, SLAM_ACTIONS, SLAM_DECK, TIE_ACTIONS,
                               TIE_DECK, TIE_PAIRS, first_ten)


# ----- R5: who leads, who plays

def test_r5_winner_of_a_trick_leads_the_next():
    """R5: the responder who wins leads the next trick; the loser may not."""
    hand = deal(non_dealer=["7h"], dealer=["Ah"], indicator="9s")
    play(hand, "B play 7h", "A play Ah")
    assert hand.to_act == "A"
    refused(hand, "B play " + str(hand.holding("B")[0]), "R5")


def test_r5_leader_who_wins_leads_again():
    """R5: the leader who wins leads again."""
    hand = deal(non_dealer=["Ah"], dealer=["7h"], indicator="9s")
    play(hand, "B play Ah", "A play 7h")
    assert hand.to_act == "B"


def test_r5_each_player_plays_one_card_per_trick():
    """R5: after the lead it is the responder's turn, and the leader may not play again."""
    hand = deal(non_dealer=["Ah", "Kh"], dealer=["7h"], indicator="9s")
    play(hand, "B play Ah")
    assert hand.to_act == "A"
    refused(hand, "B play Kh", "R5")


def test_r5_a_card_not_held_cannot_be_played():
    """R5: a player plays a card from their own hand."""
    hand = deal(non_dealer=["Ah"], dealer=["7h"], indicator="9s")
    refused(hand, "B play 7h", "R5")


# ----- R6: who wins a trick

@pytest.mark.parametrize("lead, answer, winner, points", [
    ("Ah", "7s", "A", 11),    # a trump beats a higher card of the suit led
    ("7h", "As", "A", 11),    # trump beats
    ("7s", "Ah", "B", 11),    # trump led: an ace of another suit never wins
    ("Kh", "Ad", "B", 15),    # off-suit, not trump: never wins, whatever its rank
    ("7h", "Ad", "B", 11),    # ... even against a 7
    ("Jh", "Qh", "A", 5),     # suit led: the higher card wins
    ("Qh", "Jh", "B", 5),
    ("8s", "9s", "A", 0),     # two trumps: the higher wins, though both count 0
    ("Ks", "10s", "A", 14),   # the 10 of trumps beats the K of trumps
    ("As", "10s", "B", 21),
])
def test_r6_trick_winner(lead, answer, winner, points):
    """R6: highest trump wins; with no trump, the higher card of the suit led."""
    hand = deal(non_dealer=[lead], dealer=[answer], indicator="Qs")       # spades trump
    play(hand, f"B play {lead}", f"A play {answer}")
    loser = "AB".replace(winner, "")
    assert hand.tricks(winner) == 1 and hand.tricks(loser) == 0
    assert hand.points(winner) == points and hand.points(loser) == 0
    assert cards(hand.captured(winner)) == {lead, answer}
    assert hand.to_act == winner


# ----- R7: free play while the stock is open

def test_r7_responder_may_play_any_card_while_stock_open():
    """R7: holding the suit led, a higher card and trumps, the responder may still play anything."""
    hand = deal(non_dealer=["Kh"], dealer=["Ah", "9h", "7s", "Ac", "8d", "Js"], indicator="Qs")
    play(hand, "B play Kh")
    assert legal_plays(hand) == {"Ah", "9h", "7s", "Ac", "8d", "Js"}
    play(hand, "A play 8d")                 # neither follows nor trumps: allowed, and loses
    assert hand.tricks("B") == 1 and hand.points("B") == 4


def test_r7_free_play_holds_on_trick_10_with_two_cards_left():
    """R7: at trick 10 the stock (1 card + indicator) is still open: no duty to follow."""
    hand = Hand(TIE_DECK)
    play(hand, *first_ten(TIE_PAIRS)[:18], "B play Js")
    assert len(hand.stock()) == 2
    # A holds 7s (follows), Ac 10c Ah Ad 10h: any of them may answer.
    assert legal_plays(hand) == {"7s", "Ac", "10c", "Ah", "Ad", "10h"}


# ----- R8: drawing

def test_r8_leader_wins_and_draws_first():
    """R8: the winner takes the top card of the stock (card 14), the loser the next (15)."""
    hand = deal(non_dealer=["Ah"], dealer=["7h"], indicator="9s", stock=["Kc", "Qd", "Jd"])
    play(hand, "B play Ah", "A play 7h")
    assert "Kc" in cards(hand.holding("B")) and "Qd" in cards(hand.holding("A"))
    assert len(hand.holding("A")) == len(hand.holding("B")) == 6
    assert [str(c) for c in hand.stock()][0] == "Jd"
    assert len(hand.stock()) == 18


def test_r8_responder_wins_and_draws_first():
    """R8: when the responder wins, the responder draws card 14 and the leader card 15."""
    hand = deal(non_dealer=["7h"], dealer=["Ah"], indicator="9s", stock=["Kc", "Qd"])
    play(hand, "B play 7h", "A play Ah")
    assert "Kc" in cards(hand.holding("A")) and "Qd" in cards(hand.holding("B"))


def test_r8_stock_is_drawn_in_order_over_several_tricks():
    """R8: cards 14-32 are drawn in order, two per trick, winner first."""
    hand = Hand(TIE_DECK)
    play(hand, *first_ten(TIE_PAIRS)[:6])              # three tricks, all won by B
    # B drew 9c 7c 10d (cards 14, 16, 18); A drew 8c Jh Kd (15, 17, 19).
    assert {"10d"} <= cards(hand.holding("B"))
    assert {"Kd"} <= cards(hand.holding("A"))
    assert [str(c) for c in hand.stock()] == (
        "Qd Jd 8d 7h Kh Qh As 10s Ks Qs Js 7s 8s Jc").split()


def test_r8_loser_of_trick_ten_draws_the_indicator():
    """R8: after trick 10 the winner draws card 32 and the loser the indicator; stock empty."""
    hand = Hand(TIE_DECK)
    play(hand, *first_ten(TIE_PAIRS))
    assert hand.stock() == []
    assert cards(hand.holding("B")) == {"9h", "8h", "9d", "7d", "9s", "8s"}    # 8s = card 32
    assert cards(hand.holding("A")) == {"Ac", "10c", "Ah", "Ad", "10h", "Jc"}  # Jc = indicator
    assert hand.tricks("B") == 10 and hand.points("B") == 65


def test_r8_no_draw_after_trick_ten():
    """R8: the last six tricks are played from hand: each trick leaves one card fewer."""
    hand = Hand(TIE_DECK)
    play(hand, *TIE_ACTIONS[:22])                      # tricks 1-11
    assert len(hand.holding("A")) == len(hand.holding("B")) == 5


# ----- R9: strict play

def closed_then_led(responder: list[str], lead: str, indicator: str = "10s") -> Hand:
    """B wins trick 1 (Ac over 7c), closes on trick 2 and leads `lead`; A then holds `responder`.

    A is dealt 7c and responder[:5] and draws responder[5] after trick 1 (R8: B draws first).
    """
    assert len(responder) == 6
    hand = deal(non_dealer=["Ac", lead], dealer=["7c"] + responder[:5], indicator=indicator,
                stock=["7h" if "7h" not in responder + [lead, indicator] else "8h", responder[5]])
    play(hand, "B play Ac", "A play 7c", "B close", f"B play {lead}")
    assert cards(hand.holding("A")) == set(responder)
    return hand


# Spades are trump (indicator 10s) in every case below.
STRICT_CASES = [
    # lead, responder's hand, what R9 allows
    ("Kh", ["Ah", "9h", "7s", "Jd", "8d", "9c"], {"Ah"}),               # follow and beat
    ("Qh", ["Ah", "Kh", "8h", "7s", "Jd", "9c"], {"Ah", "Kh"}),         # any card that beats
    ("Ah", ["10h", "9h", "7s", "Jd", "8d", "9c"], {"10h", "9h"}),       # cannot beat: any of suit
    ("Ah", ["9h", "As", "Ks", "Jd", "8d", "9c"], {"9h"}),               # holding the suit: no trump
    ("8h", ["9h", "Ah", "As", "Jd", "8d", "9c"], {"9h", "Ah"}),         # a 9 beats an 8 (rank)
    ("Kh", ["7s", "Js", "Jd", "8d", "9c", "10d"], {"7s", "Js"}),        # void: any trump
    ("Kh", ["Jd", "8d", "9c", "10d", "Kd", "Qc"], {"Jd", "8d", "9c", "10d", "Kd", "Qc"}),  # any
    ("9s", ["Js", "8s", "Ah", "Ad", "9c", "10d"], {"Js"}),              # trump led: beat it
    ("Ks", ["Js", "8s", "Ah", "Ad", "9c", "10d"], {"Js", "8s"}),        # cannot beat: any trump
    ("Ks", ["Ah", "Ad", "9c", "10d", "Jh", "Qd"], {"Ah", "Ad", "9c", "10d", "Jh", "Qd"}),
]


@pytest.mark.parametrize("lead, responder, allowed", STRICT_CASES)
def test_r9_strict_play_after_close(lead, responder, allowed):
    """R9: follow suit and beat if able; else follow; void: trump if able; else any card."""
    hand = closed_then_led(responder, lead)
    assert legal_plays(hand) == allowed
    for card in sorted(set(responder) - allowed):
        refused(hand, f"A play {card}", "R9")
    play(hand, f"A play {sorted(allowed)[0]}")


def test_r9_must_beat_when_following():
    """R9: holding Ah and 9h against a led Kh, the 9h is refused."""
    hand = closed_then_led(["Ah", "9h", "7s", "Jd", "8d", "9c"], "Kh")
    error = refused(hand, "A play 9h", "R9")
    assert str(error).startswith("R9:")
    play(hand, "A play Ah")
    assert hand.tricks("A") == 1 and hand.points("A") == 15


def test_r9_void_must_trump_and_the_trump_wins():
    """R9/R6: void in the suit led, the responder trumps and takes the trick."""
    hand = closed_then_led(["7s", "Js", "Jd", "8d", "9c", "10d"], "Ah")
    refused(hand, "A play 10d", "R9")
    play(hand, "A play 7s")
    assert hand.to_act == "A" and hand.points("A") == 11


def test_r9_strict_play_after_the_stock_is_exhausted():
    """R9: after trick 10 (stock exhausted) the responder must follow and beat."""
    hand = Hand(TIE_DECK)
    play(hand, *first_ten(TIE_PAIRS), "B play 9h")
    # A: Ac 10c Ah Ad 10h Jc. Hearts led: Ah and 10h beat the 9h; the trump Jc may not be played.
    assert legal_plays(hand) == {"Ah", "10h"}
    refused(hand, "A play Jc", "R9")
    refused(hand, "A play Ad", "R9")


def test_r9_follow_without_beating_when_nothing_beats():
    """R9: B (9d 7d ...) answers Ad with either diamond, nothing else."""
    hand = Hand(TIE_DECK)
    play(hand, *TIE_ACTIONS[:24], "A play Ad")
    assert cards(hand.holding("B")) == {"9d", "7d", "9s", "8s"}
    assert legal_plays(hand) == {"9d", "7d"}


def test_r9_trump_led_and_no_trump_held_any_card():
    """R9: trump led, B holds no trump and no card to follow: any card."""
    hand = Hand(TIE_DECK)
    play(hand, *TIE_ACTIONS[:26], "A play Ac")
    assert legal_plays(hand) == {"7d", "9s", "8s"}


def test_r9_trump_led_lower_trump_must_still_be_played():
    """R9: trump led and unbeatable: any trump, never another suit (A holds 7h only)."""
    hand = Hand(SLAM_DECK)
    play(hand, *SLAM_ACTIONS[:20], "B play Ah")
    assert legal_plays(hand) == {"7h"}
    refused(hand, "A play 10c", "R9")


def test_r9_leader_is_never_restricted():
    """R9 binds the responder only: the leader may lead any card in strict play."""
    hand = Hand(HELD_DECK)
    play(hand, *HELD_ACTIONS)
    assert legal_plays(hand) == {"Kh", "Qh", "7c", "Kd", "10s", "Ks"}
