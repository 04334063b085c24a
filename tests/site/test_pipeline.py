"""The generator is one straight pipeline whose stages pass plain data: read, replay once,
render, check, write. Each stage can be fed by hand."""

from pathlib import Path

import pytest

from mariage.site.build import generate as pipeline
from mariage.site.replay.doctests import DoctestWorker, ExampleFailed
from mariage.site.replay.examples import read_example
from mariage.site.render.templating import RenderedPage
from mariage.site.render.pages import SiteSource

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def worked():
    source = SiteSource()
    return source, read_example(ROOT / "examples" / "07-marriage-claim.md", source.profile)


def test_each_example_is_replayed_once_into_plain_data(worked, monkeypatch):
    source, example = worked
    calls = []
    real = pipeline.replayer.steps
    monkeypatch.setattr(pipeline.replayer, "steps", lambda e: calls.append(e.name) or real(e))
    data = pipeline.replay_examples([example])
    for lang in source.languages():
        pipeline.render_examples(source, lang, [example], data)
    assert calls == ["07-marriage-claim"]                 # once, for all five languages
    # Hand-read from the record: A claims with 28 card points + 40 for the trump marriage.
    assert data["07-marriage-claim"].claim_summary["total"] == 68


def test_rendering_takes_hand_built_engine_data(worked):
    """Stage 3 prints what stage 2 hands it: a hand-made claim summary reaches the page."""
    source, example = worked
    real = pipeline.replay_examples([example])["07-marriage-claim"]
    made = pipeline.ExampleData(real.steps, None, real.claim_summary | {"total": 68})
    page = pipeline.render_examples(source, "en", [example], {"07-marriage-claim": made})[0]
    assert page.path == "examples/07-marriage-claim.md" and "68" in page.text


def test_the_check_stage_runs_the_doctests_of_a_hand_made_page(worked):
    """Stage 4 reads pages as plain data: a page whose doctest expects a wrong number fails,
    naming the example and the language."""
    _, example = worked
    text = ("# t\n\n```python\n>>> from mariage.site.replay.examples import load\n"
            ">>> load('07-marriage-claim', stop=-1).points('A')\n69\n```\n")
    page = RenderedPage("es", "examples/07-marriage-claim.md", text, example.relpath)
    with DoctestWorker() as worker, pytest.raises(ExampleFailed) as caught:
        pipeline.check_examples([page], [example], worker)
    assert "07-marriage-claim.md (es)" in str(caught.value) and "68" in str(caught.value)
