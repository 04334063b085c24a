"""`mariage generate OUT`: the verified Markdown of every language and a plain mkdocs.yml, which
a builder without the mariage plugin turns into the site: MkDocs, and ProperDocs (the
maintained fork of MkDocs 1.6), tested here so the site does not depend on MkDocs 1.x alone."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from helpers import copy_project
from mariage.cli import main
from mariage.site.read.project import Project

ROOT = Path(__file__).resolve().parents[2]
LANGS = Project.find(ROOT).languages()


@pytest.fixture(scope="module")
def tree(warm_stages, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("generated") / "tree"
    assert main(["--project", str(ROOT), "generate", str(out)]) == 0
    return out


def test_the_tree_holds_every_page_of_every_language(tree):
    docs = tree / "docs"
    for lang in LANGS:
        assert (docs / lang / "index.md").is_file()
        assert (docs / lang / "rulings.md").is_file()
        assert len(list((docs / lang / "examples").glob("*.md"))) >= 16
    assert (docs / "assets" / "javascripts" / "replayer.js").is_file()
    assert (tree / "overrides" / "404.html").is_file()
    assert (tree / "hooks" / "one_404.py").is_file()


def test_the_config_is_the_projects_without_the_plugin(tree):
    text = (tree / "mkdocs.yml").read_text(encoding="utf-8")
    assert "site_url: !ENV [MARIAGE_SITE_URL" in text         # tags kept as written
    config = yaml.load(text, Loader=yaml.BaseLoader)
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in config["plugins"]]
    assert "mariage" not in plugins and "i18n" in plugins
    assert config["docs_dir"] == "docs" and config["theme"]["custom_dir"] == "overrides"
    examples = next(e["Worked examples"] for e in config["nav"] if isinstance(e, dict)
                    and "Worked examples" in e)
    assert "examples/07-marriage-claim.md" in examples
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    spanish = next(lang for lang in i18n["languages"] if lang["locale"] == "es")
    assert spanish["nav_translations"]["Worked examples"] == "Ejemplos resueltos"
    assert set(config["extra"]) >= {"mariage_not_found", "mariage_interface"}


@pytest.fixture(scope="module")
def two_languages(warm_stages, tmp_path_factory) -> tuple[Path, list[str]]:
    """The tree of a copy with English and Spanish, and its languages: what a builder does
    with a tree does not depend on how many languages it holds, and each builds it whole."""
    project = copy_project(tmp_path_factory.mktemp("two") / "project", ["es"])
    out = project.parent / "tree"
    assert main(["--project", str(project), "generate", str(out)]) == 0
    return out, Project.find(project).languages()


@pytest.mark.parametrize("builder", [
    [sys.executable, "-m", "mkdocs"],
    [sys.executable, "-m", "properdocs"],
])
def test_a_builder_without_the_plugin_builds_the_site(two_languages, tmp_path, builder):
    tree, langs = two_languages
    assert langs == ["en", "es"]
    site = tmp_path / "site"
    run = subprocess.run(builder + ["build", "--strict", "-q", "-f", str(tree / "mkdocs.yml"),
                                    "-d", str(site)],
                         capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1",
                                                              "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-3000:]
    for lang in langs:
        home = site / ("" if lang == "en" else lang) / "index.html"
        assert f'<html lang="{lang}"' in home.read_text(encoding="utf-8")
    spanish = (site / "es" / "examples" / "07-marriage-claim" / "index.html").read_text(
        encoding="utf-8")
    assert "Ejemplos resueltos" in spanish and "data-steps" in spanish
    # one 404 page for every language: the default language's, its selector on the homes
    # (static-i18n alone leaves the last language's, its selector on its last page)
    not_found = (site / "404.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in not_found
    homes = re.findall(r'<a href="([^"]*)" hreflang="([^"]+)" class="md-select__link">',
                       not_found)
    assert sorted(homes) == sorted(("/" if lang == "en" else f"/{lang}/", lang)
                                   for lang in langs)


def test_a_folder_of_other_files_is_refused_and_left_alone(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["--project", str(ROOT), "generate", str(tmp_path)]) == 2
    assert "not written by `mariage generate`" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_an_earlier_tree_is_rewritten(tree, tmp_path):
    again = tmp_path / "again"
    shutil.copytree(tree, again)
    stale = again / "docs" / "en" / "stale.md"
    stale.write_text("# gone", encoding="utf-8")
    assert main(["--project", str(ROOT), "generate", str(again)]) == 0
    assert not stale.exists()
    assert (again / "mkdocs.yml").read_bytes() == (tree / "mkdocs.yml").read_bytes()
