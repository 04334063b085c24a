"""The termbase: one term per game concept and language, held by `mariage catalogs check`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Message

from mariage.site.read import catalogs, termbase, translate
from mariage.site.read.checks import Problem
from mariage.site.read.project import Project
from mariage.engine.errors import SourceError

ROOT = Path(__file__).resolve().parents[2]
LANGS = Project.find(ROOT).languages()[1:]      # the site's one list: mkdocs.yml
LOCALES = ROOT / "locales"

# A made-up language: every concept gets a distinct stem, so that each case tests one rule.
FIXTURE = {
    "trick": ("baza", ["baza"]), "lead": ("salida", ["salid", "sale"]),
    "follow_suit": ("asistir", ["asist"]), "beat": ("superar", ["super"]),
    "trump_in": ("fallar", ["fall"]), "discard": ("descartarse", ["descart"]),
    "stock": ("mazo", ["mazo"]), "indicator": ("muestra", ["muestra"]),
    "close": ("cerrar", ["cerr", "cierr"]), "exhausted": ("agotado", ["agot"]),
    "marriage": ("matrimonio", ["matrimonio"]), "declare": ("cantar", ["cant"]),
    "claim": ("reclamar", ["reclam", "se … planta"]), "card_points": ("tantos", ["tanto"]),
    "game_points": ("piedras", ["piedra"]), "closer": ("cerrador", ["cerrador"]),
    "rate": ("tarifa", ["tarifa"]),
    "hand": ("partida", ["partida"]),
}


def fixture_yaml(overrides: dict[str, str] | None = None) -> str:
    lines = [f'{cid}: {{term: "{term}", forms: {json.dumps(forms)}}}'
             for cid, (term, forms) in FIXTURE.items()]
    text = "\n".join(lines) + "\n"
    for old, new in (overrides or {}).items():
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.fixture
def fixture_locales(tmp_path):
    """locales/ copied, with the fixture termbase for Spanish."""
    dest = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", dest)
    termbase.language_path("es", dest).write_text(fixture_yaml(), encoding="utf-8")
    return dest


@pytest.fixture
def concepts():
    return termbase.load_concepts(LOCALES)


@pytest.fixture
def terms(fixture_locales):
    return termbase.load_terms("es", fixture_locales)


@pytest.fixture
def words(concepts, terms, fixture_locales):
    """The fixture termbase as the catalog check reads it."""
    return termbase.Termbase("es", termbase.language_path("es", fixture_locales), concepts, terms)


def _findings(words, message: Message) -> list[str]:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return [str(Problem(Path("messages.po"), None, "", what, hint=hint, refers=words.path))
            for what, hint in words.findings(ids, strings)]


def _termbase_problems(lang: str, locales: Path) -> list[str]:
    return [str(p) for p in catalogs.check_catalog(lang, locales).problems
            if p.check == "termbase"]


def test_the_source_termbase_lists_the_seventeen_concepts(concepts):
    assert list(concepts) == list(termbase.CONCEPTS)
    assert {c.id for c in concepts.values() if c.exclusive} >= {"declare", "claim"}
    for concept in concepts.values():
        assert "(R" in concept.definition, f"{concept.id}: the definition cites no ruling"


# (English text, translation, expected finding fragments: empty = clean)
CASES = [
    ("You win the trick.", "Ganas la baza.", []),
    ("You win the trick.", "Ganas la mano.", ["'trick'"]),
    ("Tricks count.", "Las bazas cuentan.", []),                     # a stem matches inflections
    ("TRICK", "BAZA", []),                                            # case is ignored
    ("The trickster", "El tramposo", []),                             # whole English words only
    ("She claims %(claim)s.", "Reclama %(claim)s.", []),
    ("She claims %(claim)s.", "Canta %(claim)s.", ["'claim'", "'cantar', the term reserved"]),
    ("Declare the marriage.", "Canta el matrimonio.", []),
    ("Declare the marriage.", "Reclama el matrimonio.", ["'declare'",
                                                          "'reclamar', the term reserved"]),
    ("Show the pair for %(marriage)s points.", "Muestra la pareja.", []),  # a placeholder is no word
    ("The stock is open.", "El mazo está abierto; nadie reclama.",
     ["'reclamar', the term reserved"]),
    ("Follow suit if you can.", "Asiste si puedes.", []),
    ("Follow suit if you can.", "Sigue el palo si puedes.", ["'follow suit'"]),
    ("The closer must claim.", "El cerrador debe reclamar.", []),
    ("Game points add up.", "Las piedras se suman.", []),
    ("Game points add up.", "Los puntos se suman.", ["'game points'"]),
    ("superbly", "sin palabras", []),
    ("It leads nowhere.", "No sale.", []),
    # a split form (a separable verb, German "meldet sich … ab"): its parts in order, in one
    # clause, the last a whole word
    ("She claims.", "Se planta.", []),
    ("She claims.", "Se planta con %(points)s.", []),
    ("She claims.", "Se va. Planta.", ["'claim'"]),
    ("She claims.", "Se va, planta.", ["'claim'"]),
    ("She claims.", "Planta se.", ["'claim'"]),
    ("She claims.", "Se plantará.", ["'claim'"]),
    ("The stock is open.", "Se planta el mazo.", ["'reclamar', the term reserved"]),
    ("The hand ends.", "La partida termina.", []),                     # issue 22: hand = the deal
    ("The hand ends.", "Termina la mano.", ["'hand'"]),
    ("Hands are scored one by one.", "Las partidas se puntúan una a una.", []),
]


@pytest.mark.parametrize("source,translation,expected", CASES)
def test_the_check_of_one_message(words, source, translation, expected):
    found = _findings(words, Message(source, translation))
    assert len(found) == len(expected), found
    for fragment in expected:
        assert any(fragment in f for f in found), (fragment, found)


def test_plural_messages_are_checked_in_every_form(words):
    message = Message(("%(n)s trick", "%(n)s tricks"), ("%(n)s baza", "%(n)s manos"))
    assert any("'trick'" in f for f in _findings(words, message))


def test_a_finding_says_what_to_write_and_where_to_add_a_word(words):
    """The message names the English word, the allowed term and its stems, and the file."""
    [found] = _findings(words, Message("You win the trick.", "Ganas la mano."))
    assert "the English text says 'trick'" in found
    assert "write 'baza' (a word starting with 'baza')" in found
    assert "add its stem to trick's forms in" in found and "es/termbase.yaml" in found


def _po_with(locales: Path, lang: str, msgid: str, msgstr: str) -> None:
    path = catalogs.po_path(lang, locales)
    text = path.read_text(encoding="utf-8")
    old = f'msgid "{msgid}"\nmsgstr "'
    assert old in text, msgid
    start = text.index(old) + len(old)
    end = text.index('"\n', start)
    path.write_text(text[:start] + msgstr + text[end:], encoding="utf-8")


def test_catalogs_check_reports_a_term_with_its_line(fixture_locales):
    _po_with(fixture_locales, "es", "Marriages and the claim", "Matrimonios y el canto")
    problems = _termbase_problems("es", fixture_locales)
    assert any("messages.po:" in p and "[termbase]" in p and "'claim'" in p
               and "Marriages and the claim" in p for p in problems), problems
    assert any("'cantar', the term reserved" in p for p in problems), problems


def test_fuzzy_messages_are_not_held_to_the_termbase(fixture_locales):
    """A fuzzy message is not shipped, so its words are not checked until it is confirmed."""
    _po_with(fixture_locales, "es", "Marriages and the claim", "Matrimonios y el canto")
    assert "Marriages and the claim" in "".join(_termbase_problems("es", fixture_locales))
    path = catalogs.po_path("es", fixture_locales)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('msgid "Marriages and the claim"\n', '#, fuzzy\nmsgid '
                                 '"Marriages and the claim"\n', 1), encoding="utf-8")
    assert "Marriages and the claim" not in "".join(_termbase_problems("es", fixture_locales))


def test_a_catalog_without_a_termbase_is_reported(tmp_path):
    dest = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", dest)
    for lang in LANGS:
        termbase.language_path(lang, dest).unlink(missing_ok=True)
    problems = _termbase_problems("it", dest)
    assert problems == [
        f"{catalogs.po_path('it', dest)}: [termbase] {termbase.language_path('it', dest)} "
        "is missing (run `mariage catalogs init it` to write it with every concept, then fill "
        "in your terms)"]                   # a problem of the file names no msgid


@pytest.mark.parametrize("old,new,line,key,reason", [
    ('trick: {term: "baza"', 'trik: {term: "baza"', 1, "trik", "unknown concept"),
    ('forms: ["mazo"]', 'forms: []', 7, "stock.forms", "non-empty list"),
    ('forms: ["mazo"]', 'forms: ["Mazo"]', 7, "stock.forms", "lowercase"),
    ('{term: "muestra", ', '{', 8, "indicator", "expected"),
    ('{term: "matrimonio"', '{term: "<b>matrimonio</b>"', 11, "marriage.term", "plain text"),
    ('rate: {term: "tarifa", forms: ["tarifa"]}\n', '', 1, None, "concepts missing: rate"),
    ('stock: {term', 'stock: [{term', 8, None, "malformed YAML"),  # where the parser notices
])
def test_a_bad_termbase_names_file_line_and_key(fixture_locales, old, new, line, key, reason):
    path = termbase.language_path("es", fixture_locales)
    text = fixture_yaml()
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        termbase.load_terms("es", fixture_locales)
    error = caught.value
    assert error.path == str(path) and reason in error.reason
    assert error.line == line and error.key == key, (error.line, error.key, str(error))


def test_a_repeated_concept_is_refused(fixture_locales):
    path = termbase.language_path("es", fixture_locales)
    path.write_text(fixture_yaml() + 'trick: {term: "x", forms: ["x"]}\n', encoding="utf-8")
    with pytest.raises(SourceError, match="duplicate key 'trick'") as caught:
        termbase.load_terms("es", fixture_locales)
    assert caught.value.line == len(FIXTURE) + 1


def test_the_termbase_is_read_safely(fixture_locales):
    path = termbase.language_path("es", fixture_locales)
    path.write_text("trick: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(SourceError, match="malformed YAML"):
        termbase.load_terms("es", fixture_locales)


def test_the_glossary_shows_each_languages_term(fixture_locales):
    rows = {r["id"]: r for r in termbase.glossary_rows(["en", "es", "fr"], fixture_locales)}
    assert rows["claim"]["en"] == "claim" and rows["claim"]["es"] == "reclamar"
    assert rows["declare"]["es"] == "cantar"
    if not termbase.has_terms("fr", fixture_locales):
        assert rows["claim"]["fr"] is None


def test_every_language_with_a_catalog_has_a_termbase():
    have = [lang for lang in LANGS if termbase.has_terms(lang, LOCALES)]
    assert have == LANGS, f"termbase missing for {sorted(set(LANGS) - set(have))}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_shipped_catalog_follows_its_termbase(lang):
    problems = _termbase_problems(lang, LOCALES)
    assert not problems, "\n".join(problems[:10])


def test_the_check_command_holds_a_catalog_to_its_termbase(tmp_path):
    """`mariage catalogs check` (the translator's command) reports a term reserved for another
    concept, with its line, and exits 1: the same check as the test suite's."""
    import subprocess
    import sys

    for name in ("locales", "rules", "templates", "examples", "mkdocs.yml", "babel.cfg"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    po = tmp_path / "locales" / "it" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    old = 'msgstr "Gioco"'                        # the history table's column of game names
    assert text.count(old) == 1
    po.write_text(text.replace(old, 'msgstr "Punti-partita"'), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "catalogs", "check", "it"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "[termbase] the translation uses 'punti-partita', the term reserved for " \
        "'game points'" in run.stderr
    assert "it: 1 mistake(s)" in run.stdout


# --- a catalog checked again costs only its changed messages --------------------------------
# What a message fails is kept by the message's text and the termbase's content, never by
# where the files are: these cases hold that sharing to what the check itself would say.

def test_a_second_copy_is_told_its_own_termbase_file(fixture_locales, tmp_path):
    _po_with(fixture_locales, "es", "Marriages and the claim", "Matrimonios y el canto")
    other = tmp_path / "other" / "locales"
    shutil.copytree(fixture_locales, other)
    first, second = (_termbase_problems("es", where) for where in (fixture_locales, other))
    assert len(first) == len(second) > 0
    hints = [p for p in second if "forms in" in p]
    assert hints and all(str(termbase.language_path("es", other)) in p for p in hints), hints
    assert not [p for p in second if str(fixture_locales) in p], second


def test_a_termbase_edit_is_seen_by_an_unchanged_catalog(fixture_locales):
    _po_with(fixture_locales, "es", "Marriages and the claim", "Matrimonios y el canto")
    assert any("'cantar', the term reserved" in p for p in _termbase_problems("es",
                                                                             fixture_locales))
    path = termbase.language_path("es", fixture_locales)
    path.write_text(fixture_yaml({'"cantar", forms: ["cant"]': '"declarar", forms: ["declar"]'}),
                    encoding="utf-8")
    problems = _termbase_problems("es", fixture_locales)
    assert not any("'cantar'" in p for p in problems), problems
    assert any("'claim'" in p and "Marriages and the claim" in p for p in problems), problems


def test_a_saved_catalog_is_checked_again_only_in_its_changed_message(fixture_locales,
                                                                      monkeypatch):
    catalogs._entry_findings.cache_clear()        # what earlier tests checked is forgotten
    catalogs._CHECKED.clear()                     # (an earlier test made the same edit)
    catalogs.check_catalog("es", fixture_locales)
    seen: list[tuple[str, ...]] = []
    real = catalogs.checks.check_entry
    monkeypatch.setattr(catalogs.checks, "check_entry",
                        lambda entry: seen.append(entry.sources) or real(entry))
    _po_with(fixture_locales, "es", "Marriages and the claim", "Matrimonios y el canto")
    problems = _termbase_problems("es", fixture_locales)
    assert seen == [("Marriages and the claim",)]
    assert any("'cantar', the term reserved" in p for p in problems), problems
