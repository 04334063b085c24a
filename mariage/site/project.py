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

from ..engine.errors import SourceError
from ..engine.profile import PROJECT_PROFILE

CONFIG = "mkdocs.yml"


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


def _plugin_options(config: Path) -> dict[str, Any]:
    """The `mariage` plugin's options in mkdocs.yml ({} when it sets none)."""
    try:
        data = yaml.load(config.read_text(encoding="utf-8"), Loader=_AnyTagLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(config, f"cannot read the MkDocs configuration: {exc}",
                          line=mark.line + 1 if mark else None) from None
    plugins = data.get("plugins", []) if isinstance(data, dict) else []
    for entry in plugins if isinstance(plugins, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("mariage"), dict):
            return {k: v for k, v in entry["mariage"].items() if isinstance(v, str)}
    return {}
