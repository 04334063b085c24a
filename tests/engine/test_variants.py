"""The variant profiles (rules/variants/) and the switches of `options`: each changes only the
ruling it names. Every expected value is worked out by hand from the profile's sources, as in
the rest of the engine tests; the decks are written out card by card (top first).
"""

import dataclasses
import json

import pytest
import yaml

from conftest import ROOT
from engine.conftest import build_deck, legal_options, legal_plays, play, refused
from mariage import Hand
from mariage.engine.errors import ProfileError
from mariage.engine.notation import replay_hand
from mariage.engine.profile import load_profile

VARIANTS = ROOT / "rules" / "variants"
SIXTY_SIX = load_profile(VARIANTS / "sixty-six.yaml")
SCHNAPSEN = load_profile(VARIANTS / "schnapsen.yaml")
HOUSE = load_profile(VARIANTS / "house-rules.yaml")

# Sixty-Six, A deals: B gets cards 1-3 and 7-9, A 4-6 and 10-12, the 13th (As) is the
# indicator, spades are trump; the 11 others are the stock, then the indicator.
SIXTY_SIX_DECK = ["Ah", "9s", "Kc", "Jh", "Qd", "Jd", "Qc", "Jc", "10c", "9h", "9d", "9c", "As",
                  "10s", "Ks", "Qs", "Js", "Ac", "10h", "Kh", "Qh", "Ad", "10d", "Kd"]
# Schnapsen, A deals: B gets cards 1-3, A 4-6, the 7th (10d) is turned for trump, then B gets
# 8-9 and A 10-11; the 9 others are the talon, then the indicator.
SCHNAPSEN_DECK = ["Ac", "10c", "Kc", "Qc", "Jc", "Ad", "10d", "Jd", "Qd", "Kd", "Ah",
                  "10h", "Kh", "Qh", "Jh", "As", "10s", "Ks", "Qs", "Js"]


def cards(items) -> set[str]:
    return {str(c) for c in items}


def test_sixty_six_deals_24_cards_and_exchanges_the_trump_nine():
    hand = Hand(SIXTY_SIX_DECK, dealer="A", profile=SIXTY_SIX)
    assert cards(hand.holding("B")) == {"Ah", "9s", "Kc", "Qc", "Jc", "10c"}
    assert cards(hand.holding("A")) == {"Jh", "Qd", "Jd", "9h", "9d", "9c"}
    assert hand.trump_suit == "s" and hand.stock_size == 12
    assert "B exchange" not in legal_options(hand)          # R10: no trick won yet
    play(hand, "B play Ah", "A play Jh")                     # B takes 11 + 2
    assert cards(hand.holding("B")) >= {"10s"} and cards(hand.holding("A")) >= {"Ks"}
    assert "B exchange" in legal_options(hand)
    play(hand, "B exchange")
    assert "As" in cards(hand.holding("B")) and "9s" not in cards(hand.holding("B"))
    assert str(hand.indicator_card) == "9s"


def test_sixty_six_marriage_on_the_first_lead_counts_once_a_trick_is_won():
    hand = Hand(SIXTY_SIX_DECK, dealer="A", profile=SIXTY_SIX)
    assert {"B marriage c", "B close"} <= legal_options(hand)   # R12 option; R11 from trick 1
    play(hand, "B marriage c")
    assert hand.points("B") == 0                                  # not yet: no trick
    play(hand, "B play Kc", "A play 9c")                          # B takes 4 + 0, then the 20
    assert hand.points("B") == 24 and hand.tricks("B") == 1


def test_schnapsen_turns_the_trump_after_the_first_packets():
    hand = Hand(SCHNAPSEN_DECK, dealer="A", profile=SCHNAPSEN)
    assert cards(hand.holding("B")) == {"Ac", "10c", "Kc", "Jd", "Qd"}
    assert cards(hand.holding("A")) == {"Qc", "Jc", "Ad", "Kd", "Ah"}
    assert str(hand.indicator_card) == "10d" and hand.stock_size == 10
    assert [str(c) for c in hand.stock()] == SCHNAPSEN_DECK[11:] + ["10d"]


def test_schnapsen_exchanges_the_trump_jack_and_closes_on_the_first_lead():
    hand = Hand(SCHNAPSEN_DECK, dealer="A", profile=SCHNAPSEN)
    assert legal_options(hand) == {"B exchange", "B close", "B claim"}
    play(hand, "B exchange")
    assert "10d" in cards(hand.holding("B")) and str(hand.indicator_card) == "Jd"


def test_the_last_trick_wins_the_hand_without_a_bonus_as_in_schnapsen():
    assert (SCHNAPSEN.options.natural_end, SCHNAPSEN.bonuses.last_trick) == ("last_trick_wins", 0)
    profile = _with_options(natural_end="last_trick_wins", last_trick=0)
    outcome = replay_hand(_record("06-tie"), profile=profile).outcome
    # 06-tie: B wins trick 16 with 55 points against A's 65; the last trick decides (R17
    # option) and A, with 65 and tricks, costs 1 game point (R15).
    assert outcome.points == {"A": 65, "B": 55}
    assert (outcome.end.value, outcome.winner, outcome.game_points) == ("exhausted", "B", 1)


def test_a_tie_at_the_natural_end_goes_to_the_non_dealer():
    outcome = replay_hand(_record("06-tie"), profile=_with_options(natural_tie="non_dealer")).outcome
    # 65 each after B's last trick bonus; A dealt, so B wins, measured on A's 65 (R15): 1.
    assert outcome.points == {"A": 65, "B": 65}
    assert (outcome.end.value, outcome.winner, outcome.game_points) == ("exhausted", "B", 1)


def test_house_rules_strict_play_without_the_duty_to_beat():
    deck = build_deck(["8c", "9c", "Kh"], ["Ac", "7c", "7h"], "Jd")
    teaching = Hand(deck, dealer="A")
    house = Hand(deck, dealer="A", profile=HOUSE)
    assert "B close" not in legal_options(teaching)        # R11: trick 2 on
    play(house, "B close", "B play 8c")
    assert legal_plays(house) == {"Ac", "7c"}              # follow suit; beating is not required
    error = refused(house, "A play 7h", "R9")
    assert "follow suit if able, else trump if able" in str(error)


def test_house_rules_exchange_without_a_trick_and_no_last_trick_bonus():
    deck = build_deck(["7d", "8c", "9c"], ["Ac", "7c", "7h"], "Jd")
    assert "B exchange" in legal_options(Hand(deck, dealer="A", profile=HOUSE))
    assert "B exchange" not in legal_options(Hand(deck, dealer="A"))
    assert HOUSE.bonuses.last_trick == 0


def test_house_rules_a_closer_false_claim_is_an_ordinary_false_claim():
    deck = build_deck(["8c", "9c", "Kh"], ["Ac", "7c", "7h"], "Jd")
    # A has no trick when B closes: the teaching rule would give A 3 (R18); here 2 (R16).
    outcome = play(Hand(deck, dealer="A", profile=HOUSE), "B close", "B claim").outcome
    assert (outcome.end.value, outcome.winner, outcome.game_points, outcome.ruling) == \
        ("false_claim", "A", 2, "R16")
    teaching = _with_options(min_trick=1)
    outcome = play(Hand(deck, dealer="A", profile=teaching), "B close", "B claim").outcome
    assert (outcome.winner, outcome.game_points, outcome.ruling) == ("A", 3, "R18")


# ----- the loader is as strict with the new keys as with the old

@pytest.mark.parametrize("options,key,words", [
    ("natural_end: sometimes", "options.natural_end", "'higher_total' or 'last_trick_wins'"),
    ("natural_tie: dealer", "options.natural_tie", "'nobody' or 'non_dealer' or 'next_hand'"),
    ("marriage_needs_open_stock: 0", "options.marriage_needs_open_stock", "must be true or false"),
    ("exchange_min_stock: 0", "options.exchange_min_stock", "must be an integer >= 1"),
    ("exchange_needs_trick: 'yes'", "options.exchange_needs_trick", "must be true or false, not a string"),
    ("marriage_any_time: true", "options.marriage_any_time", "unknown key"),
    ("closer_false_claim: 2", "options.closer_false_claim", "closer_failed"),
])
def test_a_bad_option_names_file_line_and_key(tmp_path, options, key, words):
    path = tmp_path / "p.yaml"
    text = (ROOT / "rules" / "mariage.yaml").read_text(encoding="utf-8")
    text = text.replace("rulings:", f"options:\n  {options}\n\nrulings:", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert caught.value.key == key and words in str(caught.value), str(caught.value)
    assert caught.value.line == text.splitlines().index(f"  {options}") + 1


@pytest.mark.parametrize("old,new,key,words", [
    ("  indicator_after: 1 ", "  indicator_after: 3 ", "deal.indicator_after",
     "at most the 2 rounds"),
    ('ranks: [A, "10", K, Q, J]', 'ranks: [A, "10", K, J, "9"]', "deck.ranks", "K and Q"),
])
def test_a_bad_variant_profile_is_refused(tmp_path, old, new, key, words):
    text = (VARIANTS / "schnapsen.yaml").read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    if "J, \"9\"" in new:
        text = text.replace('card_points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}',
                            'card_points: {A: 11, "10": 10, K: 4, J: 5, "9": 0}')
    path = tmp_path / "p.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert caught.value.key == key and words in str(caught.value), str(caught.value)


# ----- helpers

def _record(name: str) -> dict:
    text = (ROOT / "examples" / f"{name}.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    return {key: meta[key] for key in ("dealer", "deck", "actions")}


def _with_options(min_trick: int | None = None, last_trick: int | None = None, **options):
    """The teaching profile with some switches turned (the loader validates the result)."""
    profile = load_profile(ROOT / "rules" / "mariage.yaml")
    update: dict = {"options": dataclasses.replace(profile.options, **options)}
    if min_trick is not None:
        update["closing"] = dataclasses.replace(profile.closing, min_trick=min_trick)
    if last_trick is not None:
        update["bonuses"] = dataclasses.replace(profile.bonuses, last_trick=last_trick)
    return profile.replace(**update)


def test_every_command_takes_a_variant_profile():
    from helpers import run_mariage

    record = ('{"dealer": "A", "deck": ' + str(SCHNAPSEN_DECK).replace("'", '"') +
              ', "actions": ["B exchange", "B close"]}')
    run = run_mariage("--profile", str(VARIANTS / "schnapsen.yaml"), "replay", "-", stdin=record)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["to_act"] == "B"
    teaching = run_mariage("replay", "-", stdin=record)        # 20 cards are not a Mariage deck
    assert teaching.returncode == 1 and "R1/R4" in teaching.stdout
    run = run_mariage("--profile", str(VARIANTS / "schnapsen.yaml"), "examples",
                      "schnapsen-jack-exchange")
    assert run.returncode == 0 and "1 passed, 0 failed" in run.stdout


@pytest.mark.parametrize("profile", [load_profile(ROOT / "rules" / "mariage.yaml"), SIXTY_SIX,
                                     SCHNAPSEN, HOUSE], ids=["mariage", "sixty-six",
                                                             "schnapsen", "house-rules"])
def test_a_profile_without_its_prose_keeps_every_rule(profile):
    """What the closing study is keyed by and given (site/render/pages.py): the rulings keep
    their ids and topics, lose their texts; the names and sources go; every value stays."""
    bare = profile.without_prose()
    assert [(r.id, r.topic, r.text) for r in bare.rulings] == \
        [(r.id, r.topic, "") for r in profile.rulings]
    assert bare.names == [] and bare.sources == [] and bare.name == profile.name
    data, kept = profile.as_data(), bare.as_data()
    for key in ("rulings", "names", "sources"):
        del data[key], kept[key]
    assert kept == data
    assert type(bare).from_plain(bare.as_data()) == bare       # the study process reads it so
