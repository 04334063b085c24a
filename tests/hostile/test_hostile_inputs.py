"""Every hostile input of the reliability review gets a one-line error naming the file (and
line), a non-zero exit, and no traceback. One row per attempt class: see cases.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hostile.cases import CASES, Case

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml",
           "babel.cfg"]


def copy_project(dest: Path) -> Path:
    for name in PROJECT:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    return dest


def run_case(case: Case, project: Path) -> subprocess.CompletedProcess[bytes]:
    """Write the row's input into `project` and run the command there, as a user would."""
    case.files(project)
    args = [a.replace("{p}", str(project)) for a in case.args]
    streams: dict[str, object] = {"stderr": subprocess.PIPE}
    if case.stdin is not None:
        streams["input"] = case.stdin
    elif case.close_stdin:
        streams["preexec_fn"] = lambda: os.close(0)
    else:
        streams["stdin"] = subprocess.DEVNULL
    with open(case.stdout_file or os.devnull, "wb") as sink:
        streams["stdout"] = sink if case.stdout_file else subprocess.PIPE
        return subprocess.run([sys.executable, "-m", "mariage.cli", *args], cwd=project,
                              timeout=120, env=os.environ | case.extra, **streams)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_hostile_input_gets_a_clear_error(case, tmp_path):
    run = run_case(case, copy_project(tmp_path))
    stderr = run.stderr.decode("utf-8", "replace")
    assert run.returncode == case.rc, f"{case.id} {case.what}: rc {run.returncode}\n{stderr[-2000:]}"
    assert "Traceback" not in stderr, stderr[-3000:]
    for word in case.words:
        assert word in stderr, f"{case.id}: {word!r} not in:\n{stderr[-2000:]}"
    assert len(stderr.strip().splitlines()) <= 3, stderr[-2000:]
    if case.stdout_lines is not None:
        assert len(run.stdout.splitlines()) == case.stdout_lines
