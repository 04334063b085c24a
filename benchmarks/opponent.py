"""The computer opponent's thinking time per decision: with the stock open (rules of thumb, a
sampled close now and then) and once it is closed or exhausted (perfect-information Monte Carlo
over the double-dummy solver). The Play page runs the same code in Pyodide, a few times slower,
while the reader waits: the target is a strict-play decision within TARGET seconds here.

Run: `python benchmarks/opponent.py [--hands N] [--quick]` (seeded hands against random play).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from mariage.engine.cards import deck_for
from mariage.engine.hand import Hand
from mariage.engine.profile import default_profile
from mariage.play.opponent import Opponent, random_player

TARGET = 0.5          # seconds, worst strict-play decision on one core of the development machine


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="two hands")
    args = parser.parse_args()
    if args.quick:
        args.hands = 2
    profile = default_profile()
    times: dict[str, list[float]] = {"open": [], "strict": []}
    for seed in range(args.hands):
        rng = random.Random(seed)
        cards = [str(c) for c in deck_for(profile).cards]
        rng.shuffle(cards)
        hand = Hand(cards, dealer=profile.players[seed % 2], profile=profile)
        me, other = Opponent("A", seed), random_player("B", seed)
        while not hand.is_over:
            if hand.to_act == "A":
                phase = "open" if hand.stock_open else "strict"
                start = time.process_time()
                action = me.choose(hand)
                times[phase].append(time.process_time() - start)
            else:
                action = other(hand)
            hand.apply(action)
    report = {"hands": args.hands, "target_worst_strict_seconds": TARGET}
    for phase, spent in times.items():
        report[f"{phase}_decisions"] = len(spent)
        report[f"{phase}_mean_seconds"] = round(sum(spent) / max(len(spent), 1), 4)
        report[f"{phase}_worst_seconds"] = round(max(spent, default=0.0), 4)
    report["met"] = report["strict_worst_seconds"] <= TARGET
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
