"""`mkdocs serve`: a save rebuilds only the languages whose pages changed.

static-i18n builds each language after the default one by calling MkDocs' `build` once per
language, on every save. While serving, a language whose generated Markdown and whose shared
inputs (mkdocs.yml, the build's additions to it, the theme overrides, docs/assets) are what
they were at the last build is not built again: its pages from that build are put back (hard
links from a mirror under .cache/serve/), and its search entries and files are handed to
static-i18n as they were, so the search index and the sitemap stay whole. The default
language is MkDocs' own build and is always built. `mkdocs build` never skips anything.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable

from mariage.site.cache import digest, file_digest
from mariage.site.render.templating import RenderedPage

try:
    from mkdocs_static_i18n import plugin as i18n_module
except ImportError:                   # pragma: no cover - static-i18n is a dependency
    i18n_module = None


class Languages:
    """Which languages a serve rebuild can skip, and what it needs to put them back."""

    def __init__(self, mirror: Path) -> None:
        self.mirror = mirror
        self.digests: dict[str, str] = {}
        self.search: dict[str, list[Any]] = {}
        self.files: dict[str, Any] = {}
        self.unchanged: set[str] = set()
        self.built: list[str] = []
        self._original: Callable[..., None] | None = None

    def plan(self, pages: list[RenderedPage], shared: str) -> None:
        """Before a build: the languages whose pages and shared inputs are unchanged."""
        texts: dict[str, list[tuple[str, str]]] = {}
        for page in pages:
            texts.setdefault(page.lang, []).append((page.path, page.text))
        new = {lang: digest(shared, sorted(pairs)) for lang, pairs in texts.items()}
        self.unchanged = {lang for lang, value in new.items() if self.digests.get(lang) == value
                          and lang in self.search and (self.mirror / lang).is_dir()}
        self.digests, self.built = new, []

    def install(self, i18n: Any, site: Path) -> None:
        """Around static-i18n's loop over the languages: build a changed language, put back
        an unchanged one."""
        if i18n_module is None or self._original is not None:
            return
        original = self._original = i18n_module.build

        def build(config: Any, dirty: bool = False) -> None:
            lang = i18n.current_language
            if lang in self.unchanged:
                _link_tree(self.mirror / lang, site / lang)
                i18n.search_entries.extend(self.search[lang])
                i18n.i18n_files_per_language[lang] = self.files[lang]
                return
            before = len(i18n.search_entries)
            original(config, dirty=dirty)
            self.search[lang] = list(i18n.search_entries[before:])
            self.files[lang] = i18n.i18n_files_per_language.get(lang)
            self.built.append(lang)

        i18n_module.build = build

    def uninstall(self, site: Path | None) -> None:
        """After the loop: static-i18n's own `build` back, and the mirror of each language
        built this time refreshed (a failed build leaves the mirror as it was)."""
        if self._original is not None and i18n_module is not None:
            i18n_module.build = self._original
        self._original = None
        if site is None:
            return
        for lang in self.built:
            shutil.rmtree(self.mirror / lang, ignore_errors=True)
            _link_tree(site / lang, self.mirror / lang)

    def forget(self) -> None:
        """A failed build: nothing is known to be unchanged at the next one."""
        self.digests, self.built = {}, []


def shared_inputs(config_file: Path, additions: Any, folders: list[Path]) -> str:
    """The content hash of what every language's pages are built from besides their Markdown."""
    files = sorted(p for folder in folders if folder.is_dir() for p in folder.rglob("*")
                   if p.is_file())
    return digest(file_digest(config_file), repr(additions),
                  [(str(p), file_digest(p)) for p in files])


def _link_tree(source: Path, dest: Path) -> None:
    """A copy of `source` at `dest` made of hard links (MkDocs writes new files, never into
    the ones it has, so neither side changes the other)."""
    shutil.copytree(source, dest, copy_function=os.link, dirs_exist_ok=True)
