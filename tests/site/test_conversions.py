"""`mkdocs serve` keeps each page's Markdown conversion from one build to the next
(plugins/conversions.py): a page is converted again exactly when something it is converted
from changed, the site is byte for byte what MkDocs builds without it, and the warnings a
kept conversion logged are logged (and fail `--strict`) at every build."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from mkdocs.exceptions import Abort

from helpers import TWO_LANGUAGES, build_in_process, built_tree
from mariage_mkdocs.conversions import Conversions, Sections, ThemeFiles

PAGES = {
    "index.md": "# Home\n\nSee [the other page](other.md) and [its part](other.md#part).\n",
    "other.md": "# Other\n\n## Part\n\nSome text.\n",
    "third.md": "# Third\n\nA link to [nowhere](missing.md).\n",
}
CONFIG = """site_name: Conversions
use_directory_urls: true
markdown_extensions:
  - toc:
      permalink: false
validation:
  links:
    not_found: warn
    anchors: warn
"""


def _write(root: Path, pages: dict[str, str], config: str = CONFIG) -> None:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    for name, text in pages.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")


@dataclass(frozen=True)
class Change:
    name: str
    apply: Callable[[Path], None]
    converted: int          # pages converted again at the next build (of 3, or 4 with one more)
    warned: str | None = None     # a warning the next build logs


def _edit(name: str, text: str) -> Callable[[Path], None]:
    return lambda root: (root / "docs" / name).write_text(text, encoding="utf-8")


CHANGES = [
    Change("nothing", lambda root: None, 0, "missing.md"),
    Change("one page's text", _edit("third.md", "# Third\n\nNew text, [nowhere](missing.md).\n"),
           1, "missing.md"),
    Change("the heading another page links to", _edit("other.md", "# Other\n\n## Renamed\n"), 1,
           "anchor '#part'"),
    Change("a page added (links resolve against every file)", _edit("fourth.md", "# Four\n"), 4),
    Change("the file a broken link names appears", _edit("missing.md", "# Found\n"), 4),
    Change("a Markdown extension's option", lambda root: (root / "mkdocs.yml").write_text(
        CONFIG.replace("permalink: false", "permalink: true"), encoding="utf-8"), 3),
    Change("the URL style", lambda root: (root / "mkdocs.yml").write_text(
        CONFIG.replace("use_directory_urls: true", "use_directory_urls: false"),
        encoding="utf-8"), 3),
]


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_a_page_is_converted_again_exactly_when_its_inputs_change(tmp_path, caplog, monkeypatch,
                                                                   change):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")      # pages name their build's date
    root, conversions = tmp_path / "project", Conversions()
    _write(root, PAGES)
    build_in_process(root, tmp_path / "site", conversions)
    assert (conversions.computed, conversions.reused) == (3, 0)

    change.apply(root)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        build_in_process(root, tmp_path / "site", conversions)
    pages = len(list((root / "docs").glob("*.md")))
    assert (conversions.computed, conversions.reused) == (change.converted,
                                                          pages - change.converted)
    if change.warned:
        assert any(change.warned in r.getMessage() for r in caplog.records
                   if r.levelno >= logging.WARNING), [r.getMessage() for r in caplog.records]

    build_in_process(root, tmp_path / "plain", None)        # MkDocs alone, on the same files
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")


def test_a_kept_conversion_still_fails_strict(tmp_path):
    root, conversions = tmp_path / "project", Conversions()
    _write(root, PAGES)
    build_in_process(root, tmp_path / "site", conversions)
    with pytest.raises(Abort):      # every conversion reused, the broken link still counted
        build_in_process(root, tmp_path / "site", conversions, strict=True)
    assert (conversions.computed, conversions.reused) == (0, 3)


def test_after_uninstall_mkdocs_converts_as_before(tmp_path):
    from mkdocs.structure import pages
    original = pages.Page.render
    conversions = Conversions()
    conversions.install()
    assert pages.Page.render is not original
    conversions.uninstall()
    assert pages.Page.render is original
    conversions.install()
    conversions.forget()
    assert pages.Page.render is original and not conversions.kept


# ----- Material's search sections (conversions.Sections)

MATERIAL = CONFIG + "theme:\n  name: material\nplugins:\n  - search\n"

SEARCH_CHANGES = [
    # name, what changes, pages indexed again (of 3)
    ("nothing", lambda root: None, 0),
    ("one page's text", _edit("other.md", "# Other\n\n## Part\n\nOther text.\n"), 1),
    # the same HTML, but the front matter boosts the page's entries
    ("a search boost in the front matter", _edit("third.md", "---\nsearch:\n  boost: 2\n---\n"
                                                 + PAGES["third.md"]), 1),
    ("search settings", lambda root: (root / "mkdocs.yml").write_text(
        MATERIAL.replace("  - search\n", "  - search:\n      separator: '[\\s]+'\n"),
        encoding="utf-8"), 3),
]


@pytest.mark.parametrize("name,apply,indexed", SEARCH_CHANGES, ids=[c[0] for c in SEARCH_CHANGES])
def test_a_page_is_indexed_again_exactly_when_its_html_or_settings_change(
        tmp_path, monkeypatch, name, apply, indexed):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, kept = tmp_path / "project", (Conversions(), Sections())
    _write(root, PAGES, MATERIAL)
    build_in_process(root, tmp_path / "site", *kept)
    assert (kept[1].computed, kept[1].reused) == (3, 0)

    apply(root)
    build_in_process(root, tmp_path / "site", *kept)
    assert (kept[1].computed, kept[1].reused) == (indexed, 3 - indexed)
    build_in_process(root, tmp_path / "plain", None)
    index = "search/search_index.json"
    assert (tmp_path / "site" / index).read_bytes() == (tmp_path / "plain" / index).read_bytes()
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")


# ----- the theme's files (conversions.ThemeFiles)

CUSTOM = MATERIAL.replace("  name: material\n", "  name: material\n  custom_dir: overrides\n")

THEME_CHANGES = [
    # name, what changes, whether the theme's files are listed again, a file the site must hold
    ("nothing", lambda root: None, False, "assets/extra.css"),
    ("a file added to the project's custom_dir",
     lambda root: (root / "overrides" / "assets" / "new.css").write_text("b{}"), True,
     "assets/new.css"),
    ("a docs page of a theme file's name takes precedence",
     lambda root: (root / "docs" / "assets" / "extra.css").write_text("i{}"), False,
     "assets/extra.css"),
]


@pytest.mark.parametrize("name,apply,listed,holds", THEME_CHANGES,
                         ids=[c[0] for c in THEME_CHANGES])
def test_the_themes_files_are_listed_again_exactly_when_a_theme_folder_changes(
        tmp_path, monkeypatch, name, apply, listed, holds):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, theme = tmp_path / "project", ThemeFiles()
    _write(root, PAGES, CUSTOM)
    (root / "overrides" / "assets").mkdir(parents=True)
    (root / "overrides" / "assets" / "extra.css").write_text("a{}")
    (root / "docs" / "assets").mkdir()
    build_in_process(root, tmp_path / "site", theme)
    assert (theme.computed, theme.reused) == (1, 0)

    apply(root)
    build_in_process(root, tmp_path / "site", theme)
    assert (theme.computed, theme.reused) == ((1, 0) if listed else (0, 1))
    build_in_process(root, tmp_path / "plain", None)
    assert (tmp_path / "site" / holds).is_file()
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")


I18N = CUSTOM + TWO_LANGUAGES


def test_a_build_of_two_languages_lists_the_themes_files_once(tmp_path, monkeypatch):
    """`mkdocs build` keeps the theme's files from its first language to the next (static-i18n
    builds each language again, each into its own folder): one listing, and the site is byte
    for byte the one MkDocs builds alone."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, theme = tmp_path / "project", ThemeFiles()
    _write(root, {f"{lang}/{name}": text for lang in ("en", "fr") for name, text in PAGES.items()}
           | {"fr/assets/extra.css": "i{}"}, I18N)
    (root / "overrides" / "assets").mkdir(parents=True)
    (root / "overrides" / "assets" / "extra.css").write_text("a{}")
    build_in_process(root, tmp_path / "site", theme)
    assert (theme.computed, theme.reused) == (1, 1)
    build_in_process(root, tmp_path / "plain", None)
    assert (tmp_path / "site" / "fr" / "assets" / "extra.css").read_text() == "i{}"
    assert (tmp_path / "site" / "assets" / "extra.css").read_text() == "a{}"
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")
