"""A worked example whose record is inconsistent is refused, naming file, line and ruling."""

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import copy_project
from mariage.engine.errors import SourceError
from mariage.site.replay.examples import all_examples, read_example

ROOT = Path(__file__).resolve().parents[2]
WORKED = (ROOT / "examples" / "07-marriage-claim.md").read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "examples" / "99-broken.md"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    return path


def test_an_illegal_action_in_a_record_names_the_ruling_and_line(tmp_path):
    text = WORKED.replace("  - B marriage s", "  - A marriage s")
    with pytest.raises(SourceError) as caught:
        read_example(_write(tmp_path, text)).hand()
    message = str(caught.value)
    assert "examples/99-broken.md" in message and "R5" in message
    assert caught.value.line == 5          # the `actions:` key


def test_a_deck_of_31_cards_is_refused(tmp_path):
    text = WORKED.replace("deck: [Jc, ", "deck: [")
    with pytest.raises(SourceError) as caught:
        read_example(_write(tmp_path, text)).hand()
    assert "R1/R4" in str(caught.value) and "31 cards" in str(caught.value)
    assert caught.value.line == 4


def test_front_matter_with_an_unknown_key_is_refused(tmp_path):
    text = WORKED.replace('section: "04"', 'section: "04"\nsecton: typo')
    with pytest.raises(SourceError) as caught:
        read_example(_write(tmp_path, text))
    assert "front matter" in str(caught.value)


def test_every_example_replays_to_its_end():
    examples = all_examples(ROOT / "examples")
    assert len(examples) >= 9
    for example in examples:
        hands = example.game().hands if example.is_game else [example.hand()]
        for hand in hands:
            assert hand.outcome is not None or hand.to_act is not None, example.name


# `mariage examples` keeps what it verified in the build's stage cache: a page whose doctests
# passed is not run again unless what they are changes. The doctest appends to a file each time
# it really runs (a page's doctests run once for all its languages: the prose is not their key).
COUNTED = """---
section: "02"
dealer: A
deck: [Kc, 10h, 7s, Ad, 9c, Ac, 8d, Js, Ah, 10s, Kh, 7c, Qs, 9h, Qh, Jd, 8s, 10c, Kd, 7h, Qc,
       As, 9d, Jh, 8c, Ks, Qd, 10d, 8h, 9s, Jc, 7d]
actions: []
---
# Counted

```python
>>> with open({marker!r}, "a") as runs: _ = runs.write("ran\\n")
>>> 1 + 1
2
```
"""


@pytest.mark.parametrize("second,edit,runs", [
    ([], None, 1),                                     # the same page again: read, not run
    (["--timeout", "20"], None, 2),                    # another time limit: run again
    ([], (">>> 1 + 1\n2", ">>> 2 + 2\n4"), 2),         # another statement: run again
])
def test_the_examples_command_runs_a_page_again_only_when_its_doctests_change(
        warm_stages, tmp_path, second, edit, runs):
    project = copy_project(tmp_path / "project", ["fr"])
    marker = tmp_path / "runs.txt"
    example = project / "examples" / "99-counted.md"
    example.write_text(COUNTED.format(marker=str(marker)), encoding="utf-8")

    def run(*options: str) -> None:
        done = subprocess.run([sys.executable, "-m", "mariage.cli", "examples", *options,
                               "99-counted"], cwd=project, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "examples/99-counted.md: ok in 2 languages" in done.stdout

    run()
    assert marker.read_text(encoding="utf-8") == "ran\n"
    if edit is not None:
        example.write_text(example.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    run(*second)
    assert marker.read_text(encoding="utf-8").count("ran") == runs
