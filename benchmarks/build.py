"""Site build time: `mkdocs build --strict` with the mariage plugin, cold (no stage cache) and
warm (nothing changed since the last build), against plain MkDocs + Material + static-i18n
building the same Markdown (`mariage generate`'s tree), all in one run on a copy of the project.

Run: `python benchmarks/build.py [--repeat N] [--quick]`. N paired rounds, each a cold build, a
warm build and the plain build back to back; each figure is the median of the N rounds, in CPU
seconds (user + system of the build and its children: the study, the doctest worker) and in
wall seconds, and each ratio the median of the rounds' own ratios, so that a shared machine
that changes speed between rounds (seen here: 30 % within minutes) moves both sides alike.
`--quick` builds English and French only, once each: the suite runs it to prove the script
works. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mariage.site.read.project import Project
from _project import QUICK_LANGS, copy_sources

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds of the command and its children, wall seconds)."""
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    env.pop("MARIAGE_LANGS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), wall


def median(runs: list[tuple[float, float]]) -> dict[str, float]:
    return {"cpu_s": round(statistics.median(r[0] for r in runs), 2),
            "wall_s": round(statistics.median(r[1] for r in runs), 2)}


def ratios(runs: list[tuple[float, float]], base: list[tuple[float, float]]) -> dict[str, float]:
    """The median, over the paired rounds, of each round's ratio (CPU, wall)."""
    return {name: round(statistics.median(r[i] / b[i] for r, b in zip(runs, base)), 2)
            for i, name in enumerate(("cpu", "wall"))}


def measure(repeat: int, languages: list[str] | None) -> dict[str, object]:
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        project = copy_sources(tmp / "project", ("babel.cfg",), languages)
        mkdocs = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"]
        tree = tmp / "tree"
        subprocess.run([sys.executable, "-m", "mariage.cli", "generate", str(tree)], check=True,
                       cwd=project, stdout=subprocess.DEVNULL)
        # Paired rounds: cold, warm and plain back to back, so that a machine that speeds up
        # or slows down between rounds (a shared host does) moves all three alike; each ratio
        # is the median of the rounds' ratios.
        cold, warm, plain = [], [], []
        for _ in range(repeat):
            shutil.rmtree(project / ".cache", ignore_errors=True)
            cold.append(timed(mkdocs, project))
            warm.append(timed(mkdocs, project))
            plain.append(timed(mkdocs + ["-f", str(tree / "mkdocs.yml"), "-d",
                                         str(tmp / "plain")], tmp))
        languages_built = len(Project.find(project).languages())
    full_cold, full_warm, base = median(cold), median(warm), median(plain)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "languages": languages_built, "runs": repeat,
        "cold": full_cold, "warm": full_warm, "plain_mkdocs": base,
        "rounds_cpu_s": [[round(c[0], 2), round(w[0], 2), round(p[0], 2)]
                         for c, w, p in zip(cold, warm, plain)],      # cold, warm, plain
        "cold_vs_plain": ratios(cold, plain),
        "warm_vs_plain": ratios(warm, plain),
        "load_average": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="English and French, one run")
    args = parser.parse_args()
    result = measure(1 if args.quick else args.repeat, QUICK_LANGS if args.quick else None)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
