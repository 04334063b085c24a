"""Every translator mistake we know of, one row each: the check names the file, the line and the
check; a strict build refuses it; any other build shows the English text (tagged lang="en") and
nothing of the mistake reaches a page; never a traceback.

The rows are the 22 mistakes of the translator review (shared/reviews/translator-workflow.md,
ids 01-10, X1-X4), the catalog attacks of the reliability review (C-ids) and a few more. A new
mistake is one row. Most rows stop at the generator; `test_build_*` run a real `mkdocs build`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from helpers import copy_project, mkdocs_build
from mariage.site.read import catalogs
from mariage.site.replay.doctests import DoctestWorker
from mariage.site.replay.examples import read_example
from mariage.site.build.generate import (CatalogError, check_catalogs, check_examples,
                                         render_examples, replay_examples)
from mariage.site.render.pages import SiteSource, page_templates
from mariage.site.render.templating import base_context, mark_fallbacks, render

ROOT = Path(__file__).resolve().parents[2]
FR = "fr/LC_MESSAGES/messages.po"

# The messages the rows break, by the start of their msgid, with the page (template or example)
# that shows them.
CLAIM = "Mariage is a trick-taking card game for %(players)s"
NUMBERS = "No number on these pages is typed in"
STOCK = "stock: %(count)s card, the indicator"     # a singular that states its number
GLOSSARY = "Glossary"
CELL = "Position in the deck"
EMPHASIS = "The next card is turned face up: it is the **trump indicator**"
HAND_ENDS = "The hand ends and your opponent scores %(false_claim)s game point."


@dataclass(frozen=True)
class Mistake:
    id: str
    edit: Callable[[str], str]            # the catalog text -> the broken text
    check: str                            # the check id the problem names
    marker: str                           # a fragment of the edit: its line is the one reported
    wrong: str | None = None              # text that must never reach a page
    english: str | None = None            # the English text shown instead
    strict_fails: bool = True             # False: not a mistake, just not shipped
    after: int = 0                        # the reported line is this many below the marker's
    says: str = ""                        # what the problem must say (the construct, the fix)
    never: tuple[str, ...] = ()           # what no problem may say (a misleading word)


def msgstr(msgid: str, new: str, form: int | None = None) -> Callable[[str], str]:
    """Replace the msgstr (or msgstr[form]) of the entry whose msgid starts with `msgid`."""
    key = "msgstr" if form is None else f"msgstr[{form}]"

    def edit(text: str) -> str:
        pattern = rf'(^msgid "{re.escape(msgid)}.*"\n(?:msgid_plural .*\n)?(?:msgstr.*\n)*?)' \
                  rf'{re.escape(key)} ".*"$'
        out, n = re.subn(pattern, lambda m: m.group(1) + f'{key} "{new}"', text, count=1,
                         flags=re.M)
        assert n == 1, f"no entry {msgid!r} with {key}"
        return out
    return edit


def drop_line(msgid: str, key: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        pattern = rf'(^msgid "{re.escape(msgid)}.*"\n(?:msgid_plural .*\n)?(?:msgstr.*\n)*?)' \
                  rf'{re.escape(key)} ".*"\n'
        out, n = re.subn(pattern, r"\1", text, count=1, flags=re.M)
        assert n == 1
        return out
    return edit


def replace(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)
    return edit


def fuzzy(msgid: str) -> Callable[[str], str]:
    return replace(f'\nmsgid "{msgid}', f'\n#, fuzzy\nmsgid "{msgid}')


def declare(charset: str) -> Callable[[str], str]:
    """Declare `charset` in the header's Content-Type instead of UTF-8 (Babel writes
    `charset=utf-8`, msgmerge `charset=UTF-8`)."""
    def edit(text: str) -> str:
        out, n = re.subn(r"charset=utf-8", f"charset={charset}", text, count=1, flags=re.I)
        assert n == 1, "the header declares no charset=UTF-8"
        return out
    return edit


PLURALS = '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"'
DEAL = "The position after the deal: %(other)s, the non-dealer, leads the first trick (R5)."
TEN = "Is the ten higher than the king?"
CLOSED_BONUS = "No. A closed hand never earns the last trick bonus. (R18)"
NOTATION = "Moves are written as the engine reads them"
DEALER = "%(dealer)s deals, so %(other)s is the non-dealer."
ESCAPES = ("\\x", "\\u")                 # a Python escape is never shown to a translator


def swapped_with_order_note(text: str) -> str:
    """The dealer and the non-dealer swapped, in a message whose note says their order is the
    meaning (the note as `update` brings it from a `{# Translators: … #}` comment)."""
    text = msgstr(DEALER, "%(other)s donne, %(dealer)s est donc le non-donneur. En prenant "
                  "les cartes sur le dessus du jeu, %(other)s en donne %(first)s à %(dealer)s "
                  "et s’en donne %(first)s, puis encore %(second)s à %(dealer)s et %(second)s "
                  "à lui-même (R3). Chaque joueur tient maintenant %(size)s cartes.")(text)
    return replace(f'#, python-format\nmsgid "{DEALER}', f'#. keep their order\n#, '
                   f'python-format\nmsgid "{DEALER}')(text)


def without_header(text: str) -> str:
    start = text.index('msgid ""\nmsgstr ""\n')
    end = text.index("\n\n", start)
    return text[:start] + text[end + 2:]

MISTAKES = [
    # the translator review, section 3
    Mistake("01-dropped-placeholder", msgstr(CLAIM, "Le Mariage se joue à %(players)s avec "
            "%(size)s cartes ; réclamez dès que vos points atteignent soixante-six."),
            "placeholders", "atteignent soixante-six", "atteignent soixante-six", CLAIM),
    Mistake("02-renamed-placeholder", msgstr(CLAIM, "Jeu pour %(players)s joueurs, %(taille)s "
            "cartes, réclamez à %(claim)s."), "placeholders", "%(taille)s", "cartes, réclamez",
            CLAIM),
    Mistake("03-plural-form-missing", drop_line(HAND_ENDS, "msgstr[1]"), "plural-forms",
            'msgstr[0] "La donne prend fin', None, None, never=("[untranslated]",)),
    Mistake("04-fuzzy", fuzzy(NUMBERS), "fuzzy", "#, fuzzy", None, NUMBERS, strict_fails=False,
            after=2, says="remove the word `fuzzy`", never=("python-format",)),
    Mistake("05-unescaped-quote", msgstr(CLAIM, 'Le Mariage est un jeu de "levées" pour '
            '%(players)s, %(size)s cartes, %(claim)s.'), "syntax", '"levées"', '"levées"', CLAIM,
            says="a quotation mark \" inside the text ends the string early"),
    Mistake("06a-html", msgstr(NUMBERS, "Les nombres ne sont <b>jamais</b> saisis "
            "<script>alert(1)</script>"), "markup", "<b>jamais", "alert(1)", NUMBERS),
    Mistake("06b-markdown-link", msgstr(NUMBERS, "Les nombres [voir](https://evil.example/)"),
            "markup", "evil.example", "evil.example", NUMBERS),
    Mistake("07a-template-expression", msgstr(NUMBERS, "Les nombres {{ 7*7 }} de ces pages"),
            "markup", "{{ 7*7 }}", "7*7", NUMBERS, says="Jinja template braces `{{ … }}`",
            never=("adds an emphasis mark",)),
    Mistake("07b-template-raw", msgstr(NUMBERS, "{% raw %}{{ config }}{% endraw %}"), "markup",
            "{% raw %}", "config", NUMBERS),
    Mistake("07c-template-variables", msgstr(NUMBERS, "{{ config }} {{ rules.thresholds.claim }}"),
            "markup", "{{ config }}", "rules.thresholds", NUMBERS),
    Mistake("08a-three-plural-forms", replace(PLURALS, PLURALS.replace("nplurals=2", "nplurals=3")),
            "plural-rule", "nplurals=3", "1 points de match", None,
            says="for French (fr) write `Plural-Forms: nplurals=2; plural=(n > 1);`",
            never=("scratch",)),
    Mistake("08b-english-plural-rule", replace(PLURALS, PLURALS.replace("(n > 1)", "(n != 1)")),
            "plural-rule", "(n != 1)", None, None, says="gives n=0 msgstr[1], but French (fr) "
            "shows msgstr[0] for 0 (CLDR); until it is fixed, none of the", never=("'fr''s",)),
    Mistake("08c-broken-plural-expression", replace(PLURALS, PLURALS.replace("(n > 1)", "((n > 1)")),
            "plural-rule", "((n > 1)", None, None,
            says="for French (fr) write `Plural-Forms: nplurals=2; plural=(n > 1);`"),
    Mistake("08d-one-plural-form", replace(PLURALS, '"Plural-Forms: nplurals=1; plural=0;\\n"'),
            "plural-rule", "nplurals=1", None, None),
    Mistake("10-empty-msgstr", msgstr(NUMBERS, ""), "untranslated", NUMBERS, None, NUMBERS,
            strict_fails=False, after=1),
    Mistake("X1a-lone-percent", msgstr(NUMBERS, "Les nombres sont justes à 100 % de ces pages"),
            "percent", "100 %", "100 % de ces", NUMBERS, says="a lone % in “justes à 100 % de ces pages”",
            never=ESCAPES),
    Mistake("X1b-lone-percent-with-placeholders", msgstr(CLAIM, "Jeu pour %(players)s joueurs "
            "(100 % des points), %(size)s cartes, %(claim)s."), "percent", "(100 % des",
            "100 % des", CLAIM),
    # the glossary's term table has its own "| quien cierra |": the wrong text is the cell's
    Mistake("X2-table-pipe", msgstr(CELL, "Position dans le paquet | qui"), "markup", "| qui",
            "paquet | qui", CELL),
    Mistake("X3-stray-bracket", msgstr(GLOSSARY, "Glossaire]"), "markup", "Glossaire]",
            "Glossaire]", GLOSSARY),
    Mistake("X4-leading-hash", msgstr(CELL, "# Position dans le paquet"), "markup",
            "# Position dans", "# Position dans", CELL),
    # the reliability review's catalog attacks
    Mistake("C3-javascript-link", msgstr(NUMBERS, "Vérifiez [ici](javascript:alert(1))"),
            "markup", "javascript:", "javascript:", NUMBERS),
    Mistake("C5-external-image", msgstr(NUMBERS, "![pixel](https://evil.example/pixel.png)"),
            "markup", "pixel.png", "pixel.png", NUMBERS),
    Mistake("C6-reference-image", msgstr(NUMBERS, "![p][r]\\n\\n[r]: //evil.example/ref.png"),
            "markup", "ref.png", "ref.png", NUMBERS),
    Mistake("C8-attribute-list", msgstr(GLOSSARY, "Glossaire {: onmouseover=alert(1) }"),
            "markup", "onmouseover", "onmouseover", GLOSSARY),
    Mistake("C11-injected-heading", msgstr(NUMBERS, "Non.\\n\\n# Titre injecté"), "markup",
            "Titre injecté", "Titre injecté", NUMBERS),
    Mistake("C16-huge-width", msgstr(CLAIM, "Jeu pour %(players)s, %(size)s cartes, "
            "%(claim)999999999s."), "placeholders", "999999999", None, CLAIM),
    Mistake("C18-positional-placeholder", msgstr(GLOSSARY, "Glossaire %s"), "placeholders",
            "Glossaire %s", "Glossaire {}", GLOSSARY),
    Mistake("C19-foreign-placeholder", msgstr(GLOSSARY, "Glossaire %(claim)s"), "placeholders",
            "Glossaire %(claim)s", "Glossaire 66", GLOSSARY),
    Mistake("C22-star-width", msgstr(CLAIM, "%(players)s, %(size)s, %(claim)*s"), "placeholders",
            "%(claim)*s", None, CLAIM),
    Mistake("C34-division-by-zero", replace(PLURALS, PLURALS.replace("(n > 1)", "(n / 0)")),
            "plural-rule", "(n / 0)", None, None),
    Mistake("C35-deep-plural-expression", replace(PLURALS, PLURALS.replace(
            "(n > 1)", "(" * 30 + "n > 1" + ")" * 30)), "plural-rule", "((((((", None, None),
    Mistake("C36-form-out-of-range", replace(PLURALS, PLURALS.replace("(n > 1)", "(n+5)")),
            "plural-rule", "(n+5)", None, None),
    Mistake("C37-duplicate-msgid", replace('\nmsgid "Glossary"\nmsgstr "Glossaire"\n',
            '\nmsgid "Glossary"\nmsgstr "Glossaire"\n\nmsgid "Glossary"\nmsgstr "Lexique"\n'),
            "syntax", 'msgstr "Lexique"', "Lexique", GLOSSARY),
    Mistake("C38-latin1-declared-utf8-content", declare("iso-8859-1"),
            "encoding", "charset=iso-8859-1", None, None),
    Mistake("C30-other-language", replace('"Language: fr\\n"', '"Language: es\\n"'), "language",
            "Language: es", None, None),
    # more: an emphasis lost, an HTML entity, a half-translated plural
    Mistake("lost-emphasis", msgstr(EMPHASIS, "La carte suivante est l’indicateur d’atout, et "
            "sa couleur est l’atout. Les %(pile)s autres cartes la couvrent."), "markup",
            "La carte suivante est l’indicateur", "La carte suivante est l’indicateur", None),
    Mistake("html-entity", msgstr(GLOSSARY, "Glossaire&nbsp;:"), "markup", "&nbsp;", "&amp;nbsp;",
            GLOSSARY),
    # A singular whose English states its number keeps it (French also shows it for 0)...
    Mistake("singular-drops-its-number", msgstr(HAND_ENDS, "La donne prend fin et votre "
            "adversaire marque un point de partie.", form=0), "placeholders",
            "votre adversaire marque un point de partie.", None, None),
    Mistake("plural-form-empty", msgstr(HAND_ENDS, "", form=1), "untranslated",
            'msgstr[0] "La donne prend fin', None, None, strict_fails=False),
    # the translator review's content mistakes (issue 20), each once published
    Mistake("I15-ruling-reference-changed", msgstr(DEAL, "La situation après la distribution : "
            "%(other)s, le non-donneur, entame la première levée (R7)."), "rulings",
            "la première levée (R7)", "levée (R7)", "The position after the deal",
            says="cites R7 where the English text cites R5"),
    Mistake("I14-number-word-changed", msgstr(TEN, "Le huit est-il plus fort que le roi ?"),
            "numbers", "Le huit est-il", "Le huit est-il", TEN,
            says="states 8 ('huit'), a number the English text does not state (it states 10)"),
    Mistake("I12-termbase-in-the-build", msgstr(DEAL, "La situation après la distribution : "
            "%(other)s, le non-donneur, entame le premier pli (R5)."), "termbase",
            "le premier pli", "le premier pli", "The position after the deal",
            says="write 'levée'"),
    Mistake("I2-edited-msgid", replace('\nmsgid "Position in the deck"\n',
            '\nmsgid "Place dans le jeu"\n'), "template", 'msgid "Place dans le jeu"', None, CELL,
            after=1, says="not in the template (the template has 'Position in the deck')"),
    Mistake("I2b-dropped-msgctxt", replace('msgctxt "glossary"\nmsgid "points"\n',
            'msgid "points"\n'), "template", 'msgid "points"', None, None, after=1,
            says="the template has this msgid with msgctxt 'glossary'"),
    Mistake("I5-code-translated", replace("Dans `A play As`, le joueur", "Dans `A joue As`, le "
            "joueur"), "code", "`A joue As`", "`A joue As`", None,
            says="changes the code `A joue As` (the English text has `A play As`)"),
    Mistake("I6-english-pasted", msgstr("Goes to", "Goes to"), "unchanged", 'msgstr "Goes to"',
            None, "Goes to", says="the translation is the English text itself"),
    Mistake("3-swapped-placeholders-with-order-note", swapped_with_order_note, "placeholders",
            '"%(other)s donne, %(dealer)s', "%(other)s donne", DEALER.split("%(other)s")[0],
            says="the note says to keep the English text's: %(dealer)s, %(other)s"),
    # the mistakes one would make next
    Mistake("ruling-reference-dropped", msgstr(CLOSED_BONUS, "Non. Une donne fermée ne donne "
            "jamais droit à la prime de dernière levée."), "rulings",
            "jamais droit à la prime de dernière levée.\"",
            "Non. Une donne fermée ne donne jamais droit", "No. A closed hand",
            says="drops the reference to R18"),
    Mistake("digit-typed", msgstr(GLOSSARY, "Glossaire 2"), "numbers", "Glossaire 2",
            "Glossaire 2", GLOSSARY, says="states 2"),
    Mistake("jinja-comment", msgstr(NUMBERS, "Les nombres {# x #} de ces pages"), "markup",
            "{# x #}", "{# x #}", NUMBERS, says="a Jinja comment"),
    Mistake("jinja-statement", msgstr(NUMBERS, "Les nombres {% if true %}x{% endif %}"), "markup",
            "{% if true", "if true", NUMBERS, says="a Jinja statement `{% … %}`",
            never=("a lone %",)),
    Mistake("no-break-space-in-placeholder", msgstr(CLAIM, "Le Mariage se joue à %(players)s "
            "avec %(size)\u00a0s cartes ; réclamez à %(claim)s."), "placeholders",
            "se joue à %(players)s", None, CLAIM, says="%(size)⟨no-break space⟩s has "
            "⟨no-break space⟩ inside it, so it is not a placeholder: write %(size)s",
            never=ESCAPES + ("a lone %",)),
    Mistake("space-in-placeholder", msgstr(CLAIM, "Le Mariage se joue à %(players)s avec "
            "%(size) s cartes ; réclamez à %(claim)s."), "placeholders", "%(size) s", None, CLAIM,
            says="%(size) s has a space inside it, so it is not a placeholder: write %(size)s",
            never=("a lone %",)),
    Mistake("misspelt-keyword", replace('\nmsgid "Glossary"\nmsgstr "Glossaire"',
            '\nmsgid "Glossary"\nmsgtsr "Glossaire"'), "syntax", 'msgtsr "Glossaire"', None,
            None, says="`msgtsr` is not a PO keyword", never=("quotation mark",)),
    Mistake("msgstr-ends-with-line-break", msgstr(GLOSSARY, "Glossaire\\n"), "syntax",
            'msgstr "Glossaire\\n"', None, None, says="ends with a line break (\\n)"),
    Mistake("header-deleted", without_header, "header", "# French translations", None, None,
            says="the catalog has no header entry", never=("charset=(none)",)),
    Mistake("language-line-deleted", replace('"Language: fr\\n"\n', ""), "language",
            '"Generated-By:', None, None, says='add "Language: fr\\n" to the header'),
]


def _break(locales: Path, mistake: Mistake) -> tuple[Path, int]:
    """Apply the mistake to the French catalog; returns it and the line the problem is at,
    found in the edited file by hand: the first line that holds the mistake's marker."""
    path = locales / FR
    text = mistake.edit(path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if mistake.marker in l)
    return path, line + mistake.after


def _fr_pages(source: SiteSource) -> str:
    """Every French page the rows touch: the template pages and example 02 (deal table)."""
    env = source.environment()
    context = base_context(source.profile, "fr", source.languages()) | source.context()
    with source.language("fr"):
        texts = [mark_fallbacks(render(env, t, context)) for t in page_templates(source.templates)]
    example = read_example(source.examples / "02-deal.md", source.profile)
    pages = render_examples(source, "fr", [example], replay_examples([example]))
    with DoctestWorker() as worker:
        check_examples(pages, [example], worker)
    texts += [p.text for p in pages]
    return "\n".join(texts)


@pytest.mark.parametrize("mistake", MISTAKES, ids=[m.id for m in MISTAKES])
def test_a_catalog_mistake_is_named_and_never_shipped(locales_copy, mistake):
    path, line = _break(locales_copy, mistake)
    checked = catalogs.check_catalog("fr", locales_copy)
    named = [str(p) for p in checked.problems if p.check == mistake.check]
    assert named, [str(p) for p in checked.problems]
    assert any(f"{FR}:{line}: [{mistake.check}]" in p for p in named), (line, named)
    assert all(p.hint for p in checked.problems if p.check == mistake.check)
    assert any(mistake.says in p for p in named), (mistake.says, named)
    said = [str(p) for p in checked.problems]
    assert not [p for p in said for word in mistake.never if word in p], said
    assert not [p for p in said if "))" in p or ") (" in p and p.endswith("))")], said

    source = SiteSource(locales=locales_copy, min_translated=0)
    if mistake.strict_fails:
        with pytest.raises(CatalogError) as refused:
            check_catalogs(source, strict=True)
        assert f"{FR}:" in str(refused.value)
    else:
        assert check_catalogs(source, strict=True) == []
    pages = _fr_pages(source)                  # the lenient build: English stands in
    if mistake.wrong:
        assert mistake.wrong not in pages
    if mistake.english:
        assert re.search(r'<span lang="en">[^<]*' + re.escape(mistake.english.split("%(")[0]),
                         pages), \
            f"{mistake.english!r} is not shown in English"


def test_the_plural_rows_fall_back_to_english_on_the_page(locales_copy):
    """A plural message with a missing form shows the English plural, tagged lang="en"."""
    _break(locales_copy, MISTAKES[2])
    pages = _fr_pages(SiteSource(locales=locales_copy, min_translated=0))
    assert "La donne prend fin et votre adversaire" not in pages
    assert re.search(r'<span lang="en">The hand ends and your opponent scores \d+ game points?',
                     pages)


@pytest.mark.parametrize("name,data,line", [
    ("09a-latin1-bytes-utf8-header", lambda text: text.encode("latin-1", "replace"), None),
    ("09b-latin1-declared", lambda text: declare("ISO-8859-1")(text)
     .encode("latin-1", "replace"), "charset"),
    ("C26-one-invalid-byte", lambda text: text.replace("Glossaire", "Glossaire\udcff", 1)
     .encode("utf-8", "surrogateescape"), "Glossaire"),
    ("C27-byte-order-mark", lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"), "BOM"),
])
def test_a_file_in_another_encoding_is_named_with_its_line(locales_copy, name, data, line):
    path = locales_copy / FR
    text = path.read_text(encoding="utf-8")
    path.write_bytes(data(text))
    if line is None:       # the first line with a character Latin-1 writes as one byte >= 0x80
        expected = next(i for i, l in enumerate(text.splitlines(), 1) if any(
            127 < ord(c) < 256 for c in l))
    elif line == "BOM":
        expected = 1
    else:
        expected = next(i for i, l in enumerate(text.splitlines(), 1) if line in l)
    checked = catalogs.check_catalog("fr", locales_copy)
    assert [str(p) for p in checked.problems if p.check == "encoding"][0].startswith(
        f"{locales_copy / FR}:{expected}: [encoding]".replace(str(Path.cwd()) + "/", "")), \
        [str(p) for p in checked.problems]
    assert checked.catalog is None                     # nothing of it is shipped
    source = SiteSource(locales=locales_copy, min_translated=0)
    with pytest.raises(CatalogError):
        check_catalogs(source, strict=True)
    assert "Glossaire" not in _fr_pages(source)        # all French falls back to English


@pytest.mark.parametrize("args,words", [
    (["catalogs", "check", "fr"], ["fr/LC_MESSAGES/messages.po:", "[markup]", "msgid 'Glossary'"]),
    (["catalogs", "check", "--errors-only"], ["fr: 1 mistake(s)", "es: ok"]),
    (["catalogs", "check", "--errors-only", "fr"], ["fr: 1 mistake(s)", "[markup]"]),   # 11
    (["catalogs", "check", "fr", "--errors-only"], ["fr: 1 mistake(s)", "[markup]"]),
])
def test_the_check_command_names_file_line_and_check(tmp_path, args, words):
    project = copy_project(tmp_path / "project")
    po = project / "locales" / FR
    po.write_text(msgstr(GLOSSARY, "Glossaire]")(po.read_text(encoding="utf-8")),
                  encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mariage.cli", *args], cwd=project,
                         capture_output=True, text=True)
    assert run.returncode == 1
    for word in words:
        assert word in run.stdout + run.stderr
    assert "Traceback" not in run.stderr


def test_the_check_command_reads_a_latin1_catalog_without_a_traceback(tmp_path):
    project = copy_project(tmp_path / "project")
    po = project / "locales" / FR
    po.write_bytes(declare("ISO-8859-1")(po.read_text(encoding="utf-8"))
                   .encode("latin-1", "replace"))
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "catalogs", "check", "fr"],
                         cwd=project, capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "[encoding] the header declares charset=ISO-8859-1" in run.stderr
    assert "save the file as UTF-8" in run.stderr


def _build(project: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """A build with no environment but the session's stage cache (warm by the time it runs)."""
    return mkdocs_build(project, *extra, env={
        "PATH": "/usr/bin:/bin", "MARIAGE_STAGE_CACHE": os.environ["MARIAGE_STAGE_CACHE"]})


@pytest.fixture(scope="module")
def broken_project(warm_stages, tmp_path_factory):
    """A project copy, English and French only, whose French catalog carries a live link and
    a table pipe."""
    project = copy_project(tmp_path_factory.mktemp("broken") / "project", ["fr"])
    po = project / "locales" / FR
    text = po.read_text(encoding="utf-8")
    text = msgstr(NUMBERS, "Les nombres [voir](https://evil.example/)")(text)
    text = msgstr(CELL, "Position dans le paquet | qui")(text)
    text = msgstr(DEAL, "La situation après la distribution : %(other)s, le non-donneur, entame "
                  "le premier pli (R5).")(text)              # a termbase violation (I12)
    po.write_text(text, encoding="utf-8")
    return project


def _snapshot(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_build_strict_fails_naming_file_line_and_msgid(broken_project):
    before = _snapshot(broken_project / "site")
    run = _build(broken_project, "--strict")
    assert run.returncode == 1
    text = (broken_project / "locales" / FR).read_text(encoding="utf-8").splitlines()
    link = next(i for i, l in enumerate(text, 1) if "evil.example" in l)
    assert f"locales/{FR}:{link}: [markup]" in run.stderr
    assert "msgid 'No number on these pages" in run.stderr
    pli = next(i for i, l in enumerate(text, 1) if "premier pli" in l)
    assert f"locales/{FR}:{pli}: [termbase] the English text says 'trick'" in run.stderr
    assert "write 'levée'" in run.stderr
    assert "Traceback" not in run.stderr and "))" not in run.stderr
    assert "catalog problem(s): fix each one as it says" in run.stderr
    assert _snapshot(broken_project / "site") == before       # the previous site stays


def test_build_lenient_shows_english_tagged_and_warns(broken_project):
    run = _build(broken_project)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "the English text is shown instead" in run.stderr
    site = broken_project / "site"
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "evil.example" not in html and "| qui" not in html, page
        assert "premier pli" not in html, page
    home = (site / "fr" / "index.html").read_text(encoding="utf-8")
    assert '<span lang="en">No number on these pages is typed in' in home
    deal = (site / "fr" / "examples" / "02-deal" / "index.html").read_text(encoding="utf-8")
    assert '<span lang="en">Position in the deck</span>' in deal


@pytest.mark.parametrize("string,ok", [
    ("Mais # nesta página", True),        # the theme's count placeholder, moved: fine
    ("# mais nesta página", True),
    ("Mais resultados nesta página", False),   # the placeholder lost
    ("# mais # nesta página", False),          # doubled
])
def test_the_themes_count_placeholder_is_kept_but_may_move(string, ok):
    from mariage.site.read import checks, message_checks

    entry = message_checks.Entry(("# more on this page",), (string,), 2, "interface")
    failures = [c.id for c, _ in checks.check_entry(entry)]
    assert (failures == []) is ok, failures
    # Outside the theme's strings a leading `#` is a Markdown heading and must stay one.
    page = message_checks.Entry(("# Heading",), ("Título",), 2)
    assert [c.id for c, _ in checks.check_entry(page)] == ["markup"]


def test_a_message_deleted_from_the_catalog_is_named_at_the_templates_line(locales_copy):
    """msgcmp's 'this message is used but not defined': the template's file and line, counted
    in stats, and a strict build refuses it."""
    path = locales_copy / FR
    text = path.read_text(encoding="utf-8")
    start = text.index('\nmsgid "Glossary"\n')
    start = text.rindex("\n\n", 0, start) + 2
    end = text.index("\n\n", start) + 2
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    pot = (locales_copy / "messages.pot").read_text(encoding="utf-8").splitlines()
    line = pot.index('msgid "Glossary"') + 1
    checked = catalogs.check_catalog("fr", locales_copy)
    named = [str(p) for p in checked.problems if p.check == "template"]
    assert any(f"messages.pot:{line}: [template] this message of the template is missing from "
               in p and f"locales/{FR}: msgid 'Glossary' (run `mariage catalogs update`" in p
               for p in named), named
    assert checked.stats().missing == 1 and checked.stats().mismatched == 1
    with pytest.raises(CatalogError):
        check_catalogs(SiteSource(locales=locales_copy, min_translated=0), strict=True)


def test_an_edited_msgid_is_counted_in_stats_not_as_translated(locales_copy):
    """The review's I2: `check` said ok and stats 100 %; now both say what is wrong."""
    before = catalogs.check_catalog("fr", locales_copy).stats()
    _break(locales_copy, MISTAKES[[m.id for m in MISTAKES].index("I2-edited-msgid")])
    after = catalogs.check_catalog("fr", locales_copy).stats()
    assert (after.stale, after.missing, after.mismatched) == (1, 1, 2)
    assert after.translated == before.translated - 1 and after.total == before.total
    assert after.percent < 100


@pytest.mark.parametrize("lang,form,ok", [
    ("es", "mazo: una carta, el indicador", True),      # msgstr[0] is shown only for 1
    ("pt", "monte: uma carta, o indicador", True),
    ("it", "tallone: una carta, l’indicatore", True),
    ("fr", "pioche : une carte, l’indicateur", False),  # French msgstr[0] also shows 0
    ("es", "mazo: dos cartas, el indicador", False),    # a word, but not the word for one
])
def test_a_form_shown_only_for_one_may_write_the_word_for_one(lang, form, ok):
    from mariage.site.read import checks, message_checks

    entry = message_checks.Entry((STOCK, "stock: %(count)s cards, the indicator last"),
                                 (form, "x: %(count)s y"), 2, lang=lang)
    failures = [c.id for c, _ in checks.check_entry(entry)]
    assert ("placeholders" not in failures) is ok, failures


def test_a_wrong_plural_rule_is_said_once_not_once_per_plural_message(locales_copy):
    """The review's 18 follow-on lines: one problem, which says what it holds back."""
    _break(locales_copy, MISTAKES[[m.id for m in MISTAKES].index("08b-english-plural-rule")])
    checked = catalogs.check_catalog("fr", locales_copy)
    plural = [m for m in checked.catalog if m.id and isinstance(m.id, tuple)]
    rule = [str(p) for p in checked.errors if p.check == "plural-rule"]
    assert len(rule) == 1 and len(checked.errors) == 1, rule
    assert f"none of the {len(plural)} plural messages is shipped" in rule[0]
