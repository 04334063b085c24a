"""R1-R4: the cards, the card points, the deal and the misdeal."""

from __future__ import annotations

import pytest

from mariage import Hand, IllegalActionError, RecordError
from mariage.engine.game import Game

from engine.conftest import ALL_CARDS, build_deck, cards, deal, legal_plays, play, refused

# The deck in a plain order, top card first: clubs, diamonds, hearts, spades, each A..7.
PLAIN = ("Ac 10c Kc Qc Jc 9c 8c 7c Ad 10d Kd Qd Jd 9d 8d 7d "
         "Ah 10h Kh Qh Jh 9h 8h 7h As 10s Ks Qs Js 9s 8s 7s")


# ----- R1: 32 cards, rank order apart from card points

def test_r1_deck_has_32_distinct_cards_of_8_ranks_in_4_suits():
    """R1: the 32 cards the tests use are exactly the ones the engine deals."""
    hand = Hand(PLAIN)
    dealt = (cards(hand.holding("A")) | cards(hand.holding("B")) | cards(hand.stock()))
    assert dealt == set(ALL_CARDS)
    assert len(ALL_CARDS) == 32


@pytest.mark.parametrize("low, high, points", [
    ("10h", "Ah", 21),   # A 11 + 10 10
    ("Kh", "10h", 14),   # the 10 outranks the K (10 + 4)
    ("Qh", "Kh", 7),
    ("Jh", "Qh", 5),
    ("9h", "Jh", 2),
    ("8h", "9h", 0),     # 9 and 8 are worth 0, the 9 still wins
    ("7h", "8h", 0),     # 8 and 7 are worth 0, the 8 still wins
])
def test_r1_rank_order_is_not_point_order(low, high, points):
    """R1/R6: the higher rank of the suit led wins even when both cards are worth 0."""
    hand = deal(non_dealer=[low], dealer=[high], indicator="9s")   # spades trump
    play(hand, f"B play {low}", f"A play {high}")
    assert (hand.tricks("A"), hand.tricks("B")) == (1, 0)
    assert (hand.points("A"), hand.points("B")) == (points, 0)
    assert hand.to_act == "A"


@pytest.mark.parametrize("high, low, points",
                         [("8d", "7d", 0), ("Ad", "10d", 21), ("10d", "Kd", 14)])
def test_r1_leader_with_higher_rank_keeps_the_trick(high, low, points):
    """R1/R6: the leader's higher rank wins; an 8 beats a 7 though both count 0."""
    hand = deal(non_dealer=[high], dealer=[low], indicator="9s")
    play(hand, f"B play {high}", f"A play {low}")
    assert (hand.tricks("B"), hand.points("B"), hand.to_act) == (1, points, "B")


def test_r1_card_points_of_each_rank():
    """R1: A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0: a trick's points are its two cards'."""
    expected = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    for rank, value in expected.items():
        if rank == "7":
            hand = deal(non_dealer=["7h"], dealer=["8c"], indicator="9s")
            play(hand, "B play 7h", "A play 8c")        # 8c is off-suit: B keeps 7h + 8c
            assert hand.points("B") == 0
            continue
        # The leader leads the rank in hearts; the responder discards the 7 of clubs (0).
        hand = deal(non_dealer=[rank + "h"], dealer=["7c"], indicator="9s")
        play(hand, f"B play {rank}h", "A play 7c")
        assert hand.points("B") == value, rank


def test_r1_unknown_rank_is_a_record_error():
    """R1: there is no 6 in the 32-card deck."""
    deck = PLAIN.replace("7s", "6s")
    with pytest.raises(RecordError, match="6s"):
        Hand(deck)


@pytest.mark.parametrize("bad", ["Xh", "Kx", "1", "K"])
def test_r1_unreadable_card_is_a_record_error(bad):
    """R1: a card is a rank and a suit of the deck."""
    deck = PLAIN.split()
    deck[-1] = bad
    with pytest.raises(RecordError):
        Hand(deck)


def test_r1_suit_symbols_read_like_letters():
    """R1: 'K♥' is the king of hearts."""
    deck = PLAIN.replace("Kh", "K♥").replace("As", "A♠")
    assert cards(Hand(deck).stock()) == cards(Hand(PLAIN).stock())


# ----- R3: the deal order

def test_r3_deal_order_with_A_dealing():
    """R3: cards 1-3 and 7-9 to the non-dealer, 4-6 and 10-12 to the dealer, 13 the indicator."""
    hand = Hand(PLAIN, dealer="A")
    assert cards(hand.holding("B")) == {"Ac", "10c", "Kc", "8c", "7c", "Ad"}
    assert cards(hand.holding("A")) == {"Qc", "Jc", "9c", "10d", "Kd", "Qd"}
    assert str(hand.indicator_card) == "Jd"
    assert hand.trump_suit == "d"


def test_r3_deal_order_with_B_dealing():
    """R3: the same deck dealt by B gives A the non-dealer's packets."""
    hand = Hand(PLAIN, dealer="B")
    assert cards(hand.holding("A")) == {"Ac", "10c", "Kc", "8c", "7c", "Ad"}
    assert cards(hand.holding("B")) == {"Qc", "Jc", "9c", "10d", "Kd", "Qd"}
    assert hand.to_act == "A"


def test_r3_stock_is_cards_14_to_32_then_the_indicator():
    """R3: the stock is drawn in deck order from card 14; the indicator is its bottom card."""
    hand = Hand(PLAIN)
    assert [str(c) for c in hand.stock()] == (
        "9d 8d 7d Ah 10h Kh Qh Jh 9h 8h 7h As 10s Ks Qs Js 9s 8s 7s Jd").split()
    assert len(hand.stock()) == 20


def test_r3_each_player_starts_with_six_cards():
    """R3: 6 cards each, 20 in the stock."""
    hand = Hand(PLAIN)
    assert len(hand.holding("A")) == len(hand.holding("B")) == 6


def test_r3_string_and_list_decks_deal_alike():
    """R3: a deck given as a list or as one space-separated string is the same deck."""
    a, b = Hand(PLAIN), Hand(PLAIN.split())
    assert cards(a.holding("B")) == cards(b.holding("B"))
    assert [str(c) for c in a.stock()] == [str(c) for c in b.stock()]


def test_r3_build_deck_helper_places_the_cards_by_hand():
    """R3: the conftest helper puts the given cards where R3 says (a check of the helper)."""
    deck = build_deck(["Ah", "Kh", "Qh", "Jh", "10h", "9h"], ["As", "Ks", "Qs", "Js", "10s", "9s"],
                      "7c", ["Ac", "Ad"])
    assert deck[:13] == ["Ah", "Kh", "Qh", "As", "Ks", "Qs", "Jh", "10h", "9h",
                         "Js", "10s", "9s", "7c"]
    assert deck[13:15] == ["Ac", "Ad"]
    hand = Hand(deck)
    assert cards(hand.holding("B")) == {"Ah", "Kh", "Qh", "Jh", "10h", "9h"}
    assert [str(c) for c in hand.stock()][:2] == ["Ac", "Ad"]
    assert str(hand.stock()[-1]) == "7c"


def test_r5_non_dealer_leads_the_first_trick():
    """R5 (with R3): the non-dealer is first to act; the dealer may not lead."""
    hand = Hand(PLAIN, dealer="A")
    assert hand.to_act == "B"
    refused(hand, "A play Qc", "R5")
    hand = Hand(PLAIN, dealer="B")
    assert hand.to_act == "A"
    refused(hand, "B play Qc", "R5")


def test_r5_first_lead_may_be_any_card_held():
    """R5/R7: the first leader may lead any card in hand."""
    hand = Hand(PLAIN)
    assert legal_plays(hand) == {"Ac", "10c", "Kc", "8c", "7c", "Ad"}


# ----- R4: misdeals

@pytest.mark.parametrize("deck", [
    PLAIN.split()[:31],                      # 31 cards
    PLAIN.split() + ["Ac"],                  # 33 cards
    PLAIN.split()[:31] + ["Ac"],             # 32 with a duplicate and a card missing
], ids=["31 cards", "33 cards", "duplicate"])
def test_r4_wrong_count_is_a_misdeal(deck):
    """R4: a wrong count is refused as a misdeal; the message names the rulings."""
    with pytest.raises(RecordError, match=r"R1/R4"):
        Hand(deck)


def test_r4_misdeal_in_a_game_keeps_the_dealer_and_scores_nothing():
    """R4: after a misdeal the same dealer deals a new hand; nothing is scored."""
    game = Game("A")
    with pytest.raises(RecordError):
        game.new_hand(PLAIN.split()[:31])
    assert game.dealer == "A"
    assert game.hands == []
    assert game.game_points == {"A": 0, "B": 0}
    hand = game.new_hand(PLAIN)
    assert hand.dealer == "A" and hand.to_act == "B"


def test_r1_unknown_dealer_is_a_record_error():
    """R1: two players, A and B."""
    with pytest.raises(RecordError):
        Hand(PLAIN, dealer="C")


def test_r5_unknown_player_is_not_an_illegal_action_but_a_record_error():
    """R1/R5: 'C play Ac' names no player of the hand."""
    hand = Hand(PLAIN)
    with pytest.raises(RecordError) as info:
        hand.apply("C play Ac")
    assert not isinstance(info.value, IllegalActionError)
    assert hand.log == [] and hand.to_act == "B"
