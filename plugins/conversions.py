"""`mkdocs serve`: a page whose Markdown is what it was at the last build is not converted again,
and a page whose HTML is what it was is not indexed for search again.

MkDocs converts every page's Markdown to HTML on every build (`Page.render`), and static-i18n
builds every language again on every save, so a translator's save converted each page of
English and of the saved language, although a saved message changes a few of them. While
serving, a conversion is kept by everything it is a function of: the page's Markdown (after
every plugin's `on_page_markdown`), where the page is (its source, destination and URL), the
build's files (every link is resolved against them), and the settings that reach the
converter (Markdown extensions and their options, URL style, link validation). A page whose
key is known gets the kept HTML, table of contents, title and anchors, and the warnings its
conversion logged are logged again, so a broken link is reported at every build as before
(and still fails `--strict`). Likewise Material's search plugin parses every page's HTML into
sections on every build; a page's sections are kept by its HTML, URL, title, table of contents,
front matter and the index's settings. And MkDocs lists the theme's files (Material's
thousands of icons) on every build of every language: the list is kept by the theme's folders,
what each one holds where it can change (an installed package does not change while serving or
building; a project's `custom_dir` is listed again) and the settings that filter it, and a page
of `docs/` still takes precedence over a theme file of the same name. Kept conversions, sections
and theme files are those of the last build; `mkdocs build` keeps only the theme's files, from
its first language to the others (static-i18n builds each language again).
"""

from __future__ import annotations

import abc
import copy
import logging
import os
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from mkdocs.structure import files as mkdocs_files
from mkdocs.structure import pages as mkdocs_pages

try:
    from material.plugins.search.plugin import SearchIndex
except ImportError:                   # pragma: no cover - Material is a dependency
    SearchIndex = None

from mariage.site.cache import digest


@dataclass(frozen=True)
class Conversion:
    content: str | None
    toc: Any
    title: str | None
    anchors: frozenset[str] | None
    links_to_anchors: dict[str, dict[str, str]] | None   # by the linked file's source path
    records: tuple[logging.LogRecord, ...]               # what the conversion logged


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class _KeptFromLastBuild(abc.ABC):
    """While serving, one method of MkDocs (or of Material) is replaced by one that reuses what
    the last build computed for the same key; a subclass names the method (`owner`, `method`)
    and says how to compute and reuse a value (`_wrap`)."""

    owner: Any = None
    method = ""
    # None: the values kept are the last build's. A number: the last build's, and the most
    # recent of earlier builds' up to that many in all (a serve build that skips a language,
    # plugins/incremental.py, still has that language's values at the next build).
    keep_at_most: int | None = None

    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}     # the last build's values, by key
        self.now: dict[str, Any] = {}      # this build's
        self.computed = self.reused = 0
        self._original: Callable[..., Any] | None = None

    def install(self) -> None:
        """From now until uninstall(), the method reuses the kept values."""
        if self.owner is None or self._original is not None:
            return
        self._original = getattr(self.owner, self.method)
        self.computed = self.reused = 0
        setattr(self.owner, self.method, self._wrap(self._original))

    @abc.abstractmethod
    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """The method that replaces `original` while serving."""

    def _value(self, key: str, compute: Callable[[], Any], reuse: Callable[[Any], None]) -> Any:
        """The value for key: this build's or the last one's (handed to `reuse`), or computed."""
        kept = self.now.get(key)
        if kept is None:
            kept = self.kept.get(key)
        if kept is None:
            kept = compute()
            self.computed += 1
        else:
            reuse(kept)
            self.reused += 1
        self.now[key] = kept
        return kept

    def uninstall(self) -> None:
        """The method as it was; this build's values are the ones kept (with `keep_at_most`,
        also the most recent of earlier builds', up to that many in all)."""
        if self._original is not None:
            setattr(self.owner, self.method, self._original)
        self._original = None
        if not self.now:
            return
        older = [] if self.keep_at_most is None else \
            [(k, v) for k, v in self.kept.items() if k not in self.now]
        room = max((self.keep_at_most or 0) - len(self.now), 0)
        self.kept, self.now = dict(older[len(older) - room:] if room else []) | self.now, {}

    def forget(self) -> None:
        """A failed build: keep nothing it may have half done."""
        self.uninstall()
        self.kept, self.now = {}, {}


class Conversions(_KeptFromLastBuild):
    """Page conversions (MkDocs' `Page.render`) kept from one serve build to the next."""

    owner, method = mkdocs_pages.Page, "render"
    keep_at_most = 800          # two and a half times the site's 229 pages

    def __init__(self) -> None:
        super().__init__()
        self._files: tuple[Any, str] | None = None     # the build's Files and their digest
        self._config: tuple[Any, str] | None = None

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def render(page: Any, config: Any, files: Any) -> None:
            if page.markdown is None:
                return original(page, config, files)
            key = digest(page.markdown, page.file.src_uri, page.file.dest_uri, page.file.url,
                         self._files_key(files), self._config_key(config))
            self._value(key, lambda: self._convert(original, page, config, files),
                        lambda kept: self._restore(kept, page, files))
        return render

    def uninstall(self) -> None:
        super().uninstall()
        self._files = self._config = None

    # ----- the key's parts that are shared by a build's pages, computed once per build
    def _files_key(self, files: Any) -> str:
        if self._files is None or self._files[0] is not files:
            self._files = (files, digest(sorted(
                (f.src_uri, f.dest_uri, f.url, str(f.inclusion)) for f in files)))
        return self._files[1]

    def _config_key(self, config: Any) -> str:
        if self._config is None or self._config[0] is not config:
            self._config = (config, digest(repr(config["markdown_extensions"]),
                                           repr(config["mdx_configs"]),
                                           repr(config["use_directory_urls"]),
                                           repr(config["validation"]),
                                           repr(config["docs_dir"])))
        return self._config[1]

    # ----- converting, and putting a conversion back
    @staticmethod
    def _convert(original: Callable[..., None], page: Any, config: Any, files: Any) -> Conversion:
        capture = _Capture()
        logger = logging.getLogger("mkdocs")
        logger.addHandler(capture)
        try:
            original(page, config, files)
        finally:
            logger.removeHandler(capture)
        links = page.links_to_anchors
        return Conversion(
            content=page.content, toc=copy.deepcopy(page.toc), title=page._title_from_render,
            anchors=frozenset(page.present_anchor_ids)
            if page.present_anchor_ids is not None else None,
            links_to_anchors={f.src_uri: dict(v) for f, v in links.items()}
            if links is not None else None,
            records=tuple(capture.records))

    @staticmethod
    def _restore(kept: Conversion, page: Any, files: Any) -> None:
        page.content = kept.content
        page.toc = copy.deepcopy(kept.toc)
        page._title_from_render = kept.title
        page.present_anchor_ids = set(kept.anchors) if kept.anchors is not None else None
        if kept.links_to_anchors is not None:
            page.links_to_anchors = {files.get_file_from_path(src): dict(v)
                                     for src, v in kept.links_to_anchors.items()}
        for record in kept.records:
            logging.getLogger(record.name).handle(record)


def _toc(items: Any) -> list[Any]:
    """A table of contents as plain data: what a search entry reads of it (ids, URLs, titles)."""
    return [(i.id, i.url, i.title, i.level, _toc(i.children)) for i in items or []]


class Sections(_KeptFromLastBuild):
    """Material's search entries of each page (`SearchIndex.add_entry_from_context`), kept from
    one serve build to the next."""

    owner, method = SearchIndex, "add_entry_from_context"
    keep_at_most = 800          # two and a half times the site's 229 pages

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def add_entry_from_context(index: Any, page: Any) -> None:
            if page.content is None:
                return original(index, page)
            key = digest(page.content, page.url, str(page.title), _toc(page.toc),
                         repr(sorted(page.meta.items(), key=lambda kv: str(kv[0]))),
                         repr(sorted(index.config.items())))

            def index_page() -> list[dict[str, Any]]:
                before = len(index.entries)
                original(index, page)
                return copy.deepcopy(index.entries[before:])

            self._value(key, index_page, lambda kept: index.entries.extend(copy.deepcopy(kept)))
        return add_entry_from_context


# Where installed packages live (a theme installed there does not change while serving)
_INSTALLED = tuple(sorted({str(Path(sysconfig.get_paths()[k]).resolve())
                           for k in ("purelib", "platlib")}))


def _listing(folder: str) -> Any:
    """What decides a theme folder's files: nothing but its name for an installed package;
    every file and its modification time for any other folder (a project's custom_dir)."""
    resolved = str(Path(folder).resolve())
    if any(resolved == p or resolved.startswith(p + os.sep) for p in _INSTALLED):
        return folder
    return [(os.path.relpath(os.path.join(top, name), folder),
             os.stat(os.path.join(top, name)).st_mtime_ns)
            for top, dirs, names in sorted(os.walk(folder)) for name in sorted(names)]


class ThemeFiles(_KeptFromLastBuild):
    """The theme's files of each build (MkDocs' `Files.add_files_from_theme`), kept from one
    language's build to the next and from one serve build to the next."""

    owner, method = mkdocs_files.Files, "add_files_from_theme"

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def add_files_from_theme(files: Any, env: Any, config: Any) -> None:
            theme = config.theme
            # Not the site folder (each language has its own): a File is made for this one
            # below. A folder named twice lists what it lists once (static-i18n puts its
            # sitemap's folder in front again for each language): the first place counts.
            dirs = list(dict.fromkeys(theme.dirs))
            key = digest(dirs, sorted(theme.static_templates), config.use_directory_urls,
                         [_listing(d) for d in dirs])

            def every_file() -> list[tuple[str, str | None]]:
                every = mkdocs_files.Files([])      # nothing to take precedence: every file
                original(every, env, config)
                return [(f.src_uri, f.src_dir) for f in every]

            kept = self._value(key, every_file, lambda kept: None)
            for src_uri, src_dir in kept:           # as MkDocs does: a docs file of that name wins
                if files.get_file_from_path(src_uri) is None:
                    files.append(mkdocs_files.File(src_uri, src_dir, config.site_dir,
                                                   config.use_directory_urls))
        return add_files_from_theme
