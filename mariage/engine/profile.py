"""Load and validate the rules profile (rules/mariage.yaml).

The schema is schema.py's frozen dataclasses (the standard library alone, so the engine runs
in the browser); here msgspec.convert checks a YAML file's types and missing keys into them,
a walk over the schema refuses unknown keys, and each class's __post_init__ checks ranges,
patterns and the cross-field rules. A validation error is mapped back to the YAML line of the
offending key, so the user reads "rules/mariage.yaml:27: bonuses.trump_marriage: …". msgspec
rather than a heavier schema library keeps `mariage replay`'s start-up short: the profile is
read on every run.
"""

from __future__ import annotations

import dataclasses
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec
import yaml

from . import bounded
from .errors import ProfileError
from .schema import Profile

# Where a project keeps its profile. Commands find the project from where they run, never from
# where this package is installed.
PROJECT_PROFILE = Path("rules") / "mariage.yaml"

PROFILE_LIMIT = 128 << 10       # bytes; the shipped profile is about 6 KB
__all__ = ["PROJECT_PROFILE", "Profile", "default_profile", "find_profile", "load_profile",
           "validate"]


def validate(data: Any, source: str = "") -> Profile:
    """Plain data (a YAML file's, or as_data()'s) into a Profile: msgspec checks the types and
    the missing keys, _unknown_key the keys the schema lacks, each class its own rules.
    msgspec's ValidationError if it breaks the schema."""
    unknown = _unknown_key(data, Profile, "$")
    if unknown:
        raise msgspec.ValidationError(f"Object contains unknown field `{unknown[1]}` - at `{unknown[0]}`")
    profile = msgspec.convert(data, Profile)
    return dataclasses.replace(profile, source=source) if source else profile


def _unknown_key(data: Any, kind: Any, where: str) -> tuple[str, str] | None:
    """The first key of data that the schema class `kind` lacks, as (its parent's path, key)."""
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    if get_origin(kind) is Union:
        kinds = [k for k in get_args(kind) if k is not type(None)]
        kind = kinds[0] if len(kinds) == 1 else kind
    if get_origin(kind) is list and isinstance(data, list):
        for index, item in enumerate(data):
            found = _unknown_key(item, get_args(kind)[0], f"{where}[{index}]")
            if found:
                return found
    elif dataclasses.is_dataclass(kind) and isinstance(data, dict):
        hints = get_type_hints(kind, include_extras=True)
        for key, value in data.items():
            if key not in hints:
                return where, str(key)
            found = _unknown_key(value, hints[key], f"{where}.{key}")
            if found:
                return found
    return None


def load_profile(path: str | Path) -> Profile:
    """Read, safely parse and validate a profile; every mistake is a ProfileError with a line."""
    path = Path(path)
    try:
        text = bounded.read_text(path, PROFILE_LIMIT)
    except OSError as exc:
        raise ProfileError(path, f"cannot read the profile ({exc.strerror})") from None
    except bounded.BadInput as exc:
        raise ProfileError(path, f"cannot read the profile: {exc}", line=exc.line) from None
    known = _LOADED.get((str(path), text))
    if known is None:
        known = _LOADED[(str(path), text)] = _parse(path, text)
        if len(_LOADED) > 16:
            _LOADED.pop(next(iter(_LOADED)))
    return known


# Profiles are immutable: a text read again at the same path (each rebuild of `mkdocs serve`
# reads the profiles and the examples' variants) gives the same object, parsed once.
_LOADED: dict[tuple[str, str], Profile] = {}


def _parse(path: Path, text: str) -> Profile:
    try:
        root = bounded.compose(text)
        data = bounded.construct(root)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ProfileError(path, f"malformed YAML: {problem}",
                           line=mark.line + 1 if mark else None,
                           hint="fix the YAML syntax at that line") from None
    if not isinstance(data, dict):
        raise ProfileError(path, "the profile must be a mapping of sections", line=1)
    try:
        return validate(data, source=str(path))
    except msgspec.ValidationError as exc:
        raise _profile_error(path, root, exc) from None


def find_profile(start: Path | None = None) -> Path:
    """$MARIAGE_PROFILE, else rules/mariage.yaml in the current folder or the nearest one above."""
    if os.environ.get("MARIAGE_PROFILE"):
        return Path(os.environ["MARIAGE_PROFILE"])
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / PROJECT_PROFILE).is_file():
            return folder / PROJECT_PROFILE
    raise ProfileError(here, f"no {PROJECT_PROFILE} here or in any folder above",
                       hint="run the command inside a Mariage project, or pass --profile FILE")


@lru_cache(maxsize=8)
def _cached(path: str, mtime: float) -> Profile:
    return load_profile(path)


def default_profile() -> Profile:
    """The profile of the project run in ($MARIAGE_PROFILE overrides it), cached until the file
    changes."""
    path = find_profile()
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return load_profile(path)          # raises a ProfileError naming the file
    return _cached(str(path), mtime)


_AT = re.compile(r"^(?P<message>.*) - at `\$(?P<path>[^`]*)`$", re.S)
_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_KINDS = {"int": "an integer", "str": "a string", "bool": "true or false", "float": "a number",
          "array": "a list", "object": "a mapping", "null": "empty"}


def _profile_error(path: Path, root: yaml.Node | None, exc: msgspec.ValidationError) -> ProfileError:
    """msgspec's "Expected `int`, got `str` - at `$.thresholds.claim`" as the user's message:
    the key's path, its YAML line, and plain words."""
    found = _AT.match(str(exc))
    message, where = (found["message"], found["path"]) if found else (str(exc), "")
    loc: list[Any] = [int(index) if index else name for name, index in _PART.findall(where)]
    pinned = getattr(exc.__cause__, "key", None)
    if pinned:
        loc += [int(p) if p.isdigit() else p for p in pinned.split(".")]
    if named := re.match(r"Object contains unknown field `(.*)`$", message):
        loc, message = loc + [named[1]], "unknown key; remove it or check its spelling"
    elif named := re.match(r"Object missing required field `(.*)`$", message):
        loc, message = loc + [named[1]], "missing value; add it"
    elif allowed := _allowed(loc):
        message = "must be " + " or ".join(map(repr, allowed))
    else:
        message = _plain(message)
    key = ".".join(str(part) for part in loc) or None
    return ProfileError(path, message, line=_line_of(root, loc), key=key,
                        hint="the rulings section at the end of this file says what each value means")


def _plain(message: str) -> str:
    """"Expected `int` >= 1, got `str`" in plain words: "must be an integer >= 1, not a string"."""
    message = re.sub(r"`(\w+)`", lambda m: _KINDS.get(m[1], m[1]), message)
    message = re.sub(r"^Expected ", "must be ", message)
    return re.sub(r", got ", ", not ", message)


def _allowed(loc: list[Any]) -> tuple[Any, ...]:
    """The values a Literal field allows, or () for any other field."""
    try:
        kind = _field_type(loc)
    except (KeyError, IndexError, TypeError):
        return ()
    return get_args(kind) if get_origin(kind) is Literal else ()


def _field_type(loc: list[Any]) -> Any:
    """The declared type at a path of the schema (for the values a Literal allows)."""
    kind: Any = Profile
    for part in loc:
        while get_origin(kind) is Annotated:
            kind = get_args(kind)[0]
        if isinstance(part, int):
            kind = get_args(kind)[0]
        else:
            kind = get_type_hints(kind, include_extras=True)[part]
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    return kind


def _line_of(node: yaml.Node | None, loc: list[Any]) -> int | None:
    """The 1-based line of the YAML node at loc, or of its nearest existing parent."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if pair is None:
                break
            line, node = pair[0].start_mark.line + 1, pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
