"""The switches issue 23 added or set from the sources, one row per ruling and switch: each row
plays one record under two profiles that differ only in that switch, and states by hand what
the ruling gives under each (R10, R11, R12, R16, R17). The sources behind each value are cited
in rules/variants/*.yaml; the expected values here are read from the rulings, never from the
engine."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import ROOT
from engine.conftest import legal_options, play, refused
from mariage import Hand
from mariage.engine.game import Game
from mariage.engine.profile import Profile, load_profile
from mariage.engine.solver import solve

VARIANTS = ROOT / "rules" / "variants"
SCHNAPSEN = load_profile(VARIANTS / "schnapsen.yaml")
SIXTY_SIX = load_profile(VARIANTS / "sixty-six.yaml")
TEACHING = load_profile(ROOT / "rules" / "mariage.yaml")

# Schnapsen, A deals: B holds Kc Qc Jc Kh Qh, A holds Ac 10c Ah 10h Jh; 10d is turned for trump.
# A wins the first four tricks (13 + 13 + 15 + 13 = 54 points) and draws Jd, Ks, Qs, Ad, so A
# is on lead with Jh Jd Ks Qs Ad, B has no trick, and the talon holds Qd and the trump 10d.
LAST_OPEN_LEAD = (["Kc", "Qc", "Jc", "Ac", "10c", "Ah", "10d", "Kh", "Qh", "10h", "Jh",
                   "Jd", "As", "Ks", "10s", "Qs", "Js", "Ad", "Kd", "Qd"],
                  ["B play Jc", "A play Ac", "A play 10c", "B play Qc",
                   "A play Ah", "B play Kh", "A play 10h", "B play Qh"])


def schnapsen_with(**changes) -> Profile:
    """Schnapsen with one switch turned back to the other choice its sources name."""
    update = {}
    for section in ("options", "closing", "rates"):
        struct = getattr(SCHNAPSEN, section)
        names = {f.name for f in dataclasses.fields(struct)}
        mine = {k: v for k, v in changes.items() if k in names}
        if mine:
            update[section] = dataclasses.replace(struct, **mine)
    return SCHNAPSEN.replace(**update)


def at_last_open_lead(profile: Profile) -> Hand:
    deck, actions = LAST_OPEN_LEAD
    hand = Hand(deck, dealer="A", profile=profile)
    play(hand, *actions)
    assert hand.stock_size == 2 and hand.points("A") == 54 and hand.tricks("B") == 0
    return hand


# ----- R10, R11: the trump card and one face-down card left

@pytest.mark.parametrize("ruling,option,changes,allowed", [
    ("R10", "A exchange", {}, True),                          # pagat, Tompa: any open talon
    ("R10", "A exchange", {"exchange_min_stock": 3}, False),  # tjger, "tough rules": not then
    ("R11", "A close", {}, True),                             # pagat, Tompa: close on the last open lead
    ("R11", "A close", {"min_stock": 3}, False),              # tjger: more than two cards
])
def test_the_last_open_lead_allows_the_exchange_and_the_close(ruling, option, changes, allowed):
    hand = at_last_open_lead(schnapsen_with(**changes))
    if allowed:
        assert option in legal_options(hand)
        play(hand, option)
    else:
        assert option not in legal_options(hand)
        refused(hand, option, ruling)


# ----- R12: marriages once the stock is closed or exhausted

@pytest.mark.parametrize("profile_changes,after_close", [
    ({}, "allowed"),                                          # Schnapsen: pagat, Tompa
    ({"marriage_needs_open_stock": True}, "refused"),         # Sixty-Six, the teaching profile
])
def test_a_marriage_after_closing(profile_changes, after_close):
    hand = at_last_open_lead(schnapsen_with(**profile_changes))
    play(hand, "A exchange", "A close")                       # A now holds 10d, the trump ten
    if after_close == "refused":
        error = refused(hand, "A marriage s", "R12")
        assert "closing or exhausting the stock ends all declarations" in str(error)
        return
    play(hand, "A marriage s", "A claim")
    # 54 + 20 = 74 (R12, R13); B had no trick at the close, so A scores 3 (R18 by R15).
    outcome = hand.outcome
    assert (outcome.winner, outcome.game_points, outcome.points["A"], outcome.ruling) == \
        ("A", 3, 74, "R18")


def test_a_marriage_with_the_stock_exhausted_in_schnapsen_only():
    # From LAST_OPEN_LEAD A leads Jh and B throws As (no duty yet): A takes the trick and
    # draws Qd, B the trump 10d. The talon is exhausted and A leads, holding Ks and Qs.
    for profile, expected in ((SCHNAPSEN, True),
                              (schnapsen_with(marriage_needs_open_stock=True), False)):
        hand = at_last_open_lead(profile)
        play(hand, "A play Jh", "B play As")
        assert hand.stock_size == 0 and hand.to_act == "A"
        assert ("A marriage s" in legal_options(hand)) is expected     # R12 switch


def test_the_fast_path_honours_the_marriage_switch():
    deck, actions = LAST_OPEN_LEAD
    record = actions + ["A exchange", "A close", "A marriage s", "A play Ks"]
    one = Hand(deck, dealer="A", profile=SCHNAPSEN)
    for action in record:
        one.apply(action)
    fast = Hand(deck, dealer="A", profile=SCHNAPSEN).apply_all(record)
    assert fast.points("A") == one.points("A") == 74 and str(fast.led) == "Ks"
    strict = Hand(deck, dealer="A", profile=schnapsen_with(marriage_needs_open_stock=True))
    with pytest.raises(Exception, match="R12"):
        strict.apply_all(record)
    assert len(strict.log) == len(actions) + 2               # refused at the marriage


def test_the_solver_declares_a_marriage_after_the_close():
    # Closed with 54 points and the spade marriage in hand: declaring gives 74, a correct claim
    # worth 3 at once (R12, R18). Without the move the solver must win tricks first.
    hand = at_last_open_lead(SCHNAPSEN)
    play(hand, "A exchange", "A close")
    best = solve(hand)
    assert (best.winner, best.game_points) == ("A", 3)
    assert best.line == ["A marriage s", "A claim"]
    strict = at_last_open_lead(schnapsen_with(marriage_needs_open_stock=True))
    play(strict, "A exchange", "A close")
    assert "marriage" not in " ".join(solve(strict).line)


# ----- R16: the false claim before the opponent's first trick

SCHNAPSEN_DECK = ["Ac", "10c", "Kc", "Qc", "Jc", "Ad", "10d", "Jd", "Qd", "Kd", "Ah",
                  "10h", "Kh", "Qh", "Jh", "As", "10s", "Ks", "Qs", "Js"]


@pytest.mark.parametrize("profile,actions,winner,game_points", [
    # B claims on the opening lead: A has no trick, pagat's 3.
    (SCHNAPSEN, ["B claim"], "A", 3),
    # The other choice (no raised rate) and the teaching profile's flat R16: 2.
    (schnapsen_with(false_claim_no_trick=None), ["B claim"], "A", 2),
    # A has taken a trick (B leads the trump Jd, A's Kd takes it), then B takes A's Qc with
    # Ac and claims with 14: A has a trick, so 2.
    (SCHNAPSEN, ["B play Jd", "A play Kd", "A play Qc", "B play Ac", "B claim"], "A", 2),
])
def test_a_false_claim_before_the_opponent_has_a_trick(profile, actions, winner, game_points):
    hand = Hand(SCHNAPSEN_DECK, dealer="A", profile=profile)
    play(hand, *actions)
    outcome = hand.outcome
    assert (outcome.end.value, outcome.winner, outcome.game_points, outcome.ruling) == \
        ("false_claim", winner, game_points, "R16")


# ----- R17: the natural end's value

# Schnapsen, A deals; clubs are trump. Nobody claims; B takes the last trick (As over Js) with
# 93 points to A's 27 from 2 tricks (Jd+10c 12, Ad+Kd 15).
NATURAL_END = (["Qh", "Ac", "10d", "Ah", "Qs", "Js", "Jc", "As", "Kc", "Qc", "Ks", "Jh", "Qd",
                "10h", "10s", "Jd", "10c", "Ad", "Kd", "Kh"],
               ["B play Ac", "A play Qc", "B play Kc", "A play Qd", "B play 10d", "A play Ah",
                "B play Jd", "A play 10c", "A play Ad", "B play Kd", "A play Kh", "B play 10h",
                "B play Jc", "A play 10s", "B play Qh", "A play Ks", "B play Jh", "A play Qs",
                "B play As", "A play Js", "B pass"])


@pytest.mark.parametrize("profile,game_points", [
    (SCHNAPSEN, 1),                                 # pagat: "one game point", whatever the points
    (schnapsen_with(natural_end=None), 2),          # Tompa: as a claim; A has 27 < 33, a trick
])
def test_the_natural_end_scores_the_last_trick(profile, game_points):
    deck, actions = NATURAL_END
    outcome = play(Hand(deck, dealer="A", profile=profile), *actions).outcome
    assert outcome.points == {"A": 27, "B": 93} and outcome.tricks["A"] == 2
    assert (outcome.winner, outcome.game_points, outcome.ruling) == ("B", game_points, "R17")


# ----- R17 switch: Sixty-Six's 65-65 tie carries a point to the next hand

@pytest.mark.parametrize("natural_tie,scores", [
    ("next_hand", [0, 2]),      # schnapsen66.info: the next hand's winner scores one more
    ("nobody", [0, 1]),
])
def test_a_tie_carries_a_point_to_the_next_hand(natural_tie, scores):
    profile = TEACHING.replace(options=dataclasses.replace(TEACHING.options,
                                                               natural_tie=natural_tie))
    game = Game("A", profile)
    tie = _example_hand("06-tie", profile)          # 65-65 (R17): nobody scores
    won = _example_hand("06-last-trick", profile)   # A wins 1 (R17)
    assert tie.outcome.winner is None and (won.outcome.winner, won.outcome.game_points) == ("A", 1)
    assert [game.record(tie.outcome), game.record(won.outcome)] == scores
    assert game.game_points["A"] == scores[1]


def test_sixty_six_sets_the_switches_its_sources_give():
    assert (SIXTY_SIX.options.natural_tie, SIXTY_SIX.options.marriage_needs_open_stock) == \
        ("next_hand", True)
    assert (SCHNAPSEN.options.marriage_needs_open_stock, SCHNAPSEN.rates.false_claim_no_trick,
            SCHNAPSEN.rates.natural_end, SCHNAPSEN.closing.min_stock) == (False, 3, 1, 2)
    assert TEACHING.options.marriage_needs_open_stock is True


def _example_hand(name: str, profile: Profile, stop: int | None = None) -> Hand:
    import yaml

    text = (ROOT / "examples" / f"{name}.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    hand = Hand(meta["deck"], dealer=meta["dealer"], profile=profile)
    hand.apply_all(meta["actions"][:stop])
    if stop is None and not hand.is_over:
        hand.finish()
    return hand


# ----- the solver without deliberate false claims (R16, R18): for tables that refuse them

def _honest_minimax(deck: list[str], dealer: str, actions: list[str], profile: Profile) -> int:
    """The engine's own legal actions, a claim only when correct (R15), searched exhaustively."""
    hand = Hand.replay(deck, actions, dealer=dealer, profile=profile)
    if hand.outcome is not None:
        o = hand.outcome
        return 0 if o.winner is None else (o.game_points if o.winner == "A" else -o.game_points)
    player = hand.to_act
    values = [_honest_minimax(deck, dealer, actions + [str(a)], profile)
              for a in hand.legal_actions()
              if a.verb != "claim" or hand.points(player) >= profile.thresholds.claim]
    return max(values) if player == "A" else min(values)


@pytest.mark.parametrize("path", [ROOT / "rules" / "mariage.yaml", VARIANTS / "schnapsen.yaml",
                                  VARIANTS / "sixty-six.yaml"],
                         ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", range(6))
def test_the_solver_without_false_claims_agrees_with_the_engine(path, seed):
    from engine.test_solver import _late_position, signed

    profile = load_profile(path)
    deck, dealer, hand = _late_position(profile, seed)
    expected = _honest_minimax(deck, dealer, [str(a) for a in hand.log], profile)
    solution = solve(hand, false_claims=False)
    assert signed(solution) == expected
    assert all(not step.endswith("claim") for step in solution.line[:-1])


@pytest.mark.parametrize("false_claims,winner,game_points,last", [
    (True, "A", 2, "B claim"),     # B concedes 2 by claiming with 13 (R16) rather than lose 3
    (False, "A", 3, "A claim"),    # honest play: A takes every trick and claims (R18, R15)
])
def test_a_deliberate_false_claim_is_a_move_only_where_tables_allow_it(false_claims, winner,
                                                                        game_points, last):
    hand = _example_hand("05-false-claim-saves", TEACHING, stop=-1)
    best = solve(hand, false_claims=false_claims)
    assert (best.winner, best.game_points, best.line[-1]) == (winner, game_points, last)


# ----- R11 switch: closing before the draw (Sixty-Six as the American Hoyle plays it)

# Sixty-Six, A deals: B holds Ah 9s Kc Qc Jc 10c, A holds Jh Qd Jd 9h 9d 9c; As is turned for
# trump. B takes A's Jh with Ah (11 + 2) and draws 10s; A draws Ks.
SIXTY_SIX_DECK = ["Ah", "9s", "Kc", "Jh", "Qd", "Jd", "Qc", "Jc", "10c", "9h", "9d", "9c", "As",
                  "10s", "Ks", "Qs", "Js", "Ac", "10h", "Kh", "Qh", "Ad", "10d", "Kd"]


@pytest.mark.parametrize("before_drawing,allowed", [
    (True, True),       # [Hoyle]: "either before or after drawing"
    (False, False),     # the teaching profile and Schnapsen: the close follows the draw
])
def test_closing_before_the_draw(before_drawing, allowed):
    profile = SIXTY_SIX.replace(closing=dataclasses.replace(SIXTY_SIX.closing,
                                                              before_drawing=before_drawing))
    hand = play(Hand(SIXTY_SIX_DECK, dealer="A", profile=profile), "B play Ah", "A play Jh")
    assert {"10s"} <= {str(c) for c in hand.holding("B")} and hand.stock_size == 10
    if not allowed:
        assert "B close before" not in legal_options(hand)
        refused(hand, "B close before", "R11")
        return
    assert {"B close", "B close before"} <= legal_options(hand)
    play(hand, "B close before")
    # The draw goes back: both play on with 5 cards; the 12 cards of the stock are out of play.
    assert {str(c) for c in hand.holding("B")} == {"9s", "Kc", "Qc", "Jc", "10c"}
    assert {str(c) for c in hand.holding("A")} == {"Qd", "Jd", "9h", "9d", "9c"}
    assert hand.closer == "B" and hand.stock_size == 0 and len(hand.out_of_play()) == 12
    assert [str(c) for c in hand.out_of_play()][:2] == ["10s", "Ks"]
    hand.check_invariants()


@pytest.mark.parametrize("record,ruling", [
    (["B play Ah", "A play Jh", "B exchange", "B close before"], "R11"),   # not first on the lead
    (["B close before"], "R11"),                                         # no trick has drawn yet
    (["B play Ah", "A play Jh", "B close", "B close before"], "R11"),     # once only
])
def test_closing_before_the_draw_comes_first_and_once(record, ruling):
    hand = Hand(SIXTY_SIX_DECK, dealer="A", profile=SIXTY_SIX)
    play(hand, *record[:-1])
    refused(hand, record[-1], ruling)


def test_the_fast_path_closes_before_the_draw_as_apply_does():
    record = ["B play Ah", "A play Jh", "B close before", "B play 10c", "A play 9c"]
    one = Hand(SIXTY_SIX_DECK, dealer="A", profile=SIXTY_SIX)
    for action in record:
        one.apply(action)
    fast = Hand(SIXTY_SIX_DECK, dealer="A", profile=SIXTY_SIX).apply_all(record)
    assert [str(c) for c in fast.holding("B")] == [str(c) for c in one.holding("B")]
    assert fast.points("B") == one.points("B") == 13 + 10 and fast.stock_size == 0


@pytest.mark.parametrize("text,words", [
    ("B close after", "'close' takes nothing, or 'before' to close before drawing"),
    ("B close before now", "'close' takes nothing, or 'before'"),
])
def test_close_takes_only_before(text, words):
    from mariage.engine.actions import Action
    from mariage.engine.errors import RecordError

    with pytest.raises(RecordError, match=words):
        Action.parse(text)


# ----- R18 switches: how pagat's Sixty-Six scores a closed hand [Senst]

# Sixty-Six, A deals; hearts are trump (10h turned). B holds 10s 10c Qh Kh As Kd, A holds
# Ks 10d Js Ac Qc Qs. B takes Ks with 10s (14) and draws 9c, A draws 9s; B declares the trump
# marriage (40: 54) and takes Js with Kh (6: 60); B draws Ah, A draws 9h. B closes: A has no
# trick and 0 points. A's 10d takes B's Kd (A: 14 points, 1 trick); B's 10c takes A's Qc
# (13: B has 73) and B claims correctly.
CLOSER_CLAIMS = (["10s", "10c", "Qh", "Ks", "10d", "Js", "Kh", "As", "Kd", "Ac", "Qc", "Qs",
                  "10h", "9c", "9s", "Ah", "9h", "Jh", "Qd", "Ad", "Kc", "9d", "Jd", "Jc"],
                 ["B play 10s", "A play Ks", "B marriage h", "B play Kh", "A play Js", "B close",
                  "B play Kd", "A play 10d", "A play Qc", "B play 10c", "B claim"])

# Sixty-Six, A deals; diamonds are trump (9d turned). B holds Ac Ah Kc Js 9c Qc, A holds
# Ad Jd 10c 9h 10s 10d. B closes on the opening lead: A has no trick. A's 10c takes Kc (14),
# A's Ad takes Ah (22: 36), A's 10d takes Ac (21: 57), 9h takes 9c (0), 10s takes Js (12: 69),
# and A, the closer's opponent, claims correctly first.
OPPONENT_CLAIMS = (["Ac", "Ah", "Kc", "Ad", "Jd", "10c", "Js", "9c", "Qc", "9h", "10s", "10d",
                    "9d", "Kd", "Ks", "Kh", "Jc", "Jh", "10h", "As", "Qd", "Qs", "Qh", "9s"],
                   ["B close", "B play Kc", "A play 10c", "A play Ad", "B play Ah", "A play 10d",
                    "B play Ac", "A play 9h", "B play 9c", "A play 10s", "B play Js", "A claim"])


def sixty_six_with(section: str, **changes) -> Profile:
    return SIXTY_SIX.replace(**{section: dataclasses.replace(getattr(SIXTY_SIX, section), **changes)})


@pytest.mark.parametrize("record,profile,winner,game_points", [
    # [Senst]: the closer's win counts the trick A took after the close: 14 points, a trick: 2.
    (CLOSER_CLAIMS, SIXTY_SIX, "B", 2),
    # The teaching profile's R18: scored on A's state at the close, no trick: 3.
    (CLOSER_CLAIMS, sixty_six_with("closing", scored_at="close"), "B", 3),
    # [Senst]: the closer's opponent who goes out first scores 2, whatever its tricks at the close.
    (OPPONENT_CLAIMS, SIXTY_SIX, "A", 2),
    # The teaching profile's R18: the closer's penalty, 3 as A had no trick at the close.
    (OPPONENT_CLAIMS, sixty_six_with("rates", closer_beaten=None), "A", 3),
])
def test_how_a_closed_hand_is_scored(record, profile, winner, game_points):
    deck, actions = record
    hand = play(Hand(deck, dealer="A", profile=profile), *actions)
    outcome = hand.outcome
    assert (outcome.end.value, outcome.winner, outcome.game_points, outcome.ruling) == \
        ("claim", winner, game_points, "R18")
    assert outcome.points == ({"A": 14, "B": 73} if winner == "B" else {"A": 69, "B": 0})
