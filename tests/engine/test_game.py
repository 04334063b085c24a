"""R2 and R19: a game of hands, the alternating deal, 7 game points; game records."""

from __future__ import annotations

import pytest

from mariage import End, Hand, IllegalActionError
from mariage.engine.game import Game
from mariage.engine.notation import replay

from engine.conftest import build_deck
from engine.full_hands import TIE_ACTIONS, TIE_DECK

# Short hands written with roles: N the non-dealer, D the dealer.
# BOUNDARY (hearts trump): N Ac takes D's 10c (21), N declares hearts (61), leads Qh, D Jd: 66.
BOUNDARY_DECK = build_deck(non_dealer=["Ac", "Kh", "Qh"], dealer=["10c", "Jd", "7d"],
                           indicator="9h")
CLAIM_3 = ["N play Ac", "D play 10c", "N marriage h", "N play Qh", "D play Jd", "N claim"]
FALSE_AT_ONCE = ["N claim"]                     # R16: D scores 2
# RATE (hearts trump): N 21, D 12 + 20 = 32 with one trick, N 36 + 40 = 76 claims: N scores 2.
RATE_DECK = build_deck(non_dealer=["Ac", "Jd", "As", "Kh", "Qh", "7c"],
                       dealer=["10c", "Ad", "10d", "Ks", "Qs", "8c"], indicator="8h")
CLAIM_2 = ["N play Ac", "D play 10c", "N play Jd", "D play 10d", "D marriage s", "D play Ks",
           "N play As", "N marriage h", "N claim"]
TIE_ROLES = [("N" if a[0] == "B" else "D") + a[1:] for a in TIE_ACTIONS]


def cast(actions: list[str], dealer: str) -> list[str]:
    names = {"D": dealer, "N": "B" if dealer == "A" else "A"}
    return [names[a[0]] + a[1:] for a in actions]


def play_hand(game: Game, deck: list[str], actions: list[str]) -> Hand:
    hand = game.new_hand(deck)
    for action in cast(actions, hand.dealer):
        hand.apply(action)
    if not hand.is_over:
        hand.finish()
    game.record(hand.outcome)
    return hand


# ----- R2: the deal alternates

def test_r2_first_dealer_drawn_at_random_and_repeatable():
    """R2: the first dealer is drawn at random: both players come up; a seed repeats it."""
    dealers = {Game.seeded(seed).first_dealer for seed in range(64)}
    assert dealers == {"A", "B"}
    assert all(Game.seeded(s).first_dealer == Game.seeded(s).first_dealer for s in range(16))


def test_r2_deal_alternates_every_hand_including_a_hand_scoring_nothing():
    """R2: A, B, A, B... a tie (nothing scored) still passes the deal."""
    game = Game("A")
    assert game.dealer == "A"
    hand = play_hand(game, TIE_DECK, TIE_ROLES)
    assert hand.outcome.game_points == 0 and hand.outcome.winner is None
    assert game.dealer == "B"
    hand = play_hand(game, BOUNDARY_DECK, FALSE_AT_ONCE)
    assert hand.dealer == "B" and hand.to_act is None
    assert game.dealer == "A"
    hand = game.new_hand(TIE_DECK)
    assert hand.dealer == "A" and hand.to_act == "B"


def test_r2_second_hand_is_led_by_the_first_dealer():
    """R2/R5: in hand 2, B deals and A (the first dealer) leads."""
    game = Game("A")
    play_hand(game, BOUNDARY_DECK, CLAIM_3)
    hand = game.new_hand(BOUNDARY_DECK)
    assert hand.to_act == "A"


# ----- R19: game points accumulate to 7

def test_r19_game_points_accumulate_and_7_exactly_wins():
    """R19: B scores 3 (claim), 2 (A's false claim), 2 (claim at rate 2): 7 wins the game."""
    game = Game("A")
    play_hand(game, BOUNDARY_DECK, CLAIM_3)           # dealer A: B non-dealer, scores 3
    assert game.game_points == {"A": 0, "B": 3} and game.winner is None
    play_hand(game, BOUNDARY_DECK, FALSE_AT_ONCE)     # dealer B: A claims falsely, B scores 2
    assert game.game_points == {"A": 0, "B": 5} and game.winner is None
    hand = play_hand(game, RATE_DECK, CLAIM_2)        # dealer A: B scores 2
    assert (hand.outcome.end, hand.outcome.winner, hand.outcome.game_points) == (End.CLAIM, "B", 2)
    assert game.game_points == {"A": 0, "B": 7}
    assert game.winner == "B"


def test_r19_six_does_not_win():
    """R19: 3 + 3 = 6 < 7: the game goes on."""
    game = Game("A")
    play_hand(game, BOUNDARY_DECK, CLAIM_3)           # B 3
    play_hand(game, BOUNDARY_DECK, CLAIM_3)           # dealer B: A 3
    play_hand(game, BOUNDARY_DECK, CLAIM_3)           # B 6
    assert game.game_points == {"A": 3, "B": 6} and game.winner is None


def test_r19_no_hand_after_the_game_is_won():
    """R19: once a player reaches 7, no new hand is dealt."""
    game = Game("A")
    play_hand(game, BOUNDARY_DECK, CLAIM_3)
    play_hand(game, BOUNDARY_DECK, FALSE_AT_ONCE)
    play_hand(game, RATE_DECK, CLAIM_2)
    with pytest.raises(IllegalActionError) as info:
        game.new_hand(TIE_DECK)
    assert str(info.value).startswith("R19")


def test_r19_next_hand_waits_for_the_previous_one():
    """R19: a game's hands are played one after the other."""
    game = Game("A")
    game.new_hand(TIE_DECK)
    with pytest.raises(IllegalActionError):
        game.new_hand(TIE_DECK)


# ----- game records through notation.replay

def record(first_dealer: str, *hands: tuple[list[str], list[str]]) -> dict:
    dealer, out = first_dealer, []
    for deck, actions in hands:
        out.append({"deck": deck, "actions": cast(actions, dealer)})
        dealer = "B" if dealer == "A" else "A"
    return {"first_dealer": first_dealer, "hands": out}


HAND_B3 = {"end": "claim", "winner": "B", "game_points": 3,
           "points": {"A": 0, "B": 66}, "tricks": {"A": 0, "B": 2}}
HAND_A3 = {"end": "claim", "winner": "A", "game_points": 3,
           "points": {"A": 66, "B": 0}, "tricks": {"A": 2, "B": 0}}
HAND_B2_FALSE = {"end": "false_claim", "winner": "B", "game_points": 2,
                 "points": {"A": 0, "B": 0}, "tricks": {"A": 0, "B": 0}}
HAND_TIE = {"end": "exhausted", "winner": None, "game_points": 0,
            "points": {"A": 65, "B": 65}, "tricks": {"A": 6, "B": 10}}
GAME = [(BOUNDARY_DECK, CLAIM_3), (BOUNDARY_DECK, FALSE_AT_ONCE), (TIE_DECK, TIE_ROLES),
        (BOUNDARY_DECK, CLAIM_3), (BOUNDARY_DECK, CLAIM_3)]


def test_r19_game_record_replays_to_the_winner():
    """R2/R17/R19: dealers A B A B A; B 3, B 2, tie, A 3, B 3: B wins 8 to 3.

    The tie's record stops after the last trick: R17 ends it (no 'pass' needed).
    """
    result = replay(record("A", *GAME))
    assert result == {"hands": [HAND_B3, HAND_B2_FALSE, HAND_TIE, HAND_A3, HAND_B3],
                      "game_winner": "B", "game_points": {"A": 3, "B": 8}}


def test_r2_game_record_with_B_dealing_first():
    """R2: first_dealer B: hand 1 is led by A, hand 2 by B."""
    result = replay(record("B", GAME[0], GAME[0]))
    assert result["hands"] == [HAND_A3, HAND_B3]
    assert result["game_winner"] is None and result["game_points"] == {"A": 3, "B": 3}


def test_r19_game_record_with_a_hand_after_the_win_is_an_error():
    """R19: a sixth hand after B reached 8 is refused, naming hand 5."""
    result = replay(record("A", *GAME, GAME[0]))
    assert result["error"].startswith("R19") and result["hand"] == 5


def test_r19_game_record_hand_stopped_midway_then_another_is_an_error():
    """R19: only the last hand of a game record may stop before its end."""
    result = replay(record("A", (BOUNDARY_DECK, CLAIM_3[:2]), GAME[1]))
    assert result["error"].startswith("R19") and result["hand"] == 1


def test_r19_game_record_last_hand_may_stop_midway():
    """R19: a record of a game in progress: the last hand has no end yet."""
    result = replay(record("A", GAME[0], (BOUNDARY_DECK, CLAIM_3[:2])))
    assert result["hands"][0] == HAND_B3
    assert result["hands"][1] == {"end": None, "winner": None, "game_points": 0,
                                  "points": {"A": 21, "B": 0}, "tricks": {"A": 1, "B": 0},
                                  "to_act": "A"}
    assert result["game_winner"] is None and result["game_points"] == {"A": 0, "B": 3}


def test_r19_game_record_illegal_action_names_hand_and_action():
    """R12 inside a game record: hand 1 (A leads), A declares on the first lead: refused."""
    result = replay(record("A", GAME[0], (BOUNDARY_DECK, ["N marriage h"])))
    assert result["error"].startswith("R12")
    assert result["hand"] == 1 and result["action"] == 0


def test_r4_game_record_misdeal_is_an_error():
    """R4: a 31-card deck in a game record is refused, naming the hand."""
    result = replay(record("A", GAME[0], (BOUNDARY_DECK[:31], FALSE_AT_ONCE)))
    assert "R1/R4" in result["error"] and result["hand"] == 1 and result["action"] is None
