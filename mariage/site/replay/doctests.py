"""Run the examples' doctests in one worker process per build, each page under a time limit.

A doctest is code: an example contribution could loop forever or exhaust memory. The build
sends each rendered page to a worker (`python -m mariage.site.replay.doctests`) with the build's
profile; the worker reports each statement's line before running it, so a page that overruns
its time is stopped and named with the line that never finished. The worker's memory is capped.

Protocol: one JSON object per line each way. Request {"page", "name", "source", "folder",
"profile"}; replies {"running": line}… then {"failures": [...]}.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .. import EXAMPLE_TIMEOUT
from ...engine.errors import MariageError
from ...engine.profile import Profile
from . import examples
from .examples import CODE_BLOCK, Example

WORKER_MEMORY = 1 << 30                # bytes of address space for the worker
STARTUP_TIMEOUT = 120.0


class DoctestTimeout(MariageError):
    pass


class DoctestWorker:
    """One worker process, started on first use; use as a context manager."""

    def __init__(self, timeout: float = EXAMPLE_TIMEOUT) -> None:
        self.timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def __enter__(self) -> "DoctestWorker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
            self._proc = None

    def run(self, page: str, name: str, source: str, folder: Path, profile: Any) -> list[str]:
        """The failures of the page's doctests; a page that overruns or kills the worker is a
        DoctestTimeout/MariageError naming `name` and the line."""
        proc = self._start()
        request = {"page": page, "name": name, "source": source, "folder": str(folder),
                   "profile": profile.as_data()}
        _write_all(proc, (json.dumps(request) + "\n").encode())
        deadline, line = time.monotonic() + self.timeout, None
        while True:
            reply = self._read(deadline)
            if reply is None:
                self.close()
                raise DoctestTimeout(f"{name}, line {line}: the doctest did not finish within "
                                     f"{self.timeout:g} s; an example must not loop or wait")
            if "running" in reply:
                line = reply["running"]
                continue
            if "died" in reply:
                self.close()
                raise MariageError(f"{name}, line {line}: the doctest ended the worker process "
                                   f"({reply['died']}); an example must not exit or crash Python")
            return list(reply["failures"])

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            self._proc = subprocess.Popen([sys.executable, "-m", "mariage.site.replay.doctests"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          bufsize=0, env=_worker_env())
            self._buffer = b""
            # The time limit is the doctests': it starts once the worker has imported everything.
            if self._read(time.monotonic() + STARTUP_TIMEOUT) != {"ready": True}:
                self.close()
                raise MariageError("the doctest worker process did not start")
        return self._proc

    def _read(self, deadline: float) -> dict[str, Any] | None:
        """The worker's next reply; None once the deadline passes."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(fd, 65536)
                if not chunk:
                    return {"died": f"exit code {self._proc.wait()}"}
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)


def _worker_env() -> dict[str, str]:
    """Only what Python needs: a CI token or password in the builder's environment stays out
    of the doctests' reach."""
    return {k: v for k, v in os.environ.items() if k in _KEPT_ENV or k.startswith("LC_")}


_KEPT_ENV = {"PATH", "PYTHONPATH", "LANG", "TMPDIR", "SYSTEMROOT"}


def _write_all(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(proc.stdin.fileno(), view):]
    except BrokenPipeError:
        pass          # the worker is gone; the read reports how it ended


def _serve() -> None:
    """The worker's loop: one request in, progress lines and one result out."""
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout = sys.stderr          # a doctest's own prints must not garble the protocol
    profiles: dict[str, Profile] = {}
    out.write(json.dumps({"ready": True}) + "\n")

    def running(line: int) -> None:
        out.write(json.dumps({"running": line}) + "\n")

    for raw in sys.stdin:
        request = json.loads(raw)
        key = json.dumps(request["profile"], sort_keys=True)
        if key not in profiles:
            profiles[key] = Profile.from_data(request["profile"])
        token = examples._BUILD.set((Path(request["folder"]), profiles[key]))
        try:
            failures = examples.run_doctests(request["page"], request["name"],
                                             request["source"], on_start=running)
        finally:
            examples._BUILD.reset(token)
        out.write(json.dumps({"failures": failures}) + "\n")



class ExampleFailed(MariageError):
    pass


def verify(example: Example, markdown: str, lang: str, worker: DoctestWorker) -> None:
    """Fail, naming the example, the language and the line, if a doctest of the page fails;
    the doctests run in `worker`, under this build's profile and within its time limit."""
    if not CODE_BLOCK.search(markdown):
        raise ExampleFailed(f"{example.relpath} ({lang}): the example has no doctest")
    failures = worker.run(markdown, f"{example.relpath} ({lang})", example.body,
                          example.path.parent, example.profile)
    if failures:
        raise ExampleFailed(f"{example.relpath} ({lang}), {failures[0]}"
                            + (f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""))

if __name__ == "__main__":
    _serve()
