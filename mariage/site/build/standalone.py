"""What the build adds to the MkDocs configuration, and `mariage generate OUT`: the verified
Markdown tree of every language with a plain `mkdocs.yml`, for reviewers, for benchmarks and
for any MkDocs-compatible builder.

The `mariage` plugin applies the same additions (`additions`) to the configuration of a
running build; here they are written into a copy of the project's `mkdocs.yml` without the
plugin. What the plugin does to the built HTML (`mariage_mkdocs.page_html`, the permalink title
in the reader's language) and the atomic publication are the plugin's alone.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from markupsafe import escape

from ...engine.errors import SourceError
from ..read import catalogs
from ..render import interface
from ..render.pages import SiteSource
from ..render.templating import RenderedPage
from .. import EXAMPLE_TIMEOUT
from . import one_404
from .generate import NAV_SECTIONS, generate, not_found_notes

MARKER = ".mariage-generated"          # a folder `mariage generate` wrote, safe to rewrite
HOOKS = "hooks"                         # the tree's MkDocs hooks, beside its mkdocs.yml


@dataclass(frozen=True)
class Additions:
    """The configuration a build of this source needs beyond the project's mkdocs.yml."""
    examples: list[str]                        # the worked examples, in the nav's section
    nav_translations: dict[str, dict[str, str]]    # lang -> {section title: its translation}
    descriptions: dict[str, str]               # lang -> the site's description
    unpublished: dict[str, str]                # lang -> why it is left out
    extra: dict[str, Any]                      # what the theme's overrides read


def additions(source: SiteSource, pages: list[RenderedPage]) -> Additions:
    """Translations are HTML-escaped: the theme prints them as HTML, and a catalog never adds
    markup."""
    languages = [lang for lang in source.languages() if lang != catalogs.SOURCE_LANGUAGE]
    examples = sorted({p.path for p in pages if p.path.startswith("examples/")
                       and p.path != "examples/index.md"}, key=lambda path: Path(path).stem)
    return Additions(
        examples=examples,
        nav_translations={lang: {title: str(escape(source.translations(lang).gettext(title)))
                                 for title in NAV_SECTIONS} for lang in languages},
        # escaped too: the theme prints the description inside content="…" as it is
        descriptions={lang: str(escape(interface.description(source, lang)))
                      for lang in languages},
        unpublished=source.unpublished(),
        extra={"mariage_not_found": not_found_notes(source),
               "mariage_interface": interface.theme_strings(source)})


def generate_tree(out: Path, source: SiteSource, strict: bool = True,
                  timeout: float = EXAMPLE_TIMEOUT) -> list[RenderedPage]:
    """Write out/docs/<lang>/... (every page, examples verified), out/overrides/ and
    out/mkdocs.yml: `mkdocs build -f out/mkdocs.yml` builds the site without the plugin.
    A folder that holds anything but an earlier tree is refused, never overwritten."""
    if out.exists() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise SourceError(out, "the folder is not empty and was not written by `mariage "
                          "generate`", hint="name a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by `mariage generate`; rewritten by the next one\n",
                              encoding="utf-8")
    pages = generate(out / "docs", source, strict=strict, timeout=timeout)
    overrides = source.root / "overrides"
    if overrides.is_dir():
        shutil.rmtree(out / "overrides", ignore_errors=True)
        shutil.copytree(overrides, out / "overrides")
    (out / HOOKS).mkdir(exist_ok=True)
    shutil.copy(one_404.__file__, out / HOOKS / "one_404.py")
    config = plain_config(source.project.config, additions(source, pages))
    tmp = out / "mkdocs.yml.tmp"
    tmp.write_text(config, encoding="utf-8")
    tmp.replace(out / "mkdocs.yml")
    return pages


def plain_config(config: Path, add: Additions) -> str:
    """The project's mkdocs.yml without the mariage plugin, reading docs/ and overrides/ beside
    it, with the additions applied; tags such as !ENV are kept as written."""
    data = yaml.load(config.read_text(encoding="utf-8"), Loader=_TagLoader) or {}
    data["docs_dir"], data["site_dir"] = "docs", "site"
    if isinstance(data.get("theme"), dict) and "custom_dir" in data["theme"]:
        data["theme"]["custom_dir"] = "overrides"
    data["plugins"] = [p for p in data.get("plugins", [])
                       if p != "mariage" and not (isinstance(p, dict) and "mariage" in p)]
    for entry in data.get("nav") or []:
        section = next(iter(entry.values())) if isinstance(entry, dict) else None
        if isinstance(section, list) and "examples/index.md" in section:
            section.extend(n for n in add.examples if n not in section)
    for plugin in data["plugins"]:
        i18n = plugin.get("i18n") if isinstance(plugin, dict) else None
        for language in (i18n or {}).get("languages", []):
            lang = language.get("locale")
            if lang in add.unpublished:
                language["build"] = False
            elif lang in add.nav_translations:
                language["nav_translations"] = add.nav_translations[lang]
                language["site_description"] = add.descriptions[lang]
    data["extra"] = {**(data.get("extra") or {}), **_plain(add.extra)}
    # one 404 page for every language, as the plugin makes it (one_404.py)
    data["hooks"] = [*(data.get("hooks") or []), f"{HOOKS}/one_404.py"]
    return ("# Written by `mariage generate`: the site's Markdown, built by MkDocs without the "
            "mariage plugin.\n" + yaml.dump(data, Dumper=_TagDumper, allow_unicode=True,
                                            sort_keys=False))


def _plain(value: Any) -> Any:
    """Markup and other str subclasses as str, for YAML."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class _Tagged:
    tag: str
    value: Any


class _TagLoader(yaml.SafeLoader):
    """Reads mkdocs.yml keeping its tags (!ENV, !relative) for the copy."""


def _tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> _Tagged:
    if isinstance(node, yaml.SequenceNode):
        return _Tagged(suffix, loader.construct_sequence(node, deep=True))
    if isinstance(node, yaml.MappingNode):
        return _Tagged(suffix, loader.construct_mapping(node, deep=True))
    return _Tagged(suffix, loader.construct_scalar(node))     # type: ignore[arg-type]


_TagLoader.add_multi_constructor("!", _tagged)


class _TagDumper(yaml.SafeDumper):
    pass


def _represent(dumper: yaml.SafeDumper, data: _Tagged) -> yaml.Node:
    tag = "!" + data.tag
    if isinstance(data.value, list):
        return dumper.represent_sequence(tag, data.value, flow_style=True)
    if isinstance(data.value, dict):
        return dumper.represent_mapping(tag, data.value)
    return dumper.represent_scalar(tag, data.value)


_TagDumper.add_representer(_Tagged, _represent)
