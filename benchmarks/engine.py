"""Engine throughput: random full hands per second, and replayed records per second.

Run: `make bench` (or `python benchmarks/engine.py [--quick]`). One process, one core. A "full hand" is
dealt from a shuffled deck and played to the end of all 16 tricks by random legal plays, with
no claims and no closing, then ended by R17. When the optional `schnapsen` package is installed
(`pip install -e ".[bench]"`), its random games are timed in the same process for scale.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import random
import time
import tracemalloc

from mariage.engine.cards import deck_for
from mariage.engine.hand import Hand
from mariage.engine.notation import replay
from mariage.engine.profile import default_profile


def random_full_hand(cards: list[str], rng: random.Random, profile, record: bool = False):
    rng.shuffle(cards)
    hand = Hand(cards, dealer="A", profile=profile)
    log = []
    while not hand.all_played:
        mask = hand.legal_plays_mask()
        for _ in range(rng.randrange(mask.bit_count())):
            mask &= mask - 1                       # drop the lowest set bits: a uniform choice
        card = (mask & -mask).bit_length() - 1
        if record:
            log.append(f"{hand.to_act} play {hand.deck.card(card)}")
        hand.play_index(card)
    hand.finish()
    return hand, log


def hands_per_second(seconds: float = 3.0) -> tuple[float, list[dict]]:
    profile = default_profile()
    cards = [str(c) for c in deck_for(profile).cards]
    rng = random.Random(2026)
    records, count, start = [], 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        keep = len(records) < 1000
        hand, log = random_full_hand(cards, rng, profile, record=keep)
        if keep:
            records.append({"dealer": hand.dealer, "deck": list(cards), "actions": log})
        count += 1
    return count / (time.perf_counter() - start), records


def records_per_second(records: list[dict], seconds: float = 3.0) -> float:
    profile = default_profile()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for record in records:
            replay(record, profile)
            count += 1
    return count / (time.perf_counter() - start)


def schnapsen_games_per_second(seconds: float = 3.0) -> float | None:
    try:
        from schnapsen.game import SchnapsenGamePlayEngine  # type: ignore
        from schnapsen.bots import RandBot  # type: ignore
    except ImportError:
        return None
    engine, rng = SchnapsenGamePlayEngine(), random.Random(2026)
    bots = [RandBot(random.Random(1), "rand1"), RandBot(random.Random(2), "rand2")]
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        engine.play_game(bots[0], bots[1], rng)
        count += 1
    return count / (time.perf_counter() - start)


def hand_size_bytes() -> int:
    """Memory of one mid-hand state, measured with tracemalloc over 1,000 copies."""
    profile = default_profile()
    cards = [str(c) for c in deck_for(profile).cards]
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    hands = [Hand(cards, dealer="A", profile=profile) for _ in range(1000)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del hands
    return round(size / 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of a second per figure")
    seconds = 0.1 if parser.parse_args().quick else 3.0
    hands, records = hands_per_second(seconds)
    result = {"random_full_hands_per_second": round(hands),
              "hand_state_bytes": hand_size_bytes(),
              "replayed_records_per_second": round(records_per_second(records, seconds)),
              "target_hands_per_second": 15000}
    other = schnapsen_games_per_second(seconds)
    if other is not None:
        result["schnapsen_package_random_deals_per_second"] = round(other)
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    result["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
