"""The README's figures: the JSON each benchmark printed in `make bench` (benchmarks/results/,
not committed), written as one table between the README's `figures` markers, with the date
and the machine's load of each run. No figure in the README is typed by hand.

Run: `python benchmarks/figures.py [--quick]` (`make bench` runs it last). `--quick` renders
a tiny sample and prints it, writing nothing: the suite runs it to prove the script works.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
START, END = "<!-- figures:start (make bench) -->", "<!-- figures:end -->"


def _build(r: dict[str, Any]) -> list[tuple[str, str]]:
    plain = r["plain_mkdocs"]
    return [
        (f"`mkdocs build --strict`, {r['languages']} languages, cold (no stage cache)",
         f"{r['cold']['cpu_s']} s CPU, {r['cold']['wall_s']} s wall: "
         f"{r['cold_vs_plain']['cpu']}x / {r['cold_vs_plain']['wall']}x plain MkDocs"),
        ("the same build again, nothing changed",
         f"{r['warm']['cpu_s']} s CPU, {r['warm']['wall_s']} s wall: "
         f"{r['warm_vs_plain']['cpu']}x / {r['warm_vs_plain']['wall']}x plain MkDocs"),
        ("plain MkDocs + Material + static-i18n on `mariage generate`'s tree",
         f"{plain['cpu_s']} s CPU, {plain['wall_s']} s wall (median of {r['runs']})"),
    ]


def _serve(r: dict[str, Any]) -> list[tuple[str, str]]:
    langs = "all languages" if r["languages"] == "all" else f"`MARIAGE_LANGS={r['languages']}`"
    rows = [(f"`mkdocs serve`, {langs}: a French msgstr saved → the new text served",
             f"{r['save_to_served_median_s']} s wall, {r['cpu_per_save_median_s']} s CPU "
             f"(median of {len(r['save_to_served_s'])} saves)"
             + (f"; the server's peak memory {r['server_peak_rss_mib']} MiB over all saves"
                if r.get("server_peak_rss_mib") else ""))]
    what = {"template": "a page template saved → its French page served",
            "example": "an example saved → its French page served",
            "profile": "the rules profile saved → the rulings page served"}
    for kind, said in what.items():
        done = r.get(f"{kind}_save")
        if done:                        # results written before these were measured lack them
            rows.append((f"`mkdocs serve`, {langs}: {said}",
                         f"{done['save_to_served_median_s']} s wall, "
                         f"{done['cpu_per_save_median_s']} s CPU (median of "
                         f"{len(done['save_to_served_s'])} save"
                         f"{'s' if len(done['save_to_served_s']) > 1 else ''})"))
    return rows


def _engine(r: dict[str, Any]) -> list[tuple[str, str]]:
    return [("random full hands per second, one core", f"{r['random_full_hands_per_second']:,}"),
            ("replayed records per second, in-process", f"{r['replayed_records_per_second']:,}")]


def _solver(r: dict[str, Any]) -> list[tuple[str, str]]:
    return [("solver: positions searched per second", f"{r['solved_positions_per_second']:,}"),
            ("solver: first position after a close, six cards each",
             f"{r['mean_seconds_after_close_six_each'] * 1000:.1f} ms mean, "
             f"{r['worst_seconds_after_close_six_each'] * 1000:.1f} ms worst "
             f"({r['deals']} deals)")]


def _replay_cli(r: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f"`mariage replay` of {r['records']:,} records against a naive replayer",
             f"{r['speed_ratio_cpu']}x (CPU), {r['per_record_speed_ratio_cpu']}x per record")]


def _suite(r: dict[str, Any]) -> list[tuple[str, str]]:
    where = "a fresh clone" if r["fresh_clone"] else "this checkout"
    setup = f", after {r['setup_wall_s']} s of setup" if "setup_wall_s" in r else ""
    busy = f"; the machine's {r['machine_busy_cpu_s']} s of busy CPU, its cores " \
        f"{r['machine_busy_share']:.0%} busy" if r.get("machine_busy_share") else ""
    return [(f"`make test` on {where}: {r['outcomes'].get('passed', 0):,} tests passed",
             f"{r['pytest_wall_s']} s wall, {r['pytest_cpu_s']} s CPU of pytest on 2 workers"
             f"{setup}{busy}")]


ROWS: dict[str, Callable[[dict[str, Any]], list[tuple[str, str]]]] = {
    "build": _build, "serve": _serve, "serve-fr": _serve, "engine": _engine,
    "solver": _solver, "replay_cli": _replay_cli, "suite": _suite,
}


def table(results: dict[str, dict[str, Any]]) -> str:
    lines = ["| measured | figure | when, load average |", "|---|---|---|"]
    for name, rows in ROWS.items():
        if name not in results:
            continue
        result = results[name]
        when = f"{result.get('date', '?')}, {_load(result)}"
        lines += [f"| {what} | {figure} | {when} |" for what, figure in rows(result)]
    return "\n".join(lines)


def _load(result: dict[str, Any]) -> str:
    load = result.get("load_average")
    return " ".join(f"{x:g}" for x in load) if isinstance(load, list) else str(load or "?")


def write_readme(text: str, readme: Path = README) -> None:
    current = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if not pattern.search(current):
        raise SystemExit(f"{readme}: no {START} ... {END} markers")
    readme.write_text(pattern.sub(lambda m: f"{START}\n{text}\n{END}", current),
                      encoding="utf-8")


SAMPLE = {"engine": {"random_full_hands_per_second": 1, "replayed_records_per_second": 2,
                     "date": "2026-01-01 00:00 UTC", "load_average": [0.5, 0.4, 0.3]}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="print a sample; write nothing")
    args = parser.parse_args()
    if args.quick:
        print(table(SAMPLE))
        return 0
    results = {p.stem: json.loads(p.read_text(encoding="utf-8"))
               for p in sorted(RESULTS.glob("*.json"))}
    if not results:
        print(f"no results in {RESULTS}: run `make bench`", file=sys.stderr)
        return 1
    write_readme(table(results))
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
