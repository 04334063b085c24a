"""Shared by the benchmarks, not one itself: a copy of the project's sources (what a site
build reads) for the benchmarks that build, serve or attack one, the same files for each and
no generated file."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml"]


QUICK_LANGS = ["en", "fr"]     # what a benchmark's --quick run builds or serves


def copy_sources(dest: Path, extra: tuple[str, ...] = (),
                 languages: list[str] | None = None) -> Path:
    """The sources (and `extra` files or folders of the checkout) copied into dest; with
    `languages`, only their catalogs and mkdocs.yml entries are kept."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in [*SOURCES, *extra]:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    if languages is not None:
        for po in (dest / "locales").glob("*/LC_MESSAGES"):
            if po.parent.name not in languages:
                shutil.rmtree(po.parent / "LC_MESSAGES")
        config = (dest / "mkdocs.yml").read_text(encoding="utf-8")
        config = re.sub(r"        - locale: (\w+)\n(?:          .*\n)+",
                        lambda m: m.group(0) if m.group(1) in languages else "", config)
        (dest / "mkdocs.yml").write_text(config, encoding="utf-8")
    return dest
