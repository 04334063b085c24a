"""A cache entry is a pickle, and a compiled template is code: only files this user wrote, and
no one else may change, are ever loaded (mariage/site/cache.py `own_bytes`). A folder shared
through MARIAGE_STAGE_CACHE may hold another user's files; each case below plants an entry
that would run code when loaded, and expects it computed again instead, one row per way."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
from pathlib import Path

import pytest
from jinja2 import Environment
from jinja2.bccache import Bucket

from mariage.site.cache import MAGIC, StageCache, fingerprint, forget, own_bytes
from mariage_mkdocs.mariage_site import OwnBytecodeCache


class RunsCode:
    """Unpickling this creates `marker`: what a planted entry could do instead."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _plant(entry: Path, marker: Path) -> None:
    """A well-formed entry (this code's fingerprint, the right length and hash) whose value
    runs code when it is read."""
    payload = pickle.dumps(RunsCode(marker), protocol=pickle.HIGHEST_PROTOCOL)
    header = b" ".join([MAGIC, fingerprint().encode(), str(len(payload)).encode(),
                        hashlib.sha256(payload).hexdigest().encode()])
    entry.write_bytes(header + b"\n" + payload)
    entry.chmod(0o600)


def _writable_by_group(entry: Path, monkeypatch) -> None:
    entry.chmod(0o620)


def _writable_by_all(entry: Path, monkeypatch) -> None:
    entry.chmod(0o602)


def _another_users(entry: Path, monkeypatch) -> None:
    """The file's owner is not the user building (as if this user's id were another)."""
    owner = entry.stat().st_uid
    monkeypatch.setattr(os, "geteuid", lambda: owner + 1)


def _a_link(entry: Path, monkeypatch) -> None:
    """A symbolic link in the entry's place, to a file elsewhere."""
    elsewhere = entry.parent.parent / "elsewhere.pickle"
    entry.replace(elsewhere)
    entry.symlink_to(elsewhere)


@pytest.mark.parametrize("damage", [_writable_by_group, _writable_by_all, _another_users, _a_link],
                         ids=["writable-by-its-group", "writable-by-anyone", "another-users",
                              "a-symbolic-link"])
def test_an_entry_another_user_could_have_written_is_computed_again(tmp_path, monkeypatch,
                                                                     damage):
    marker = tmp_path / "the planted code ran"
    cache = StageCache(tmp_path / "stages")
    assert cache.get("stage", "key", lambda: ["first"]) == ["first"]
    entry = cache.path("stage", "key")
    assert entry is not None
    _plant(entry, marker)
    damage(entry, monkeypatch)
    forget()
    again = StageCache(tmp_path / "stages")
    assert again.get("stage", "key", lambda: ["second"]) == ["second"]
    assert again.misses("stage") == 1
    assert not marker.exists()
    monkeypatch.undo()
    forget()                       # the entry written in its place is this user's: read back
    assert StageCache(tmp_path / "stages").get("stage", "key", lambda: ["third"]) == ["second"]
    assert not marker.exists()


def test_this_users_own_entry_is_read(tmp_path):
    """The row the others differ from: the same planted entry, this user's and private, is
    loaded (so the rows above fail for the reason they name)."""
    marker = tmp_path / "the planted code ran"
    cache = StageCache(tmp_path / "stages")
    cache.get("stage", "key", lambda: ["first"])
    _plant(cache.path("stage", "key"), marker)          # type: ignore[arg-type]
    forget()
    StageCache(tmp_path / "stages").get("stage", "key", lambda: ["second"])
    assert marker.exists()


@pytest.mark.parametrize("damage, loaded", [
    (None, True), (_writable_by_group, False), (_writable_by_all, False),
    (_another_users, False), (_a_link, False)])
def test_the_theme_bytecode_is_read_only_from_this_users_files(tmp_path, monkeypatch, damage,
                                                               loaded):
    folder = tmp_path / "jinja"
    folder.mkdir()
    cache = OwnBytecodeCache(str(folder))
    env = Environment(bytecode_cache=cache)
    source = "{{ 6 * 11 }}"
    written = Bucket(env, "page.html", cache.get_source_checksum(source))
    written.code = compile("x = 66", "page.html", "exec")
    cache.dump_bytecode(written)
    (file,) = [p for p in folder.iterdir() if p.suffix == ".cache"]
    if damage is not None:
        damage(file, monkeypatch)
    read = Bucket(env, "page.html", cache.get_source_checksum(source))
    cache.load_bytecode(read)
    assert (read.code is not None) is loaded


def test_own_bytes_refuses_what_is_not_a_plain_file(tmp_path):
    (tmp_path / "folder").mkdir()
    assert own_bytes(tmp_path / "folder") is None
    with pytest.raises(FileNotFoundError):
        own_bytes(tmp_path / "missing")
    plain = tmp_path / "plain"
    plain.write_bytes(b"mine")
    plain.chmod(0o644)
    assert own_bytes(plain) == b"mine"
    assert io.BytesIO(own_bytes(plain) or b"").read() == b"mine"
