"""Whole hands traced on paper, trick by trick, for the tests that need a full stock.

A deals, B leads. In each of these hands B leads and wins the first ten tricks: at trick t
(t >= 2) B leads the card drawn after trick t-1 and A answers with the card A drew, so the
stock in drawing order is just the ten (B card, A card) pairs. After trick 10 (R8) B draws
card 32 and A, the loser, draws the indicator; the last six tricks are played under R9.
Every number in the comments was counted by hand with R1's card points.
"""

from __future__ import annotations


def _actions(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines() if line.strip()]


def first_ten(pairs: list[tuple[str, str]]) -> list[str]:
    """The actions of the first ten tricks, B leading each pair."""
    return [a for b_card, a_card in pairs for a in (f"B play {b_card}", f"A play {a_card}")]


# ---------------------------------------------------------------------------------------------
# TIE: clubs trump (indicator Jc). R17 tie: 65 against 65, nobody scores.
#   T1 Kc/Qc 7, T2 9c/8c 0, T3 7c/Jh 2 (trump), T4 10d/Kd 14, T5 Qd/Jd 5, T6 8d/7h 0 (off-suit),
#   T7 Kh/Qh 7, T8 As/10s 21, T9 Ks/Qs 7, T10 Js/7s 2 -> B 65 in 10 tricks; B draws 8s, A Jc.
#   B then holds 9h 8h 9d 7d 9s 8s (0 points), A holds Ac 10c Ah Ad 10h Jc.
#   T11 B 9h, A 10h (R9: must beat: Ah or 10h); A leads and wins the rest:
#   T12 Ah/8h, T13 Ad/9d, T14 Ac/7d (trump led, B has none: any), T15 10c/9s, T16 Jc/8s.
#   A captures 10+11+11+11+10+2 = 55, +10 for the last trick = 65. B 65.
TIE_DECK = ("Kc 9h 8h  Qc Ac 10c  9d 7d 9s  Ah Ad 10h  Jc  "
            "9c 8c 7c Jh 10d Kd Qd Jd 8d 7h Kh Qh As 10s Ks Qs Js 7s 8s").split()
TIE_PAIRS = [("Kc", "Qc"), ("9c", "8c"), ("7c", "Jh"), ("10d", "Kd"), ("Qd", "Jd"),
             ("8d", "7h"), ("Kh", "Qh"), ("As", "10s"), ("Ks", "Qs"), ("Js", "7s")]
TIE_LAST_SIX = _actions("""
    B play 9h
    A play 10h
    A play Ah
    B play 8h
    A play Ad
    B play 9d
    A play Ac
    B play 7d
    A play 10c
    B play 9s
    A play Jc
    B play 8s
""")
TIE_ACTIONS = first_ten(TIE_PAIRS) + TIE_LAST_SIX

# ---------------------------------------------------------------------------------------------
# LAST_TRICK: as TIE but A keeps Kc (indicator) and B's first trick is Qc/Jc.
#   B: T1 Qc/Jc 5, then as TIE: 0+2+14+5+0+7+21+7+2 -> B 63.
#   A captures 10h+9h, Ah+8h, Ad+9d, Ac+7d, 10c+9s, Kc+8s = 57 < 63, +10 last trick = 67.
#   R17: A wins; B has 63 >= 33: 1 game point. The last trick bonus decides the hand.
LAST_TRICK_DECK = ("Qc 9h 8h  Jc Ac 10c  9d 7d 9s  Ah Ad 10h  Kc  "
                   "9c 8c 7c Jh 10d Kd Qd Jd 8d 7h Kh Qh As 10s Ks Qs Js 7s 8s").split()
LAST_TRICK_PAIRS = [("Qc", "Jc")] + TIE_PAIRS[1:]
LAST_TRICK_LAST_SIX = [a.replace("A play Jc", "A play Kc") for a in TIE_LAST_SIX]
LAST_TRICK_ACTIONS = first_ten(LAST_TRICK_PAIRS) + LAST_TRICK_LAST_SIX

# ---------------------------------------------------------------------------------------------
# SWEEP: clubs trump (indicator Kc). B's ten tricks hold only Q, J and 7-9: 4 x 5 = 20 points.
#   T1 Qc/Jc 5, T2 9c/8c, T3 7c/7d (trump), T4 Qd/Jd 5, T5 9d/8d, T6 Qh/Jh 5, T7 9h/8h,
#   T8 7h/7s (off-suit), T9 Qs/Js 5, T10 9s/8s -> B 20; B draws Ks, A draws Kc.
#   B: 10h Kh 10d Kd 10s Ks; A: Ac 10c Ah Ad As Kc.
#   T11 B 10h, A Ah (the only card that beats) 21; T12 A Ad, B Kd 15; T13 A As, B Ks 15;
#   T14 A Ac (trump led, B void): B Kh 15; T15 A 10c, B 10d 20; T16 A Kc, B 10s 14.
#   A captures 100, +10 = 110; B 20 with 10 tricks: R17 gives A 2 game points.
SWEEP_DECK = ("Qc 10h Kh  Jc Ac 10c  10d Kd 10s  Ah Ad As  Kc  "
              "9c 8c 7c 7d Qd Jd 9d 8d Qh Jh 9h 8h 7h 7s Qs Js 9s 8s Ks").split()
SWEEP_PAIRS = [("Qc", "Jc"), ("9c", "8c"), ("7c", "7d"), ("Qd", "Jd"), ("9d", "8d"),
               ("Qh", "Jh"), ("9h", "8h"), ("7h", "7s"), ("Qs", "Js"), ("9s", "8s")]
SWEEP_LAST_SIX = _actions("""
    B play 10h
    A play Ah
    A play Ad
    B play Kd
    A play As
    B play Ks
    A play Ac
    B play Kh
    A play 10c
    B play 10d
    A play Kc
    B play 10s
""")
SWEEP_ACTIONS = first_ten(SWEEP_PAIRS) + SWEEP_LAST_SIX

# ---------------------------------------------------------------------------------------------
# SLAM: hearts trump (indicator 7h, so no exchange is possible). B wins all 16 tricks.
#   T1 Qc/Jc 5, T2 9c/8c, T3 7c/7d (off-suit), T4 Qd/Jd 5, T5 9d/8d, T6 10h/Jh 12 (trump),
#   T7 9h/8h, T8 Ks/Qs 7, T9 Js/9s 2, T10 8s/7s -> B 31; B draws As, A draws 7h.
#   B: Ah Kh Qh Ac Ad As; A: 10c Kc 10d Kd 10s 7h.
#   T11 B Ah, A 7h (must trump) 11; T12 B Ac, A Kc 15; T13 B Ad, A Kd 15; T14 B As, A 10s 21;
#   T15 B Kh, A 10c (no trump left: any) 14; T16 B Qh, A 10d 13.
#   B 31 + 89 = 120, +10 = 130; A 0 and no trick: R17 gives B 3 game points.
SLAM_DECK = ("Qc Ah Kh  Jc 10c Kc  Qh Ac Ad  10d Kd 10s  7h  "
             "9c 8c 7c 7d Qd Jd 9d 8d 10h Jh 9h 8h Ks Qs Js 9s 8s 7s As").split()
SLAM_PAIRS = [("Qc", "Jc"), ("9c", "8c"), ("7c", "7d"), ("Qd", "Jd"), ("9d", "8d"),
              ("10h", "Jh"), ("9h", "8h"), ("Ks", "Qs"), ("Js", "9s"), ("8s", "7s")]
SLAM_LAST_SIX = _actions("""
    B play Ah
    A play 7h
    B play Ac
    A play Kc
    B play Ad
    A play Kd
    B play As
    A play 10s
    B play Kh
    A play 10c
    B play Qh
    A play 10d
""")
SLAM_ACTIONS = first_ten(SLAM_PAIRS) + SLAM_LAST_SIX

# ---------------------------------------------------------------------------------------------
# HELD: clubs trump (indicator Kc). After trick 10 B still holds Kh Qh and the 7 of trumps.
#   B is dealt Qc Kh Qh 7c Kd 10s and draws the pairs' B cards, then Ks as card 32.
#   T1 Qc/Jc, T2 9c/8c, T3 10d/Qd, T4 Jd/9d, T5 8d/7d, T6 10h/Jh, T7 9h/8h, T8 7h/7s (off-suit),
#   T9 Qs/Js, T10 9s/8s. After T10: B Kh Qh 7c Kd 10s Ks, A Ac 10c Ah Ad As + Kc (indicator).
HELD_DECK = ("Qc Kh Qh  Jc Ac 10c  7c Kd 10s  Ah Ad As  Kc  "
             "9c 8c 10d Qd Jd 9d 8d 7d 10h Jh 9h 8h 7h 7s Qs Js 9s 8s Ks").split()
HELD_PAIRS = [("Qc", "Jc"), ("9c", "8c"), ("10d", "Qd"), ("Jd", "9d"), ("8d", "7d"),
              ("10h", "Jh"), ("9h", "8h"), ("7h", "7s"), ("Qs", "Js"), ("9s", "8s")]
HELD_ACTIONS = first_ten(HELD_PAIRS)


def with_roles(actions: list[str], non_dealer: str) -> list[str]:
    """The same actions with B (the non-dealer above) renamed, for a hand B deals."""
    if non_dealer == "B":
        return list(actions)
    swap = {"A": "B", "B": "A"}
    return [swap[a[0]] + a[1:] for a in actions]
