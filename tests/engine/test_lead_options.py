"""R10-R12: what the player on lead may do before leading: exchange, close, declare."""

from __future__ import annotations

from mariage import Hand

from engine.conftest import cards, deal, legal_options, legal_plays, play, refused
from engine.full_hands import HELD_ACTIONS, HELD_DECK, SLAM_ACTIONS, SLAM_DECK

# HELD (clubs trump, indicator Kc): B is dealt the 7c and Kh Qh; B wins trick 1 (Qc over Jc).
T1 = HELD_ACTIONS[:2]


def held() -> Hand:
    return Hand(HELD_DECK)


# ----- R10: the trump-seven exchange

def test_r10_exchange_needs_a_trick_won():
    """R10: on the first lead B holds the 7 of trumps but has won no trick."""
    hand = held()
    assert "7c" in cards(hand.holding("B"))
    assert "B exchange" not in legal_options(hand)
    refused(hand, "B exchange", "R10")


def test_r10_exchange_swaps_the_seven_for_the_indicator():
    """R10: after winning a trick, B swaps 7c for the indicator Kc; the 7c becomes the indicator."""
    hand = play(held(), *T1)
    assert "B exchange" in legal_options(hand)
    play(hand, "B exchange")
    assert "Kc" in cards(hand.holding("B")) and "7c" not in cards(hand.holding("B"))
    assert str(hand.indicator_card) == "7c"
    assert str(hand.stock()[-1]) == "7c"
    assert len(hand.stock()) == 18 and len(hand.holding("B")) == 6
    assert hand.trump_suit == "c"


def test_r10_loser_of_trick_ten_draws_the_exchanged_seven():
    """R10/R8: after the exchange the 7 is the bottom card: the loser of trick 10 draws it."""
    hand = play(held(), *T1, "B exchange", *HELD_ACTIONS[2:])
    assert cards(hand.holding("A")) == {"Ac", "10c", "Ah", "Ad", "As", "7c"}
    assert cards(hand.holding("B")) == {"Kh", "Qh", "Kc", "Kd", "10s", "Ks"}
    assert hand.stock() == []


def test_r10_exchange_allowed_with_two_cards_left():
    """R10: the stock is open at trick 10 (one card and the indicator): the exchange is allowed."""
    hand = play(held(), *HELD_ACTIONS[:18])
    assert len(hand.stock()) == 2
    play(hand, "B exchange", "B play 9s", "A play 8s")
    assert "7c" in cards(hand.holding("A")) and "Kc" in cards(hand.holding("B"))


def test_r10_no_exchange_once_the_stock_is_exhausted():
    """R10: after trick 10 B still holds the 7 of trumps but the stock is exhausted."""
    hand = play(held(), *HELD_ACTIONS)
    assert "7c" in cards(hand.holding("B")) and hand.to_act == "B"
    assert "B exchange" not in legal_options(hand)
    refused(hand, "B exchange", "R10")


def test_r10_no_exchange_after_closing():
    """R10/R11: the exchange comes before closing; a closed stock allows none."""
    hand = play(held(), *T1, "B close")
    refused(hand, "B exchange", "R10")


def test_r10_no_exchange_after_a_marriage():
    """R10: the exchange comes before the marriage declaration."""
    hand = play(held(), *T1, "B marriage h")
    refused(hand, "B exchange", "R10")


def test_r10_exchange_then_close_and_exchange_then_marriage_are_in_order():
    """R10-R12 order: (1) exchange, then (2) close, or (1) exchange then (3) a marriage."""
    hand = play(held(), *T1, "B exchange")
    assert {"B close", "B marriage h", "B claim"} <= legal_options(hand)
    play(hand, "B close")
    hand = play(held(), *T1, "B exchange", "B marriage h")
    assert hand.points("B") == 5 + 20


def test_r10_responder_may_not_exchange():
    """R10: B holds the 7 of trumps and has won a trick, but answers A's lead: no exchange."""
    hand = play(held(), *T1, "B play Kh", "A play Ah")      # A wins trick 2 and leads
    play(hand, "A play Ac")
    assert "7c" in cards(hand.holding("B")) and hand.tricks("B") == 1
    refused(hand, "B exchange", "R10")
    # Before A leads, B is not on lead either: refused as out of turn (R5) or by R10.
    hand = play(held(), *T1, "B play Kh", "A play Ah")
    refused(hand, "B exchange", ("R5", "R10"))


def test_r10_indicator_seven_of_trumps_allows_no_exchange():
    """R10: with the 7h as indicator nobody can exchange at any lead of the hand."""
    hand = Hand(SLAM_DECK)
    for action in SLAM_ACTIONS:
        if hand.led is None:
            assert not any(o.endswith("exchange") for o in legal_options(hand))
        play(hand, action)
    hand = play(Hand(SLAM_DECK), *SLAM_ACTIONS[:2])
    refused(hand, "B exchange", "R10")


def test_r10_exchange_of_the_dealer():
    """R10: the dealer, on lead after winning, exchanges too."""
    hand = deal(non_dealer=["7h"], dealer=["Ah", "7s"], indicator="Ks", stock=["8c", "9c"])
    play(hand, "B play 7h", "A play Ah")
    assert hand.to_act == "A" and "A exchange" in legal_options(hand)
    play(hand, "A exchange")
    assert "Ks" in cards(hand.holding("A")) and str(hand.indicator_card) == "7s"


# ----- R11: closing

def test_r11_no_close_on_the_first_lead():
    """R11: closing is allowed from the second trick on."""
    hand = held()
    assert "B close" not in legal_options(hand)
    refused(hand, "B close", "R11")


def test_r11_close_on_the_second_trick():
    """R11: on lead at trick 2, the stock is closed: nothing more is drawn."""
    hand = play(held(), *T1)
    assert "B close" in legal_options(hand)
    play(hand, "B close")
    assert hand.closer == "B"
    assert hand.stock() == []
    assert len(hand.out_of_play()) == 18
    play(hand, "B play 10s", "A play As")           # strict: A must beat with the As
    assert len(hand.holding("A")) == len(hand.holding("B")) == 5


def test_r11_dealer_on_lead_may_close():
    """R11: the player on lead closes, dealer or not."""
    hand = deal(non_dealer=["7h"], dealer=["Ah"], indicator="9s")
    play(hand, "B play 7h", "A play Ah")
    assert "A close" in legal_options(hand)
    play(hand, "A close")
    assert hand.closer == "A"


def test_r11_close_with_two_cards_left_but_not_after_trick_ten():
    """R11: at trick 10 two cards remain: closing is allowed; after trick 10 it is not."""
    hand = play(held(), *HELD_ACTIONS[:18])
    assert len(hand.stock()) == 2 and "B close" in legal_options(hand)
    play(hand, "B close")
    assert hand.stock() == [] and len(hand.out_of_play()) == 2
    hand = play(held(), *HELD_ACTIONS)
    assert "B close" not in legal_options(hand)
    refused(hand, "B close", "R11")


def test_r11_close_only_once():
    """R11: a closed stock cannot be closed again."""
    hand = play(held(), *T1, "B close")
    refused(hand, "B close", "R11")


def test_r11_responder_may_not_close():
    """R11: only the player on lead closes."""
    hand = play(held(), *T1, "B play 9c")
    refused(hand, "A close", "R11")


def test_r11_no_close_after_a_marriage():
    """R11: closing comes before the marriage declaration."""
    hand = play(held(), *T1, "B marriage h")
    refused(hand, "B close", "R11")


def test_r11_strict_play_starts_on_the_closing_trick():
    """R11/R9: the trick led right after closing is already strict."""
    hand = play(held(), *T1, "B close", "B play 10s")
    # A: Ac 10c Ah Ad As and 8c (drawn): the As must beat the 10s.
    assert legal_plays(hand) == {"As"}


def test_r11_no_draws_after_closing():
    """R11: after closing, no card is drawn; each trick leaves one card fewer."""
    hand = play(held(), *T1, "B close", "B play 10s", "A play As", "A play Ac")
    assert len(hand.holding("A")) == 4 and len(hand.holding("B")) == 5


# ----- R12: marriages

def marriage_hand() -> Hand:
    """Spades trump (9s). B: Ac Kh Qh Ks Qs Kd; A: 7c Kc Qc 8d Ah 8c. B wins trick 1 (Ac/7c)."""
    hand = deal(non_dealer=["Ac", "Kh", "Qh", "Ks", "Qs", "Kd"],
                dealer=["7c", "Kc", "Qc", "8d", "Ah", "8c"], indicator="9s",
                stock=["9c", "9d"])
    return hand


def test_r12_marriage_needs_a_trick_won():
    """R12: on the first lead B holds two marriages but has won no trick."""
    hand = marriage_hand()
    assert not any("marriage" in o for o in legal_options(hand))
    refused(hand, "B marriage h", "R12")


def test_r12_marriages_on_offer_are_the_pairs_held():
    """R12: after a trick won, the K and Q held together: hearts and spades, not diamonds."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c")
    options = legal_options(hand)
    assert {"B marriage h", "B marriage s"} <= options
    assert "B marriage d" not in options and "B marriage c" not in options
    refused(hand, "B marriage d", "R12")


def test_r12_plain_marriage_adds_20_at_once():
    """R12/R13: 20 in a plain suit, added to the points at once (11 + 20)."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage h")
    assert hand.points("B") == 31
    assert hand.card_points("B") == 11


def test_r12_trump_marriage_adds_40():
    """R12: 40 in trumps (11 + 40)."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage s")
    assert hand.points("B") == 51


def test_r12_must_lead_the_king_or_queen_shown():
    """R12: after the declaration only Kh or Qh may be led."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage h")
    assert legal_plays(hand) == {"Kh", "Qh"}
    refused(hand, "B play Kd", "R12")
    refused(hand, "B play Ks", "R12")
    play(hand, "B play Qh")


def test_r12_one_marriage_per_lead():
    """R12: a second declaration on the same lead is refused."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage h")
    assert not any("marriage" in o for o in legal_options(hand))
    refused(hand, "B marriage s", "R12")
    assert hand.points("B") == 31


def test_r12_each_suit_once_and_another_suit_on_a_later_lead():
    """R12: hearts cannot be declared again; spades can on the next lead (31 + 4 + 40)."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage h", "B play Kh",
                "A play 8c")                         # Kh beats the off-suit 8c
    assert hand.to_act == "B" and hand.points("B") == 35
    refused(hand, "B marriage h", "R12")
    play(hand, "B marriage s")
    assert hand.points("B") == 75


def test_r12_bonus_stays_when_the_trick_is_lost():
    """R12: the declaration scores at once; losing the led Q does not take it back."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage h", "B play Qh",
                "A play Ah")
    assert hand.points("B") == 31 and hand.points("A") == 14
    assert hand.to_act == "A"


def test_r12_responder_may_not_declare():
    """R12: A holds Kc Qc but may not declare while answering."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B play Kd")
    refused(hand, "A marriage c", "R12")


def test_r12_dealer_declares_after_winning_a_trick():
    """R12: A wins trick 2 and, on lead, declares clubs (14 + 20)."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B marriage h", "B play Qh",
                "A play Ah")
    assert "A marriage c" in legal_options(hand)
    play(hand, "A marriage c")
    assert hand.points("A") == 34
    assert legal_plays(hand) == {"Kc", "Qc"}


def test_r12_no_marriage_after_closing():
    """R12/R11: closing ends all declarations."""
    hand = play(marriage_hand(), "B play Ac", "A play 7c", "B close")
    assert not any("marriage" in o for o in legal_options(hand))
    refused(hand, "B marriage h", "R12")


def test_r12_no_marriage_once_the_stock_is_exhausted():
    """R12: HELD: B held Kh Qh all along; declarable at trick 2, not after trick 10."""
    hand = play(held(), *T1)
    assert "B marriage h" in legal_options(hand)
    hand = play(held(), *HELD_ACTIONS)
    assert {"Kh", "Qh"} <= cards(hand.holding("B"))
    assert "B marriage h" not in legal_options(hand)
    refused(hand, "B marriage h", "R12")


def test_r12_exchange_for_the_trump_king_then_declare_40():
    """R10+R12: hearts trump, indicator Kh; B exchanges 7h for it and declares 40 with the Qh."""
    hand = deal(non_dealer=["Ac", "7h", "Qh"], dealer=["7c"], indicator="Kh")
    play(hand, "B play Ac", "A play 7c")
    assert "B marriage h" not in legal_options(hand)
    play(hand, "B exchange")
    assert "B marriage h" in legal_options(hand)
    play(hand, "B marriage h")
    assert hand.points("B") == 11 + 40
    assert legal_plays(hand) == {"Kh", "Qh"}
