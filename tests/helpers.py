"""Helpers the tests import (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_mariage(*args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    """Run the `mariage` command as a user would; returns the CompletedProcess."""
    full_env = os.environ | (env or {})
    return subprocess.run([sys.executable, "-m", "mariage.cli", *args], capture_output=True,
                          text=True, input=stdin, env=full_env, cwd=ROOT)
