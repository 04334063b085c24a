"""Mutation run: does a green suite notice a wrong engine, generator or publisher?

Each mutant changes one line of a copy of the project (never the checkout); the tests that
should notice it run against that copy (`PYTHONPATH` points at it, and the run checks that the
copy's package is the one imported). A mutant the tests do not kill is a survivor: listed,
and the run fails unless EXPLAINED says why it may live.

    .venv/bin/python benchmarks/mutants.py [ID ... | --quick]      (or `make mutants`)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", ".git", "node_modules", "site", ".cache", ".pytest_cache", ".hypothesis",
        ".mypy_cache"}             # at the top of the project only

ENGINE_TESTS = ["tests/engine/test_claims.py", "tests/engine/test_distinct_values.py",
                "tests/engine/test_tricks.py", "tests/engine/test_lead_options.py",
                "tests/engine/test_golden.py"]
PROMISES = "tests/site/test_promises.py"
PAGE_TESTS = [PROMISES, "tests/site/test_pages.py"]
HOSTILE = "tests/hostile"
BUILD_ATTACKS = "tests/hostile/test_build_attacks.py"
PUBLISH = "tests/site/test_publish.py"


@dataclass(frozen=True)
class Mutant:
    id: str
    path: str
    old: str
    new: str
    tests: list[str]


MUTANTS = [
    # the test-suite audit's mutants (../shared/reviews/test-suite.md)
    Mutant("H1", "mariage/engine/ending.py", "loser_points >= safe", "loser_points > safe",
           ENGINE_TESTS),
    Mutant("H2", "mariage/engine/hand.py",
           "allowed = ((same & stronger[led]) or same) if must_beat else same",
           "allowed = same", ENGINE_TESTS),
    Mutant("H3", "mariage/engine/lead.py",
           'self._finish(End.FALSE_CLAIM, other, rates.false_claim, "R16")\n        elif seat',
           'self._finish(End.FALSE_CLAIM, other, rates.opponent_has_trick, "R16")\n        elif seat',
           ENGINE_TESTS),
    Mutant("H4", "mariage/engine/lead.py", "len(self._stock) < closing.min_stock",
           "len(self._stock) <= closing.min_stock", ENGINE_TESTS),
    Mutant("H5", "mariage/engine/lead.py", "self.trick_number < closing.min_trick",
           "self.trick_number < closing.min_stock", ENGINE_TESTS),
    Mutant("H6", "mariage/engine/ending.py",
           "self._bonus[self._last_winner] += self.profile.bonuses.last_trick",
           "self._bonus[self._last_winner] += 0", ENGINE_TESTS),
    Mutant("P1", "mariage/site/render/templating.py", "_shown(str(tr().ngettext(s, p, n)), s)",
           "Markup(tr().ngettext(s, p, n))", PAGE_TESTS),
    Mutant("P2", "mariage/site/render/templating.py", "_shown(str(tr().pgettext(c, s)), s, c)",
           "Markup(tr().pgettext(c, s))", PAGE_TESTS),
    Mutant("P3", "mariage/site/render/templating.py", 'unicodedata.normalize("NFKD", text.casefold())',
           'unicodedata.normalize("NFC", text.casefold())', PAGE_TESTS),
    Mutant("P4", "mariage/site/build/generate.py", "            if old.is_file() and old not in wanted:\n"
           "                old.unlink()", "            if old.is_file() and old not in wanted:\n"
           "                pass", PAGE_TESTS),
    Mutant("P5", "mariage/site/render/templating.py", "_shown(tr().gettext(s), s)",
           "Markup(tr().gettext(s))", [PROMISES, "-k", "escapes"]),
    Mutant("C1", "mariage/site/read/po_messages.py", 'return "translated" if all(msgstrs(message))',
           'return "translated" if any(msgstrs(message))', [PROMISES, "-k", "status"]),
    Mutant("C2", "mariage/site/read/catalogs.py", "use_fuzzy=False", "use_fuzzy=True",
           ["tests/site/test_catalogs.py", "-k", "fuzzy"]),
    Mutant("C3", "mariage/site/read/catalogs.py", "100 * self.translated // self.total if",
           "100 * (self.translated + self.fuzzy) // self.total if", [PROMISES, "-k", "status"]),
    # issue 15's guards
    Mutant("R1", "mariage/engine/bounded.py", "if isinstance(event, AliasEvent):", "if False:",
           [HOSTILE, "-k", "P1 or L15 or E9"]),
    Mutant("R2", "mariage/engine/bounded.py", "if key.value in seen:", "if False:", [HOSTILE, "-k", "P6"]),
    Mutant("R3", "mariage/engine/bounded.py",
           "if isinstance(event, _NODE_EVENTS) and depth >= MAX_DEPTH:", "if False:",
           [HOSTILE, "-k", "P22 or L2"]),
    Mutant("R4", "mariage/site/render/templating.py", "env = DataSandbox(", "env = Environment(",
           [HOSTILE, "-k", "E6 or NE7b"]),
    Mutant("R5", "mariage/site/replay/doctests.py", "if reply is None:", "if reply is None and False:",
           [HOSTILE, "-k", "E2"]),
    Mutant("R6", "mariage/engine/schema.py", 'if rank not in self.ranks:', "if False:", [HOSTILE, "-k", "P23"]),
    Mutant("R7", "plugins/mariage_site.py", "self._built and not self._failed", "self._built",
           [PUBLISH, "-k", "strict_warning"]),
    Mutant("R8", "mariage/site/build/publish.py", 'if not entry.name.startswith(".") or', "if True or",
           [PUBLISH, "-k", "dot_entries"]),
    # issue 25's guards
    Mutant("R9", "mariage/site/replay/doctests.py",
           'if not checker.check_output(example.want, result["got"], flags):', "if False:",
           [BUILD_ATTACKS, "-k", "NE21"]),
    Mutant("R10", "mariage/site/build/publish.py", "    if owned(folder):", "    if True:",
           [BUILD_ATTACKS, "-k", "NB15"]),
    Mutant("R11", "mariage/site/render/templating.py",
           "if isinstance(obj, _HANDLES) or isinstance(value, _HANDLES):", "if False:",
           [HOSTILE, "-k", "NE7b"]),
]

# Survivors that may live, and why.
EXPLAINED: dict[str, str] = {}


def copy_project(dest: Path) -> Path:
    shutil.copytree(ROOT, dest, ignore=lambda folder, names: [
        n for n in names if n == "__pycache__" or (Path(folder) == ROOT and n in SKIP)])
    return dest


def run_mutant(mutant: Mutant) -> tuple[str, float]:
    """'killed', 'survived' or 'error: ...', and the seconds it took."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.id}-") as tmp:
        copy = copy_project(Path(tmp) / "project")
        target = copy / mutant.path
        text = target.read_text(encoding="utf-8")
        if text.count(mutant.old) != 1:
            return f"error: {mutant.old!r} found {text.count(mutant.old)} times", 0.0
        target.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
        shim = Path(tmp) / "shim"        # the plugin installs as mariage_mkdocs (pyproject)
        shim.mkdir()
        (shim / "mariage_mkdocs").symlink_to(copy / "plugins")
        env = os.environ | {"PYTHONPATH": f"{copy}{os.pathsep}{shim}",
                            "NO_MKDOCS_2_WARNING": "1"}
        where = subprocess.run([sys.executable, "-c", "import mariage, mariage_mkdocs; "
                                "print(mariage.__file__, mariage_mkdocs.__file__)"],
                               cwd=copy, env=env, capture_output=True, text=True)
        if where.stdout.count(str(Path(tmp))) != 2:
            return f"error: the copy's package is not the one imported ({where.stdout.strip()})", 0.0
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-rfE",
                              *mutant.tests], cwd=copy, env=env, capture_output=True, text=True)
    if run.returncode == 0:
        return "survived", time.monotonic() - start
    # Killed only by a failing assertion: an error (a fixture, an import) proves nothing.
    failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED ")]
    if run.returncode != 1 or not failed or "\nERROR " in run.stdout:
        return f"error: pytest exit {run.returncode}", time.monotonic() - start
    return "killed by " + failed[0].split()[1].split("::")[-1][:50], time.monotonic() - start


def main(ids: list[str]) -> int:
    if ids == ["--quick"]:            # one mutant of the engine: the suite proves the script works
        ids = [MUTANTS[0].id]
    chosen = [m for m in MUTANTS if not ids or m.id in ids]
    survivors = []
    print(f"{'mutant':8} {'seconds':>7}  verdict; mutation")
    for mutant in chosen:
        verdict, seconds = run_mutant(mutant)
        print(f"{mutant.id:8} {seconds:7.0f}  {verdict}; {mutant.path}: "
              f"{mutant.new.strip().splitlines()[-1].strip()[:50]}", flush=True)
        if not verdict.startswith("killed") and mutant.id not in EXPLAINED:
            survivors.append(mutant.id)
    killed = sum(1 for m in chosen) - len(survivors)
    print(f"{killed} of {len(chosen)} mutants killed"
          + (f"; unexplained survivors: {', '.join(survivors)}" if survivors else ""))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
