"""What the engine builds once per profile (`schema.per_profile`, the ruling texts' values) is
built once per profile object, and only the last profiles are kept: a long `mkdocs serve` makes
new profiles at every rebuild."""

from __future__ import annotations

from mariage.engine import schema
from mariage.engine.profile import default_profile


def test_a_profile_is_built_once_and_only_the_last_profiles_are_kept(monkeypatch):
    monkeypatch.setattr(schema, "PER_PROFILE_KEPT", 4)
    built: list[int] = []

    @schema.per_profile
    def table(profile):
        built.append(id(profile))
        return object()

    base = default_profile()
    profiles = [base.replace(names=[f"Game {i}"]) for i in range(10)]
    first = table(profiles[0])
    assert table(profiles[0]) is first and len(built) == 1        # once per profile object
    for profile in profiles[1:]:
        table(profile)
    assert len(built) == 10
    # the first was dropped (4 kept): asked again, it is built again, and nothing else is
    assert table(profiles[0]) is not first and len(built) == 11
    assert table(profiles[9]) is table(profiles[9]) and len(built) == 11


def test_the_ruling_values_are_kept_for_the_last_profiles_only():
    base = default_profile()
    for i in range(100):
        profile = base.replace(names=[f"Game {i}"])
        assert profile.ruling("R1") == base.ruling("R1")
    assert len(schema._format_values.cached) <= 64
