"""The `mariage` command: replay and solve hand records, check the profile, the catalogs and the
examples.

Every user mistake ends in one short message on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import traceback
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence, TypeGuard

import msgspec

if TYPE_CHECKING:
    from jinja2 import TemplateSyntaxError

from .engine.errors import MariageError, SourceError
from .engine.notation import Record, iter_records, open_records, replay, solve_record
from .engine.profile import find_profile, load_profile
from .site import EXAMPLE_TIMEOUT, seconds


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except MariageError as exc:
        print(f"mariage: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:           # a closed pipe, a full disk: the output cannot be written
        _silence_stdout()
        if not isinstance(exc, BrokenPipeError):
            print(f"mariage: {exc.filename or 'the output'}: {exc.strerror or exc}",
                  file=sys.stderr)
        return 1
    except (RecursionError, MemoryError):
        print("mariage: an input is too large or nests too deeply", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the boundary: a bug shows its traceback, once
        if _is_template_error(exc):  # met while extracting messages from every template
            print(f"mariage: {exc.filename or 'a template or example'}:{exc.lineno}: "
                  f"{exc.message} (`mariage examples` or `make site` names the file)",
                  file=sys.stderr)
            return 2
        traceback.print_exc()
        print("mariage: this is a bug in mariage, not a mistake in your input; please report "
              "it with the traceback above", file=sys.stderr)
        return 70


def _is_template_error(exc: Exception) -> TypeGuard[TemplateSyntaxError]:
    """A Jinja syntax error, without importing Jinja for the commands that never load it."""
    jinja2 = sys.modules.get("jinja2")
    return jinja2 is not None and isinstance(exc, jinja2.TemplateSyntaxError)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


# catalogs ACTION: (name, what it does, "*" for any number of languages or "1" for one)
_CATALOG_ACTIONS = [
    ("check", "check catalogs as the build does: every mistake, by file and line", "*"),
    ("stats", "translated, fuzzy, untranslated, failing and template mismatches, per language",
     "*"),
    ("update", "extract the English text into locales/messages.pot and merge it into every "
     "catalog", "*"),
    ("init", "start a language: its catalog, a termbase skeleton and its mkdocs.yml entry", "1"),
    ("termbase", "export a language's termbase as TBX or CSV (Poedit, Weblate, OmegaT)", "1"),
    ("extract", "extract the English text into locales/messages.pot", "*"),
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mariage", description=__doc__.splitlines()[0])
    parser.add_argument("--project", metavar="DIR", help="the project to work on (default: the "
                        "folder holding mkdocs.yml, here or above)")
    parser.add_argument("--profile", default=os.environ.get("MARIAGE_PROFILE") or None,
                        help="rules profile (default: $MARIAGE_PROFILE, else the project's)")
    commands = parser.add_subparsers(dest="command", required=True)
    rp = commands.add_parser("replay", help="replay hand or game records, one JSON line each")
    rp.add_argument("files", nargs="+", metavar="FILE", help="record files; - reads stdin")
    sv = commands.add_parser("solve", help="perfect play, both hands seen, from each hand "
                                           "record's last position: one JSON line each")
    sv.add_argument("files", nargs="+", metavar="FILE", help="record files; - reads stdin")
    sv.add_argument("--correct-claims-only", action="store_true",
                    help="no false claim made on purpose to concede less (R16, R18), as many "
                         "tables rule and the site's perfect-play notes assume")
    commands.add_parser("check-profile", help="validate the rules profile")
    cat = commands.add_parser("catalogs", help="translator workflow (see docs/translators.md)")
    actions = cat.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, text, langs in _CATALOG_ACTIONS:
        action = actions.add_parser(name, help=text, description=text)
        action.add_argument("langs", nargs="*" if langs == "*" else 1, metavar="LANG",
                            help="languages (default: every language of mkdocs.yml)"
                            if langs == "*" else "the language, e.g. de")
        if name == "check":
            action.add_argument("--errors-only", action="store_true", help="report mistakes "
                                "only, not untranslated or fuzzy messages; exit 0 without one")
        if name == "termbase":
            action.add_argument("--format", choices=["tbx", "csv"], default="tbx",
                                help="the export format (default: tbx)")
            action.add_argument("-o", "--output", metavar="FILE", help="write here "
                                "(default: stdout)")
    pl = commands.add_parser("play", help="the computer opponent over seeded hands: its win "
                                          "rate and game points per hand, as JSON")
    pl.add_argument("--against", choices=["random", "simple", "self"], default="random",
                    help="random: a random legal card; simple: a marriage when it can, a claim "
                    "at 66, else a random card; self: the opponent itself (default: random)")
    pl.add_argument("--hands", type=_positive, default=100, metavar="N")
    pl.add_argument("--seed", type=int, default=0, metavar="S", help="hand i is dealt from S + i")
    pl.add_argument("--profile", default=argparse.SUPPRESS, help="rules profile, e.g. "
                    "rules/variants/schnapsen.yaml (as mariage --profile)")
    ex = commands.add_parser("examples", help="render each worked example in every language "
                                              "and run its doctests, as the build does")
    ex.add_argument("names", nargs="*", metavar="NAME")
    ex.add_argument("--timeout", type=_seconds, default=EXAMPLE_TIMEOUT, metavar="SECONDS",
                    help=f"time allowed for one page's doctests (default {EXAMPLE_TIMEOUT:g})")
    gen = commands.add_parser("generate", help="write the verified Markdown of every language, "
                              "with a plain mkdocs.yml, into OUT (what the build gives MkDocs)")
    gen.add_argument("out", metavar="OUT", help="a new or empty folder, or an earlier one")
    gen.add_argument("--timeout", type=float, default=EXAMPLE_TIMEOUT, metavar="SECONDS",
                     help=f"time allowed for one page's doctests (default {EXAMPLE_TIMEOUT:g})")
    return parser


def _seconds(text: str) -> float:
    try:
        return seconds(text, "--timeout")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    if args.command == "catalogs":
        return _catalogs(_project(args.project), args)
    if args.command == "generate":
        project = _project(args.project)
        return _generate(project, load_profile(args.profile or project.profile), Path(args.out),
                         args.timeout)
    if args.command == "examples":
        project = _project(args.project)
        return _examples(project, load_profile(args.profile or project.profile), args.names,
                         args.timeout)
    path = args.profile or (_project(args.project).profile if args.project else find_profile())
    profile = load_profile(path)
    if args.command == "play":
        return _play(profile, args)
    if args.command == "check-profile":
        print(f"{path}: valid ({len(profile.rulings)} rulings)")
        return 0
    return _results(args.command, args.files, profile,
                    false_claims=not getattr(args, "correct_claims_only", False))


def _project(folder: str | None):
    from .site.read.project import CONFIG, Project

    if folder and not (Path(folder) / CONFIG).is_file():
        raise SourceError(folder, f"no {CONFIG} in this folder: --project names the folder of a "
                          "Mariage project", hint="check the path")
    return Project.find(Path(folder)) if folder else Project.find()


_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")


def _catalogs(project, args) -> int:
    from .site.read import catalogs, translate
    from .site.read.project import configured_languages

    action, langs = args.action, args.langs
    for lang in langs:
        if not _LANGUAGE_CODE.fullmatch(lang):
            raise MariageError(f"{lang!r} is not a language code; use one such as fr or pt_BR")
    if action == "extract":
        print(f"wrote {translate.extract(project)}")
        return 0
    if action == "update":
        updated = translate.update(project)
        print(f"catalogs updated ({', '.join(updated)}); changed sources are marked fuzzy "
              "with their previous text (#|)")
        return 0
    if action == "init":
        written = translate.init(project, langs[0])
        for path in written:
            print(f"wrote {path}")
        print(f"{langs[0]}: translate locales/{langs[0]}/LC_MESSAGES/messages.po and fill in "
              f"locales/{langs[0]}/termbase.yaml; preview with MARIAGE_LANGS={langs[0]} mkdocs "
              "serve (docs/translators.md, Adding a language)")
        return 0
    # Another language's unlisted catalog (Weblate's new translation) stops no one's check.
    known = (configured_languages(project.config) or project.languages())[1:]
    unknown = [lang for lang in langs if lang not in known]
    if unknown:
        print(f"mariage catalogs {action}: {', '.join(unknown)} is not a language of this site "
              f"(mkdocs.yml lists {', '.join(known)}); `mariage catalogs init {unknown[0]}` "
              "adds it", file=sys.stderr)
        return 2
    catalogs.check_languages([catalogs.SOURCE_LANGUAGE] + [lang for lang in known if lang in
                                                           (langs or known)],
                             project.locales, project.config, unlisted=False)
    if action == "termbase":
        data = translate.termbase(project, langs[0], args.format)
        if args.output:
            Path(args.output).write_bytes(data)
            print(f"wrote {args.output}")
        else:
            sys.stdout.buffer.write(data)
        return 0
    if action == "stats":
        for lang in langs or known:
            print(_stats_line(catalogs.check_catalog(lang, project.locales).stats(),
                              project.min_translated()))
        return 0
    return _check(project, langs or known, args.errors_only)


def _stats_line(s, threshold: int) -> str:
    published = "published" if s.percent >= threshold else \
        f"not published (below {threshold} %)"
    return (f"{s.lang}: {s.translated} translated, {s.fuzzy} fuzzy, {s.untranslated} "
            f"untranslated, {s.failing} failing a check, {s.mismatched} not matching the "
            f"template: {s.percent}%, {published}")


def _check(project, langs: list[str], errors_only: bool) -> int:
    """Every problem of each catalog; 1 if there is a mistake (or, without --errors-only, an
    untranslated or fuzzy message), else 0."""
    from .site.read import catalogs

    status = 0
    for lang in langs:
        checked = catalogs.check_catalog(lang, project.locales)
        mistakes = checked.errors
        shown = mistakes if errors_only else mistakes + [
            p for p in checked.problems if p not in mistakes]
        for problem in shown:
            print(problem, file=sys.stderr)
        incomplete = len(checked.problems) - len(mistakes)
        print(f"{lang}: " + ("ok" if not shown else f"{len(mistakes)} mistake(s), {incomplete} "
                            "untranslated or fuzzy"))
        status = status or (1 if shown else 0)
    return status


def _examples(project, profile, names: Sequence[str], timeout: float) -> int:
    """Render each example in every language and run its doctests, as the build does and with
    its stage cache: a page whose doctests passed, unchanged, is not run again."""
    from .site.cache import StageCache, folder_for
    from .site.replay.examples import all_examples
    from .site.render.pages import SiteSource

    source = SiteSource.of(project, profile, StageCache(folder_for(project.root / ".cache")))
    chosen = [e for e in all_examples(project.examples, profile) if not names or e.name in names]
    from .site.replay.doctests import DoctestWorker
    with DoctestWorker(timeout) as worker:
        failed = sum(not _verify_one(source, example, worker) for example in chosen)
    unknown = set(names) - {e.name for e in chosen}
    if unknown:
        print(f"mariage examples: no example named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    print(f"{len(chosen) - failed} passed, {failed} failed")
    return 1 if failed or not chosen else 0


def _generate(project, profile, out: Path, timeout: float) -> int:
    """The verified Markdown tree and a plain mkdocs.yml, under the project's build lock (the
    stage cache in .cache/ is shared with `mkdocs build`)."""
    from .site.build import publish
    from .site.build.standalone import generate_tree
    from .site.cache import StageCache, folder_for
    from .site.render.pages import SiteSource

    cache = project.root / ".cache"
    fd = publish.lock(cache, lambda: print("mariage generate: another build of this project is "
                                           "running; waiting for it to finish", file=sys.stderr))
    try:
        source = SiteSource.of(project, profile, cache=StageCache(folder_for(cache)))
        pages = generate_tree(out, source, timeout=timeout)
    finally:
        publish.unlock(fd)
    print(f"{len(pages)} pages in {len(source.languages())} languages, examples verified, in "
          f"{out / 'docs'}; build them with `mkdocs build -f {out / 'mkdocs.yml'}`")
    return 0


def _verify_one(source, example, worker) -> bool:
    from .site.build.generate import verify_examples

    try:
        count = verify_examples(source, example, worker)
        print(f"{example.relpath}: ok in {count} languages")
        return True
    except MariageError as exc:
        print(f"{example.relpath}: FAILED", flush=True)
        print(f"  {exc}", file=sys.stderr)
        return False


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return int(text)


def _play(profile, args: argparse.Namespace) -> int:
    from .play.match import match

    tally = match(profile, args.against, args.hands, args.seed)
    write, flush = _output()
    write({"against": args.against, "seed": args.seed} | tally.as_json())
    flush()
    return 0


def _results(command: str, files: Sequence[str], profile, false_claims: bool = True) -> int:
    """Replay or solve each record as soon as it is read, one JSON line each (memory does not
    grow with the number of records); 1 if a record erred, 2 if a file could not be read."""
    run = replay if command == "replay" else partial(solve_record, false_claims=false_claims)
    (write, flush), status = _output(), 0
    for name in files:
        try:
            with _records(name) as records:
                for record in records:
                    result = run(record.data, profile)
                    if "error" in result:
                        status = max(status, 1)
                    write(result)
                    if name == "-":          # a stream: its reader waits for each line
                        flush()
        except MariageError as exc:
            flush()                          # the results so far, before the error
            print(f"mariage {command}: {exc}", file=sys.stderr)
            status = 2
        flush()
    return status


_encode_into = msgspec.json.Encoder().encode_into


OUTPUT_BLOCK = 1 << 16      # bytes of results gathered before one write to standard output


def _output() -> tuple[Callable[[dict], None], Callable[[], None]]:
    """write(result) as one UTF-8 JSON line on standard output, and flush(). Lines
    are gathered into blocks of OUTPUT_BLOCK bytes (one system call each, where a pipe would
    otherwise take one per 8 KB) and go to the binary stream when there is one (a test's
    StringIO has none). flush() writes what is gathered: after each record read from a stream,
    before an error message, and at the end."""
    sys.stdout.flush()
    stream = getattr(sys.stdout, "buffer", None)
    block = bytearray()

    def write(result: dict) -> None:
        _encode_into(result, block, -1)         # appended to the block
        block.append(10)
        if len(block) >= OUTPUT_BLOCK:
            flush()

    def flush() -> None:
        if block:
            if stream is not None:
                stream.write(block)
            else:
                sys.stdout.write(block.decode("utf-8"))
            block.clear()
        if stream is not None:
            stream.flush()
        sys.stdout.flush()
    return write, flush


@contextmanager
def _records(name: str) -> Iterator[Iterator[Record]]:
    if name != "-":
        with open_records(name) as records:
            yield records
        return
    if sys.stdin is None:
        raise SourceError("<stdin>", "standard input is closed", hint="pass a file name")
    yield iter_records(sys.stdin.buffer, "<stdin>")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
