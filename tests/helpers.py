"""Helpers the tests import (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What a copy of the project needs to build, check its catalogs and run its examples.
PROJECT_FILES = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml",
                 "babel.cfg"]


def copy_project(dest: Path, languages: Iterable[str] | None = None) -> Path:
    """Copy the project's inputs into `dest`; with `languages`, a project that has only those
    (and English, the source): the other catalogs and their mkdocs.yml entries are left out,
    as benchmarks/build.py does. A test about publishing or the cache needs a site, not six."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    if languages is not None:
        kept = {"en", *languages}
        for messages in (dest / "locales").glob("*/LC_MESSAGES"):
            if messages.parent.name not in kept:
                shutil.rmtree(messages)
        config = (dest / "mkdocs.yml").read_text(encoding="utf-8")
        config, count = re.subn(r"        - locale: (\w+)\n(?:          .*\n)+",
                                lambda m: m.group(0) if m.group(1) in kept else "", config)
        assert count > 1, "mkdocs.yml lists no i18n languages: the copy keeps them all"
        (dest / "mkdocs.yml").write_text(config, encoding="utf-8")
        assert configured_languages(dest) == [g for g in configured_languages(ROOT) if g in kept]
    return dest


def configured_languages(project: Path) -> list[str]:
    from mariage.site.read.project import configured_languages as listed

    return listed(project / "mkdocs.yml")


def run_mariage(*args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    """Run the `mariage` command as a user would; returns the CompletedProcess."""
    full_env = os.environ | (env or {})
    return subprocess.run([sys.executable, "-m", "mariage.cli", *args], capture_output=True,
                          text=True, input=stdin, env=full_env, cwd=ROOT)


def with_plugin_options(config: str, *options: str) -> str:
    """mkdocs.yml's text with `options` ("key: value") first under the `mariage` plugin's
    entry, whether or not it has options of its own; fails if there is no such entry."""
    lines = "".join(f"      {option}\n" for option in options)
    edited, count = re.subn(r"^  - mariage:?\n", lambda m: "  - mariage:\n" + lines, config,
                            count=1, flags=re.M)
    assert count == 1, "mkdocs.yml has no `  - mariage` plugin entry: the edit does not apply"
    return edited


def catalog_verdict(project, lang: str) -> list[str]:
    """What CI holds a listed catalog to: no mistake at all, whatever its progress; and, once
    it reaches min_translated (so it is published), no untranslated or fuzzy message either.
    A language below min_translated is welcome as partial work (it is previewed, not
    published). The new-language test applies this to a copy with a partial catalog."""
    from mariage.site.read import catalogs

    checked = catalogs.check_catalog(lang, project.locales)
    published = checked.stats().percent >= project.min_translated()
    held = checked.problems if published else checked.errors
    return [str(p) for p in held]


def site_languages() -> list[str]:
    """The languages the site publishes, English first: mkdocs.yml's list, less any language
    below min_translated. Tests take their languages from here, never from a list of their
    own, so a new language needs no test edited."""
    from mariage.site.render.pages import SiteSource

    return SiteSource().languages()


def mkdocs_build(project: Path, *options: str,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`mkdocs build` of a project, as a user runs it there: its output captured; `env`
    replaces this environment (MkDocs' 2.0 notice is off either way)."""
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", *options], cwd=project,
                          capture_output=True, text=True, timeout=600,
                          env=(os.environ if env is None else env) | {"NO_MKDOCS_2_WARNING": "1"})


def loadgroup_requested(config) -> bool:
    """Whether the run asked for `--dist loadgroup` (make test does)."""
    return bool(getattr(config.option, "loadgroup", False)) or config.option.dist == "loadgroup"


def keep_on_one_worker(item, group: str) -> None:
    """Put `item` in xdist's `group` (one worker runs the whole group, so its module and
    session fixtures are made once). xdist writes the group into the node id as "@<group>"
    through `item._nodeid`, which pytest 9 no longer reads (it keeps `item._id`): write it the
    way xdist means it, unless xdist already has."""
    if "@" in item.nodeid:
        return
    suffixed = f"{item.nodeid}@{group}"
    if hasattr(item, "_id"):
        from _pytest.nodes import coerce_node_id
        item._id = coerce_node_id(suffixed)
    else:
        item._nodeid = suffixed


def build_in_process(root: Path, site: Path, *kept, strict: bool = False) -> None:
    """MkDocs' build of root/mkdocs.yml into `site`, in this process, with what a serve build
    keeps installed (plugins/conversions.py, plugins/renders.py; none: MkDocs alone). A build
    that fails makes them forget what it may have half done."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=str(root / "mkdocs.yml"), site_dir=str(site), strict=strict)
    memos = [k for k in kept if k is not None]
    for memo in memos:
        memo.install()
    try:
        build(config)
    except BaseException:
        for memo in memos:
            memo.forget()
        raise
    for memo in memos:
        memo.uninstall()


def built_tree(site: Path) -> dict[str, bytes]:
    """Every file of a built site by its path, but the gzipped sitemap (its header holds the
    time it was written)."""
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.name != "sitemap.xml.gz"}


# The static-i18n entry of a test site's `plugins:` list: English (the default) and French,
# each in its own docs/ folder.
TWO_LANGUAGES = """  - i18n:
      docs_structure: folder
      languages:
        - locale: en
          default: true
          name: English
          build: true
        - locale: fr
          name: Français
          build: true
"""
