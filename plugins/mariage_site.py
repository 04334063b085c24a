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

import logging
import os
import re
import shutil
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, event_priority

from markupsafe import escape

from mariage.engine.errors import MariageError
from mariage.site.read import catalogs
from mariage.site.render import interface
from mariage.site.build import publish
from mariage.site.render.pages import SiteSource
from mariage.site.read.project import DEFAULT_MIN_TRANSLATED, Project
from mariage.site import EXAMPLE_TIMEOUT
from mariage.site.build.generate import NAV_SECTIONS, check_catalogs, generate, not_found_notes

log = logging.getLogger("mkdocs.plugins.mariage")
_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_SELECTOR_LINK = re.compile(r'<a href="[^"]*" hreflang="([^"]+)" class="md-select__link">')
_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
_SEARCH_LABEL = re.compile(r'class="md-search__input" name="query" aria-label="([^"]*)"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_UNSAFE_URL = re.compile(r"[\s\"'<>`]")


def fix_html(output: str) -> str:
    """Mend what Material + static-i18n emit, in every page:
    - drop the head's <link rel=alternate> tags: Material fetches `sitemap.xml` next to each of
      them, which 404s for static-i18n's per-page alternates; the hreflang alternates stay in
      the language selector's links and in the alternate-aware sitemap.xml;
    - drop `tabindex=""` (navigation.sections writes it; an empty tabindex is invalid HTML);
    - name the search dialog (ARIA dialogs need an accessible name);
    - keep <title> plain text: MkDocs unescapes the page's H1 into it, so an escaped `<` from a
      catalog would come back as a raw one."""
    output = _HEAD_ALTERNATE.sub("", output).replace(' tabindex=""', "")
    output = _TITLE.sub(lambda m: "<title>" + m.group(1).replace("<", "&lt;").replace(">", "&gt;")
                        + "</title>", output, count=1)
    label = _SEARCH_LABEL.search(output)
    if label:
        output = output.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + f' aria-label="{label.group(1)}">')
    return output


def _home_link(root: str, lang: str) -> str:
    home = root if lang == catalogs.SOURCE_LANGUAGE else f"{root}{lang}/"
    return f'<a href="{escape(home)}" hreflang="{escape(lang)}" class="md-select__link">'


class MariageConfig(Config):
    profile = c.Type(str, default="rules/mariage.yaml")
    locales = c.Type(str, default="locales")
    examples = c.Type(str, default="examples")
    min_translated = c.Type(int, default=DEFAULT_MIN_TRANSLATED)
    generated = c.Type(str, default=".cache/docs")      # for `mkdocs serve`; a build uses its own
    example_timeout = c.Type((int, float), default=EXAMPLE_TIMEOUT)   # seconds per page
    watch = c.ListOfItems(c.Type(str), default=["rules", "locales", "templates", "examples", "docs"])


class MariagePlugin(BasePlugin[MariageConfig]):
    def __init__(self) -> None:
        self._command = "build"
        self._not_found: str | None = None
        self._lock: int | None = None
        self._scratch: Path | None = None
        self._publication: publish.Publication | None = None
        self._built = self._failed = False
        self._source: SiteSource | None = None
        self._docs_dir: str | None = None

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._command = command

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if self._inner_build(config):
            return None        # static-i18n rebuilds each language with this same config
        root = Path(config.config_file_path).parent
        static, out = Path(config.docs_dir), root / self.config.generated
        if config.site_url and _UNSAFE_URL.search(config.site_url):
            raise PluginError(f"mariage: site_url {config.site_url!r} holds quotes, angle brackets "
                              "or spaces, which a URL cannot; check MARIAGE_SITE_URL")
        try:
            if self._command == "build":
                out = self._claim_build_folders(root, config)
            # The project is the folder of this mkdocs.yml; its loaded sources go down to every
            # stage, so pages and doctests use this build's profile and catalogs.
            source = SiteSource.of(Project.at(root, self.config.profile, self.config.locales,
                                              self.config.examples))
            source.min_translated = self.config.min_translated
            source.preview = self._preview(source)
            self._unpublish(config, source)
            pages = generate(out, source, static=static, strict=bool(config.strict),
                             timeout=self.config.example_timeout)
            for problem in check_catalogs(source, strict=False):
                log.warning("mariage: %s; the English text is shown instead", problem)
            self._translate_nav(config, source)
            self._list_examples(config, pages)
            config.extra["mariage_not_found"] = not_found_notes(source)
            self._localize_theme(config, source)
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
        self._docs_dir, config.docs_dir = config.docs_dir, str(out)
        config.watch.extend(str(root / w) for w in self.config.watch)
        return config

    def _claim_build_folders(self, root: Path, config: MkDocsConfig) -> Path:
        """Lock the project, then give this build its own generated-docs and site folders."""
        cache = root / ".cache"
        self._lock = publish.lock(cache, lambda: log.info(
            "mariage: another build of this project is running; waiting for it to finish"))
        self._scratch = publish.scratch(cache)
        self._publication = publish.prepare(Path(config.site_dir), self._scratch)
        config.site_dir = str(self._publication.build_dir)
        return self._scratch / "docs"

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
        i18n = config.plugins.get("i18n")
        if i18n is None or i18n.current_language == catalogs.SOURCE_LANGUAGE:
            root = urlsplit(config.site_url or "/").path or "/"
            self._not_found = _SELECTOR_LINK.sub(lambda m: _home_link(root, m.group(1)), output)
        return output

    @event_priority(-200)   # after static-i18n has built every language
    def on_post_build(self, config: MkDocsConfig) -> None:
        if self._inner_build(config):
            return
        if self._not_found is not None:
            (Path(config.site_dir) / "404.html").write_text(self._not_found, encoding="utf-8")
        if self._docs_dir is not None:
            # `mkdocs serve` watches docs_dir after the build: the sources, not the generated
            # tree, whose rewrite would trigger a second rebuild
            config.docs_dir = self._docs_dir
        self._built = True

    def on_build_error(self, *, error: Exception) -> None:
        self._failed = True

    def on_shutdown(self) -> None:
        # MkDocs raises its strict-mode Abort after on_post_build (then calls on_build_error),
        # and calls on_shutdown last, so only here is a build known to have succeeded.
        try:
            if self._publication is not None and self._built and not self._failed:
                self._publish(self._publication)
            elif self._publication is not None:
                log.info("mariage: the build failed; the previous site is kept")
        finally:
            publish.discard(self._publication)
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
            if self._lock is not None:
                publish.unlock(self._lock)
            self._lock = self._scratch = self._publication = None

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
        saying why (static-i18n builds only the languages marked `build`)."""
        i18n = config.plugins.get("i18n")
        languages = i18n.config.languages if i18n is not None else []
        for lang, reason in source.unpublished().items():
            log.info("mariage: %s", reason)
            for language in languages:
                if language.locale == lang:
                    language.build = False

    def _localize_theme(self, config: MkDocsConfig, source: SiteSource) -> None:
        """Each language's site description and the theme strings its catalog translates."""
        self._source = source
        config.extra["mariage_interface"] = interface.theme_strings(source)
        i18n = config.plugins.get("i18n")
        for language in getattr(i18n, "config", {}).get("languages", []) if i18n else []:
            if language.locale != catalogs.SOURCE_LANGUAGE:
                language.site_description = interface.description(source, language.locale)

    @staticmethod
    def _list_examples(config: MkDocsConfig, pages) -> None:
        """Add each worked example to the nav section that holds examples/index.md."""
        names = sorted({p.path for p in pages if p.path.startswith("examples/")
                        and p.path != "examples/index.md"}, key=lambda path: Path(path).stem)
        for entry in config.nav or []:
            section = next(iter(entry.values())) if isinstance(entry, dict) else None
            if isinstance(section, list) and "examples/index.md" in section:
                section.extend(n for n in names if n not in section)

    @staticmethod
    def _translate_nav(config: MkDocsConfig, source: SiteSource) -> None:
        """Give static-i18n each language's section titles, taken from the catalogs."""
        i18n = config.plugins.get("i18n")
        if i18n is None:
            return
        for language in i18n.config.languages:
            if language.locale == catalogs.SOURCE_LANGUAGE:
                continue
            tr = source.translations(language.locale)
            # Escaped: the theme prints nav titles as HTML, and a catalog never adds markup.
            language.nav_translations = {title: str(escape(tr.gettext(title)))
                                         for title in NAV_SECTIONS}


def _describe(exc: BaseException) -> str:
    """One line for an environment failure (a file, the disk, an oversized input)."""
    if isinstance(exc, OSError):
        return f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    if isinstance(exc, RecursionError):
        return "an input nests too deeply"
    if isinstance(exc, MemoryError):
        return "an input is too large to hold in memory"
    return str(exc)
