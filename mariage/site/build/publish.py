"""Publish a built site: `site/` holds the old site or the new one, never a mix, never nothing.

- A lock (`.cache/build.lock`, fcntl) lets one build of a project run at a time; the next waits
  a bounded time, then stops naming the build that holds it (pid, host and start time are
  written in the lock file).
- Each build has its own scratch folder under `.cache/` (the generated docs).
- Every folder a build creates holds a marker file (`OWNER`); only marked folders are ever
  swept, so a user's `.site.new-backup` is left alone.
- The site is built in a hidden sibling of the published folder, then swapped in with one
  atomic exchange (Linux `renameat2(RENAME_EXCHANGE)`): a kill before it leaves the old site,
  after it the new one. A `site/` that is a symlink keeps its link; its target is exchanged.
- Top-level dot entries of the old site (`.git` of a publishing branch, `.nojekyll`) are carried
  into the new one (hard links, else copies), as plain MkDocs keeps them.
- A folder that cannot be exchanged (a mount point, a read-only parent, no renameat2) is synced
  in place, each file replaced atomically; a kill there can leave a mix the next build completes.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import shutil
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ...engine.errors import SourceError

LOCK = "build.lock"
OWNER = ".mariage-build"          # the marker of a folder a build created and may remove
LOCK_TIMEOUT = 600.0              # seconds a build waits for another build's lock
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2
# An exchange these errors refuse falls back to the in-place sync.
_CANNOT_EXCHANGE = {errno.EINVAL, errno.ENOSYS, errno.EBUSY, errno.EXDEV, errno.EPERM,
                    errno.EACCES, errno.EROFS, errno.ENOTSUP}


class PublishError(SourceError):
    """The site folder cannot take a new site; the previous one is left as it was."""


def lock(cache: Path, on_wait: Callable[[], None] = lambda: None,
         timeout: float = LOCK_TIMEOUT) -> int:
    """Take the project's build lock, waiting up to `timeout` s for another build; returns the
    descriptor that holds it until `unlock` or the process ends (a killed build frees it too).
    The holder writes who it is into the lock file, so a build that gives up can name it."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
        fd = os.open(cache / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise PublishError(cache, f"cannot create the build lock ({exc.strerror})",
                           hint="the project folder must be writable to build") from None
    deadline, waited = time.monotonic() + timeout, False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if not waited:
                on_wait()
                waited = True
            if time.monotonic() >= deadline:
                holder = _holder(fd)
                os.close(fd)
                raise PublishError(cache / LOCK, f"another build ({holder}) has held the build "
                                   f"lock for more than {timeout:g} s; this build stops",
                                   hint="wait for it, or stop that process if it hangs; "
                                   "lock_timeout in mkdocs.yml sets the wait") from None
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
    os.ftruncate(fd, 0)
    os.pwrite(fd, (f"pid {os.getpid()} on {socket.gethostname()}, started "
                   f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n").encode(), 0)
    return fd


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 512, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "a process that did not say who it is"


def unlock(fd: int) -> None:
    os.close(fd)         # closing the descriptor releases the flock


def scratch(cache: Path) -> Path:
    """A fresh scratch folder for this build; leftovers of killed builds are removed first
    (the caller holds the lock, so no other build owns them)."""
    for old in cache.glob("build-*"):
        _remove_owned(old)
    return mark(Path(tempfile.mkdtemp(prefix="build-", dir=cache)))


def mark(folder: Path) -> Path:
    (folder / OWNER).write_text(f"created by the mariage build, pid {os.getpid()}; "
                                "removed by the next build\n", encoding="utf-8")
    return folder


def claim(folder: Path) -> None:
    """Make `folder` one the build may empty and refill: a new or empty folder gets the marker;
    a folder with other files and no marker is not the build's, and is refused."""
    if folder.is_dir() and not owned(folder) and any(folder.iterdir()):
        raise PublishError(folder, "this folder holds files the build did not write; the build "
                           "replaces everything in the folder it generates into, so it will not "
                           "use this one", hint="point the `generated` option at a new folder "
                           "inside the project, e.g. .cache/docs")
    folder.mkdir(parents=True, exist_ok=True)
    mark(folder)


def owned(folder: Path) -> bool:
    """Whether a build created this folder (and so may remove it)."""
    return folder.is_dir() and not folder.is_symlink() and (folder / OWNER).is_file()


def _remove_owned(folder: Path) -> None:
    if owned(folder):
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class Publication:
    target: Path       # the real folder published (a symlinked site/ resolved)
    build_dir: Path    # where MkDocs writes this build
    in_place: bool     # synced file by file instead of exchanged


def prepare(site: Path, work: Path) -> Publication:
    """Choose where this build writes, before it starts; refuses a site folder it could not
    update, so a doomed build stops early."""
    target = Path(os.path.realpath(site))
    if target.exists() and not target.is_dir():
        raise PublishError(site, "the site folder is a file, not a folder",
                           hint="move it away or set site_dir to a folder")
    if target.exists() and not _writable(target):
        raise PublishError(site, "the site folder is read-only; the previous site is kept",
                           hint="make it writable (chmod -R u+w) or build elsewhere with -d DIR")
    _sweep(target)
    if target.exists() and os.path.ismount(target):
        return Publication(target, work / "site", in_place=True)
    sibling = target.with_name(f".{target.name}.new-{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        sibling.mkdir()
        mark(sibling)
    except OSError:
        return Publication(target, work / "site", in_place=True)      # read-only parent
    return Publication(target, sibling, in_place=False)


def publish(publication: Publication) -> None:
    """Make the built folder the published site (see the module's notes)."""
    built, target = publication.build_dir, publication.target
    if publication.in_place:
        _sync(built, target)
        return
    (built / OWNER).unlink(missing_ok=True)
    if not target.exists():
        os.rename(built, target)
        return
    _carry_dot_entries(target, built)
    try:
        _exchange(built, target)
    except OSError as exc:
        if exc.errno not in _CANNOT_EXCHANGE:
            raise
        _sync(built, target)
    mark(built)                       # after an exchange it holds the previous site
    _remove_owned(built)


def discard(publication: Publication | None) -> None:
    """Remove what a build left behind (its build folder when it was not published): this
    build created it, marked or not."""
    if publication is not None and publication.build_dir != publication.target:
        shutil.rmtree(publication.build_dir, ignore_errors=True)



def _writable(folder: Path) -> bool:
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def _sweep(target: Path) -> None:
    """Remove build folders that killed builds left next to the site (the lock is held): only
    those holding the build's marker; a user's folder of the same pattern is left alone."""
    if target.parent.is_dir():
        for old in target.parent.glob(f".{target.name}.new-*"):
            _remove_owned(old)


def _exchange(a: Path, b: Path) -> None:
    """Swap two folders in one step: no instant without either."""
    rename2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if rename2 is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available")
    if rename2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(b))


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _carry_dot_entries(old: Path, new: Path) -> None:
    for entry in old.iterdir():
        if not entry.name.startswith(".") or (new / entry.name).exists():
            continue
        if entry.is_symlink():
            os.symlink(os.readlink(entry), new / entry.name)
        elif entry.is_dir():
            shutil.copytree(entry, new / entry.name, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(str(entry), str(new / entry.name))


def _sync(built: Path, target: Path) -> None:
    """Update `target` in place to hold exactly the files of `built`, each file replaced
    atomically; top-level dot entries of `target` are kept."""
    target.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for path in sorted(built.rglob("*")):
        rel = path.relative_to(built)
        wanted.add(rel)
        out = target / rel
        if (out.is_symlink() or out.exists()) and out.is_dir() != path.is_dir():
            _remove(out)
        if path.is_dir():
            out.mkdir(exist_ok=True)
            continue
        tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
        shutil.copy2(path, tmp)
        os.replace(tmp, out)
    for top in target.iterdir():
        if top.name.startswith("."):
            continue
        tree = [top] if top.is_symlink() or not top.is_dir() else [top, *top.rglob("*")]
        for path in sorted(tree, reverse=True):       # children before their folder
            if path.relative_to(target) not in wanted:
                _remove(path)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
