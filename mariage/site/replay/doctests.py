"""Run the examples' doctests where their code cannot change how they are checked.

A doctest is code: an example could loop, exhaust memory, start processes, or patch doctest
itself so that every comparison passes. So the work is split three ways:

- the build (this process) parses each page's doctests and, at the end, compares what each
  statement printed with what the page expects (doctest's OutputChecker): the only verdict;
- a supervisor process (`python -m mariage.site.replay.doctests`), started with an empty
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

import ctypes
import doctest
import io
import json
import os
import re
import resource
import selectors
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .. import EXAMPLE_TIMEOUT, seconds
from ...engine.errors import MariageError
from ..cache import digest, file_digest
from .examples import CODE_BLOCK, Example

WORKER_MEMORY = 1 << 30                # bytes of address space for a page's child
STARTUP_TIMEOUT = 120.0
TOTAL_TIMEOUT = 600.0                  # seconds for the doctests of every page of one build
GRACE = 10.0                           # s the build waits beyond a page's limit for the supervisor
MAX_OUTPUT = 64 << 10                  # characters kept of one statement's output
MAX_REPLY = 8 << 20                    # bytes a child may send for one page
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_PR_SET_CHILD_SUBREAPER = 36


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
            self._proc = subprocess.Popen([sys.executable, "-m", "mariage.site.replay.doctests"],
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


# ----------------------------------------------------------------- the supervisor

def _serve() -> None:
    """The supervisor's loop: one request in, the child's progress and one result out."""
    from ...engine.profile import Profile, validate

    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    out = sys.stdout.buffer
    profiles: dict[str, Profile] = {}
    _reply(out, {"ready": True})
    for raw in sys.stdin.buffer:
        request = json.loads(raw)
        key = json.dumps(request["profile"], sort_keys=True)
        if key not in profiles:
            profiles[key] = validate(request["profile"])
        _supervise(out, request, profiles[key])


def _reply(out: Any, message: dict[str, Any]) -> None:
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def _supervise(out: Any, request: dict[str, Any], profile: Any) -> None:
    """Fork the page's child, relay what it reports, and leave no process of it behind."""
    count = len(request["statements"])
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                           # the child: never returns
        os.close(read_end)
        _child(write_end, request, profile)
    os.close(write_end)
    try:
        _reply(out, _relay(out, read_end, count, float(request["timeout"])))
    finally:
        os.close(read_end)
        _kill_descendants()


def _relay(out: Any, fd: int, count: int, timeout: float) -> dict[str, Any]:
    """The child's final message, checked: progress lines are passed on; anything else the
    child writes (more than MAX_REPLY bytes, a malformed line, the wrong number of results)
    ends the page as a crash of this page, never another's."""
    deadline, buffer, total, at = time.monotonic() + timeout, bytearray(), 0, 0
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                return {"timeout": at}
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return {"died": "the process ended before reporting"}
            total += len(chunk)
            if total > MAX_REPLY:
                return {"died": f"it wrote more than {MAX_REPLY >> 20} MB of results"}
            buffer += chunk
            while (end := buffer.find(b"\n")) >= 0:
                message = _message(bytes(buffer[:end]), count)
                del buffer[:end + 1]
                if message is None:
                    return {"died": "it wrote something other than its results"}
                if "running" in message:
                    at = message["running"]
                    _reply(out, message)
                    continue
                return message


def _message(line: bytes, count: int) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or len(message) != 1:
        return None
    if isinstance(message.get("running"), int) and 0 <= message["running"] < count:
        return message
    results = message.get("results")
    if (isinstance(results, list) and len(results) == count
            and all(_result(r) for r in results)):
        return {"results": [{"got": r["got"][:MAX_OUTPUT], "raised": r["raised"]} for r in results]}
    if isinstance(message.get("died"), str):
        return {"died": message["died"][:200]}
    return None


def _result(result: object) -> bool:
    return (isinstance(result, dict) and set(result) == {"got", "raised"}
            and isinstance(result["got"], str)
            and (result["raised"] is None or isinstance(result["raised"], str)))


def _descendants() -> Iterator[int]:
    """Every living process below this one (orphans come back here: the subreaper)."""
    me, parents = os.getpid(), {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
    below: set[int] = set()
    frontier = {me}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - below
        below |= frontier
    return iter(below)


def _kill_descendants() -> None:
    """SIGKILL everything the page started, then reap it; repeated while forks race."""
    for _ in range(50):
        alive = list(_descendants())
        if not alive:
            return
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG) == (0, 0):
                    break
            except ChildProcessError:
                break
        time.sleep(0.01)


# ----------------------------------------------------------------- the page's child

def _child(fd: int, request: dict[str, Any], profile: Any) -> None:
    """Run the statements in a session of its own; report each one's output; exit."""
    status = 0
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for std in (0, 1, 2):
            os.dup2(null, std)
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
        report = os.fdopen(fd, "w", encoding="utf-8")
        _run_statements(report, request, profile)
    except BaseException:  # noqa: BLE001 - the child reports and exits, whatever happened
        status = 1
    finally:
        os._exit(status)


def _run_statements(report: Any, request: dict[str, Any], profile: Any) -> None:
    from . import examples

    examples._BUILD.set((Path(request["folder"]), profile))
    globs: dict[str, Any] = {"__name__": "__doctest__"}
    results = []
    for index, code in enumerate(request["statements"]):
        report.write(json.dumps({"running": index}) + "\n")
        report.flush()
        results.append(_run_one(code, globs))
    report.write(json.dumps({"results": results}) + "\n")
    report.flush()


def _run_one(code: str, globs: dict[str, Any]) -> dict[str, Any]:
    """What one statement printed, or the last line of the exception it raised (as doctest
    runs it: compiled in 'single' mode, so an expression's value is printed)."""
    saved, captured = sys.stdout, io.StringIO()
    sys.stdout, sys.displayhook = captured, sys.__displayhook__
    try:
        exec(compile(code, "<doctest>", "single", dont_inherit=True), globs)  # noqa: S102
        raised = None
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - the page's exception is its result
        raised = traceback.format_exception_only(*sys.exc_info()[:2])[-1]
    finally:
        sys.stdout = saved
    return {"got": captured.getvalue()[:MAX_OUTPUT], "raised": raised}


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
    """The content hash of what a page's doctests read: the page, the example's own text (for
    line numbers), its profile, and each example file they load by name (every example of
    the folder when a name is not written out)."""
    folder = example.path.parent
    names = [m.group(1) for m in _LOADED.finditer(markdown)]
    files = (sorted(folder.glob("*.md")) if None in names
             else [folder / f"{n}.md" for n in sorted(set(names))])
    return digest(markdown, example.body, example.relpath, example.profile,
                  [(p.name, file_digest(p)) for p in files])


if __name__ == "__main__":
    _serve()
