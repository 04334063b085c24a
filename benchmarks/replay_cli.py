"""`mariage replay` end to end through the CLI, against a naive replayer, in the same run.

Run: `python benchmarks/replay_cli.py [--records N] [--repeat R]`. It writes N random legal
hand records (JSON Lines; seeded) to a temporary file, checks that `mariage replay` and
benchmarks/naive_replay.py print the same results for every record, then times both over the
file (best of R runs each, process start included) and reports records per second and the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mariage.engine.cards import deck_for
from mariage.engine.hand import Hand
from mariage.engine.profile import default_profile

HERE = Path(__file__).resolve().parent


def random_record(rng: random.Random, cards: list[str], profile) -> dict:
    """A hand played by random legal actions: lead options now and then, claims when right."""
    rng.shuffle(cards)
    dealer = rng.choice(profile.players)
    hand = Hand(cards, dealer=dealer, profile=profile)
    stop = rng.randrange(1, 30) if rng.random() < 0.05 else None     # a record cut mid-hand
    while not hand.is_over and len(hand.log) != stop:
        hand.apply(_choose(rng, hand, profile))
    return {"dealer": dealer, "deck": list(cards), "actions": [str(a) for a in hand.log]}


def _choose(rng: random.Random, hand: Hand, profile):
    actions = hand.legal_actions()
    by_verb: dict[str, list] = {}
    for action in actions:
        by_verb.setdefault(action.verb, []).append(action)
    player = hand.to_act
    assert player is not None
    if "claim" in by_verb and (hand.points(player) >= profile.thresholds.claim
                               or rng.random() < 0.01 or not by_verb.get("play")):
        if "pass" in by_verb and rng.random() < 0.5:
            return by_verb["pass"][0]
        return by_verb["claim"][0]
    options = [a for a in actions if a.verb in ("exchange", "close", "marriage")]
    if options and rng.random() < 0.4:
        return rng.choice(options)
    return rng.choice(by_verb["play"])


def write_records(path: Path, count: int, seed: int = 2026) -> None:
    profile = default_profile()
    cards = [str(c) for c in deck_for(profile).cards]
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for _ in range(count):
            out.write(json.dumps(random_record(rng, cards, profile)) + "\n")


def run(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[:3]} failed: {done.stderr[-2000:]}")
    return elapsed, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records.jsonl"
        write_records(records, args.records)
        ours = [sys.executable, "-m", "mariage.cli", "replay", str(records)]
        naive = [sys.executable, str(HERE / "naive_replay.py"), rules_path(), str(records)]
        ours_times, naive_times = [], []
        for _ in range(args.repeat):
            t, ours_out = run(ours)
            ours_times.append(t)
            t, naive_out = run(naive)
            naive_times.append(t)
        if ours_out != naive_out:
            raise SystemExit("the naive replayer and mariage replay disagree: "
                             + _first_difference(ours_out, naive_out))
    ours_rate, naive_rate = args.records / min(ours_times), args.records / min(naive_times)
    print(json.dumps({"records": args.records,
                      "mariage_replay_records_per_second": round(ours_rate),
                      "naive_replay_records_per_second": round(naive_rate),
                      "speed_ratio": round(ours_rate / naive_rate, 2), "target_ratio": 2.0},
                     indent=2))


def rules_path() -> str:
    from mariage.engine.profile import find_profile

    return str(find_profile())


def _first_difference(a: str, b: str) -> str:
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"record {number}: {x} against {y}"
    return "different number of records"


if __name__ == "__main__":
    main()
