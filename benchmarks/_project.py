"""Shared by the benchmarks, not one itself: a copy of the project's sources (what a site
build reads) for the benchmarks that build, serve or attack one, the same files for each and
no generated file."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml"]


def copy_sources(dest: Path, extra: tuple[str, ...] = ()) -> Path:
    """The sources (and `extra` files or folders of the checkout) copied into dest."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in [*SOURCES, *extra]:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    return dest
