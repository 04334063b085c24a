"""`mariage replay` end to end through the CLI, against a naive replayer, in the same run.

Run: `python benchmarks/replay_cli.py [--records N] [--repeat R] [--quick]`. It writes N random legal
hand records (JSON Lines; seeded) to a temporary file, checks that `mariage replay` and
benchmarks/naive_replay.py print the same results for every record, then times both over the
file (best of R runs each, process start included) and reports records per second and the ratio.
Each command is also timed on an empty file: its start-up (imports, reading and validating the
profile) is reported, and the ratio of the per-record times once start-up is taken off.
The ratio is taken on CPU time (user + system of the child process), which other work on a
shared machine disturbs far less than wall time; both are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
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


def run(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one run of command, and what it printed."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{command[:3]} failed: {done.stderr[-2000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="200 records, one run")
    args = parser.parse_args()
    if args.quick:
        args.records, args.repeat = 200, 1
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records.jsonl"
        write_records(records, args.records)
        ours = [sys.executable, "-m", "mariage.cli", "replay", str(records)]
        naive = [sys.executable, str(HERE / "naive_replay.py"), rules_path(), str(records)]
        empty = Path(tmp) / "empty.jsonl"
        empty.write_text("")
        times: dict[str, list[tuple[float, float]]] = {"mariage_replay": [], "naive_replay": []}
        start_up: dict[str, list[float]] = {"mariage_replay": [], "naive_replay": []}
        outputs = {}
        for _ in range(args.repeat):
            for name, command in (("mariage_replay", ours), ("naive_replay", naive)):
                wall, cpu, outputs[name] = run(command)
                times[name].append((wall, cpu))
                start_up[name].append(run(command[:-1] + [str(empty)])[1])
        ours_out, naive_out = ([json.loads(line) for line in outputs[name].splitlines()]
                               for name in ("mariage_replay", "naive_replay"))
        if ours_out != naive_out:
            raise SystemExit("the naive replayer and mariage replay disagree: "
                             + _first_difference(ours_out, naive_out))
    result: dict[str, object] = {"records": args.records}
    for name, runs in times.items():
        result[f"{name}_records_per_second_cpu"] = round(args.records / min(c for _, c in runs))
        result[f"{name}_records_per_second_wall"] = round(args.records / min(w for w, _ in runs))
    result["speed_ratio_cpu"] = round(min(c for _, c in times["naive_replay"])
                                      / min(c for _, c in times["mariage_replay"]), 2)
    per_record = {name: min(c for _, c in runs) - min(start_up[name])
                  for name, runs in times.items()}
    for name in times:
        result[f"{name}_start_up_cpu_seconds"] = round(min(start_up[name]), 3)
    result["per_record_speed_ratio_cpu"] = round(per_record["naive_replay"]
                                                 / per_record["mariage_replay"], 2)
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    result["target_ratio"] = 2.0
    print(json.dumps(result, indent=2))


def rules_path() -> str:
    from mariage.engine.profile import find_profile

    return str(find_profile())


def _first_difference(a: list, b: list) -> str:
    """The first record whose results differ (as JSON values: the two print different spacing)."""
    for number, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return f"record {number}: {x} against {y}"
    return "different number of records"


if __name__ == "__main__":
    main()
