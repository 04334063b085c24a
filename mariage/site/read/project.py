"""The project a command works on: found from where it runs, never from where the package is.

A project is the folder that holds `mkdocs.yml` (as MkDocs finds it), with its sources in
folders named for what they hold: `rules/`, `locales/`, `templates/`, `examples/`, `docs/`.
The `mariage` plugin entry of `mkdocs.yml` may point the profile and the catalogs elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ...engine.errors import SourceError
from ...engine.profile import PROJECT_PROFILE
from . import catalogs

CONFIG = "mkdocs.yml"
DEFAULT_MIN_TRANSLATED = 80


@dataclass(frozen=True)
class Project:
    root: Path
    profile: Path
    locales: Path
    examples: Path = None  # type: ignore[assignment]   # filled in __post_init__

    def __post_init__(self) -> None:
        if self.examples is None:
            object.__setattr__(self, "examples", self.root / "examples")

    @property
    def config(self) -> Path:
        return self.root / CONFIG

    def languages(self) -> list[str]:
        """The site's languages, the source first: the i18n plugin's list in mkdocs.yml (the
        one list everything follows), checked against the catalogs in locales/."""
        configured = configured_languages(self.config)
        if configured is None:
            return [catalogs.SOURCE_LANGUAGE] + catalogs.catalog_languages(self.locales)
        catalogs.check_languages(configured, self.locales, self.config)
        return configured

    def min_translated(self) -> int:
        """The mariage plugin's `min_translated` option: a language less translated (in
        percent) is not published."""
        value = _plugin_options(self.config, (int,)).get("min_translated", DEFAULT_MIN_TRANSLATED) \
            if self.config.is_file() else DEFAULT_MIN_TRANSLATED
        if not 0 <= value <= 100:
            raise SourceError(self.config, f"min_translated: {value} is not a percentage",
                              key="plugins.mariage", hint="use a number from 0 to 100")
        return value

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def babel_config(self) -> Path:
        return self.root / "babel.cfg"

    @classmethod
    def at(cls, root: Path, profile: str | Path | None = None,
           locales: str | Path | None = None, examples: str | Path | None = None) -> "Project":
        """The project in `root`; `profile`, `locales` and `examples` are relative to it unless
        absolute (a site for another game of the family names its own profile and examples)."""
        root = Path(root).resolve()
        return cls(root, root / (profile or PROJECT_PROFILE), root / (locales or "locales"),
                   root / (examples or "examples"))

    @classmethod
    def find(cls, start: Path | None = None) -> "Project":
        """The project holding the current folder (or `start`): the nearest mkdocs.yml above."""
        here = Path(start or Path.cwd()).resolve()
        for folder in (here, *here.parents):
            if (folder / CONFIG).is_file():
                options = _plugin_options(folder / CONFIG)
                return cls.at(folder, options.get("profile"), options.get("locales"),
                              options.get("examples"))
        raise SourceError(here, f"no {CONFIG} here or in any folder above: this is not a "
                          "Mariage project", hint="run the command inside the project, or pass "
                          "--project DIR")


class _AnyTagLoader(yaml.SafeLoader):
    """mkdocs.yml uses tags such as !ENV; only the plugin's plain options matter here."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _read_config(config: Path) -> dict[str, Any]:
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_AnyTagLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(config, f"cannot read the MkDocs configuration: {exc}",
                          line=mark.line + 1 if mark else None) from None
    return data if isinstance(data, dict) else {}


def _plugin(config: Path, name: str) -> dict[str, Any] | None:
    plugins = _read_config(config).get("plugins", [])
    for entry in plugins if isinstance(plugins, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get(name), dict):
            return entry[name]
    return None


def _plugin_options(config: Path, types: tuple[type, ...] = (str,)) -> dict[str, Any]:
    """The `mariage` plugin's options of the given types in mkdocs.yml ({} when none)."""
    options = _plugin(config, "mariage") or {}
    return {k: v for k, v in options.items() if isinstance(v, types) and not isinstance(v, bool)}


def configured_languages(config: Path) -> list[str] | None:
    """The i18n plugin's languages (default first), or None without that plugin."""
    if not config.is_file():
        return None
    i18n = _plugin(config, "i18n")
    if i18n is None:
        return None
    entries = i18n.get("languages")
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(
            e.get("locale"), str) for e in entries):
        raise SourceError(config, "the i18n plugin's languages must be a list of entries "
                          "with a `locale`", key="plugins.i18n.languages")
    default = [e["locale"] for e in entries if e.get("default")]
    return default[:1] + [e["locale"] for e in entries if e["locale"] not in default[:1]]


def output_path(template: str) -> str:
    """Where a page template's page goes in each language's tree: `pages/rules.md.j2` ->
    `rules.md`."""
    return template.removeprefix("pages/").removesuffix(".j2")
