"""Every script in benchmarks/ runs on tiny input (`--quick`) and prints its figures, so no
benchmark the README quotes can rot unnoticed. The figures themselves come from `make bench`."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _json(out: str) -> dict[str, Any]:
    return json.loads(out[out.index("{"):])


def _build(out: str) -> None:
    figures = _json(out)
    for run in ("cold", "warm", "plain_mkdocs"):
        assert figures[run]["cpu_s"] > 0 and figures[run]["wall_s"] > 0
    assert figures["languages"] == 2 and figures["cold_vs_plain"]["cpu"] > 0
    assert figures["warm"]["cpu_s"] < figures["cold"]["cpu_s"]      # the stage cache works
    assert len(figures["load_average"]) == 3
    # one paired round (--quick): its ratio is the round's own
    [[cold, warm, plain]] = figures["rounds_cpu_s"]
    assert abs(figures["cold_vs_plain"]["cpu"] - cold / plain) <= 0.02
    assert abs(figures["warm_vs_plain"]["cpu"] - warm / plain) <= 0.02


def _engine(out: str) -> None:
    figures = _json(out)
    assert len(figures["load_average"]) == 3 and figures["date"]
    assert figures["random_full_hands_per_second"] > 0
    assert figures["replayed_records_per_second"] > 0 and figures["hand_state_bytes"] > 0


def _figures(out: str) -> None:
    assert "| random full hands per second, one core | 1 | 2026-01-01 00:00 UTC, 0.5 0.4 0.3 |" in out


def _hostile(out: str) -> None:
    assert "re-run here: 3 attempts, 3 handled" in out


def _input_limits(out: str) -> None:
    lines = [line for line in out.splitlines() if " MB peak " in line]
    assert len(lines) == 5 and all(line.rstrip().endswith(("exit 0", "exit 2"))
                                   for line in lines), out


def _mutants(out: str) -> None:
    assert "1 of 1 mutants killed" in out and "killed by " in out


def _naive_replay(out: str) -> None:
    golden = [json.loads(p.read_text(encoding="utf-8"))
              for p in sorted((ROOT / "tests" / "golden").glob("*.json"))]
    records = "".join(json.dumps(r) + "\n" for r in golden if isinstance(r, dict) and "deck" in r)
    ours = subprocess.run([sys.executable, "-m", "mariage.cli", "replay", "-"], input=records,
                          capture_output=True, text=True, cwd=ROOT).stdout
    naive = [json.loads(line) for line in out.splitlines()]
    assert naive and naive == [json.loads(line) for line in ours.splitlines()]


def _opponent(out: str) -> None:
    figures = _json(out)
    assert figures["hands"] == 2 and figures["open_decisions"] > 0
    assert figures["strict_decisions"] > 0 and figures["strict_worst_seconds"] > 0
    assert isinstance(figures["met"], bool)


def _replay_cli(out: str) -> None:
    figures = _json(out)
    assert figures["records"] == 200 and figures["speed_ratio_cpu"] > 0


def _serve(out: str) -> None:
    figures = _json(out)
    assert len(figures["save_to_served_s"]) == 1 and figures["cpu_per_save_s"][0] > 0
    assert figures["rebuilds_per_save"] == [1]
    for kind in ("template", "example", "profile"):         # one save of each, one rebuild
        done = figures[f"{kind}_save"]
        assert len(done["save_to_served_s"]) == 1 and done["save_to_served_median_s"] > 0
        assert done["cpu_per_save_median_s"] > 0 and done["rebuilds_per_save"] == [1]
    assert figures["every_language_served"]
    if Path("/proc/self/status").is_file():
        assert figures["server_peak_rss_mib"] > 0
    first, last = figures["search_entries_first_and_last"]
    assert first == last > 0
    assert figures["search_index_languages"] == ["en", "fr"]       # --quick serves these
    assert figures["broken_catalog"] == {**figures["broken_catalog"], "requests_answer": True,
                                         "log_names_the_line": True}


def _suite(out: str) -> None:
    figures = _json(out)
    assert figures["exit_code"] == 0 and figures["outcomes"]["passed"] > 0
    assert set(figures["outcomes"]) == {"passed"}, figures["outcomes"]
    assert 0 < len(figures["slowest"]) <= 20
    assert all(s["when"] in ("setup", "call", "teardown") and "::" in s["test"]
               for s in figures["slowest"])
    assert figures["pytest_wall_s"] > 0 and figures["pytest_cpu_s"] > 0
    assert len(figures["load_average"]) == 3 and not figures["fresh_clone"]
    if Path("/proc/stat").is_file():           # the machine's own count (Chromium's renderers)
        assert figures["machine_busy_cpu_s"] > 0 and 0 < figures["machine_busy_share"] <= 1


def _solver(out: str) -> None:
    figures = _json(out)
    assert figures["deals"] == 5 and figures["solved_positions_per_second"] > 0


CHECKS: dict[str, Callable[[str], None]] = {
    "build.py": _build, "engine.py": _engine, "figures.py": _figures, "hostile.py": _hostile,
    "input_limits.py": _input_limits, "mutants.py": _mutants, "naive_replay.py": _naive_replay,
    "opponent.py": _opponent, "replay_cli.py": _replay_cli, "serve.py": _serve, "solver.py": _solver,
    "suite.py": _suite,
}


def test_every_benchmark_is_run_here():
    """Every script; a module named with a leading underscore is their shared code."""
    assert sorted(CHECKS) == sorted(p.name for p in BENCHMARKS.glob("*.py")
                                    if not p.name.startswith("_"))


# serve.py --quick starts from a warm stage cache (the checkout's, which a fresh clone lacks):
# the session's, filled by its build of the whole site. build.py measures a cold build: never.
WARM = {"serve.py"}


@pytest.mark.parametrize("script", sorted(CHECKS))
def test_a_benchmark_prints_its_figures_on_tiny_input(script, request):
    env = {"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "HOME": str(ROOT)}
    if script in WARM:
        env["MARIAGE_STAGE_CACHE"] = str(request.getfixturevalue("warm_stages"))
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), "--quick"], cwd=ROOT,
                         capture_output=True, text=True, timeout=900, env=env)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    CHECKS[script](run.stdout)


def _benchmark(script: str) -> Any:
    """A script of benchmarks/ loaded as a module (with its neighbour _project importable)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(f"{script}_benchmark",
                                                      BENCHMARKS / f"{script}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


# /proc/stat's first line: user nice system idle iowait irq softirq steal (clock ticks); the
# busy seconds leave out idle and iowait. A file that is not /proc/stat's shape gives None.
HZ = os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("text,expected", [
    ("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3\n", (150 / HZ, 1000 / HZ)),
    ("cpu  10 20 30 40 50 60 70 80\n", ((10 + 20 + 30 + 60 + 70 + 80) / HZ, 360 / HZ)),
    ("intr 1 2 3\n", None),                       # not the cpu line
    ("", None),                                   # empty
    ("cpu  x y z\n", "ValueError"),              # garbled numbers: a bug to see, not a figure
])
def test_the_machine_cpu_reads_proc_stat(tmp_path, text, expected):
    stat = tmp_path / "stat"
    stat.write_text(text, encoding="ascii")
    suite = _benchmark("suite")
    if expected == "ValueError":
        with pytest.raises(ValueError):
            suite.machine_cpu(stat)
        return
    assert suite.machine_cpu(stat) == expected
    assert suite.machine_cpu(tmp_path / "missing") is None


BUILD = "INFO    -  Building documentation...\n"
ACCENTS = "INFO    -  Overriding 'fr' config with 'Les règles, où sont issus…'\n"


@pytest.mark.parametrize("before, after, expected", [
    ("", BUILD, 1),
    (BUILD, "", 0),
    (BUILD, BUILD + BUILD, 2),
    # bytes, not characters: accented lines before the save must not hide the rebuild after it
    (ACCENTS * 40, BUILD, 1),
    (ACCENTS * 40 + BUILD, ACCENTS + BUILD, 1),
])
def test_serve_counts_the_rebuilds_logged_after_a_save(tmp_path, before, after, expected):
    log = tmp_path / "serve.log"
    log.write_text(before, encoding="utf-8")
    size = log.stat().st_size                      # as serve.py takes it before a save
    log.write_text(before + after, encoding="utf-8")
    assert _benchmark("serve").rebuilds(log, size) == expected
