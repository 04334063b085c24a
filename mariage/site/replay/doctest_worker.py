"""The doctest worker process, the only one that runs the examples' code: the supervisor
(`python -m mariage.site.replay.doctest_worker`), which never runs it, and the child it forks
for each page, which does. Why the work is split so, and the protocol: `doctests.py`.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import resource
import selectors
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any, Iterator

WORKER_MEMORY = 1 << 30                # bytes of address space for a page's child
MAX_OUTPUT = 64 << 10                  # characters kept of one statement's output
MAX_REPLY = 8 << 20                    # bytes a child may send for one page
_PR_SET_CHILD_SUBREAPER = 36


# ----------------------------------------------------------------- the supervisor

def _serve() -> None:
    """The supervisor's loop: one request in, the child's progress and one result out. It
    imports, before it says it is ready, every module a page's code may use (examples/README.md:
    `load`, `load_game`, the engine), never running a page's code: each page's fork then starts
    with them, where importing them again took about 0.17 s of a page's 0.2 s."""
    from ...engine import solver  # noqa: F401 - for the forks, see above
    from ...engine.profile import Profile, validate
    from . import examples  # noqa: F401 - for the forks, see above

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


if __name__ == "__main__":
    _serve()
