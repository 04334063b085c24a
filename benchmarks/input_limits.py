"""Time and peak memory of the CLI on oversized inputs (issue 15's targets, reported here and
not in timed tests): replay streams (memory flat in the number of records), and a 50 MB
profile, an alias bomb and /dev/zero are refused at once.

    .venv/bin/python benchmarks/input_limits.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARIAGE = [sys.executable, "-m", "mariage.cli"]


def measure(args: list[str], stdin_path: Path | None = None) -> tuple[float, int, int]:
    """Seconds, peak RSS in MB and exit code of one run (run alone, so the peak is its own)."""
    probe = ("import resource, subprocess, sys, time; t = time.monotonic(); "
             "rc = subprocess.run(sys.argv[2:], stdin=open(sys.argv[1], 'rb') if sys.argv[1] "
             "else None, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
             "print(time.monotonic() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)")
    out = subprocess.run([sys.executable, "-c", probe, str(stdin_path or ""), *args], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]) // 1024, int(out[2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 records and a 5 MB profile")
    quick = parser.parse_args().quick
    record = json.dumps(json.loads((ROOT / "tests/golden/marriage_claim.json").read_text()))
    profile = (ROOT / "rules/mariage.yaml").read_text(encoding="utf-8")
    bomb = ", ".join(["&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                     + [f"&a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        runs = []
        for count in (1_000,) if quick else (1_000, 10_000, 100_000):
            path = folder / f"{count}.jsonl"
            path.write_text((record + "\n") * count)
            runs.append((f"replay - < {count:,} records", measure([*MARIAGE, "replay", "-"], path)))
        big = folder / "big.yaml"
        big.write_text(profile + "junk: [" + "1, " * ((17 << 20) // (10 if quick else 1)) + "1]\n")
        runs.append((f"check-profile, {big.stat().st_size >> 20} MB profile",
                     measure([*MARIAGE, "--profile", str(big), "check-profile"])))
        bombed = folder / "bomb.yaml"
        bombed.write_text(f"dealer: A\ndeck: [[{bomb}]]\nactions: []\n")
        runs.append(("replay a 541-byte alias bomb", measure([*MARIAGE, "replay", str(bombed)])))
        runs.append(("replay /dev/zero", measure([*MARIAGE, "replay", "/dev/zero"])))
        runs.append(("--profile /dev/zero", measure([*MARIAGE, "--profile", "/dev/zero",
                                                     "check-profile"])))
    for name, (seconds, mb, rc) in runs:
        print(f"{name:36} {seconds:6.2f} s {mb:5d} MB peak  exit {rc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
