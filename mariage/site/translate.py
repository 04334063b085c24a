"""The translator workflow: extract, update, init and check the catalogs.

Extraction and updates are Babel's (pybabel); checks are GNU msgfmt's and translate-toolkit's
pofilter's, plus one this project needs: a translation may not add markup (HTML tags, Markdown
links or images, code) that its English source does not have.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

from . import catalogs, termbase
from ..engine.errors import SourceError
from .project import Project

# Two plural forms, as translation tools expect (Babel's CLDR data would write three).
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);"}
DEFAULT_PLURAL = "nplurals=2; plural=(n != 1);"
POFILTER_TESTS = ["xmltags", "printf", "urls", "emails", "escapes", "newlines"]
_STATE_PROBLEMS = {"fuzzy": "fuzzy entry (never shipped): review it and remove the fuzzy flag",
                   "untranslated": "untranslated"}
MARKUP = re.compile(r"<[^>]*>|!?\[[^\]]*\]\([^)]*\)|`[^`]*`|\]\(|https?://|javascript:", re.I)


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int | None
    msgid: str
    message: str

    def __str__(self) -> str:
        where = f"{_rel(self.path)}:{self.line}" if self.line else _rel(self.path)
        return f"{where}: {self.message}: msgid {self.msgid!r}"


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def pot_path(project: Project) -> Path:
    return project.locales / f"{catalogs.DOMAIN}.pot"


def _pybabel(project: Project, *args: str) -> None:
    with contextlib.chdir(project.root):      # so the .pot names files relative to the project
        CommandLineInterface().run(["pybabel", "-q", *args])


def extract(project: Project) -> Path:
    """Write locales/messages.pot from the templates and examples (never edit it by hand)."""
    pot = pot_path(project)
    _pybabel(project, "extract", "-F", str(project.babel_config), "-o", str(pot), "--no-wrap",
             "--sort-by-file", "--add-comments=Translators:", "-k", "_",
             "--project=mariage", "--copyright-holder=The Mariage project",
             "--msgid-bugs-address=translations@mariage.invalid", ".")
    return pot


def update(project: Project) -> None:
    """Merge the .pot into every catalog; changed sources keep their old text as #| previous."""
    pot = extract(project)
    _pybabel(project, "update", "-i", str(pot), "-d", str(project.locales), "--previous",
             "--no-wrap", "--ignore-obsolete")
    for lang in catalogs.languages(project.locales)[1:]:
        fix_plural_forms(catalogs.po_path(lang, project.locales))
        fix_previous(catalogs.po_path(lang, project.locales))


def init(project: Project, lang: str) -> Path:
    """Start a catalog for a new language."""
    pot = extract(project)
    _pybabel(project, "init", "-i", str(pot), "-d", str(project.locales), "-l", lang, "--no-wrap")
    path = catalogs.po_path(lang, project.locales)
    fix_plural_forms(path)
    return path


def fix_plural_forms(path: Path) -> None:
    lang = path.parent.parent.name
    forms = PLURAL_FORMS.get(lang, DEFAULT_PLURAL)
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'^"Plural-Forms: .*\\n"$', f'"Plural-Forms: {forms}\\\\n"', text, flags=re.M)
    text = re.sub(r'^msgstr\[[2-9]\] ".*"\n', "", text, flags=re.M)
    path.write_text(text, encoding="utf-8")


def fix_previous(path: Path) -> None:
    """Join the `#| msgid` lines that pybabel update --previous wraps without quoting each
    piece (invalid PO, which translate-toolkit and translators' tools reject)."""
    out: list[str] = []
    pending: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if pending is not None and line.startswith("#| ") and not line.startswith('#| "'):
            pending += " " + line[3:]
        else:
            if pending is not None:
                out.append(pending)
            pending = None
            if re.match(r'^#\| (msgid|msgctxt|msgid_plural) "', line) and not line.endswith('"'):
                pending = line
                continue
            out.append(line)
        if pending is not None and pending.endswith('"'):
            out.append(pending)
            pending = None
    if pending is not None:
        out.append(pending)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def markup_of(text: str) -> list[str]:
    return sorted(MARKUP.findall(text))


def check(lang: str, locales: Path) -> list[Problem]:
    """Every problem of one catalog; an empty list means it may ship."""
    path = catalogs.po_path(lang, locales)
    problems = _msgfmt(path)
    if problems:
        return problems                    # syntax first: the rest cannot be read reliably
    catalog = catalogs.read_catalog(lang, locales)
    lines: dict[str, int | None] = {}
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        lines[msgid] = message.lineno
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        sources = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        state = catalogs.state(message)
        if state != "translated":
            problems.append(Problem(path, message.lineno, msgid, _STATE_PROBLEMS[state]))
        for error in message.check(catalog):
            problems.append(Problem(path, message.lineno, msgid, f"placeholder: {error}"))
        allowed = set(markup_of(" ".join(sources)))
        for string in strings:
            extra = [m for m in markup_of(string or "") if m not in allowed]
            if extra:
                problems.append(Problem(path, message.lineno, msgid,
                                        f"markup the source does not have: {extra[0]!r}"))
    problems.extend(termbase.check(lang, catalog, locales))
    problems.extend(_pofilter(path, lines))
    return _unique(problems)


def _msgfmt(path: Path) -> list[Problem]:
    if shutil.which("msgfmt") is None:
        raise SourceError(path, "GNU msgfmt is missing", hint="install Debian's gettext package")
    run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)],
                         capture_output=True, text=True)
    problems = []
    for line in run.stderr.splitlines():
        match = re.match(r"^(.*?):(\d+): (.*)$", line)
        if match and "warning: header field" not in line and run.returncode:
            problems.append(Problem(path, int(match.group(2)), "", f"msgfmt: {match.group(3)}"))
    if run.returncode and not problems:
        problems.append(Problem(path, None, "", f"msgfmt: {run.stderr.strip()}"))
    return problems


def _pofilter(path: Path, lines: dict[str, int | None]) -> list[Problem]:
    from translate.storage import factory

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.po"
        args = ["--nofuzzy", "--progress=none"] + [f"-t{t}" for t in POFILTER_TESTS]
        subprocess.run([sys.executable, "-c", "from translate.filters.pofilter import main; main()",
                        *args, str(path), str(out)], check=True, capture_output=True)
        if not out.exists():
            return []
        store = factory.getobject(str(out))
        problems = []
        for unit in store.units:
            if unit.isheader():
                continue
            for note in unit.getnotes("translator").splitlines():
                if note.startswith("(pofilter)"):
                    msgid = unit.source
                    problems.append(Problem(path, lines.get(msgid), msgid,
                                            "pofilter " + note.removeprefix("(pofilter) ")))
        return problems


def _unique(problems: list[Problem]) -> list[Problem]:
    seen, out = set(), []
    for problem in problems:
        key = (problem.line, problem.message)
        if key not in seen:
            seen.add(key)
            out.append(problem)
    return out
