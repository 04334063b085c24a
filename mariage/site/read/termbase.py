"""The termbase: one term for each game concept in every language, and the check that holds a
catalog to it.

`locales/termbase.yaml` defines the concepts and the English word forms that name them;
`locales/<lang>/termbase.yaml` gives each language's term and the stems that count as it:

    trick: {term: "baza", forms: ["baza"]}

A translated message is flagged when its English text uses a concept but the translation has
none of that concept's forms, and when the translation uses the forms of an *exclusive* concept
(declare, claim) that its English text does not name: one verb must not teach two rulings.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

import yaml

from .checks import PATH
from .plurals import native_name
from ...engine import bounded
from ...engine.errors import SourceError

FILE = "termbase.yaml"
SOURCE_LANGUAGE = "en"                # its terms are the concepts' `en` forms
CONCEPTS = ("trick", "lead", "follow_suit", "beat", "trump_in", "discard", "stock", "indicator",
            "close", "exhausted", "marriage", "declare", "claim", "card_points", "game_points",
            "closer", "rate", "hand")
# The glossary table prints terms as Markdown: no character that makes markup there (braces
# open an attribute list, `{: onmouseover=… }`), and nothing invisible or reordering.
_MARKUP = re.compile(r"[<>|*_`\\[\]{}#!&=:\"]")
LIMIT = 64 << 10          # bytes: a termbase is a few kilobytes
SPLIT = "…"   # joins the parts of a split form: "meldet sich … ab"
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\{.*?\}\}")


@dataclass(frozen=True)
class Concept:
    id: str
    definition: str
    english: tuple[str, ...]
    exclusive: bool

    def word_in(self, text: str) -> str | None:
        """The first of this concept's English forms the text uses, as a whole word."""
        return _first_word(self.english, text)


@dataclass(frozen=True)
class Term:
    concept: str
    term: str
    forms: tuple[str, ...]

    def used_in(self, text: str) -> bool:
        """Whether the translation holds one of the stems at the start of a word."""
        return _forms_regex(self.forms).search(text) is not None


def _first_word(forms: tuple[str, ...], text: str) -> str | None:
    if _any_word(forms).search(text) is None:      # most texts name none of a concept's forms
        return None
    for form in forms:
        match = _whole_word(form).search(text)
        if match:
            return match.group(0)
    return None


@lru_cache(maxsize=None)
def _any_word(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Any of the forms as a whole word: found wherever one of `_whole_word`'s is."""
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, forms))})(?!\w)", re.I)


@lru_cache(maxsize=None)
def _whole_word(form: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(form)}(?!\w)", re.I)


@lru_cache(maxsize=None)
def _forms_regex(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Any of the forms (one search instead of one per form); none: never matches."""
    return re.compile("|".join(f"(?:{_form_pattern(f)})" for f in forms) or r"(?!)", re.I)


def _form_pattern(form: str) -> str:
    """A stem at the start of a word; a split form such as German "spielt … aus" (a separable
    verb) matches its parts in order within one clause, the last part a whole word."""
    parts = [re.escape(p.strip()) for p in form.split(SPLIT)]
    if len(parts) == 1:
        return rf"(?<!\w){parts[0]}"
    return r"(?<!\w)" + r"[^.!?,;:]*?(?<!\w)".join(parts) + r"(?!\w)"


def source_path(locales: Path) -> Path:
    return locales / FILE


def language_path(lang: str, locales: Path) -> Path:
    return locales / lang / FILE


def _compose(path: Path) -> yaml.MappingNode:
    """The file's YAML tree, read within the limits of every user file (size, aliases, depth,
    duplicate keys); it keeps each key's line for error messages."""
    try:
        node = bounded.compose(bounded.read_text(path, LIMIT))
    except OSError as exc:
        raise SourceError(path, f"cannot read the termbase ({exc.strerror})") from None
    except bounded.BadInput as exc:
        raise SourceError(path, f"cannot read the termbase: {exc}", line=exc.line,
                          hint="a termbase is a few kilobytes of UTF-8 text") from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise SourceError(path, f"malformed YAML: {exc.problem}", line=line) from None
    if not isinstance(node, yaml.MappingNode):
        raise SourceError(path, "a termbase is a mapping of concept ids", line=1)
    return node


def _entries(path: Path) -> dict[str, tuple[int, Any]]:
    """concept id -> (line, plain value), refusing unknown, missing and repeated ids."""
    node = _compose(path)
    entries: dict[str, tuple[int, Any]] = {}
    for key, value in node.value:
        line = key.start_mark.line + 1
        if key.value not in CONCEPTS:
            raise SourceError(path, f"unknown concept; expected one of {', '.join(CONCEPTS)}",
                              line=line, key=str(key.value))
        try:
            entries[key.value] = (line, bounded.construct(value))
        except yaml.YAMLError as exc:            # e.g. a !!python tag: never constructed
            raise SourceError(path, f"malformed YAML: {getattr(exc, 'problem', exc)}",
                              line=line, key=key.value) from None
    missing = [c for c in CONCEPTS if c not in entries]
    if missing:
        raise SourceError(path, f"concepts missing: {', '.join(missing)}", line=1)
    return entries


def _plain(text: str) -> bool:
    """Whether a term is plain text: no markup character, no control, format (zero-width,
    bidi) or line-break character."""
    return not _MARKUP.search(text) and not any(
        unicodedata.category(c)[0] in "CZ" and c != " " for c in text)


def _strings(value: Any, path: Path, line: int, key: str) -> tuple[str, ...]:
    if (not isinstance(value, list) or not value
            or not all(isinstance(v, str) and v.strip() for v in value)):
        raise SourceError(path, "expected a non-empty list of words", line=line, key=key)
    return tuple(v.strip() for v in value)


def load_concepts(locales: Path) -> dict[str, Concept]:
    """The concepts of locales/termbase.yaml, validated."""
    path = source_path(locales)
    concepts = {}
    for cid, (line, value) in _entries(path).items():
        if not isinstance(value, dict) or not isinstance(value.get("definition"), str):
            raise SourceError(path, "expected {definition: …, en: [...]}", line=line, key=cid)
        extra = set(value) - {"definition", "en", "exclusive"}
        if extra:
            raise SourceError(path, f"unknown field {sorted(extra)[0]!r}", line=line, key=cid)
        exclusive = value.get("exclusive", False)
        if not isinstance(exclusive, bool):
            raise SourceError(path, "exclusive must be true or false", line=line, key=cid)
        concepts[cid] = Concept(cid, value["definition"],
                                _strings(value.get("en"), path, line, f"{cid}.en"), exclusive)
    return concepts


def load_terms(lang: str, locales: Path) -> dict[str, Term]:
    """One language's terms, validated; forms are lowercase stems. A concept whose term and
    forms are both still empty (as `mariage catalogs init` writes them) is not chosen yet: it
    is left out, and not checked."""
    path = language_path(lang, locales)
    terms = {}
    for cid, (line, value) in _entries(path).items():
        if not isinstance(value, dict) or set(value) != {"term", "forms"}:
            raise SourceError(path, 'expected {term: "…", forms: ["…"]}', line=line, key=cid)
        if value["term"] in ("", None) and value["forms"] in ([], None):
            continue
        if not isinstance(value["term"], str) or not value["term"].strip():
            raise SourceError(path, "the term is empty, but its forms are not", line=line,
                              key=f"{cid}.term", hint='fill in the term, or empty both: '
                              'term: "", forms: []')
        if not _plain(value["term"]):
            raise SourceError(path, "a term is plain text: no markup characters "
                              "(< > | * _ ` \\ [ ] { } # ! & = : \") and no invisible ones",
                              line=line, key=f"{cid}.term")
        forms = _strings(value["forms"], path, line, f"{cid}.forms")
        upper = [f for f in forms if f != f.lower()]
        if upper:
            raise SourceError(path, f"forms are lowercase stems: {upper[0]!r}", line=line,
                              key=f"{cid}.forms")
        terms[cid] = Term(cid, value["term"].strip(), forms)
    return terms


def skeleton(lang: str, locales: Path) -> str:
    """A new language's termbase: every concept, with its definition and English words as a
    comment, and an empty term and forms for the translator to fill in."""
    lines = [f"# {native_name(lang)} ({lang}): one term for each game concept of "
             "locales/termbase.yaml.",
             "# Fill in `term` (the headword readers see) and `forms` (the lowercase stems "
             "that count as it",
             "# at the start of a word); a concept left empty is not checked yet. See "
             "docs/translators.md, Terminology.", ""]
    for cid, concept in load_concepts(locales).items():
        lines.append(f"# {concept.definition} English: {', '.join(concept.english)}.")
        lines.append(f'{cid}: {{term: "", forms: []}}')
    return "\n".join(lines) + "\n"


def has_terms(lang: str, locales: Path) -> bool:
    return language_path(lang, locales).exists()


@dataclass(frozen=True)
class Termbase:
    """One language's terms with the concepts they stand for, read once per catalog check."""
    lang: str
    path: Path
    concepts: dict[str, Concept]
    terms: dict[str, Term]

    @classmethod
    def load(cls, lang: str, locales: Path) -> "Termbase":
        return cls(lang, language_path(lang, locales), load_concepts(locales),
                   load_terms(lang, locales))

    def findings(self, sources: Sequence[str], strings: Sequence[str]) -> list[tuple[str, str]]:
        """What is wrong with one translated message's terms, each with what to do (empty
        when nothing is); a hint names this termbase's file as checks.PATH (the problem's
        `refers`). Placeholders are left out on both sides. Once per message text."""
        return list(_memo(_FOUND, (self._content, tuple(sources), tuple(strings)),
                          lambda: tuple(self._findings(sources, strings))))

    @cached_property
    def _content(self) -> str:
        """What the findings depend on: the language, its terms and the concepts."""
        return repr((self.lang, self.terms, self.concepts))

    @cached_property
    def _concepts_content(self) -> str:
        return repr(self.concepts)

    def _said(self, source: str) -> dict[str, str]:
        """Each concept the English text names, with the first of its forms it uses: every
        language's catalog has the same English texts, so each is searched once (all
        catalogs share the concepts)."""
        return _memo(_SAID, (self._concepts_content, source), lambda: {
            cid: word for cid, concept in self.concepts.items()
            if (word := concept.word_in(source))})

    def _findings(self, sources: Sequence[str], strings: Sequence[str]) -> list[tuple[str, str]]:
        said_by = self._said(_PLACEHOLDER.sub(" ", " ".join(sources)))
        texts = [_PLACEHOLDER.sub(" ", s) for s in strings if s]
        out = []
        for cid, term in self.terms.items():
            concept, said = self.concepts[cid], said_by.get(cid)
            if said:                 # a translation of it with none of the term's forms
                if not all(term.used_in(text) for text in texts):
                    out.append((f"the English text says {said!r} ({_name(cid)}), but the "
                                f"translation has none of the termbase's words for it",
                                f"write {term.term!r} (a word starting with "
                                f"{_listed(term.forms)}); if your word is also right, add its "
                                f"stem to {cid}'s forms in {PATH}"))
            elif concept.exclusive and any(term.used_in(text) for text in texts):
                out.append((f"the translation uses {term.term!r}, the term reserved for "
                            f"{_name(cid)}, but the English text does not say "
                            f"{_name(cid)}", f"choose another word: {_name(cid)}'s words "
                            f"({_listed(term.forms)}) stand for {_name(cid)} only"))
        return out


# What termbases found in messages, by their content and the message's text: a catalog checked
# again (after a save, or a copy of it) costs only its changed messages.
_FOUND: dict[tuple[str, tuple[str, ...], tuple[str, ...]], tuple[tuple[str, str], ...]] = {}
# The concepts each English text names, by the concepts' content and the text.
_SAID: dict[tuple[str, str], dict[str, str]] = {}

T = TypeVar("T")


def _memo(store: dict[Any, Any], key: Any, compute: Callable[[], T]) -> T:
    """`compute()` once per key in `store`, which keeps the last 50,000."""
    if key not in store:
        if len(store) >= 50_000:
            store.pop(next(iter(store)))
        store[key] = compute()
    value: T = store[key]
    return value


def _name(cid: str) -> str:
    return repr(cid.replace("_", " "))


def _listed(forms: Sequence[str]) -> str:
    return " or ".join(repr(f) for f in forms)


def glossary_rows(languages: list[str], locales: Path) -> list[dict[str, Any]]:
    """One row per concept for the glossary page: its id and each language's term (None where
    a language has not chosen it yet). English shows its first form."""
    concepts = load_concepts(locales)
    terms = {lang: load_terms(lang, locales) for lang in languages
             if lang != SOURCE_LANGUAGE and has_terms(lang, locales)}
    rows = []
    for cid, concept in concepts.items():
        row: dict[str, str | None] = {"id": cid, "en": concept.english[0]}
        row.update({lang: (terms[lang][cid].term if cid in terms.get(lang, {}) else None)
                    for lang in languages if lang != SOURCE_LANGUAGE})
        rows.append(row)
    return rows


GUIDE_START = "<!-- the termbases' table: written by `mariage catalogs update`; do not edit -->"
GUIDE_END = "<!-- end of the termbases' table -->"


def guide_table(languages: list[str], locales: Path) -> str:
    """The guide's terminology table, from the termbases themselves: one row per concept, its
    English words and each language's term ("–" where it is not chosen yet)."""
    langs = [lang for lang in languages if lang != SOURCE_LANGUAGE]
    rows = glossary_rows(languages, locales)
    english = {cid: ", ".join(c.english[:2]) for cid, c in load_concepts(locales).items()}
    lines = ["| concept | English | " + " | ".join(langs) + " |",
             "|---|---|" + "---|" * len(langs)]
    for row in rows:
        cells = [str(row[lang]) if row[lang] else "–" for lang in langs]
        lines.append(f"| `{row['id']}` | {english[str(row['id'])]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_guide_table(guide: Path, languages: list[str], locales: Path) -> bool:
    """Rewrite the table between the guide's markers; False when the guide has none."""
    try:
        text = guide.read_text(encoding="utf-8")
    except OSError:
        return False
    start, end = text.find(GUIDE_START), text.find(GUIDE_END)
    if start == -1 or end < start:
        return False
    new = (text[:start + len(GUIDE_START)] + "\n" + guide_table(languages, locales) + "\n"
           + text[end:])
    if new != text:
        guide.write_text(new, encoding="utf-8")
    return True
