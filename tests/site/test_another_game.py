"""A whole site for another game of the family takes three things (README, "A site for another
game"): its profile, its examples (at least the hand that section 07 of the tutorial tells), and
a review of the catalogs' wording. Here: Schnapsen, from a copy of this project whose mkdocs.yml
points the plugin at rules/variants/schnapsen.yaml and at a folder of Schnapsen examples.
Every expected sentence below is written by hand from the Schnapsen profile.
"""

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from helpers import site_languages, with_plugin_options
from mariage.site.build.generate import generate
from mariage.site.render.pages import SiteSource
from mariage.site.read.project import Project
from helpers import site_languages

# The tutorial's worked example, re-dealt from a 20-card pack: the same story (B takes Jc + Qd
# and declares spades; A takes As + Ks and 10d + Qs, declares hearts and claims).
SCHNAPSEN_07 = ("deck: [Jc, Ks, Qs, Qd, As, 10d, 10h, Jd, Js, Kh, Qh, "
                "Ac, 10c, Kc, Qc, Ad, Kd, Ah, Jh, 10s]")


# One worker generates the Schnapsen site once (otherwise each worker running its tests would).
pytestmark = pytest.mark.xdist_group("schnapsen-site")


@pytest.fixture(scope="module")
def schnapsen_site(tmp_path_factory):
    project = tmp_path_factory.mktemp("schnapsen")
    for folder in ("templates", "locales", "docs", "rules"):
        shutil.copytree(ROOT / folder, project / folder)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (project / "mkdocs.yml").write_text(with_plugin_options(
        config, "profile: rules/variants/schnapsen.yaml", "examples: examples-schnapsen"),
        encoding="utf-8")
    examples = project / "examples-schnapsen"
    examples.mkdir()
    worked = (ROOT / "examples" / "07-marriage-claim.md").read_text(encoding="utf-8")
    worked = re.sub(r"^deck: .*$", SCHNAPSEN_07, worked, count=1, flags=re.M)
    (examples / "07-marriage-claim.md").write_text(worked, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "schnapsen-jack-exchange.md", examples)
    source = SiteSource.of(Project.find(project))
    pages = generate(project / ".cache" / "docs", source)
    return {(p.lang, p.path): p.text for p in pages}


def test_the_project_finds_the_other_profile_and_examples(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "plugins:\n  - mariage:\n      profile: rules/variants/schnapsen.yaml\n"
        "      examples: examples-schnapsen\n", encoding="utf-8")
    project = Project.find(tmp_path)
    assert project.profile == tmp_path.resolve() / "rules" / "variants" / "schnapsen.yaml"
    assert project.examples == tmp_path.resolve() / "examples-schnapsen"


@pytest.mark.parametrize("page,sentence", [
    ("index.md", "Each player gets 5 cards"),
    ("tutorial/02-cards-and-deal.md", "Together they form the **stock** of 10 cards"),
    ("tutorial/02-cards-and-deal.md", "the packets hold 3 and 2 cards, round by round"),
    ("tutorial/05-exhausted-or-closed-stock.md", "from that of trick 1 up to that of trick 5"),   # 10 cards, 2 a trick
    ("tutorial/07-worked-example.md", "28 + 40 = 68"),
    ("examples/07-marriage-claim.md", "28 + 40 = 68"),
    ("examples/schnapsen-jack-exchange.md", "With 74 points, 66 or more"),
])
def test_a_whole_site_builds_for_schnapsen(schnapsen_site, page, sentence):
    assert sentence in schnapsen_site[("en", page)]


def test_every_page_of_the_other_site_exists_in_every_language(schnapsen_site):
    by_lang: dict[str, set[str]] = {}
    for lang, path in schnapsen_site:
        by_lang.setdefault(lang, set()).add(path)
    assert set(by_lang) == set(site_languages())
    assert len({frozenset(paths) for paths in by_lang.values()}) == 1
