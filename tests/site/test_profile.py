"""The profile is validated on load; every mistake names the file, the line and the key."""

from pathlib import Path

import pytest

from mariage.engine.profile import load_profile
from mariage.engine.errors import ProfileError
from helpers import run_mariage

PROFILE = Path(__file__).resolve().parents[2] / "rules" / "mariage.yaml"


def test_the_profile_loads_and_fills_ruling_texts():
    profile = load_profile(PROFILE)
    assert profile.thresholds.claim == 66
    assert profile.deck.size == 32
    assert "20, or 40 in trumps" in profile.ruling("R12")
    assert [r.id for r in profile.rulings] == [f"R{i}" for i in range(1, 20)]


def test_changing_a_value_changes_the_ruling_text(profile_with):
    profile = load_profile(profile_with("trump_marriage: 40", "trump_marriage: 50"))
    assert "or 50 in trumps" in profile.ruling("R12")


@pytest.mark.parametrize("old,new,line,key,words", [
    ("claim: 66 ", "claim: sixty ", 23, "thresholds.claim", "must be an integer, not a string"),
    ("  last_trick: 10", "  last_trick: 10\n  first_trick: 5", 31, "bonuses.first_trick", "unknown key"),
    ("  min_stock: 2 ", "  # min_stock removed ", 32, "closing.min_stock", "missing"),
    ('J: 2, "9": 0', 'J: 3, "9": 0', 14, "deck.card_points", "sum to 124"),
    ("stock_size: 20", "stock_size: 18", 20, "deal.stock_size", "deal 30 cards"),
    ("  - id: R12", "  - id: R21", None, "", "numbered"),
    ("{bonuses.trump_marriage}", "{bonuses.trumps}", None, "", "placeholder"),
])
def test_an_invalid_profile_names_file_line_and_key(profile_with, old, new, line, key, words):
    path = profile_with(old, new)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert words in message
    if line is not None:
        assert caught.value.line == line
    if key:
        assert caught.value.key == key


def test_malformed_yaml_names_the_line(profile_with):
    path = profile_with("  hand_size: 6", "  hand_size: [6")
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert "malformed YAML" in str(caught.value) and caught.value.line in (19, 20)


def test_yaml_is_loaded_safely(profile_with):
    path = profile_with("name: Mariage teaching profile",
                        "name: !!python/object/apply:os.system ['echo pwned']")
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    assert "malformed YAML" in str(caught.value)


def test_cli_reports_a_bad_profile_without_traceback(profile_with):
    path = profile_with("claim: 66 ", "claim: -1 ")
    run = run_mariage("--profile", str(path), "check-profile")
    assert run.returncode == 2
    assert f"{path}:23: thresholds.claim" in run.stderr
    assert "Traceback" not in run.stderr
