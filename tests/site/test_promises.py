"""What the README promises about pages, catalogs' status and examples, checked against
hand-written expectations (the gaps the test-suite audit found: mutants P1-P4, C1, C3)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from babel.support import NullTranslations

from mariage.site.read import catalogs
from mariage.site.replay.examples import all_examples
from mariage.site.render.templating import RenderedPage, collate, environment, translated
from mariage.site.render.pages import SiteSource, render_site
from mariage.site.build.generate import write_pages

ROOT = Path(__file__).resolve().parents[2]
ATTACK = '<img src=x onerror="alert(1)">'


class Hostile(NullTranslations):
    """A catalog whose every translation is markup."""

    def gettext(self, message):
        return ATTACK + "g"

    def ngettext(self, singular, plural, n):
        return ATTACK + "n"

    def pgettext(self, context, message):
        return ATTACK + "p"

    def npgettext(self, context, singular, plural, n):
        return ATTACK + "np"


@pytest.mark.parametrize("template,mark", [
    ('{{ gettext("Glossary") }}', "g"),
    ('{{ ngettext("one trick", "%(num)s tricks", 2) }}', "n"),
    ('{% trans count=2 %}one trick{% pluralize %}{{ count }} tricks{% endtrans %}', "n"),
    ('{{ pgettext("rank", "king") }}', "p"),
    ('{{ npgettext("rank", "king", "kings", 2) }}', "np"),
])
def test_every_gettext_function_escapes_a_catalogs_markup(tmp_path, template, mark):
    env = environment([tmp_path])
    with translated(Hostile()):
        text = env.from_string(template).render()
    assert text == '&lt;img src=x onerror=&#34;alert(1)&#34;&gt;' + mark


def _catalog(locales: Path, others: bool = False) -> None:
    """fr: 2 translated, 1 fuzzy, 2 untranslated (one of them a half-translated plural); with
    `others`, a copy of the project's catalogs of the site's other languages beside it (the
    site needs a catalog for each language mkdocs.yml lists)."""
    if others:
        shutil.copytree(ROOT / "locales", locales, dirs_exist_ok=True)
        shutil.rmtree(locales / "fr")
    catalog = Catalog(locale="fr")
    catalog.add("Glossary", "Glossaire")
    catalog.add("Tutorial", "Tutoriel")
    catalog.add("Reference", "Référence", flags=["fuzzy"])
    catalog.add("Worked examples", "")
    catalog.add(("one trick", "%(num)s tricks"), ("une levée", ""))
    path = catalogs.po_path("fr", locales)
    path.parent.mkdir(parents=True)
    with path.open("wb") as f:
        write_po(f, catalog)
    if others:               # the template these five messages come from
        template = Catalog()
        for message in catalog:
            if message.id:
                template.add(message.id)
        with catalogs.template_path(locales).open("wb") as f:
            write_po(f, template)


def test_the_status_counts_are_those_of_the_catalog(tmp_path):
    _catalog(tmp_path)
    stats = catalogs.stats("fr", tmp_path)
    assert (stats.translated, stats.fuzzy, stats.untranslated, stats.percent) == (2, 1, 2, 40)


def test_the_status_page_prints_the_counts_and_the_percentage(tmp_path):
    _catalog(tmp_path, others=True)
    page = next(p for p in render_site(SiteSource(locales=tmp_path))
                if p.lang == "en" and p.path == "translation-status.md")
    assert "Français (`fr`) | 2 | 1 | 2 | 0 | 0 | 40% | not published (below 80%) |" \
        in page.text


def test_stale_pages_are_removed_and_unchanged_ones_left_alone(tmp_path):
    out = tmp_path / "docs"
    first = [RenderedPage("en", "examples/old.md", "old", "x"), RenderedPage("en", "a.md", "a", "x")]
    assert write_pages(first, out) == 2
    kept = (out / "en/a.md").stat().st_mtime_ns
    assert write_pages([RenderedPage("en", "a.md", "a", "x")], out) == 0
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == ["en", "en/a.md"]
    assert (out / "en/a.md").stat().st_mtime_ns == kept


def test_collation_sorts_accented_letters_among_their_base_letters():
    words = [{"term": w} for w in ["Zèbre", "écart", "Atout", "été", "Éventail", "as", "eau"]]
    assert [w["term"] for w in collate(words, "term")] == [
        "as", "Atout", "eau", "écart", "été", "Éventail", "Zèbre"]


# Each example's end, as its own narrative states it (None: the record stops mid-hand and
# the player named acts next).
EXAMPLE_ENDS = {
    "02-deal": (None, "B"),                      # nothing played: B, the non-dealer, leads (R5)
    "03-low-trump": (None, "A"),
    "03-trump-seven-exchange": (None, "B"),      # B exchanged and still leads (R10)
    "05-closing": ("claim", "A", 2),
    "05-closing-fails": ("closer_failed", "B", 3),
    "06-false-claim": ("false_claim", "A", 2),   # 61 is fewer than 66 (R16)
    "06-last-trick": ("exhausted", "A", 1),      # the last trick decides the hand (R17)
    "06-tie": ("exhausted", None, 0),            # 65 against 65: nobody scores (R17)
    "07-marriage-claim": ("claim", "A", 2),      # B has 25 and one trick (R15)
}


def test_every_example_replays_to_the_end_its_narrative_states():
    examples = {e.name: e for e in all_examples(ROOT / "examples")}
    assert set(EXAMPLE_ENDS) <= set(examples)
    for name, expected in EXAMPLE_ENDS.items():
        hand = examples[name].hand()
        outcome = hand.outcome
        got = ((outcome.end.value, outcome.winner, outcome.game_points) if outcome
               else (None, hand.to_act))
        assert got == expected, name
