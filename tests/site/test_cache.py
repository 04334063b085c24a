"""The stage cache (mariage/site/cache.py): a warm build writes the tree a cold one writes; a
save redoes only what read the saved file; a damaged entry is computed again, silently."""

from __future__ import annotations

import hashlib
import pickle
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import copy_project
from mariage.site.build.generate import generate
from mariage.site.cache import MAGIC, StageCache, forget
from mariage.site.read.project import Project
from mariage.site.render.messages import Shipped, messages_digest
from mariage.site.render.pages import SiteSource, page_templates

pytestmark = pytest.mark.xdist_group("stage-cache")     # one project copy, in this order
ROOT = Path(__file__).resolve().parents[2]
FR = Path("locales/fr/LC_MESSAGES/messages.po")
MSGID = 'msgid "No number on these pages is typed in'


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


class Built:
    """A copy of the project and its stage cache, built cold then warm."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cold, self.warm = self.build("cold"), self.build("warm")

    def build(self, name: str) -> tuple[StageCache, dict[str, bytes]]:
        forget()            # a new process: only the disk remembers
        cache = StageCache(self.root / ".cache")
        source = SiteSource.of(Project.find(self.root), cache=cache)
        generate(self.root / name, source)
        return cache, _tree(self.root / name)

    def after(self, path: Path, old: str, new: str) -> StageCache:
        """Save `path` with one change, build, and put the file back."""
        text = (self.root / path).read_text(encoding="utf-8")
        assert old in text
        (self.root / path).write_text(text.replace(old, new, 1), encoding="utf-8")
        try:
            cache, self.edited = self.build("edited")
            return cache
        finally:
            (self.root / path).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Built:
    """A copy with English, French and Italian: a save in one language must leave the other
    translated language alone, and a stage does the same work for each further language
    (its every build here ran the generator for six languages)."""
    root = copy_project(tmp_path_factory.mktemp("project"), ["fr", "it"])
    shutil.copy(ROOT / "Makefile", root / "Makefile")        # `make clean` is tested here
    return Built(root)


def test_a_cold_and_a_warm_build_write_the_same_tree(built):
    cold, tree = built.cold
    warm, again = built.warm
    assert tree and again == tree
    assert cold.misses("page") > 100
    # each example's doctests run once, not once per language: the same statements
    examples = [p for p in (built.root / "examples").glob("*.md") if p.name != "README.md"]
    assert cold.misses("doctest") == len(examples)
    assert [k for k in warm.counts if k.endswith(":miss")] == []


def _changed(built: Built) -> set[str]:
    cold = built.cold[1]
    return {path for path, data in built.edited.items()
            if cold.get(path) != data and not path.startswith(".mariage-build")}


def test_a_catalog_save_renders_the_pages_using_the_saved_message_only(built):
    lines = (built.root / FR).read_text(encoding="utf-8").splitlines()
    msgstr = lines[next(i for i, line in enumerate(lines) if line.startswith(MSGID)) + 1]
    cache = built.after(FR, msgstr, msgstr[:-1] + ' (édité)"')
    assert cache.misses("catalog") == 1 and cache.misses("translations") == 1
    # the saved message is on the French home page only: that page is rendered again, and
    # the French rulings page, which links every page's citations
    assert cache.misses("page") == 1
    assert cache.misses("rulings") == 1
    assert _changed(built) == {"fr/index.md"}
    assert "(édité)" in built.edited["fr/index.md"].decode()
    # the saved message is on no example's page: no doctest runs
    assert cache.misses("doctest") == cache.misses("replay") == cache.misses("study") == 0


def test_a_save_of_a_message_every_card_uses_renders_every_page_showing_a_card(built):
    """The jack's letter is on every card diagram and in the replayer's faces (a value one
    page computes and the next reuses): each French page that shows a card changes."""
    old = 'msgctxt "rank letter"\nmsgid "J"\nmsgstr "V"'
    cache = built.after(FR, old, old[:-2] + 'W"')
    changed = _changed(built)
    assert "fr/examples/02-deal.md" in changed and "fr/examples/index.md" not in changed
    assert all(path.startswith("fr/") for path in changed)
    # every changed page was rendered again (the variants' pages are one entry); a page that
    # looks the letter up without showing it may be too, but no page without a card is
    variants = {p for p in changed if p.startswith("fr/variants/")}
    assert len(changed) - len(variants) + bool(variants) <= cache.misses("page") < _entries(built)
    assert re.search(">W[♣♦♥♠]</span>", built.edited["fr/examples/02-deal.md"].decode())


def test_a_catalog_header_change_renders_every_page_of_that_language(built):
    """Plural-Forms changes how every plural message reads: every French page renders again."""
    cache = built.after(FR, '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"',
                        '"Plural-Forms: nplurals=2; plural=n > 1;\\n"')
    assert cache.misses("page") == _entries(built)
    assert cache.misses("rulings") == 1


def _entries(built: Built) -> int:
    """A language's page entries: its template pages, example pages and examples' index, and
    its variants' pages (one entry)."""
    examples = [p for p in (built.root / "examples").glob("*.md") if p.name != "README.md"]
    return len(page_templates(built.root / "templates")) + len(examples) + 1 + 1


def test_a_template_save_renders_that_templates_pages_only(built):
    cache = built.after(Path("templates/pages/faq.md.j2"), "\n", "{# saved #}\n")
    languages = len(Project.find(built.root).languages())
    assert cache.misses("page") == languages
    # the pages' text is unchanged: nothing downstream runs again
    assert cache.misses("rulings") == cache.misses("doctest") == cache.misses("catalog") == 0


def test_an_example_save_replays_that_example_only(built):
    cache = built.after(Path("examples/02-deal.md"), "\n", "\n\n")
    languages = len(Project.find(built.root).languages())
    assert cache.misses("replay") == 1
    # its page and the examples' index in each language; its doctests once: they are the
    # same statements on every language's page
    assert cache.misses("page") == 2 * languages
    assert cache.misses("doctest") == 1
    assert cache.misses("study") == cache.misses("catalog") == 0


def test_the_profile_invalidates_everything_that_read_it(built):
    """Every page is given the profile; the study and the examples played under it (not a
    variant's, which name their own profile) are computed again, and their doctests run."""
    cache = built.after(Path("rules/mariage.yaml"), "\nname: ", "\nname: Mariage ")
    own = [e for e in (built.root / "examples").glob("*.md") if e.name != "README.md"
           and "\nprofile:" not in e.read_text(encoding="utf-8")]
    languages = len(Project.find(built.root).languages())
    assert cache.misses("study") == 1
    assert cache.misses("replay") == len(own)
    assert cache.misses("page") == built.cold[0].misses("page")
    assert cache.misses("doctest") == len(own)


@pytest.mark.parametrize("edit,study", [
    # the rules' wording: every page shows it, the study never reads it
    (("The first dealer is drawn at random;", "The first dealer is chosen at random;"), 0),
    (("  claim: 66", "  claim: 65"), 1),                       # a rule: the study plays it
], ids=["a ruling's wording", "the claim threshold"])
def test_a_rulings_wording_keeps_the_study_and_a_rule_does_not(built, edit, study):
    """The study reads the profile without its prose (Profile.without_prose): a ruling's text
    edited renders every page again and keeps the study, which a rule's value does not."""
    cache = built.after(Path("rules/mariage.yaml"), *edit)
    assert cache.misses("study") == study
    assert cache.misses("page") == built.cold[0].misses("page")


def test_a_damaged_cache_is_rebuilt_into_the_same_tree(built):
    """Every entry damaged, one way or another (the table below), then a build."""
    entries = sorted((built.root / ".cache" / "stages").rglob("*.pickle"))
    for n, entry in enumerate(entries):
        DAMAGE[n % len(DAMAGE)][1](entry)
    cache, tree = built.build("repaired")
    assert tree == built.cold[1]
    assert cache.misses("page") == built.cold[0].misses("page")
    assert built.build("again")[0].misses("page") == 0       # and the entries were rewritten


def _truncate(entry: Path) -> None:
    entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])


def _flip(entry: Path) -> None:
    data = bytearray(entry.read_bytes())
    data[-1] ^= 0xFF
    entry.write_bytes(bytes(data))


def _other_version(entry: Path) -> None:
    header, payload = entry.read_bytes().split(b"\n", 1)
    fields = header.rsplit(b" ", 3)
    fields[1] = hashlib.sha256(b"another version").hexdigest().encode()
    entry.write_bytes(b" ".join(fields) + b"\n" + payload)


def _killed(entry: Path) -> None:
    """A build killed while writing: its temporary file is left, the entry never renamed."""
    (entry.parent / f".tmp-{entry.stem[:8]}").write_bytes(entry.read_bytes()[:10])
    entry.unlink()


def _empty(entry: Path) -> None:
    entry.write_bytes(b"")


def _forged(entry: Path) -> None:
    """A valid header over a payload that is not a pickle."""
    payload = b"not a pickle"
    header = b" ".join([MAGIC, entry.read_bytes().split(b"\n", 1)[0].rsplit(b" ", 3)[1],
                        str(len(payload)).encode(), hashlib.sha256(payload).hexdigest().encode()])
    entry.write_bytes(header + b"\n" + payload)


def _directory(entry: Path) -> None:
    entry.unlink()
    entry.mkdir()


DAMAGE = [("truncated", _truncate), ("a flipped byte", _flip), ("another version", _other_version),
          ("a killed build", _killed), ("empty", _empty), ("not a pickle", _forged)]


@pytest.mark.parametrize("name,damage", DAMAGE + [("a folder in its place", _directory)])
def test_a_damaged_entry_is_computed_again(tmp_path, name, damage):
    cache = StageCache(tmp_path)
    assert cache.get("stage", "key", lambda: ["first"]) == ["first"]
    entry = cache.path("stage", "key")
    assert entry is not None and entry.is_file()
    damage(entry)
    forget()
    again = StageCache(tmp_path)
    assert again.get("stage", "key", lambda: ["second"]) == ["second"]
    assert again.misses("stage") == 1
    if entry.is_file():                     # rewritten, and read back from disk
        forget()
        last = StageCache(tmp_path)
        assert last.get("stage", "key", lambda: ["third"]) == ["second"]
        assert last.misses("stage") == 0


def test_an_entry_that_cannot_be_pickled_is_kept_in_memory_only(tmp_path):
    cache = StageCache(tmp_path)
    assert cache.get("stage", "key", lambda: (lambda: 1))() == 1
    assert cache.path("stage", "key") is not None
    assert not cache.path("stage", "key").exists()      # type: ignore[union-attr]
    assert pickle.dumps(["plain"])                      # and the next value is written
    cache.get("stage", "other", lambda: ["plain"])
    assert cache.path("stage", "other").is_file()       # type: ignore[union-attr]


def test_make_clean_empties_the_cache(built):
    assert (built.root / ".cache" / "stages").is_dir()
    run = subprocess.run(["make", "-C", str(built.root), "clean"], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    assert not (built.root / ".cache").exists()


_USED = [(None, "Trick"), ("rank", "king"), (None, ("%(n)s point", "%(n)s points"))]
_STRINGS = {"Trick": "Levée", "rank\x04king": "roi", "Unused": "Inutilisé",
            ("%(n)s point", 0): "%(n)s point", ("%(n)s point", 1): "%(n)s points"}


def _shipped(**changes) -> Shipped:
    fields = {"kind": "ShippedTranslations", "strings": dict(_STRINGS),
              "plural_forms": "nplurals=2; plural=(n > 1);", "language": "fr"} | changes
    return Shipped(**fields)


@pytest.mark.parametrize("changed, same", [
    (_shipped(strings=_STRINGS | {"Trick": "Pli"}), False),
    (_shipped(strings=_STRINGS | {"rank\x04king": "Roi"}), False),
    (_shipped(strings=_STRINGS | {("%(n)s point", 1): "%(n)s pts"}), False),
    (_shipped(strings={k: v for k, v in _STRINGS.items() if k != ("%(n)s point", 1)}), False),
    (_shipped(strings={k: v for k, v in _STRINGS.items() if k != "Trick"}), False),
    (_shipped(plural_forms="nplurals=2; plural=(n != 1);"), False),
    (_shipped(language="fr_CA"), False),
    (_shipped(kind="NothingShipped"), False),
    (_shipped(strings=_STRINGS | {"Unused": "Autre"}), True),
    (_shipped(strings=_STRINGS | {"king": "roi"}), True),        # no context: another message
])
def test_a_pages_key_changes_with_each_string_it_read_and_no_other(changed, same):
    """Each string a page looked up (each plural form, its context's), whether it ships, the
    Plural-Forms and Language headers: a change to any is a new key; another message is not."""
    assert (messages_digest(changed, _USED) == messages_digest(_shipped(), _USED)) is same


def _copy_with_mistakes(root: Path) -> Path:
    """A project's locales/ with two French mistakes: a dropped placeholder (a message's
    problem) and no termbase (a problem whose text names the file)."""
    locales = root / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / "fr" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    assert "%(claim)s" in text
    po.write_text(text.replace("%(claim)s", "66", 1), encoding="utf-8")
    (locales / "fr" / "termbase.yaml").unlink()
    return locales


def test_another_copy_of_the_project_shares_the_catalog_check_with_its_own_paths(
        tmp_path, monkeypatch):
    """A clone or a test's copy, built from its own folder, reads the check another copy
    kept; every problem names its own files, exactly as its own check would."""
    shared = StageCache(tmp_path / "cache")
    said = {}
    for name in ("first", "second"):
        locales = _copy_with_mistakes(tmp_path / name)
        monkeypatch.chdir(tmp_path / name)
        forget()                                      # each build is a new process
        cache = StageCache(shared.folder)
        checked = SiteSource(locales=locales, root=ROOT, cache=cache).checked("fr")
        said[name] = [str(p) for p in checked.errors]
        assert checked.path == locales / "fr" / "LC_MESSAGES" / "messages.po"
        assert all(p.path.is_relative_to(locales) for p in checked.problems)
        assert all(p.refers.is_relative_to(locales) for p in checked.problems if p.refers)
        # no text of a problem holds a path: each is shown when the problem is
        assert not [p for p in checked.problems if "termbase.yaml" in p.message + p.hint]
        assert cache.misses("catalog") == (name == "first")
    assert said["first"] == said["second"]
    assert any("locales/fr/termbase.yaml is missing" in p for p in said["second"])
    assert any("[placeholders]" in p for p in said["second"]), said["second"]
    # checked from the folder above, the same entry serves and the problems show longer paths
    monkeypatch.chdir(tmp_path)
    forget()
    cache = StageCache(shared.folder)
    locales = tmp_path / "second" / "locales"
    elsewhere = [str(p) for p in
                 SiteSource(locales=locales, root=ROOT, cache=cache).checked("fr").errors]
    assert cache.misses("catalog") == 0
    assert any(p.startswith("second/locales/fr/LC_MESSAGES/messages.po: [termbase] "
                            "second/locales/fr/termbase.yaml is missing") for p in elsewhere), \
        elsewhere


def test_what_a_compiled_template_names_is_what_its_key_reads(tmp_path):
    """A cold build compiles every template and keeps what each names from that parse, for its
    pages' keys: the same list a parse of its own finds, template by template."""
    from mariage.site.render import dependencies
    from mariage.site.render.templating import environment
    shutil.copytree(ROOT / "templates", tmp_path / "templates")     # a new environment
    sources = {p: p.read_text(encoding="utf-8") for p in (tmp_path / "templates").rglob("*.j2")}
    dependencies._PARSED.clear()
    own = {p: dependencies._references(text) for p, text in sources.items()}
    assert any(own.values()), "no template names another: the case tests nothing"
    dependencies.compile_templates(environment([tmp_path / "templates", ROOT]),
                                   tmp_path / "templates")
    assert {p: dependencies._PARSED.get(text) for p, text in sources.items()} == own


def test_another_copys_variants_name_their_own_files(tmp_path, monkeypatch):
    """Variant profiles kept by one copy's build name the files of the copy that reads them
    (a mistake in a variant is reported at its own path)."""
    shared = tmp_path / "cache"
    for name in ("first", "second"):
        root = tmp_path / name
        shutil.copytree(ROOT / "rules", root / "rules")
        shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
        forget()
        cache = StageCache(shared)
        variants = SiteSource(root=root, locales=ROOT / "locales", cache=cache).variants()
        assert variants and cache.misses("variants") == (name == "first")
        assert [p.source for _, p in variants] == \
            [str(p) for p in sorted((root / "rules" / "variants").glob("*.yaml"))]
