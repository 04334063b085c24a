"""Double-dummy solver speed: positions searched per second, and the worst case of the issue,
the first position after a close with six cards in each hand.

Run: `python benchmarks/solver.py [--deals N] [--quick]`. Each deal is shuffled (seeded), its first
trick played with each player's first card, then closed by the trick's winner: the solver then
has six cards in each hand to search.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import time

from mariage.engine.cards import deck_for
from mariage.engine.hand import Hand
from mariage.engine.profile import default_profile
from mariage.engine.solver import Solver


def closed_at_trick_two(rng: random.Random, cards: list[str], profile) -> Hand:
    rng.shuffle(cards)
    hand = Hand(cards, dealer="A", profile=profile)
    for _ in range(2):
        player = hand.to_act
        assert player is not None
        hand.apply(f"{player} play {hand.holding(player)[0]}")
    hand.apply(f"{hand.to_act} close")
    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="five deals")
    args = parser.parse_args()
    if args.quick:
        args.deals = 5
    profile = default_profile()
    cards = [str(c) for c in deck_for(profile).cards]
    rng = random.Random(2026)
    nodes, total, worst = 0, 0.0, 0.0
    for _ in range(args.deals):
        hand = closed_at_trick_two(rng, cards, profile)
        start = time.perf_counter()
        solver = Solver(hand)
        solver.solve()
        elapsed = time.perf_counter() - start
        nodes, total, worst = nodes + solver.nodes, total + elapsed, max(worst, elapsed)
    print(json.dumps({"deals": args.deals,
                      "solved_positions_per_second": round(nodes / total),
                      "mean_seconds_after_close_six_each": round(total / args.deals, 4),
                      "worst_seconds_after_close_six_each": round(worst, 4),
                      "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                            / 1024, 1),
                      "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                      "load_average": [round(x, 2) for x in os.getloadavg()]}, indent=2))


if __name__ == "__main__":
    main()
