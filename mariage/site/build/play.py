"""The Play page's files, written into the built site: Pyodide, the engine, the profiles.

- `assets/pyodide/`: the runtime, copied from Pyodide's npm package (node_modules/pyodide,
  which `npm ci` installs from package.json); only the files the page loads.
- `assets/play/mariage.zip`: the engine and the play package, zipped from the source tree this
  build runs. Before it ships, a Python without site-packages (the standard library alone, as
  in Pyodide's core) imports it from the zip and deals a hand under every profile, so an import
  of PyYAML or msgspec on the play path fails the build.
- `assets/play/profiles/<slug>.json`: the teaching profile and each variant, as plain data,
  validated here (the browser's engine reads them with the standard library alone).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from functools import partial
from pathlib import Path

from ...engine.errors import MariageError
from ...engine.profile import validate
from ...engine.schema import Profile
from ..cache import StageCache, digest, file_digest

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
ENGINE_PACKAGES = ("engine", "play")           # under mariage/; the site and the CLI stay out
TEACHING = "mariage"                           # the teaching profile's slug on the Play page
_SOURCE = Path(__file__).resolve().parents[2]   # the mariage package this build runs
_FIXED_TIME = (2020, 1, 1, 0, 0, 0)             # zip entries' time: the same bytes every build

_CHECK = """
import json, sys
sys.path.insert(0, sys.argv[1])
from mariage.play import table
for text in json.loads(sys.stdin.read()):
    state = json.loads(table.start(text, 1))
    assert state["legal"] or state["outcome"], state
"""


class PlayAssetsError(MariageError):
    """The Play page's files cannot be made (Pyodide missing, the engine not standard-library)."""


def find_pyodide(project: Path) -> Path:
    """Pyodide's npm package: in the project's node_modules, else in the source tree's."""
    for root in (project, _SOURCE.parent):
        folder = root / "node_modules" / "pyodide"
        if all((folder / name).is_file() for name in PYODIDE_FILES):
            return folder
    raise PlayAssetsError(
        f"the Play page needs Pyodide's npm package, and {project / 'node_modules' / 'pyodide'} "
        "lacks it: run `make node_modules/.installed` (npm ci), or `make site`, which does")


def engine_zip(out: Path) -> Path:
    """The engine and the play package as one zip, importable from sys.path."""
    out.parent.mkdir(parents=True, exist_ok=True)
    files = [_SOURCE / "__init__.py"] + sorted(
        f for package in ENGINE_PACKAGES for f in (_SOURCE / package).glob("*.py"))
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            name = "mariage/" + path.relative_to(_SOURCE).as_posix()
            archive.writestr(zipfile.ZipInfo(name, _FIXED_TIME), path.read_bytes(),
                             zipfile.ZIP_DEFLATED)
    return out


def profile_json(profile: Profile) -> str:
    """The profile as the browser reads it; checked to read back as the same profile, both by
    the YAML path's validation and by the standard library's."""
    data = profile.as_data()
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    for again in (validate(json.loads(text)), Profile.from_plain(json.loads(text))):
        if again.as_data() != data:
            raise PlayAssetsError(f"{profile.source or profile.name}: the profile does not read "
                                  "back the same from JSON")
    return text


def check_standard_library(archive: Path, profiles: list[str]) -> None:
    """Import the zipped engine in a Python without site-packages and deal a hand under each
    profile: the play path must need nothing but the standard library (Pyodide's core)."""
    run = subprocess.run([sys.executable, "-I", "-S", "-c", _CHECK, str(archive)],
                         input=json.dumps(profiles), capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no message"])[-1]
        raise PlayAssetsError(f"the engine's play path needs more than the standard library, "
                              f"which Pyodide's core lacks: {last}")


def write_play_assets(site: Path, project: Path, profiles: dict[str, Profile],
                      cache: StageCache | None = None) -> None:
    """Everything the Play page loads, under site/assets/. The profiles' JSON and the
    standard-library check are done once per profile and per zipped engine and profiles."""
    cache = cache or StageCache()
    pyodide = find_pyodide(project)
    target = site / "assets" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, target / name)
    play = site / "assets" / "play"
    texts = {slug: cache.get("play-profile", digest(profile), partial(profile_json, profile))
             for slug, profile in profiles.items()}
    archive = engine_zip(play / "mariage.zip")
    cache.get("play-check", digest(sys.version, file_digest(archive), list(texts.values())),
              lambda: check_standard_library(archive, list(texts.values())))
    (play / "profiles").mkdir(parents=True, exist_ok=True)
    for slug, text in texts.items():
        (play / "profiles" / f"{slug}.json").write_text(text, encoding="utf-8")
