"""`mkdocs serve` keeps each page's theme render from one build to the next (plugins/renders.py):
a page is rendered again exactly when something its template reads changed, every plugin's
`on_post_page` still runs on a kept render, and the site is byte for byte what MkDocs builds
without it. One row per kind of change."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from mkdocs.commands import build as mkdocs_build

from helpers import TWO_LANGUAGES, build_in_process, built_tree
from mariage_mkdocs.conversions import Conversions, Sections
from mariage_mkdocs.renders import Renders, plain

PAGES = {
    "index.md": "# Home\n\nSee [the other page](other.md).\n",
    "other.md": "# Other\n\n## Part\n\nSome text.\n",
    "third.md": "# Third\n\nMore text.\n",
}
CONFIG = """site_name: Renders
use_directory_urls: true
theme:
  name: material
  custom_dir: overrides
plugins:
  - search
hooks:
  - hooks.py
extra:
  note: first
"""
OVERRIDE = '{% extends "base.html" %}\n{% block footer %}<p>{{ config.extra.note }}</p>{% endblock %}\n'
# A plugin's on_post_page that reads a file at every build: a kept render must still pass it.
HOOKS = """from pathlib import Path

def on_post_page(output, page, config, **kwargs):
    mark = (Path(config.config_file_path).parent / "mark.txt").read_text().strip()
    return output.replace("</body>", f"<!-- {mark} --></body>")
"""


def _write(root: Path) -> None:
    for name, text in PAGES.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_text(text, encoding="utf-8")
    (root / "overrides").mkdir(parents=True, exist_ok=True)
    (root / "overrides" / "main.html").write_text(OVERRIDE, encoding="utf-8")
    (root / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    (root / "hooks.py").write_text(HOOKS, encoding="utf-8")
    (root / "mark.txt").write_text("mark one\n", encoding="utf-8")


def _edit(path: str, text: str) -> Callable[[Path], None]:
    return lambda root: (root / path).write_text(text, encoding="utf-8")


def _replace(path: str, old: str, new: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        text = (root / path).read_text(encoding="utf-8")
        assert old in text
        (root / path).write_text(text.replace(old, new), encoding="utf-8")
    return apply


@dataclass(frozen=True)
class Change:
    name: str
    apply: Callable[[Path], None]
    rendered: int           # pages rendered again at the next build (of 3, or 4 with one more)


CHANGES = [
    Change("nothing", lambda root: None, 0),
    Change("one page's text", _edit("docs/third.md", "# Third\n\nNew text.\n"), 1),
    Change("a heading inside a page (its table of contents)",
           _edit("docs/other.md", "# Other\n\n## Renamed\n\nSome text.\n"), 1),
    # every page's navigation holds every page's front matter (Material shows a page's icon,
    # subtitle or status in the others' navigation)
    Change("a page's front matter", _edit("docs/third.md", "---\nhide:\n  - toc\n---\n"
                                          + PAGES["third.md"]), 3),
    Change("another page's status, shown in every page's navigation",
           _edit("docs/third.md", "---\nstatus: new\n---\n" + PAGES["third.md"]), 3),
    Change("a page's title (every page's navigation)",
           _edit("docs/third.md", "# Third, renamed\n\nMore text.\n"), 3),
    Change("a page added (every page's navigation)", _edit("docs/fourth.md", "# Four\n"), 4),
    Change("a value the theme shows (config extra)", _replace("mkdocs.yml", "note: first",
                                                              "note: second"), 3),
    Change("the site's name", _replace("mkdocs.yml", "site_name: Renders",
                                       "site_name: Renamed"), 3),
    Change("a template of the project's custom_dir", _replace(
        "overrides/main.html", "<p>", "<p class=\"changed\">"), 3),
    Change("the URL style", _replace("mkdocs.yml", "use_directory_urls: true",
                                     "use_directory_urls: false"), 3),
    Change("what a plugin's on_post_page adds (the kept renders pass it again)",
           _edit("mark.txt", "mark two\n"), 0),
]


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_a_page_is_rendered_again_exactly_when_its_template_reads_a_change(tmp_path, monkeypatch,
                                                                          change):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, kept = tmp_path / "project", (Conversions(), Sections(), Renders())
    renders = kept[2]
    _write(root)
    build_in_process(root, tmp_path / "site", *kept)
    assert (renders.computed, renders.reused) == (3, 0)

    change.apply(root)
    build_in_process(root, tmp_path / "site", *kept)
    pages = len(list((root / "docs").glob("*.md")))
    assert (renders.computed, renders.reused) == (change.rendered, pages - change.rendered)

    build_in_process(root, tmp_path / "plain")              # MkDocs alone, on the same files
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")


def test_a_render_kept_two_builds_ago_is_used(tmp_path, monkeypatch):
    """A language a serve build skipped (plugins/incremental.py) has no renders in that build:
    those of the build before are still kept."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, renders = tmp_path / "project", Renders()
    _write(root)
    build_in_process(root, tmp_path / "site", renders)
    renders.install()                # a build that renders nothing (every page skipped)
    renders.uninstall()
    build_in_process(root, tmp_path / "site", renders)
    assert (renders.computed, renders.reused) == (0, 3)


def test_after_uninstall_mkdocs_builds_pages_as_before():
    original = mkdocs_build._build_page
    renders = Renders()
    renders.install()
    assert mkdocs_build._build_page is not original
    renders.uninstall()
    assert mkdocs_build._build_page is original
    renders.install()
    renders.forget()
    assert mkdocs_build._build_page is original and not renders.kept


class Opaque:
    """A value with no plain reading (its repr names its address)."""


@pytest.mark.parametrize("value, readable", [
    ("text", True), (3, True), (None, True), ([1, ("a", 2.5)], True), ({"b": 1, "a": [2]}, True),
    ({1, 2}, True), (Opaque(), False), ([Opaque()], False), ({"k": Opaque()}, False),
    (lambda: 1, False),
])
def test_only_plain_data_is_read_into_a_key(value, readable):
    """What the key cannot read as plain data makes the page's render its own (rendered, never
    reused): an object's repr could stay the same while what the template reads of it changes."""
    if readable:
        assert plain(value) == plain(value)
    else:
        with pytest.raises(Exception, match="Opaque|function"):
            plain(value)


@pytest.mark.parametrize("front_matter, rendered", [
    ("date: 2026-12-03\ntime: 2026-12-03 10:00:00\n1: one\n", 0),   # YAML's dates: read
    ("extra:\n  1: a\n  '1': 2\n", 3),      # keys that read alike, values that do not order
])
def test_a_context_the_key_cannot_read_is_rendered_not_a_failed_build(tmp_path, monkeypatch,
                                                                      front_matter, rendered):
    """Front matter the key can read (dates included) is kept; keys that cannot be ordered
    together make every page whose navigation holds them rendered at every build, never
    reused, and the build succeeds."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, renders = tmp_path / "project", Renders()
    _write(root)
    (root / "docs" / "third.md").write_text(f"---\n{front_matter}---\n# Third\n")
    for _ in range(2):
        build_in_process(root, tmp_path / "site", renders)
    assert (renders.computed, renders.reused) == (rendered, 3 - rendered)
    build_in_process(root, tmp_path / "plain")
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")


def test_a_mapping_reads_the_same_in_any_order():
    assert plain({"a": 1, "b": 2}) == plain({"b": 2, "a": 1})


def test_values_of_earlier_builds_are_kept_up_to_the_bound():
    """This build's values always; then the most recent of earlier builds', up to the bound."""
    renders = Renders()
    renders.keep_at_most = 3
    for now, kept in [({"a": 1, "b": 2}, {"a": 1, "b": 2}),
                      ({"c": 3}, {"a": 1, "b": 2, "c": 3}),
                      ({"d": 4, "b": 5}, {"c": 3, "d": 4, "b": 5}),
                      ({"e": 6, "f": 7, "g": 8, "h": 9}, {"e": 6, "f": 7, "g": 8, "h": 9}),
                      ({}, {"e": 6, "f": 7, "g": 8, "h": 9})]:
        renders.now = dict(now)
        renders.uninstall()
        assert renders.kept == kept and renders.now == {}


I18N = """site_name: Renders
site_description: The English description
use_directory_urls: true
theme:
  name: material
plugins:
  - search
""" + TWO_LANGUAGES + """          site_description: La description française
"""


def _write_languages(root: Path, leave_out: tuple[str, str] | None = None) -> None:
    """The test pages in English and French, each in its language's docs/ folder, but the
    page `leave_out` (language, name)."""
    for lang in ("en", "fr"):
        for name, text in PAGES.items():
            if (lang, name) != leave_out:
                (root / "docs" / lang / name).parent.mkdir(parents=True, exist_ok=True)
                (root / "docs" / lang / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("change, rendered", [
    ("nothing", 0),
    # set up for the French build only, but written in static-i18n's settings, which every
    # page's context holds (`i18n_config`): both languages are rendered again
    ("the French site description", 6),
    ("the English site description", 3),
])
def test_each_language_of_one_build_is_keyed_by_its_own_settings(tmp_path, monkeypatch, change,
                                                                 rendered):
    """static-i18n builds every language with the same configuration object, set up again for
    each language: a language's renders are kept by that language's settings, not by those of
    the language built before it in the same build."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, kept = tmp_path / "project", (Conversions(), Sections(), Renders())
    _write_languages(root)
    (root / "mkdocs.yml").write_text(I18N, encoding="utf-8")
    build_in_process(root, tmp_path / "site", *kept)
    if change == "the French site description":
        _replace("mkdocs.yml", "La description française", "Une autre description")(root)
    elif change == "the English site description":
        _replace("mkdocs.yml", "The English description", "Another description")(root)
    build_in_process(root, tmp_path / "site", *kept)
    assert kept[2].computed == rendered
    build_in_process(root, tmp_path / "plain")
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")


def test_a_page_added_in_one_language_changes_the_others_alternates(tmp_path, monkeypatch):
    """static-i18n sets each page's alternates (the language selector's links) as an attribute
    of the configuration's `extra`, not as an item: a French page added changes the English
    page's link to it, and the English page is rendered again."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    root, kept = tmp_path / "project", (Conversions(), Sections(), Renders())
    _write_languages(root, leave_out=("fr", "third.md"))
    no_fallback = I18N.replace("  - i18n:\n", "  - i18n:\n      fallback_to_default: false\n")
    (root / "mkdocs.yml").write_text(no_fallback, encoding="utf-8")
    build_in_process(root, tmp_path / "site", *kept)
    (root / "docs" / "fr" / "third.md").write_text(PAGES["third.md"], encoding="utf-8")
    build_in_process(root, tmp_path / "site", *kept)
    build_in_process(root, tmp_path / "plain")
    assert built_tree(tmp_path / "site") == built_tree(tmp_path / "plain")
