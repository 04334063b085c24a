"""Run the examples' doctests where their code cannot change how they are checked.

A doctest is code: an example could loop, exhaust memory, start processes, or patch doctest
itself so that every comparison passes. So the work is split three ways:

- the build (this process) parses each page's doctests and, at the end, compares what each
  statement printed with what the page expects (doctest's OutputChecker): the only verdict;
- a supervisor process (`python -m mariage.site.replay.doctest_worker`), started with an empty
  environment, never runs example code: it forks one child per page and relays that child's
  results, within a byte limit, a time limit and a count of the statements it was sent;
- the child runs the page's statements, in a session of its own with standard streams on
  /dev/null, under a memory cap, and reports only what each one printed or raised.

Nothing a child changes (doctest's checker, a module, the protocol) outlives its page: the next
page is a fresh fork. When a page ends, on time or not, the supervisor kills every process the
child started, even those in sessions of their own (it is their subreaper).

Protocol, one JSON object per line: build -> supervisor {"statements", "folder", "profile",
"timeout"}; supervisor -> build {"running": i}... then {"results": [{"got", "raised"}...]} or
{"timeout": i} or {"died": why}.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import EXAMPLE_TIMEOUT, seconds
from ...engine.errors import MariageError
from ..cache import digest, file_digest
from .examples import CODE_BLOCK, Example

STARTUP_TIMEOUT = 120.0
TOTAL_TIMEOUT = 600.0                  # seconds for the doctests of every page of one build
GRACE = 10.0                           # s the build waits beyond a page's limit for the supervisor
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class DoctestTimeout(MariageError):
    pass


@dataclass(frozen=True)
class Statement:
    """One doctest example of a page: its code, what it must print, and its line."""
    example: doctest.Example
    line: int


def statements(markdown: str, source: str | None = None) -> list[Statement]:
    """Every doctest statement of the page's ```python blocks, with the line of its block in
    `source` (the example file) when the block is found there, else in the page."""
    parser, found = doctest.DocTestParser(), []
    for match in CODE_BLOCK.finditer(markdown):
        at = source.find(match.group(1)) if source else -1
        first = (source.count("\n", 0, at) if source and at >= 0
                 else markdown.count("\n", 0, match.start(1)))
        for example in parser.get_examples(match.group(1)):
            if not example.options.get(doctest.SKIP, False):
                found.append(Statement(example, first + example.lineno + 1))
    return found


def failures(found: list[Statement], results: list[dict[str, Any]]) -> list[str]:
    """The statements whose output or exception is not what the page expects, compared here,
    in the build, with doctest's own checker and the page's option flags."""
    checker, out = doctest.OutputChecker(), []
    for statement, result in zip(found, results):
        example = statement.example
        flags = FLAGS
        for flag, on in example.options.items():
            flags = flags | flag if on else flags & ~flag
        code = example.source.strip()
        raised = result.get("raised")
        if raised is None:
            if not checker.check_output(example.want, result["got"], flags):
                out.append(f"line {statement.line}: {code} expected {example.want.strip()!r}, "
                           f"got {result['got'].strip()!r}")
        elif example.exc_msg is None or not _same_exception(checker, example.exc_msg, raised, flags):
            out.append(f"line {statement.line}: {code} raised {raised.strip()}")
    return out


def _same_exception(checker: doctest.OutputChecker, want: str, got: str, flags: int) -> bool:
    if checker.check_output(want, got, flags):
        return True
    if flags & doctest.IGNORE_EXCEPTION_DETAIL:
        name = lambda text: text.split(":", 1)[0].rsplit(".", 1)[-1]  # noqa: E731
        return name(want) == name(got)
    return False


class DoctestWorker:
    """The supervisor process, started on first use; use as a context manager."""

    def __init__(self, timeout: float = EXAMPLE_TIMEOUT, total: float = TOTAL_TIMEOUT) -> None:
        self.timeout = seconds(timeout, "the doctests' time limit")
        self.total = self.left = total     # seconds for every page of the build together
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()

    def __enter__(self) -> "DoctestWorker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the supervisor: asked to end (it leaves no page's process behind), else killed."""
        if self._proc is not None:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                _kill_group(self._proc.pid)
                self._proc.wait()
            self._proc = None

    def run(self, page: str, name: str, source: str, folder: Path, profile: Any) -> list[str]:
        """The failures of the page's doctests; a page that overruns or crashes its process is
        a DoctestTimeout/MariageError naming `name` and the line."""
        found = statements(page, source)
        if not found:
            return []
        proc = self._start()
        limit = min(self.timeout, self.left)
        if limit <= 0:
            raise DoctestTimeout(f"{name}: the examples' doctests have used the build's "
                                 f"{self.total:g} s; an example must not wait")
        request = {"statements": [s.example.source for s in found], "folder": str(folder),
                   "profile": profile.as_data(), "timeout": limit}
        _write_all(proc, (json.dumps(request) + "\n").encode())
        started = time.monotonic()
        try:
            return self._results(found, name, limit, started)
        finally:
            self.left -= time.monotonic() - started

    def _results(self, found: list[Statement], name: str, limit: float,
                 started: float) -> list[str]:
        deadline, at = started + limit + GRACE, 0
        while True:
            reply = self._read(deadline)
            if reply is None:
                self.close()
                reply = {"timeout": at}
            if "running" in reply:
                at = reply["running"]
                continue
            line = found[min(at, len(found) - 1)].line
            if "timeout" in reply:
                raise DoctestTimeout(f"{name}, line {line}: the doctest did not finish within "
                                     f"{round(limit, 1):g} s; an example must not loop or wait"
                                     + ("" if limit == self.timeout else " (the last of the "
                                        f"build's {self.total:g} s for every example)"))
            if "died" in reply or len(reply.get("results", ())) != len(found):
                raise MariageError(f"{name}, line {line}: the doctest ended its process "
                                   f"({reply.get('died', 'a reply for other statements')}); an "
                                   "example must not exit, crash Python or write to the "
                                   "worker's channel")
            return failures(found, reply["results"])

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            # An empty environment: a token in the builder's environment is neither in the
            # supervisor's nor in its parent's (see examples/README.md for what remains).
            self._proc = subprocess.Popen([sys.executable, "-m",
                                           "mariage.site.replay.doctest_worker"],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          bufsize=0, env=_clean_env(), start_new_session=True)
            self._buffer = bytearray()
            # The time limit is the doctests': it starts once the worker has imported everything.
            if self._read(time.monotonic() + STARTUP_TIMEOUT) != {"ready": True}:
                self.close()
                raise MariageError("the doctest worker process did not start")
        return self._proc

    def _read(self, deadline: float) -> dict[str, Any] | None:
        """The supervisor's next reply; None once the deadline passes."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while (end := self._buffer.find(b"\n")) < 0:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    code = self._proc.wait()
                    self._proc = None
                    return {"died": f"the doctest worker stopped with exit code {code}"}
                self._buffer += chunk
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return json.loads(line)


def _clean_env() -> dict[str, str]:
    """Only what Python needs to find this package (PYTHONPATH, set by tests of a checkout)."""
    env = {"LC_ALL": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def _write_all(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(proc.stdin.fileno(), view):]
    except BrokenPipeError:
        pass          # the worker is gone; the read reports how it ended


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ----------------------------------------------------------------- the build's check of a page

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


_LOADED = re.compile(r"""\bload(?:_game)?\(\s*(?:["']([\w.-]+)["'])?""")


def page_inputs(example: Example, markdown: str) -> str:
    """The content hash of what a page's doctests are: each statement's code, expected output,
    options and line (the prose around them is not: every language's page of an example runs
    once), the example's place and profile, and each example file they load by name (every
    example of the folder when a name is not written out)."""
    found = statements(markdown, example.body)
    code = "\n".join(s.example.source for s in found)
    folder = example.path.parent
    names = [m.group(1) for m in _LOADED.finditer(code)]
    files = (sorted(folder.glob("*.md")) if None in names
             else [folder / f"{n}.md" for n in sorted(set(names))])
    return digest([(s.example.source, s.example.want, sorted(s.example.options.items()),
                    s.line) for s in found], bool(CODE_BLOCK.search(markdown)),
                  example.relpath, example.profile, [(p.name, file_digest(p)) for p in files])
