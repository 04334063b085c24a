"""`mariage play`: the opponent over seeded hands, one JSON line; mistakes are one message."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT
from mariage.cli import main


def _play(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_seeded_match_reports_rates_and_game_points_the_same_every_run(capsys):
    status, out, _ = _play(capsys, "--against", "random", "--hands", "6", "--seed", "3")
    assert status == 0
    first = json.loads(out)
    assert first["hands"] == 6 == first["won"] + first["lost"] + first["tied"]
    assert first["win_rate"] == round(first["won"] / 6, 3)
    assert _play(capsys, "--against", "random", "--hands", "6", "--seed", "3")[1] == out


def test_the_profile_may_follow_the_command(capsys):
    status, out, _ = _play(capsys, "--hands", "2", "--against", "self",
                           "--profile", str(ROOT / "rules" / "variants" / "schnapsen.yaml"))
    assert status == 0 and json.loads(out)["hands"] == 2


@pytest.mark.parametrize("args,says", [
    (["--hands", "0"], "is not a positive whole number"),
    (["--hands", "-3"], "is not a positive whole number"),
    (["--hands", "many"], "is not a positive whole number"),
    (["--against", "god"], "invalid choice"),
])
def test_a_mistaken_argument_is_one_message(capsys, args, says):
    with pytest.raises(SystemExit) as exit_:
        _play(capsys, *args)
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_the_thinking_time_benchmark_runs_on_two_hands():
    """benchmarks/opponent.py, on tiny input: one JSON report with both phases' times."""
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "opponent.py"), "--hands", "2"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["hands"] == 2 and report["open_decisions"] > 0
    assert report["strict_worst_seconds"] >= report["strict_mean_seconds"] >= 0
