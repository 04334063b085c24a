"""`mkdocs serve`: a page whose theme render would be what it was at the last build is not
rendered again.

A save that changes one page in every language (an example, a template) made static-i18n
build every language again, and MkDocs renders each page of a built language through the
theme (Material's `main.html`: the header, the whole navigation, the footer), although only
the changed pages' HTML differs. While serving, each page's render is kept by everything the
template reads: the template's name and the theme's folders (an installed theme's by name, a
project's `custom_dir` by what it holds), the page (its HTML, table of contents, title, front
matter, place and neighbours), the navigation (every title and URL), the files, and every
setting in the context (the configuration, each plugin's, static-i18n's alternates, what the
navigation shows of each page's front matter). A value
the key cannot read as plain data makes the render its own: it is rendered, never reused.
MkDocs' `_build_page` runs as always (the plugins' `on_page_context`, which index the page for
search, and `on_post_page`); only `template.render` is reused. `mkdocs build` renders all.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from babel import Locale
from mkdocs.commands import build as mkdocs_build

from mariage.site.cache import digest, file_digest

from .conversions import _KeptFromLastBuild, _listing, _toc

_PLAIN = (str, int, float, bool, type(None))
_UNIQUE = itertools.count()


class _Unkeyable(Exception):
    """A value of the context the key cannot read: the page is rendered."""


def plain(value: Any, depth: int = 0) -> Any:
    """Plain data for the key: scalars, sequences and mappings of them (a configuration, a
    theme), sorted; anything else raises _Unkeyable."""
    if depth > 30:
        raise _Unkeyable("nested too deeply")
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Locale):              # static-i18n's languages name theirs
        return str(value)
    if isinstance(value, (datetime.date, datetime.time)):     # YAML front matter's dates
        return [type(value).__name__, value.isoformat()]
    if isinstance(value, (list, tuple)):
        return [plain(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(plain(v, depth + 1)) for v in value)
    if isinstance(value, Mapping):
        return sorted((str(k), plain(v, depth + 1)) for k, v in value.items())
    raise _Unkeyable(type(value).__name__)


def _page(page: Any) -> Any:
    if page is None:
        return None
    neighbours = [(p.title, p.url) if p is not None else None
                  for p in (page.previous_page, page.next_page)]
    return [_toc(page.toc), page.title, plain(page.meta), page.url,
            page.canonical_url, page.edit_url, page.file.src_uri, page.file.dest_uri,
            page.is_homepage, neighbours]


def _nav(items: Any) -> list[Any]:
    """Every entry of the navigation: its kind, title, URL and children, and what a theme shows
    of a page in it besides: its front matter (Material: icon, subtitle, status), its typeset
    title and whether it is encrypted (plugins set these)."""
    return [(type(i).__name__, i.title, getattr(i, "url", None), _nav(getattr(i, "children", None)),
             plain(getattr(i, "meta", None)), plain(getattr(i, "typeset", None)),
             plain(getattr(i, "encrypted", None)))
            for i in items or []]


def _config(config: Any) -> Any:
    """The configuration as the template may read it, but its `extra` (keyed for each page):
    the theme with what its folders hold; each plugin's settings."""
    out = []
    for name in sorted(config.keys()):
        value = config[name]
        if name == "extra":
            continue
        if name == "plugins":
            value = [(n, _plugin(p)) for n, p in value.items()]
        elif name == "hooks":
            value = [(n, _plugin(m)) for n, m in value.items()]
        elif name == "theme":
            value = [plain(dict(value.items())), [_listing(d) for d in value.dirs]]
        out.append((name, plain(value)))
    return out


def _plugin(plugin: Any) -> Any:
    """A plugin's settings; a hook (a module of the project) by its file's text."""
    if isinstance(plugin, ModuleType):
        return file_digest(Path(plugin.__file__ or ""))
    return plain(plugin.config)


class Renders(_KeptFromLastBuild):
    """Each page's theme render (the template MkDocs' `_build_page` asks for), kept from one
    serve build to the next."""

    owner, method = mkdocs_build, "_build_page"
    keep_at_most = 600          # a page's render is 40-80 kB: at most ~50 MB kept

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def _build_page(page: Any, config: Any, doc_files: Any, nav: Any, env: Any,
                        dirty: bool = False, excluded: bool = False) -> None:
            if dirty or excluded:
                return original(page, config, doc_files, nav, env, dirty, excluded)

            def get_template(name: Any, *args: Any, **kwargs: Any) -> Any:
                del env.get_template      # the render's own includes get Jinja's templates
                return _Kept(self, env.get_template(name, *args, **kwargs), str(name))

            env.get_template = get_template
            try:
                return original(page, config, doc_files, nav, env, dirty, excluded)
            finally:
                env.__dict__.pop("get_template", None)
        return _build_page

    def __init__(self) -> None:
        super().__init__()
        self._shared: dict[tuple[str, int], tuple[Any, str]] = {}

    def install(self) -> None:
        super().install()
        self._shared = {}

    def uninstall(self) -> None:
        super().uninstall()
        self._shared = {}

    def key(self, name: str, context: Mapping[str, Any]) -> str:
        """The render's key: the template and everything in its context. What every page of a
        language's build shares (the configuration, static-i18n's settings, the navigation,
        the files) is read once per build of a language; the configuration's `extra`, where
        static-i18n puts the page's alternates, and the page itself, for each page.
        static-i18n builds every language with the same configuration object, set up again
        for each: a new navigation is the sign of the next language's build."""
        nav = context.get("nav")
        if nav is None or self._shared.get(("nav", id(nav)), (None,))[0] is not nav:
            self._shared = {}
        parts: list[Any] = [name]
        for entry in sorted(context):
            value = context[entry]
            if entry == "page":
                parts += [value.content if value is not None else None, _page(value)]
            elif entry in ("config", "i18n_config", "nav", "pages"):
                parts.append((entry, self._once(entry, value)))
                if entry == "config":      # and static-i18n's alternates for this page, which
                    # it sets as an attribute of `extra`, not as an item (Jinja reads both)
                    parts.append(("extra", plain(value.extra), plain(
                        {k: v for k, v in vars(value.extra).items()
                         if not k.startswith("_") and k not in ("data", "config_file_path")})))
            elif entry != "build_date_utc":      # shown by no page of this theme (the sitemap)
                parts.append((entry, plain(value)))
        return digest(*parts)

    def _once(self, entry: str, value: Any) -> str:
        known = self._shared.get((entry, id(value)))
        if known is None or known[0] is not value:
            plain_value = _config(value) if entry == "config" else \
                _nav(value.items) if entry == "nav" and value is not None else \
                [(f.src_uri, f.url) for f in value] if entry == "pages" else plain(value)
            known = self._shared[(entry, id(value))] = (value, digest(plain_value))
        return known[1]


class _Kept:
    """The template `_build_page` renders, answering from the kept renders."""

    def __init__(self, renders: Renders, template: Any, name: str) -> None:
        self._renders, self._template, self._name = renders, template, name

    def render(self, context: Mapping[str, Any]) -> str:
        try:
            key = self._renders.key(self._name, context)
        except (_Unkeyable, TypeError, ValueError, AttributeError, RecursionError):
            # what the key cannot read (or compare: 1 and "1" as a mapping's keys) is rendered
            key = f"unique-{next(_UNIQUE)}"
        output: str = self._renders._value(key, lambda: self._template.render(context),
                                           lambda kept: None)
        return output
