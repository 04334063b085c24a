"""Reprs paste back into Python (as in python-chess): eval(repr(x)) rebuilds x."""

import mariage
from mariage import Action, Card, End, Hand, Outcome

NAMES = {name: getattr(mariage, name) for name in mariage.__all__}
DECK = ("Jc Ks Qs Qd As 10d 9d 8d 7d Kh Qh 8c 9h 7c 9c Ac 10c Kc Qc Jd Ad Kd 10h Ah Jh 8h 7h "
        "10s Js 9s 8s 7s")


def test_card_repr_pastes_back():
    assert repr(Card("K♥")) == "Card('Kh')"
    assert eval(repr(Card("10d")), NAMES) == Card("10d")


def test_action_repr_pastes_back():
    action = Action.parse("A marriage h")
    assert eval(repr(action), NAMES) == action


def test_hand_repr_replays_to_the_same_position():
    hand = Hand.replay(DECK, ["B play Jc", "A play Qd", "B marriage s"], dealer="A")
    again = eval(repr(hand), NAMES)
    assert repr(again) == repr(hand)
    assert again.points("B") == 25 and again.to_act == "B"


def test_outcome_repr_pastes_back():
    outcome = Outcome(End.CLAIM, "A", 2, {"A": 68, "B": 25}, {"A": 2, "B": 1}, "R15")
    assert eval(repr(outcome), NAMES) == outcome
