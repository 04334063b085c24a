"""The translator workflow: extract, update, init, check and export the glossary.

Extraction is Babel's (pybabel); merging is GNU msgmerge's (`--previous` keeps the `#|` old
text of a changed message through any number of updates, and the translator's Plural-Forms
and msgstr[n] are kept); a new catalog is GNU msginit's, with the plural rule checked against
CLDR. The checks are those of `checks.py`, the same the build applies.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import yaml
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from . import catalogs, checks, file_checks, plurals
from . import termbase as terms
from ...engine.errors import SourceError
from .checks import Problem
from .project import Project, configured_languages, output_path

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
    message's notes say which site pages show it. When no message changed, the file is left
    as it was, its POT-Creation-Date included, so an update changes no catalog."""
    pot = pot_path(project)
    fresh = pot.with_name(pot.name + ".new")
    _pybabel(project, "extract", "-F", str(project.babel_config), "-o", str(fresh), "--no-wrap",
             "--sort-by-file", "--add-comments=Translators:", "-k", "_",
             "--project=mariage", "--copyright-holder=The Mariage project",
             "--msgid-bugs-address=translations@mariage.invalid", ".")
    add_page_notes(fresh, site_paths(project))
    if pot.exists() and _undated(fresh.read_bytes()) == _undated(pot.read_bytes()):
        fresh.unlink()
    else:
        fresh.replace(pot)
    return pot


def _undated(data: bytes) -> bytes:
    return re.sub(rb'^"POT-Creation-Date: [^"]*"$', b"", data, count=1, flags=re.M)


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
    for example in sorted(p for p in project.examples.glob("*.md") if p.name != "README.md"):
        url = f"/examples/{example.stem}/"
        examples.append(url)
        pages[f"examples/{example.name}"] = [url]
        texts[f"examples/{example.name}"] = example.read_text(encoding="utf-8")
    pages["templates/example-run.md.j2"] = examples
    pages["templates/example-index.md.j2"] = ["/examples/"]
    pages["mariage/site/render/replayer_data.py"] = examples
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
        if tmp.read_bytes() == path.read_bytes():
            tmp.unlink()              # nothing changed: the file (and its mtime) stays
        else:
            tmp.replace(path)
    terms.write_guide_table(guide_path(project), project.languages(), project.locales)
    return langs


def guide_path(project: Project) -> Path:
    """The translators' guide, whose terminology table is written from the termbases."""
    return project.docs / "translators.md"


def _refuse_broken(project: Project, lang: str) -> None:
    """A catalog that cannot be read is not merged: the translator fixes it first."""
    path = catalogs.po_path(lang, project.locales)
    text, problems = file_checks.check_file(path, lang)
    broken = [p for p in problems if p.check in (checks.SYNTAX.id, checks.ENCODING.id)]
    if text is None or broken:
        first = (broken or problems)[0]
        raise SourceError(first.path, f"{first.said}; nothing was updated", line=first.line,
                          hint=first.advice)


def init(project: Project, lang: str) -> list[Path]:
    """Start a new language in one step: its catalog (from locales/messages.pot, never over an
    existing one), a termbase skeleton of every concept, and its entry in mkdocs.yml's
    languages (an edit in place that keeps the file's comments). A catalog that exists but is
    not listed (Weblate's "start new translation" writes one) is kept and completed. Every file
    is prepared first and written last, so a refusal leaves nothing half-done. Returns the
    files written."""
    if not file_checks.known_language(lang):
        raise SourceError(project.locales, f"{lang!r} is not a language code Babel knows",
                          hint="use a code such as de, pl or pt_BR")
    if lang == catalogs.SOURCE_LANGUAGE:
        raise SourceError(project.locales, f"{lang} is the source language: its text is the "
                          "templates' own, and a catalog of it would be ignored",
                          hint="start a catalog for another language, e.g. de")
    path = catalogs.po_path(lang, project.locales)
    listed = lang in (configured_languages(project.config) or [])
    if path.exists() and listed:
        raise SourceError(path, "this catalog already exists; init would overwrite every "
                          "translation in it", hint="run `mariage catalogs update` to merge "
                          "new messages into it")
    writes: dict[Path, str] = {}
    if not path.exists():
        writes[path] = _new_catalog(project, lang)
    terms_path = terms.language_path(lang, project.locales)
    if not terms_path.exists():
        writes[terms_path] = terms.skeleton(lang, project.locales)
    if not listed and project.config.is_file():
        writes[project.config] = add_language(project.config, lang)
    readme = add_badge(project.root / "README.md", lang)
    if readme is not None:
        writes[project.root / "README.md"] = readme
    for target, text in writes.items():
        _write(target, text)
    terms.write_guide_table(guide_path(project), project.languages(), project.locales)
    return list(writes)


BADGES = "<!-- one badge per language of mkdocs.yml; a test keeps this list in step -->"


def add_badge(readme: Path, lang: str) -> str | None:
    """The README's text with the language's status badge after the others, or None when the
    README has no list of badges or already shows this one."""
    try:
        text = readme.read_text(encoding="utf-8")
    except OSError:
        return None
    badge = f"![{lang}](https://mariage.invalid/assets/badges/{lang}.svg)"
    start = text.find(BADGES)
    if start == -1 or badge in text:
        return None
    end = text.find("\n\n", start)
    end = len(text) if end == -1 else end
    return text[:end] + "\n" + badge + text[end:]


def _new_catalog(project: Project, lang: str) -> str:
    """GNU msginit's catalog from the template as it is (the template is not re-extracted, so
    no other catalog changes), with the language's CLDR plural rule."""
    pot = pot_path(project) if pot_path(project).exists() else extract(project)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "new.po"
        run = _gnu("msginit", "--no-translator", "--no-wrap", f"--locale={lang}.UTF-8", "-i",
                   str(pot), "-o", str(out))
        if run.returncode:
            raise SourceError(pot, f"GNU msginit could not start the {lang} catalog",
                              hint=run.stderr.strip().splitlines()[-1] if run.stderr else "")
        text = out.read_text(encoding="utf-8")
    text = _set_header(text, "Plural-Forms", plurals.expected_plural_forms(lang))
    text = _set_header(text, "Content-Type", "text/plain; charset=UTF-8")
    return _set_header(text, "Language", lang)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def add_language(config: Path, lang: str) -> str:
    """mkdocs.yml's text with `lang` added at the end of the i18n plugin's languages: three
    lines inserted after the last entry, in its indentation; every other byte (comments
    included) stays as it was."""
    text = config.read_text(encoding="utf-8")
    entries = _languages_node(config, text)
    if entries.flow_style or not entries.value:
        raise SourceError(config, "the i18n plugin's languages are not a block list, so "
                          f"{lang} cannot be added in place", key="plugins.i18n.languages",
                          hint=f"add `- locale: {lang}`, its `name` and `build: true` by hand")
    lines = text.splitlines(keepends=True)
    first = entries.value[0]
    dash = lines[first.start_mark.line][:first.start_mark.column]       # "        - "
    indent = " " * len(dash)
    last_line = max(n.end_mark.line for n in _descendants(entries.value[-1])
                    if isinstance(n, yaml.ScalarNode))
    name = plurals.native_name(lang)
    entry = (f"{dash}locale: {lang}\n{indent}name: {_yaml_scalar(name)}\n"
             f"{indent}build: true\n")
    if not lines[last_line].endswith("\n"):
        lines[last_line] += "\n"
    lines.insert(last_line + 1, entry)
    return "".join(lines)


def _languages_node(config: Path, text: str) -> yaml.SequenceNode:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)       # nodes only: !ENV is kept as is
    except yaml.YAMLError as exc:
        raise SourceError(config, f"cannot read the MkDocs configuration: {exc}") from None
    plugins = _value(root, "plugins")
    for plugin in plugins.value if isinstance(plugins, yaml.SequenceNode) else []:
        languages = _value(_value(plugin, "i18n"), "languages")
        if isinstance(languages, yaml.SequenceNode):
            return languages
    raise SourceError(config, "there is no i18n plugin with a list of languages",
                      key="plugins.i18n.languages", hint="see the mkdocs.yml of the project")


def _value(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        return next((v for k, v in node.value if k.value == key), None)
    return None


def _descendants(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [node] + [d for k, v in node.value for d in (*_descendants(k), *_descendants(v))]
    if isinstance(node, yaml.SequenceNode):
        return [node] + [d for v in node.value for d in _descendants(v)]
    return [node]


def _yaml_scalar(text: str) -> str:
    """A YAML scalar for a language's name: plain where YAML reads it back as the same text."""
    return text if yaml.safe_load(text) == text and ":" not in text and "#" not in text \
        else json.dumps(text, ensure_ascii=False)


def _set_header(text: str, name: str, value: str) -> str:
    line = f'"{name}: {value}\\n"'
    pattern = re.compile(rf'^"{re.escape(name)}:.*"$', re.M)
    if pattern.search(text):
        return pattern.sub(lambda m: line, text, count=1)
    return re.sub(r'^(msgstr ""\n)', lambda m: m.group(1) + line + "\n", text, count=1,
                  flags=re.M)


def check(lang: str, locales: Path) -> list[Problem]:
    """Every problem of one catalog, the build's checks (termbase and template included); empty
    means complete and clean."""
    return catalogs.check_catalog(lang, locales).problems


def termbase(project: Project, lang: str, fmt: str = "tbx") -> bytes:
    """The glossary of `lang` (locales/<lang>/termbase.yaml, English from locales/termbase.yaml)
    as TBX or CSV, written by translate-toolkit, for Poedit, Weblate, OmegaT or Virtaal."""
    from translate.storage import csvl10n, tbx

    concepts = terms.load_concepts(project.locales)
    targets = terms.load_terms(lang, project.locales)
    # CSV cells starting like a formula (=, +, -, @) are escaped for spreadsheets.
    store = tbx.tbxfile(sourcelanguage="en", targetlanguage=lang) if fmt == "tbx" \
        else csvl10n.csvfile(fieldnames=["source", "target", "context"], escape_formulas=True)
    for concept_id, target in targets.items():
        concept = concepts[concept_id]
        unit = store.addsourceunit(concept.english[0] if concept.english else concept_id)
        unit.target = target.term
        if fmt == "tbx":
            unit.addnote(f"concept: {concept_id}. {concept.definition}")
        else:
            unit.setcontext(concept_id)
    return bytes(store)     # CSV: Weblate's glossary import reads source, target and context
