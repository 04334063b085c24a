"""The translator workflow: extract, update, init, check and export the glossary.

Extraction is Babel's (pybabel); merging is GNU msgmerge's (`--previous` keeps the `#|` old
text of a changed message through any number of updates, and the translator's Plural-Forms
and msgstr[n] are kept); a new catalog is GNU msginit's, with the plural rule checked against
CLDR. The checks are those of `checks.py`, the same the build applies.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import shutil
import subprocess
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from . import catalogs, checks, plurals
from . import termbase as terms
from ...engine.errors import SourceError
from .checks import Problem
from .project import Project, output_path

__all__ = ["Problem", "extract", "update", "init", "check", "site_paths", "termbase"]


def pot_path(project: Project) -> Path:
    return project.locales / f"{catalogs.DOMAIN}.pot"


def _pybabel(project: Project, *args: str) -> None:
    with contextlib.chdir(project.root):      # so the .pot names files relative to the project
        CommandLineInterface().run(["pybabel", "-q", *args])


def _gnu(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which(tool) is None:
        raise SourceError(tool, "GNU gettext is missing", hint="install gettext: apt-get install "
                          "gettext, or brew install gettext")
    return subprocess.run([tool, *args], capture_output=True, text=True)


def extract(project: Project) -> Path:
    """Write locales/messages.pot from the templates and examples (never edit it by hand); each
    message's notes say which site pages show it."""
    pot = pot_path(project)
    before = pot.read_bytes() if pot.is_file() else None
    _pybabel(project, "extract", "-F", str(project.babel_config), "-o", str(pot), "--no-wrap",
             "--sort-by-file", "--add-comments=Translators:", "-k", "_",
             "--project=mariage", "--copyright-holder=The Mariage project",
             "--msgid-bugs-address=translations@mariage.invalid", ".")
    add_page_notes(pot, site_paths(project))
    if before is not None and _CREATED.sub(b"", pot.read_bytes()) == _CREATED.sub(b"", before):
        pot.write_bytes(before)   # only the date changed: no catalog header moves on update/init
    return pot


_CREATED = re.compile(rb'^"POT-Creation-Date: [^"]*"$', re.M)


def add_page_notes(pot: Path, paths: dict[str, list[str]]) -> None:
    """Add `#. Page: /site/path/` notes, from each message's `#:` source locations."""
    with pot.open("rb") as handle:
        template = read_po(handle)
    for message in template:
        if not message.id:
            continue
        shown: list[str] = []
        for filename, _ in message.locations:
            shown += [p for p in paths.get(filename, []) if p not in shown]
        message.auto_comments = [c for c in message.auto_comments if not c.startswith("Page")]
        if shown:
            label = "Page" if len(shown) == 1 else "Pages"
            message.auto_comments.append(f"{label}: {', '.join(shown)}")
    buffer = io.BytesIO()
    write_po(buffer, template, width=0, sort_by_file=True)
    pot.write_bytes(buffer.getvalue())


_IMPORT = re.compile(r"""\{%-?\s*(?:import|include|from|extends)\s+["']([^"']+)["']""")


def site_paths(project: Project) -> dict[str, list[str]]:
    """Each source file (relative to the project) -> the site paths that show its text."""
    pages: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    for template in sorted((project.templates / "pages").rglob("*.md.j2")):
        rel = template.relative_to(project.templates).as_posix()
        pages[f"templates/{rel}"] = [_url(output_path(rel))]
        texts[f"templates/{rel}"] = template.read_text(encoding="utf-8")
    examples = []
    for example in sorted(project.examples.glob("*.md")):
        url = f"/examples/{example.stem}/"
        examples.append(url)
        pages[f"examples/{example.name}"] = [url]
        texts[f"examples/{example.name}"] = example.read_text(encoding="utf-8")
    pages["templates/example-run.md.j2"] = examples
    pages["templates/example-index.md.j2"] = ["/examples/"]
    pages["mariage/site/build/generate.py"] = ["the navigation of every page", "/404.html"]
    for partial in sorted(project.templates.glob("_*.j2")):
        users = _users(partial.name, texts, project.templates)
        pages[f"templates/{partial.name}"] = [u for source in users for u in pages[source]]
    return pages


def _url(page: str) -> str:
    page = page.removesuffix(".md")
    return "/" if page == "index" else f"/{page.removesuffix('/index')}/"


def _users(partial: str, texts: dict[str, str], templates: Path) -> list[str]:
    """The page sources that import `partial`, directly or through another partial."""
    partials = {p.name: p.read_text(encoding="utf-8") for p in templates.glob("_*.j2")}
    wanted, found = {partial}, True
    while found:
        found = False
        for name, text in partials.items():
            if name not in wanted and wanted & set(_IMPORT.findall(text)):
                wanted.add(name)
                found = True
    return [source for source, text in texts.items() if wanted & set(_IMPORT.findall(text))]


def update(project: Project) -> list[str]:
    """Merge the .pot into every catalog with GNU msgmerge --previous; returns the languages
    updated. A catalog msgmerge cannot read is left untouched and reported."""
    langs = project.languages()[1:]
    for lang in langs:
        _refuse_broken(project, lang)
    pot = extract(project)
    for lang in langs:
        path = catalogs.po_path(lang, project.locales)
        tmp = path.with_name(path.name + ".new")
        run = _gnu("msgmerge", "--quiet", "--previous", "--no-wrap", "-o", str(tmp), str(path),
                   str(pot))
        if run.returncode:
            tmp.unlink(missing_ok=True)
            raise SourceError(path, "GNU msgmerge cannot merge this catalog", hint="run "
                              f"`mariage catalogs check {lang}` and fix what it reports")
        tmp.replace(path)
    return langs


def _refuse_broken(project: Project, lang: str) -> None:
    """A catalog that cannot be read is not merged: the translator fixes it first."""
    path = catalogs.po_path(lang, project.locales)
    text, problems = checks.check_file(path, lang)
    broken = [p for p in problems if p.check in (checks.SYNTAX.id, checks.ENCODING.id)]
    if text is None or broken:
        first = (broken or problems)[0]
        raise SourceError(first.path, f"{first.message}; nothing was updated", line=first.line,
                          hint=first.hint)


def init(project: Project, lang: str) -> Path:
    """Start a catalog for a new language (never over an existing one)."""
    if not checks.known_language(lang):
        raise SourceError(project.locales, f"{lang!r} is not a language code Babel knows",
                          hint="use a code such as de, pl or pt_BR")
    path = catalogs.po_path(lang, project.locales)
    if path.exists():
        raise SourceError(path, "this catalog already exists; init would overwrite every "
                          "translation in it", hint="run `mariage catalogs update` to merge "
                          "new messages into it")
    pot = extract(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    run = _gnu("msginit", "--no-translator", "--no-wrap", f"--locale={lang}.UTF-8", "-i",
               str(pot), "-o", str(tmp))
    if run.returncode:
        tmp.unlink(missing_ok=True)
        raise SourceError(pot, f"GNU msginit could not start the {lang} catalog")
    text = tmp.read_text(encoding="utf-8")
    text = _set_header(text, "Plural-Forms", plurals.expected_plural_forms(lang))
    text = _set_header(text, "Content-Type", "text/plain; charset=UTF-8")
    text = _set_header(text, "Language", lang)
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def _set_header(text: str, name: str, value: str) -> str:
    line = f'"{name}: {value}\\n"'
    pattern = re.compile(rf'^"{re.escape(name)}:.*"$', re.M)
    if pattern.search(text):
        return pattern.sub(lambda m: line, text, count=1)
    return re.sub(r'^(msgstr ""\n)', lambda m: m.group(1) + line + "\n", text, count=1,
                  flags=re.M)


def check(lang: str, locales: Path) -> list[Problem]:
    """Every problem of one catalog, the build's checks and the termbase included; empty
    means complete and clean."""
    checked = catalogs.check_catalog(lang, locales)
    return checked.problems + termbase_problems(lang, checked, locales)


def termbase_problems(lang: str, checked: catalogs.CheckedCatalog, locales: Path) -> list[Problem]:
    """The catalog held to its termbase (issue 10's one term per concept), once it can be read."""
    return [] if checked.catalog is None else terms.check(lang, checked.catalog, locales)


def termbase(project: Project, lang: str, fmt: str = "tbx") -> bytes:
    """The glossary of `lang` (locales/<lang>/termbase.yaml, English from locales/termbase.yaml)
    as TBX or CSV, written by translate-toolkit, for Poedit, Weblate, OmegaT or Virtaal."""
    from translate.storage import csvl10n, tbx

    concepts = terms.load_concepts(project.locales)
    targets = terms.load_terms(lang, project.locales)
    store = tbx.tbxfile(sourcelanguage="en", targetlanguage=lang) if fmt == "tbx" \
        else csvl10n.csvfile()
    for concept_id, target in targets.items():
        concept = concepts[concept_id]
        unit = store.addsourceunit(concept.english[0] if concept.english else concept_id)
        unit.target = target.term
        if fmt == "tbx":
            unit.addnote(f"concept: {concept_id}. {concept.definition}")
        else:
            unit.setcontext(concept_id)
    if fmt == "csv":       # Weblate's glossary import reads source, target and context
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["source", "target", "context"])
        for unit in store.units:
            writer.writerow([unit.source, unit.target, unit.getcontext()])
        return out.getvalue().encode("utf-8")
    return bytes(store)
