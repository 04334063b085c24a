"""The test suite's time: `make test`'s pytest run on a fresh clone, with its 20 slowest tests.

Run: `python benchmarks/suite.py [--here] [--quick]`. By default the project's committed state
is cloned into a temporary folder, set up there as `make test` sets it up (timed apart), then
the suite runs exactly as `make test` runs it, with `--durations=20`. `--here` runs it in this
checkout instead, without the clone and the setup. `--quick` runs one small test file here:
the suite runs it to prove the script works. Prints one JSON object: the wall and CPU seconds
of pytest (its workers and browsers included), the outcome counts, the slowest tests and the
machine's load average before and after. The CPU of pytest is what its processes reaped:
Chromium's renderers are children of its zygote, which does not wait for them, so they are
missing there; the machine's busy CPU seconds over the run (from /proc/stat, where there is
one) count them, with any other work of the machine, and say how busy its cores were.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SETUP = ["make", ".venv/.test", ".venv/.external", "node_modules/.installed"]
QUICK = ["tests/engine/test_deal.py"]
SLOWEST = 20
_OUTCOMES = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)")
_DURATION = re.compile(r"^([\d.]+)s (setup|call|teardown)\s+(\S.*)$", re.M)


def pytest_command(python: str, paths: list[str]) -> list[str]:
    """`make test`'s command (the Makefile's `test` recipe), with the durations asked for."""
    return [python, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q",
            f"--durations={SLOWEST}", *paths]


def timed(command: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """The finished command, its wall seconds and the CPU seconds of it and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return run, wall, cpu


def machine_cpu(stat: Path = Path("/proc/stat")) -> tuple[float, float] | None:
    """(busy, all) CPU seconds of every core since boot: the first line of /proc/stat (user,
    nice, system, idle, iowait, irq, softirq, steal, in clock ticks); None where there is no
    such file."""
    try:
        fields = stat.read_text(encoding="ascii").splitlines()[0].split()
    except (OSError, IndexError, UnicodeError):
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(f) for f in fields[1:9]]
    hertz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - ticks[3] - ticks[4]) / hertz, sum(ticks) / hertz


def summary(output: str) -> dict[str, Any]:
    """The outcome counts of pytest's last line and the slowest tests of its durations."""
    last = output.strip().splitlines()[-1] if output.strip() else ""
    counts = {kind.rstrip("s") if kind.startswith("error") else kind: int(n)
              for n, kind in _OUTCOMES.findall(last)}
    slowest = [{"seconds": float(s), "when": when, "test": test.strip()}
               for s, when, test in _DURATION.findall(output)]
    failures = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.M)
    return {"outcomes": counts, "failures": failures, "slowest": slowest[:SLOWEST]}


def measure(here: bool, quick: bool) -> dict[str, Any]:
    load_before = os.getloadavg()
    result: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "fresh_clone": not here}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    result["commit"] = commit or None
    with tempfile.TemporaryDirectory() as tmp:
        project = ROOT if here else Path(tmp) / "clone"
        if not here:
            subprocess.run(["git", "clone", "-q", str(ROOT), str(project)], check=True)
            setup, setup_wall, _ = timed(SETUP, project)
            if setup.returncode != 0:
                raise SystemExit(f"the setup failed:\n{setup.stdout[-2000:]}{setup.stderr[-2000:]}")
            result["setup_wall_s"] = round(setup_wall, 1)
        python = sys.executable if here else str(project / ".venv" / "bin" / "python")
        machine_before = machine_cpu()
        run, wall, cpu = timed(pytest_command(python, QUICK if quick else []), project)
        machine_after = machine_cpu()
    if machine_before is not None and machine_after is not None:
        busy = machine_after[0] - machine_before[0]
        every = machine_after[1] - machine_before[1]
        result |= {"machine_busy_cpu_s": round(busy, 1),
                   "machine_busy_share": round(busy / every, 3) if every > 0 else None}
    result |= summary(run.stdout)
    result |= {"exit_code": run.returncode, "pytest_wall_s": round(wall, 1),
               "pytest_cpu_s": round(cpu, 1), "load_average": [round(x, 2) for x in load_before],
               "load_average_after": [round(x, 2) for x in os.getloadavg()]}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--here", action="store_true", help="this checkout, no clone or setup")
    parser.add_argument("--quick", action="store_true", help=f"only {' '.join(QUICK)}, here")
    args = parser.parse_args()
    result = measure(here=args.here or args.quick, quick=args.quick)
    print(json.dumps(result, indent=2))
    return 0 if result["exit_code"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
