"""Proof that the examples bite: change a rule value and the hand-written doctests fail."""

import pytest

from helpers import run_mariage


def test_the_examples_pass_with_the_real_profile():
    run = run_mariage("examples")
    assert run.returncode == 0, run.stderr
    assert " 0 failed" in run.stdout


@pytest.mark.parametrize("old,new,ruling", [
    ("trump_marriage: 40", "trump_marriage: 30", "R12"),
    ("claim: 66 ", "claim: 70 ", "R15"),
    ("opponent_safe: 33", "opponent_safe: 25", "R15"),
])
def test_changing_the_profile_breaks_the_worked_example(profile_with, old, new, ruling):
    run = run_mariage("examples", "07-marriage-claim",
                      env={"MARIAGE_PROFILE": str(profile_with(old, new))})
    assert run.returncode == 1, f"{ruling}: {old} -> {new} went unnoticed:\n{run.stdout}"
    assert "examples/07-marriage-claim.md (en), line" in run.stderr
    assert "Traceback" not in run.stderr


def test_under_the_distinct_profile_every_example_that_counts_points_fails():
    """Each example's hand-written numbers hold for the teaching profile only: under the
    distinct test profile each one that states a point or a rate fails. 02-deal states only the
    deal, which the distinct profile keeps, so it still passes."""
    from conftest import DISTINCT, ROOT

    run = run_mariage("--profile", str(DISTINCT), "examples")
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    teaching = [p.stem for p in sorted((ROOT / "examples").glob("*.md"))
                if p.name != "README.md"           # the contributors' guide, not an example
                and "\nprofile:" not in p.read_text(encoding="utf-8").split("\n---", 1)[0]]
    for name in teaching:
        expected = "ok" if name == "02-deal" else "FAILED"
        assert f"examples/{name}.md: {expected}" in run.stdout, name
