"""The Play page's files (mariage.site.build.play): the zipped engine imports with the standard
library alone (Pyodide's core), each profile reads back the same from its JSON, and a missing
Pyodide stops the build with the command that installs it."""

from __future__ import annotations

import html
import json
import random
import re
import zipfile

import pytest

from conftest import PROFILES
from mariage.engine.profile import load_profile
from mariage.site.build import play
from mariage.site.render.pages import SiteSource, render_site


def _profiles() -> list[str]:
    return [play.profile_json(load_profile(path)) for path in PROFILES]


def test_the_zipped_engine_deals_under_every_profile_with_the_standard_library_alone(tmp_path):
    archive = play.engine_zip(tmp_path / "mariage.zip")
    names = zipfile.ZipFile(archive).namelist()
    assert "mariage/play/table.py" in names and "mariage/engine/solver.py" in names
    assert not any(n.startswith(("mariage/site/", "mariage/cli")) for n in names)
    play.check_standard_library(archive, _profiles())


@pytest.mark.parametrize("module,line", [
    ("mariage/play/opponent.py", "import yaml\n"),
    ("mariage/engine/hand.py", "import msgspec\n"),
])
def test_a_play_path_import_beyond_the_standard_library_fails_the_build(tmp_path, module, line):
    good = zipfile.ZipFile(play.engine_zip(tmp_path / "good.zip"))
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as out:
        for name in good.namelist():
            data = good.read(name)
            out.writestr(name, line.encode() + data if name == module else data)
    with pytest.raises(play.PlayAssetsError, match="standard library"):
        play.check_standard_library(bad, _profiles()[:1])


def test_the_zip_is_the_same_bytes_every_build(tmp_path):
    assert play.engine_zip(tmp_path / "a.zip").read_bytes() == \
        play.engine_zip(tmp_path / "b.zip").read_bytes()


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_each_profile_reads_back_from_its_json(path):
    profile = load_profile(path)
    assert json.loads(play.profile_json(profile)) == profile.as_data()


def test_a_missing_pyodide_names_the_command_that_installs_it(tmp_path, monkeypatch):
    monkeypatch.setattr(play, "_SOURCE", tmp_path / "elsewhere" / "mariage")
    with pytest.raises(play.PlayAssetsError, match=r"make node_modules/\.installed"):
        play.find_pyodide(tmp_path)


def _event_kinds(path, seeds: range) -> set[str]:
    """Every kind of event the Play table reports in whole hands of random legal play."""
    from mariage.play.table import Table
    kinds: set[str] = set()
    for seed in seeds:
        table, rng = Table(load_profile(path), seed), random.Random(seed)
        kinds |= {e["kind"] for e in table.start()["events"]}
        while not table.hand.is_over:
            action = rng.choice([str(a) for a in table.hand.legal_actions()])
            kinds |= {e["kind"] for e in table.act(action)["events"]}
    return kinds


def test_the_play_page_has_a_caption_for_every_event_the_table_reports():
    """A missing caption stops the page mid-hand (play.js fills an undefined template)."""
    kinds = set().union(*(_event_kinds(path, range(12)) for path in PROFILES))
    assert {"close_before", "marriage_held", "exchange", "claim"} <= kinds   # the options played
    pages = [p for p in render_site(SiteSource()) if p.path == "play.md"]
    assert pages
    for page in pages:
        data = json.loads(html.unescape(re.search(r"data-play-data='(.*?)'", page.text).group(1)))
        assert kinds <= set(data["captions"]), (page.lang, kinds - set(data["captions"]))


@pytest.mark.parametrize("lang,slug,button", [
    ("en", "mariage", "Exchange the trump seven for the indicator"),      # R10: the 7 of 32 cards
    ("en", "sixty-six", "Exchange the trump nine for the indicator"),     # 24 cards: 9 lowest
    ("en", "schnapsen", "Exchange the trump jack for the indicator"),     # 20 cards: J lowest
])
def test_the_exchange_button_names_the_lowest_trump_of_the_rules_in_play(lang, slug, button):
    page = next(p for p in render_site(SiteSource()) if p.path == "play.md" and p.lang == lang)
    data = json.loads(html.unescape(re.search(r"data-play-data='(.*?)'", page.text).group(1)))
    assert {p["slug"]: p["exchange"] for p in data["profiles"]}[slug] == button


def test_every_language_names_each_profile_s_own_lowest_trump():
    """Each language's button differs between packs whose lowest trumps differ (7, 9, J)."""
    for page in (p for p in render_site(SiteSource()) if p.path == "play.md"):
        data = json.loads(html.unescape(re.search(r"data-play-data='(.*?)'", page.text).group(1)))
        buttons = {p["slug"]: p["exchange"] for p in data["profiles"]}
        assert len({buttons["mariage"], buttons["sixty-six"], buttons["schnapsen"]}) == 3, page.lang
