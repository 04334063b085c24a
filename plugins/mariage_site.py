"""MkDocs plugin: generate the Markdown tree before MkDocs reads it, and publish atomically.

Thin by design: all the work is in `mariage.site`. Installed as `mariage_mkdocs.mariage_site`
(the project's own name, so no other package's `plugins` module can shadow it). The plugin
- renders every page of every language (verifying the examples) into a generated docs folder
  and points `docs_dir` at it; a mistake stops the build before anything is written;
- holds the project's build lock, writes into its own scratch folders, and publishes into
  `site_dir` only when MkDocs has decided the build succeeded (see `mariage.site.build.publish`),
  so a failed build leaves the previous site untouched;
- checks every catalog message: a strict build fails on a mistake, any other build (`mkdocs
  serve`) shows the English text instead and warns; a language under `min_translated` percent
  is not published;
- translates the navigation's section titles from the catalogs;
- asks `mkdocs serve` to watch the rules, catalogs, templates and examples, but not the
  generated folder, so a save rebuilds once; `MARIAGE_LANGS=fr mkdocs serve` previews English
  and French only.
"""

from __future__ import annotations

import io
import logging
import os
import re
import shutil
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import config_options as c
from mkdocs.config.base import Config, ValidationError
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from jinja2 import Environment, FileSystemBytecodeCache
from jinja2.bccache import Bucket

from mariage.engine.errors import MariageError
from mariage.site.render import interface
from mariage.site.build import one_404, publish
from mariage.site.build.play import TEACHING, write_play_assets
from mariage.site.render.pages import SiteSource
from mariage.site.read.project import DEFAULT_MIN_TRANSLATED, Project
from mariage.site import EXAMPLE_TIMEOUT, seconds
from mariage.site.cache import StageCache, folder_for, own_bytes
from mariage.site.build.generate import check_catalogs, generate
from mariage.site.build.standalone import Additions, additions

from .kept import KeptForServe
from .incremental import Languages, shared_inputs
from .page_html import fix_html

log = logging.getLogger("mkdocs.plugins.mariage")
_UNSAFE_URL = re.compile(r"[\s\"'<>`\\]")


class Seconds(c.BaseConfigOption[float]):
    """A time limit in seconds: a finite number above 0, at most MAX_SECONDS (not NaN, not
    true, not a string)."""

    def __init__(self, default: float) -> None:
        super().__init__()
        self.default = default

    def run_validation(self, value: object) -> float:
        if isinstance(value, str):
            raise ValidationError(f"expected a number of seconds, not the string {value!r}")
        try:
            return seconds(value, "the value")
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


class Percent(c.BaseConfigOption[int]):
    """A whole percentage, 0 to 100."""

    def __init__(self, default: int) -> None:
        super().__init__()
        self.default = default

    def run_validation(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            raise ValidationError(f"expected a whole percentage from 0 to 100, not {value!r}")
        return value


class InsideProject(c.FilesystemObject):
    """A folder of the project (relative to mkdocs.yml) that the build may write and clean: a
    path leading outside the project (absolute, `..`, or through a symlink) is refused, since
    the build deletes what it did not generate there."""

    name = "folder"

    def run_validation(self, value: object) -> str:
        path = super().run_validation(value)
        root = os.path.realpath(self.config_dir or ".")
        real = os.path.realpath(path)
        if real == root or os.path.commonpath([root, real]) != root:
            raise ValidationError(f"{value!r} is not a folder inside the project ({root}); the "
                                  "build empties this folder, so it must be one of its own, "
                                  "e.g. .cache/docs")
        return path


class MariageConfig(Config):
    profile = c.File(exists=True, default="rules/mariage.yaml")
    locales = c.Dir(exists=True, default="locales")
    examples = c.Dir(exists=True, default="examples")
    min_translated = Percent(default=DEFAULT_MIN_TRANSLATED)
    generated = InsideProject(default=".cache/docs")    # for `mkdocs serve`; a build uses its own
    example_timeout = Seconds(default=EXAMPLE_TIMEOUT)  # seconds per page
    lock_timeout = Seconds(default=publish.LOCK_TIMEOUT)  # seconds to wait for another build
    watch = c.ListOfItems(c.Type(str), default=["rules", "locales", "templates", "examples", "docs"])


class MariagePlugin(BasePlugin[MariageConfig]):
    def __init__(self) -> None:
        self._command = "build"
        self._lock: int | None = None
        self._scratch: Path | None = None
        self._publication: publish.Publication | None = None
        self._built = self._failed = False
        self._source: SiteSource | None = None
        self._docs_dir: str | None = None
        self._root: Path | None = None
        self._languages: Languages | None = None       # `mkdocs serve`: what a save skips
        self._kept: KeptForServe | None = None         # `mkdocs serve`: pages' HTML, sections
        self._config: MkDocsConfig | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if self._inner_build(config):
            return None        # static-i18n rebuilds each language with this same config
        root = self._root = Path(config.config_file_path).parent
        static, out = Path(config.docs_dir), root / self.config.generated
        _check_site_url(config.site_url)
        try:
            if self._command in _PUBLISHING:
                out = self._claim_build_folders(root, config)
            # The project is the folder of this mkdocs.yml; its loaded sources go down to every
            # stage, so pages and doctests use this build's profile and catalogs.
            source = SiteSource.of(Project.at(root, self.config.profile, self.config.locales,
                                              self.config.examples),
                                   cache=StageCache(folder_for(root / ".cache")))
            source.min_translated = self.config.min_translated
            source.preview = self._preview(source)
            with source.study_ahead():      # on the second core while the catalogs are checked
                self._unpublish(config, source)
                pages = generate(out, source, static=static, strict=bool(config.strict),
                                 timeout=self.config.example_timeout)
            for problem in check_catalogs(source, strict=False):
                log.warning("mariage: %s; the English text is shown instead", problem)
            add = additions(source, pages)
            self._apply(config, add)
            self._source = source
            if self._command == "serve":
                self._languages = self._languages or Languages(root / ".cache" / "serve")
                self._languages.plan(pages, shared_inputs(
                    Path(config.config_file_path), add, [root / "overrides", static / "assets"]))
                self._kept = self._kept or KeptForServe()
                self._kept.install()
            else:               # every language of the build lists the theme's files once
                self._kept = KeptForServe(serving=False)
                self._kept.install()
        except PluginError:
            raise
        except MariageError as exc:
            raise PluginError(f"mariage: {exc}") from None
        except (OSError, UnicodeError, RecursionError, MemoryError) as exc:
            raise PluginError(f"mariage: {_describe(exc)}") from None
        except Exception:
            log.error("mariage: this is a bug in mariage, not in your files; please report it "
                      "with the traceback below")
            raise
        log.info("mariage: %d pages in %d languages generated and examples verified",
                 len(pages), len(source.languages()))
        log.debug("mariage: the stage cache: %s", ", ".join(
            f"{what} {n}" for what, n in sorted(source.cache.counts.items())))
        self._docs_dir, config.docs_dir = config.docs_dir, str(out)
        config.watch.extend(str(root / w) for w in self.config.watch)
        return config

    def _claim_build_folders(self, root: Path, config: MkDocsConfig) -> Path:
        """Lock the project, then give this build its own generated-docs and site folders."""
        cache = root / ".cache"
        self._lock = publish.lock(cache, lambda: log.info(
            "mariage: another build of this project is running; waiting up to %g s for it to "
            "finish", self.config.lock_timeout), timeout=self.config.lock_timeout)
        self._scratch = publish.scratch(cache)
        self._publication = publish.prepare(Path(config.site_dir), self._scratch)
        config.site_dir = str(self._publication.build_dir)
        self._config = config
        return self._scratch / "docs"

    def on_env(self, env: Environment, *, config: MkDocsConfig, files) -> Environment:
        """static-i18n builds each language with a new theme environment, and `mkdocs serve`
        each save: Jinja's bytecode cache (beside the stage cache) compiles each theme template once
        per text instead of once per language and per build."""
        root = Path(config.config_file_path).parent
        env.bytecode_cache = _theme_bytecode(folder_for(root / ".cache") / "jinja")
        return env

    @event_priority(-200)   # after static-i18n's own on_post_page
    def on_post_page(self, output: str, *, page, config: MkDocsConfig) -> str:
        i18n = config.plugins.get("i18n")
        if self._source is not None and i18n is not None:
            output = interface.localize_html(output, self._source, i18n.current_language)
        return fix_html(output)

    @event_priority(-200)
    def on_post_template(self, output: str, *, template_name: str, config: MkDocsConfig) -> str:
        """Hosts serve one 404 page for every language: keep the default language's, with its
        language selector pointing at each language's home page (static-i18n leaves it
        pointing at whatever page was built last)."""
        if template_name != "404.html":
            return output
        output = fix_html(output)
        one_404.keep(output, config)
        return output

    @event_priority(-50)    # before static-i18n builds the other languages
    def _before_languages(self, config: MkDocsConfig) -> None:
        i18n = config.plugins.get("i18n")
        if self._languages is not None and i18n is not None and not self._inner_build(config):
            self._languages.install(i18n, Path(config.site_dir))

    @event_priority(-200)   # after static-i18n has built every language
    def _after_languages(self, config: MkDocsConfig) -> None:
        if self._inner_build(config):
            return
        if self._languages is not None:
            self._languages.uninstall(Path(config.site_dir))
        if self._kept is not None:
            self._kept.uninstall()
            log.debug("mariage: %s", self._kept.summary())
        one_404.write(config)
        if self._source is not None and self._root is not None:
            self._play_assets(config, self._source, self._root)
        if self._docs_dir is not None:
            # `mkdocs serve` watches docs_dir after the build: the sources, not the generated
            # tree, whose rewrite would trigger a second rebuild
            config.docs_dir = self._docs_dir
        self._built = True

    on_post_build = CombinedEvent(_before_languages, _after_languages)

    def on_build_error(self, *, error: Exception) -> None:
        self._failed = True
        if self._languages is not None:
            self._languages.uninstall(None)
            self._languages.forget()
        if self._kept is not None:
            self._kept.forget()

    def on_shutdown(self) -> None:
        if self._kept is not None:
            self._kept.uninstall()
        # MkDocs raises its strict-mode Abort after on_post_build (then calls on_build_error),
        # and calls on_shutdown last, so only here is a build known to have succeeded.
        try:
            if self._publication is not None and self._built and not self._failed:
                self._publish(self._publication)
                if self._config is not None:
                    # gh-deploy runs after this: it pushes the complete site just published
                    self._config.site_dir = str(self._publication.target)
            elif self._publication is not None:
                log.info("mariage: the build failed; the previous site is kept")
        finally:
            publish.discard(self._publication)
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
            if self._lock is not None and self._command != "gh-deploy":
                publish.unlock(self._lock)   # gh-deploy's is freed at exit, after the push
            self._lock = self._scratch = self._publication = None

    @staticmethod
    def _play_assets(config: MkDocsConfig, source: SiteSource, root: Path) -> None:
        """The Play page's runtime, engine and profiles (mariage.site.build.play), into the site."""
        profiles = {TEACHING: source.profile} | dict(source.variants())
        try:
            write_play_assets(Path(config.site_dir), root, profiles, source.cache)
        except MariageError as exc:
            raise PluginError(f"mariage: {exc}") from None
        except OSError as exc:
            raise PluginError(f"mariage: the Play page's files: {_describe(exc)}") from None

    @staticmethod
    def _publish(publication: publish.Publication) -> None:
        try:
            publish.publish(publication)
        except OSError as exc:
            raise Abort(f"mariage: cannot publish the site to {publication.target}: "
                        f"{_describe(exc)}") from None
        log.info("mariage: site published to %s%s", publication.target,
                 " (updated in place)" if publication.in_place else "")

    @staticmethod
    def _inner_build(config: MkDocsConfig) -> bool:
        i18n = config.plugins.get("i18n")
        return bool(getattr(i18n, "building", False))

    def _preview(self, source: SiteSource) -> list[str] | None:
        """`MARIAGE_LANGS=fr mkdocs serve` previews English and French only: a translator's
        save rebuilds two languages, not all of them. Builds ignore it."""
        wanted = os.environ.get("MARIAGE_LANGS", "").replace(",", " ").split()
        if self._command != "serve" or not wanted:
            return None
        unknown = [lang for lang in wanted if lang not in source.configured_languages()]
        if unknown:
            raise PluginError(f"mariage: MARIAGE_LANGS names {', '.join(unknown)}, not a "
                              f"language of mkdocs.yml ({', '.join(source.configured_languages())})")
        return wanted

    @staticmethod
    def _unpublish(config: MkDocsConfig, source: SiteSource) -> None:
        """Leave out the languages below min_translated (or outside a MARIAGE_LANGS preview),
        saying why (static-i18n builds only the languages marked `build`); a preview's language
        below min_translated is built, as a draft."""
        i18n = config.plugins.get("i18n")
        languages = i18n.config.languages if i18n is not None else []
        for lang, reason in source.unpublished().items():
            log.info("mariage: %s", reason)
            for language in languages:
                if language.locale == lang:
                    language.build = False
        for lang, percent in source.drafts().items():
            log.info("mariage: %s is %d %% translated: not published (below %d %%); this "
                     "preview shows it as a draft", lang, percent, source.threshold())

    @staticmethod
    def _apply(config: MkDocsConfig, add: Additions) -> None:
        """What the build adds to the configuration (mariage.site.build.standalone, which
        `mariage generate` writes into a plain mkdocs.yml): each worked example in the nav
        section that holds examples/index.md, each language's section titles and site
        description for static-i18n, and what the theme's overrides read."""
        for entry in config.nav or []:
            section = next(iter(entry.values())) if isinstance(entry, dict) else None
            if isinstance(section, list) and "examples/index.md" in section:
                section.extend(n for n in add.examples if n not in section)
        config.extra.update(add.extra)
        i18n = config.plugins.get("i18n")
        for language in i18n.config.languages if i18n is not None else []:
            if language.locale in add.nav_translations:
                language.nav_translations = add.nav_translations[language.locale]
                language.site_description = add.descriptions[language.locale]


class OwnBytecodeCache(FileSystemBytecodeCache):
    """Jinja's bytecode cache, reading only the files this user wrote (cache.own_bytes): a
    compiled template is code, and the folder may be shared (MARIAGE_STAGE_CACHE)."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            data = own_bytes(Path(self._get_cache_filename(bucket)))
        except OSError:
            return
        if data is not None:
            bucket.load_bytecode(io.BytesIO(data))


@lru_cache(maxsize=4)
def _theme_bytecode(folder: Path) -> FileSystemBytecodeCache:
    folder.mkdir(parents=True, exist_ok=True)
    return OwnBytecodeCache(str(folder))


# Commands whose build publishes site_dir: each goes through the lock and the atomic swap;
# gh-deploy then pushes the complete build folder, never a half-written site/.
_PUBLISHING = ("build", "gh-deploy")


def _check_site_url(url: str | None) -> None:
    """site_url goes into every page's canonical link and the sitemap: an http(s) URL only."""
    if not url:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or _UNSAFE_URL.search(url):
        raise PluginError(f"mariage: site_url {url!r} is not a plain http:// or https:// URL "
                          "(quotes, angle brackets, spaces and other schemes are refused); "
                          "check MARIAGE_SITE_URL")


def _describe(exc: BaseException) -> str:
    """One line for an environment failure (a file, the disk, an oversized input)."""
    if isinstance(exc, OSError):
        return f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    if isinstance(exc, RecursionError):
        return "an input nests too deeply"
    if isinstance(exc, MemoryError):
        return "an input is too large to hold in memory"
    return str(exc)
