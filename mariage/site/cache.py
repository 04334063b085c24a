"""The stage cache: what each stage of a build computed, kept under `.cache/stages/` and keyed
by the content hash of exactly what the stage read, so a build redoes only what changed.

Every entry also holds the code's fingerprint (the package's version, the text of its
modules, the versions of the libraries whose output a page shows), so new code never reads an
old result: it computes the entry again and writes it over the old one. An entry is one file: a header line (magic, fingerprint, payload length and SHA-256),
then the pickled value. It is written under a temporary name and renamed into place, so a
killed build leaves no half-written entry; an entry that is truncated, corrupt, from another
version or unreadable counts as missing: it is computed again and rewritten, silently.

The entries are the project's own (like `.cache/docs`): only builds of this project write them.
A pickle can run code when it is read, so an entry is read only when this user wrote it and no
one else may change it (`own_bytes`): in a folder that others can write to, such as one shared
through MARIAGE_STAGE_CACHE, another user's file is computed again, never loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
import subprocess
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, is_dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, TypeVar

from ..engine.schema import Profile

T = TypeVar("T")
MAGIC = b"mariage-stage-cache 1"
STAGES = "stages"                   # the folder under .cache/
_LIBRARIES = ("babel", "jinja2", "markupsafe", "markdown", "msgspec", "pyyaml")


def digest(*parts: Any) -> str:
    """One SHA-256 of the parts: bytes and text as they are, anything else as canonical JSON
    (dataclasses as dicts, sets sorted); each part framed by its length."""
    sha = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else part.encode() if isinstance(part, str) \
            else _profile_json(part) if isinstance(part, Profile) else _json(part)
        sha.update(len(data).to_bytes(8, "big") + data)
    return sha.hexdigest()


def _json(part: Any) -> bytes:
    return json.dumps(part, sort_keys=True, default=_plain, ensure_ascii=False).encode()


def _profile_json(profile: Profile) -> bytes:
    """Every page's key holds the profile: its rules, not the file it was read from (another
    copy of the project shares its stages), encoded once per (immutable) object. Each
    entry keeps its profile alive, so its id is not reused; a serve's rebuilds load new
    profiles, so only the latest few are kept."""
    entry = _PROFILES.get(id(profile))
    if entry is None or entry[0] is not profile:
        if len(_PROFILES) >= 8:
            _PROFILES.pop(next(iter(_PROFILES)))
        entry = _PROFILES[id(profile)] = (profile, _json(profile.as_data()))
    return entry[1]


_PROFILES: dict[int, tuple[Profile, bytes]] = {}


def _plain(value: Any) -> Any:
    if isinstance(value, Profile):
        return value.as_data()
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, Path):
        return str(value)
    if hasattr(value, "as_data"):
        return value.as_data()
    if isinstance(value, str):           # Markup and other str subclasses
        return str(value)
    raise TypeError(f"{type(value).__name__} is not part of a cache key")


def file_digest(path: Path) -> str:
    """The content hash of a file ('' when it does not exist). A build asks for the same
    catalogs' hashes on every page: a file seen with the same size, modification time and inode
    is not read again, once its modification time is older than the clock's granularity (as
    git's index does: a write in the same tick as the read could keep both)."""
    try:
        before = path.stat()
    except FileNotFoundError:
        return ""
    key = (str(path), before.st_mtime_ns, before.st_size, before.st_ino)
    known = _FILE_DIGESTS.get(key)
    if known is not None:
        return known
    try:
        value = hashlib.sha256(path.read_bytes()).hexdigest()
        after = path.stat()
    except FileNotFoundError:
        return ""
    settled = after.st_mtime_ns < time.time_ns() - _TICK_NS
    if settled and (after.st_mtime_ns, after.st_size, after.st_ino) == key[1:]:
        if len(_FILE_DIGESTS) >= 4096:
            _FILE_DIGESTS.pop(next(iter(_FILE_DIGESTS)))
        _FILE_DIGESTS[key] = value
    return value


_FILE_DIGESTS: dict[tuple[str, int, int, int], str] = {}
_TICK_NS = 50_000_000            # well above a file system's timestamp granularity


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """This code: the package's version, every module's text, the libraries' versions and GNU
    msgfmt's (the catalog checks quote it)."""
    package = Path(__file__).resolve().parents[1]
    modules = [p.read_bytes() for p in sorted(package.rglob("*.py"))]
    versions = []
    for name in ("mariage", *_LIBRARIES):
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=?")
    try:
        msgfmt = subprocess.run(["msgfmt", "--version"], capture_output=True,
                                text=True).stdout.split("\n", 1)[0]
    except OSError:
        msgfmt = "none"
    return digest(versions, msgfmt, *modules)


def folder_for(project_cache: Path) -> Path:
    """Where a project's builds keep their stages: its .cache/, unless MARIAGE_STAGE_CACHE
    names a folder shared by several copies of a project (the test suite's builds share
    one: entries are keyed by content, never by path)."""
    shared = os.environ.get("MARIAGE_STAGE_CACHE")
    return Path(shared) if shared else project_cache


class StageCache:
    """Results by (stage, key): kept in memory for this process (`mkdocs serve` rebuilds in
    one) and, with a folder, on disk for the next build. `counts` says what each stage found."""

    def __init__(self, folder: Path | None = None, memory_size: int = 20000) -> None:
        self.folder = folder
        self.memory_size = memory_size
        self.counts: Counter[str] = Counter()
        self._counting = threading.Lock()   # a build checks doctests on a second thread

    def get(self, stage: str, key: str, compute: Callable[[], T]) -> T:
        """The value of `stage` for `key`: from memory, from disk, else computed and kept."""
        value = self.find(stage, key)
        if value is MISSING:
            self._count(f"{stage}:miss")
            value = compute()
            self.put(stage, key, value)
        else:
            self._count(f"{stage}:hit")
        return value

    def _count(self, what: str) -> None:
        with self._counting:
            self.counts[what] += 1

    def find(self, stage: str, key: str) -> Any:
        """The value kept for `stage` and `key`, from memory or disk; else MISSING."""
        slot = (self.folder, stage, key)
        if slot in _MEMORY:
            return _MEMORY[slot]
        value = self._read(stage, key)
        if value is not MISSING:
            self._remember(slot, value)
        return value

    def put(self, stage: str, key: str, value: Any) -> None:
        """Keep `value` for `stage` and `key`, in memory and on disk."""
        self._write(stage, key, value)
        self._remember((self.folder, stage, key), value)

    def _remember(self, slot: tuple[Path | None, str, str], value: Any) -> None:
        if len(_MEMORY) >= self.memory_size:
            _MEMORY.pop(next(iter(_MEMORY)))
        _MEMORY[slot] = value

    def misses(self, stage: str) -> int:
        return self.counts[f"{stage}:miss"]

    def path(self, stage: str, key: str) -> Path | None:
        return None if self.folder is None else self.folder / STAGES / stage / f"{key}.pickle"

    def _read(self, stage: str, key: str) -> Any:
        path = self.path(stage, key)
        if path is None:
            return MISSING
        try:
            data = own_bytes(path)
            if data is None:
                return MISSING
            header, payload = data.split(b"\n", 1)
            expected = [MAGIC, fingerprint().encode(), str(len(payload)).encode(),
                        hashlib.sha256(payload).hexdigest().encode()]
            if header.rsplit(b" ", 3) != expected:
                return MISSING
            return pickle.loads(payload)
        except (OSError, ValueError, EOFError, pickle.UnpicklingError, AttributeError,
                ImportError, IndexError, TypeError):
            return MISSING

    def _write(self, stage: str, key: str, value: Any) -> None:
        path = self.path(stage, key)
        if path is None:
            return
        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return                     # kept in memory only
        header = b" ".join([MAGIC, fingerprint().encode(), str(len(payload)).encode(),
                            hashlib.sha256(payload).hexdigest().encode()])
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "wb") as out:
                out.write(header + b"\n" + payload)
            os.replace(tmp, path)
        except OSError:
            # a full disk or a read-only tree: the build goes on without keeping this entry
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


def own_bytes(path: Path) -> bytes | None:
    """The file's bytes when this user owns it and no one else may write to it; else None (a
    symbolic link, another user's file, a group- or world-writable one). The file is checked
    once open, so it cannot be swapped between the check and the read. Jinja's bytecode cache
    beside the stages, which holds code, is read through it too."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or \
                info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return None
        with os.fdopen(fd, "rb", closefd=False) as file:
            return file.read()
    finally:
        os.close(fd)


MISSING = object()
_MEMORY: dict[tuple[Path | None, str, str], Any] = {}


def forget() -> None:
    """Drop this process's memory of entries (tests use it to read the disk again)."""
    _MEMORY.clear()
