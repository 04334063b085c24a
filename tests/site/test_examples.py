"""A worked example whose record is inconsistent is refused, naming file, line and ruling."""

from pathlib import Path

import pytest

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
