"""Waiting for a page to be quiet (sitecheck.Monitor.settle) on a machine that may be loaded:
a request that never ends fails, naming it; a page that is only slow, or whose one wait took
longer than the whole timeout, does not. A fake page and clock stand for Playwright's: no
browser needed."""

from __future__ import annotations

import pytest

from browser import sitecheck
from browser.sitecheck import Monitor

pytestmark = pytest.mark.xdist_group("browser")      # the folder's session (the crawl) is one


class Clock:
    def __init__(self) -> None:
        self.now = 1024.0       # and times in eighths of a second: exact in binary

    def monotonic(self) -> float:
        return self.now


class Request:
    def __init__(self, url: str) -> None:
        self.url, self.method, self.resource_type, self.failure = url, "GET", "script", None


class FakePage:
    """Each wait_for_timeout(ms) lasts `stall(now)` seconds of the fake clock (ms by default),
    then delivers the events due by then, as Playwright delivers events during a wait."""

    url = "http://127.0.0.1:1/page/"

    def __init__(self, clock: Clock, events: list[tuple[float, str, Request]], stall=None):
        self.clock, self.handlers, self.stall = clock, {}, stall
        self.events = sorted(((clock.now + at, kind, r) for at, kind, r in events),
                             key=lambda e: e[0])

    def on(self, name, handler) -> None:
        self.handlers[name] = handler

    def wait_for_timeout(self, ms: float) -> None:
        extra = self.stall(self.clock.now) if self.stall else None
        self.clock.now += extra if extra is not None else ms / 1000
        self.deliver()

    def deliver(self) -> None:
        while self.events and self.events[0][0] <= self.clock.now:
            _, kind, request = self.events.pop(0)
            self.handlers[kind](request)


def _starts_ends(url: str, start: float, end: float | None):
    request = Request(url)
    return [(start, "request", request)] + ([(end, "requestfinished", request)] if end else [])


def _every(period: float, lasting: float, until: float):
    events = []
    for n in range(int(until / period)):
        t = n * period
        events += _starts_ends(f"http://127.0.0.1:1/poll?{n}", t, t + lasting)
    return events


CASES = [
    # name, events (seconds after settle starts), stall, ok?, words in the failure
    ("nothing loads", [], None, True, None),
    ("the search worker's files end quickly",
     _starts_ends("http://127.0.0.1:1/search/search_index.json", 0.05, 0.4)
     + _starts_ends("http://127.0.0.1:1/lunr.multi.min.js", 0.45, 0.9), None, True, None),
    ("a slow file, ended before the timeout", _starts_ends("http://127.0.0.1:1/big.js", 0.0, 15.0),
     None, True, None),
    ("one wait took longer than the whole timeout (a starved machine), then quiet",
     _starts_ends("http://127.0.0.1:1/lunr.multi.min.js", 0.0, 20.5),
     lambda now: 21.0 if now < 1025 else None, True, None),
    ("a request that never ends", _starts_ends("http://127.0.0.1:1/hangs.js", 0.1, None),
     None, False, "http://127.0.0.1:1/hangs.js"),
    # waits of 1/8 s, each holding a whole request: none is ever seen in flight, none is quiet
    ("requests that keep starting and ending",
     [(t + 1 / 32, kind, r) for t, kind, r in _every(1 / 8, 1 / 32, 60.0)],
     lambda now: 1 / 8, False, "kept starting and ending"),
    ("requests that keep coming, one in flight at the timeout", _every(0.05, 0.04, 60.0), None,
     False, "http://127.0.0.1:1/poll?"),
]


@pytest.mark.parametrize("name,events,stall,ok,words", CASES, ids=[c[0] for c in CASES])
def test_settle(monkeypatch, name, events, stall, ok, words):
    clock = Clock()
    monkeypatch.setattr(sitecheck.time, "monotonic", clock.monotonic)
    page = FakePage(clock, events, stall)
    monitor = Monitor(page)
    page.deliver()                      # what happened before settle() was called
    started = clock.now
    if ok:
        monitor.settle()
        assert not monitor.inflight
        assert clock.now - started <= 30.1
    else:
        with pytest.raises(AssertionError) as failure:
            monitor.settle()
        assert words in str(failure.value) and page.url in str(failure.value)
