"""Golden hand records: `mariage replay` on tests/golden/NAME.json prints NAME.expected.json.

The expected results were worked out on paper from RULES.md (see tests/golden/README.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))
# The checkout's code, whatever `mariage` the virtualenv would resolve.
MARIAGE = [sys.executable, "-m", "mariage.cli"]


def test_golden_records_are_present():
    """The golden set: natural end, tie, closed hand, marriage claim."""
    assert {p.stem for p in RECORDS} >= {"natural_end", "natural_tie", "closed_claim",
                                         "marriage_claim"}
    for record in RECORDS:
        assert record.with_suffix(".expected.json").exists(), record.name


@pytest.mark.parametrize("record", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_replay(record):
    """R1-R18 end to end: the command's one JSON line equals the hand-written result."""
    proc = subprocess.run([*MARIAGE, "replay", str(record)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    expected = json.loads(record.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert out == [expected]


def test_golden_replay_all_at_once():
    """Several files in one call: one line per record, in order."""
    proc = subprocess.run([*MARIAGE, "replay", *map(str, RECORDS)], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    expected = [json.loads(p.with_suffix(".expected.json").read_text(encoding="utf-8"))
                for p in RECORDS]
    assert [json.loads(line) for line in proc.stdout.splitlines()] == expected
