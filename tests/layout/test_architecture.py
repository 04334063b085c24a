"""The layout is the architecture: three packages, one direction, and commands that work on the
project they run in, never on the folder the package was installed from."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from helpers import site_languages

ROOT = Path(__file__).resolve().parents[2]
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())"]
PROJECT_FILES = ["rules", "locales", "templates", "examples", "docs", "overrides", "mkdocs.yml",
                 "babel.cfg"]


def test_the_engine_never_imports_the_site():
    run = subprocess.run(LINT, cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "3 kept, 0 broken" in run.stdout


@pytest.mark.parametrize("module,line,broken", [
    ("engine/cards.py", "from ..site.render import pages\n", "adapters -> site -> play -> engine"),
    ("engine/hand.py", "import mariage.site.read.catalogs\n", "adapters -> site -> play -> engine"),
    ("site/render/pages.py", "import mariage.cli\n", "adapters -> site -> play -> engine"),
    ("engine/hand.py", "from ..play import opponent\n", "adapters -> site -> play -> engine"),
    ("play/opponent.py", "import mariage.site.render.pages\n", "adapters -> site -> play -> engine"),
    # a stage using a later one: reading the catalogs must not need the renderer
    ("site/read/catalogs.py", "from ..render import templating\n",
     "the site's stages: build -> render -> replay -> read"),
    ("site/replay/study.py", "from ..build import publish\n",
     "the site's stages: build -> render -> replay -> read"),
    # the two circles the stages broke, put back
    ("site/replay/examples.py", "from . import doctests\n", "no import circle"),
    ("site/render/templating.py", "from . import variants\n", "no import circle"),
    ("site/read/project.py", "from . import translate\n", "no import circle"),
])
def test_the_contracts_fail_on_an_import_against_the_flow(tmp_path, module, line, broken):
    """The contracts are live: the project's own contracts (pyproject.toml), run on a copy
    with one import added, break: an engine module importing the site or the play package, the
    play package importing the site, the site importing the CLI, a stage importing a later stage, or two modules importing each other."""
    shutil.copytree(ROOT / "mariage", tmp_path / "mariage")
    shutil.copytree(ROOT / "plugins", tmp_path / "mariage_mkdocs")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "mariage" / module
    target.write_text(line + target.read_text(encoding="utf-8"), encoding="utf-8")
    env = os.environ | {"PYTHONPATH": str(tmp_path)}
    run = subprocess.run(LINT + [str(tmp_path / "pyproject.toml")], cwd=tmp_path,
                         capture_output=True, text=True, env=env)
    assert run.returncode == 1, run.stdout[-2000:]
    assert f"{broken} BROKEN" in run.stdout, run.stdout[-2000:]


# What other tests write into the checkout while this one runs (the other xdist worker's
# hypothesis database, mypy's and import-linter's caches, pip's wheel build, the build lock of a
# command run in the checkout): not what a command in the copy could change by mistake.
_OTHER_TESTS_WRITE = {".venv", ".git", ".hypothesis", ".mypy_cache", ".import_linter_cache",
                      ".ruff_cache", ".pytest_cache", "node_modules", "build"}


def _tree_digests(folder: Path) -> dict[str, str]:
    """Each file of the checkout and its SHA-256, but for what other tests write meanwhile."""
    digests = {}
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        if (relative.parts[0] in _OTHER_TESTS_WRITE or relative.parts[0].endswith(".egg-info")
                or "__pycache__" in relative.parts or relative.as_posix() == ".cache/build.lock"
                or not path.is_file()):
            continue
        digests[relative.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def _changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(name for name in before.keys() | after.keys()
                  if before.get(name) != after.get(name))


@pytest.mark.xdist_group("wheel")
def test_a_wheel_install_works_on_a_copy_of_the_project(tmp_path):
    """Install the package as a wheel (not editable) into a fresh virtualenv, then build, check
    catalogs, run the examples and replay records in a copy of the project; nothing outside
    that copy changes."""
    wheels = tmp_path / "wheels"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                            "--no-build-isolation", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next(wheels.glob("mariage-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    # The dependencies are this test run's own: expose its site-packages beneath the wheel.
    purelib = next((env_dir / "lib").glob("python3*/site-packages"))
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (purelib / "deps.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    python = env_dir / "bin" / "python"
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                              "-q", "--no-deps", str(wheel)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-2000:]

    copy = tmp_path / "copy"
    copy.mkdir()
    for name in PROJECT_FILES:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, copy / name)
    # What `make site` installs beside a clean clone with `npm ci`: the Play page's Pyodide.
    (copy / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    before = _tree_digests(ROOT)
    # The wheel's modules, not the checkout's: run from the copy, with nothing else on the path.
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "MARIAGE_PROFILE"}}
    env["NO_MKDOCS_2_WARNING"] = "1"
    where = subprocess.run([str(python), "-c", "import mariage, mariage_mkdocs; "
                            "print(mariage.__file__, mariage_mkdocs.__file__)"],
                           cwd=copy, capture_output=True, text=True, env=env)
    assert str(purelib) in where.stdout and str(ROOT) not in where.stdout, where.stdout

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(python), "-m", *args], cwd=copy, capture_output=True,
                              text=True, env=env, input=stdin, timeout=600)

    built = run("mkdocs", "build", "--strict")
    assert built.returncode == 0, built.stderr[-3000:]
    assert (copy / "site" / "es" / "index.html").is_file()
    checked = run("mariage.cli", "catalogs", "check", "fr")
    assert checked.returncode == 0 and "fr: ok" in checked.stdout, checked.stderr[-2000:]
    examples = run("mariage.cli", "examples", "07-marriage-claim")
    languages = f"ok in {len(site_languages())} languages"
    assert examples.returncode == 0 and languages in examples.stdout, examples.stderr
    record = (copy / "examples" / "07-marriage-claim.md").read_text(encoding="utf-8")
    assert record.startswith("---\n")
    replayed = run("mariage.cli", "replay", "-", stdin='{"dealer": "A", "deck": ["7c"]}')
    assert replayed.returncode == 1 and '"error"' in replayed.stdout, replayed.stdout

    # A catalog command in the copy writes the copy's catalogs, not the checkout's.
    extracted = run("mariage.cli", "catalogs", "extract")
    assert extracted.returncode == 0, extracted.stderr
    assert str(copy / "locales" / "messages.pot") in extracted.stdout
    changed = _changed(before, _tree_digests(ROOT))
    assert not changed, f"a command in the copy changed the checkout: {changed[:10]}"
