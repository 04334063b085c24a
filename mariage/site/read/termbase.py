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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from babel.messages.catalog import Catalog, Message

from . import catalogs
from .checks import Problem
from ...engine.errors import SourceError

FILE = "termbase.yaml"
CONCEPTS = ("trick", "lead", "follow_suit", "beat", "trump_in", "discard", "stock", "indicator",
            "close", "exhausted", "marriage", "declare", "claim", "card_points", "game_points",
            "closer", "rate")
_MARKUP = re.compile(r"[<>|*_`\\[\]]")  # the glossary table prints terms as Markdown
SPLIT = "…"   # joins the parts of a split form: "meldet sich … ab"
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\{.*?\}\}")


@dataclass(frozen=True)
class Concept:
    id: str
    definition: str
    english: tuple[str, ...]
    exclusive: bool

    def named_in(self, text: str) -> bool:
        """Whether the English text uses one of this concept's forms, as a whole word."""
        return any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text, re.I) for f in self.english)


@dataclass(frozen=True)
class Term:
    concept: str
    term: str
    forms: tuple[str, ...]

    def used_in(self, text: str) -> bool:
        """Whether the translation holds one of the stems at the start of a word."""
        return any(re.search(_form_pattern(f), text, re.I) for f in self.forms)


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
    """The file's YAML tree (safe loader), which keeps each key's line for error messages."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except OSError as exc:
        raise SourceError(path, f"cannot read the termbase ({exc.strerror})") from None
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
        if key.value in entries:
            raise SourceError(path, "concept listed twice", line=line, key=key.value)
        try:
            entries[key.value] = (line, yaml.safe_load(yaml.serialize(value)))
        except yaml.YAMLError as exc:            # e.g. a !!python tag: never constructed
            raise SourceError(path, f"malformed YAML: {getattr(exc, 'problem', exc)}",
                              line=line, key=key.value) from None
    missing = [c for c in CONCEPTS if c not in entries]
    if missing:
        raise SourceError(path, f"concepts missing: {', '.join(missing)}", line=1)
    return entries


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
    """One language's terms, validated; forms are lowercase stems."""
    path = language_path(lang, locales)
    terms = {}
    for cid, (line, value) in _entries(path).items():
        if not isinstance(value, dict) or set(value) != {"term", "forms"}:
            raise SourceError(path, 'expected {term: "…", forms: ["…"]}', line=line, key=cid)
        if not isinstance(value["term"], str) or not value["term"].strip():
            raise SourceError(path, "the term is empty", line=line, key=f"{cid}.term")
        if _MARKUP.search(value["term"]):
            raise SourceError(path, "a term is plain text: no markup characters", line=line,
                              key=f"{cid}.term")
        forms = _strings(value["forms"], path, line, f"{cid}.forms")
        upper = [f for f in forms if f != f.lower()]
        if upper:
            raise SourceError(path, f"forms are lowercase stems: {upper[0]!r}", line=line,
                              key=f"{cid}.forms")
        terms[cid] = Term(cid, value["term"].strip(), forms)
    return terms


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def has_terms(lang: str, locales: Path) -> bool:
    return language_path(lang, locales).exists()


def _texts(message: Message) -> tuple[str, list[str]]:
    """The English text (singular and plural) and the translations, placeholders removed."""
    ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return (_PLACEHOLDER.sub(" ", " ".join(ids)),
            [_PLACEHOLDER.sub(" ", s or "") for s in strings])


def findings(message: Message, concepts: dict[str, Concept],
             terms: dict[str, Term]) -> list[str]:
    """What is wrong with one translated message's terms (empty when nothing is)."""
    source, translations = _texts(message)
    out = []
    for cid, concept in concepts.items():
        term = terms[cid]
        named = concept.named_in(source)
        for text in translations:
            if named and not term.used_in(text):
                out.append(f"termbase: the source says {cid.replace('_', ' ')!r} but the "
                           f"translation has no {term.term!r} ({', '.join(term.forms)})")
                break
            if not named and concept.exclusive and term.used_in(text):
                out.append(f"termbase: {term.term!r} is reserved for "
                           f"{cid.replace('_', ' ')!r}, which the source does not name")
                break
    return out


def check(lang: str, catalog: Catalog, locales: Path) -> list[Any]:
    """The termbase problems of one read catalog, as checks.Problem objects. Only shipped
    messages (translated, not fuzzy) are held to the termbase."""
    path = catalogs.po_path(lang, locales)
    if not has_terms(lang, locales):
        return [Problem(path, None, "", f"termbase: {_shown(language_path(lang, locales))} is missing")]
    concepts, terms = load_concepts(locales), load_terms(lang, locales)
    problems: list[Any] = []
    for message in catalog:
        if not message.id or catalogs.state(message) != "translated":
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        problems.extend(Problem(path, message.lineno, msgid, text)
                        for text in findings(message, concepts, terms))
    return problems


def glossary_rows(languages: list[str], locales: Path) -> list[dict[str, Any]]:
    """One row per concept for the glossary page: its id and each language's term (None where
    a language has no termbase yet). English shows its first form."""
    concepts = load_concepts(locales)
    terms = {lang: load_terms(lang, locales) for lang in languages
             if lang != catalogs.SOURCE_LANGUAGE and has_terms(lang, locales)}
    rows = []
    for cid, concept in concepts.items():
        row: dict[str, str | None] = {"id": cid, "en": concept.english[0]}
        row.update({lang: (terms[lang][cid].term if lang in terms else None)
                    for lang in languages if lang != catalogs.SOURCE_LANGUAGE})
        rows.append(row)
    return rows
