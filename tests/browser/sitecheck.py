"""What the browser tests share: the site's languages and pages, the build, the local server's
handler, the page monitor and the scripts run in the page. Imported as `browser.sitecheck`
(tests/ is on pytest's pythonpath). The crawl runs in lanes and serves each page a search index
of its own sections: indexing the whole site cost ~0.3 s of every page's ~1 s, is the same work
from every page, and is checked by the tests that search instead."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
# Debian's Chromium built for automation (package chromium-headless-shell): the same Blink,
# V8 and network stack as /usr/bin/chromium, without the desktop browser around them. The
# browser tests alone (112, one process) took 22 % less of the machine's CPU with it than with
# the full browser in headless mode (305 s against 390 s) and 197 s of wall against 232 s.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 # several crawl lanes run at once: none may be slowed down as a background page
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows",
                 # Nothing leaves the machine: every request to another host goes to a proxy on
                 # a closed local port and fails there, while 127.0.0.1 is always reached
                 # directly (Chromium never proxies loopback). A Playwright route would do it
                 # too, but any route turns the browser's HTTP cache off, and every page would
                 # fetch and compile Material's scripts and the Play page's Pyodide again.
                 "--proxy-server=http://127.0.0.1:9"]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}


class _AnyTagLoader(yaml.SafeLoader):
    """mkdocs.yml may hold tags (!ENV, !relative, !!python/name:…): only the languages matter."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def _languages() -> list[str]:
    """The site's languages, default first, read from mkdocs.yml (the i18n plugin's list)."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_AnyTagLoader)
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            langs = plugin["i18n"]["languages"]
            default = [l["locale"] for l in langs if l.get("default")]
            return default + [l["locale"] for l in langs if not l.get("default")]
    raise RuntimeError("mkdocs.yml has no i18n plugin with a list of languages")


LANGS = _languages()
DEFAULT_LANG = LANGS[0]


# --------------------------------------------------------------------------- the built site

@dataclass(frozen=True)
class SitePage:
    path: str          # URL path from the site root: "es/tutorial/04-marriages-and-claiming/"
    lang: str          # "es"
    rel: str           # the path within its language: "tutorial/04-marriages-and-claiming/"
    file: Path

    @property
    def is_404(self) -> bool:
        return self.rel == "404.html"

    @property
    def label(self) -> str:
        return "/" + self.path


@dataclass
class BuiltSite:
    root: Path
    pages: list[SitePage]
    strict_ok: bool
    strict_log: str
    vnu: subprocess.Popen | None = field(default=None, repr=False)
    vnu_files: list[Path] = field(default_factory=list)
    vnu_output: Path | None = None

    def pages_in(self, lang: str) -> list[SitePage]:
        return [p for p in self.pages if p.lang == lang]

    def url_path(self, lang: str, rel: str) -> str:
        return rel if lang == DEFAULT_LANG else f"{lang}/{rel}"


def discover_pages(site_dir: Path) -> list[SitePage]:
    """Every index.html of the build is a page; its first path segment names its language.
    The one 404.html (hosts serve a single one for every language) counts as a default page."""
    pages = []
    if (site_dir / "404.html").is_file():
        pages.append(SitePage("404.html", DEFAULT_LANG, "404.html", site_dir / "404.html"))
    for file in sorted(site_dir.rglob("index.html")):
        rel_dir = file.parent.relative_to(site_dir).as_posix()
        path = "" if rel_dir == "." else rel_dir + "/"
        if path.startswith(("assets/", "search/")):
            continue
        first = path.split("/", 1)[0]
        if first in LANGS[1:]:
            lang, rel = first, path[len(first) + 1:]
        else:
            lang, rel = DEFAULT_LANG, path
        pages.append(SitePage(path, lang, rel, file))
    return pages


def start_vnu(files: list[Path], output: Path) -> subprocess.Popen | None:
    """The Nu validator takes a few seconds: it starts now and runs while the browser works.
    Its JSON report (vnu writes it to stderr) goes to `output`, anything on stdout next to it
    (output + ".stdout"): files, so that no pipe can fill up and stall it."""
    java = shutil.which("java")
    if java is None or not VNU_JAR.is_file():
        return None
    with output.open("w", encoding="utf-8") as err, \
            output.with_name(output.name + ".stdout").open("w", encoding="utf-8") as out:
        return subprocess.Popen(
            [java, "-jar", str(VNU_JAR), "--errors-only", "--format", "json", *map(str, files)],
            stdout=out, stderr=err)


def is_local(url: str) -> bool:
    """Only 127.0.0.1 may be asked for anything (data:, blob:, about: never leave the machine)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return True
    return parts.hostname == "127.0.0.1"


class Monitor:
    """What one page (tab) did since the last reset(): console errors, uncaught exceptions,
    failed requests (network failures and HTTP errors) and requests to other hosts. Requests from
    the page's workers (Material's search worker) count as the page's."""

    def __init__(self, page):
        self.page = page
        self.inflight: set = set()
        self.earlier: set = set()       # requests of a previous page, still running at reset()
        self.reset()
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.on("console", self._on_console)
        page.on("pageerror", self._on_page_error)

    def reset(self):
        """Start afresh; a request still running belongs to the previous page, not this one."""
        self.earlier |= self.inflight
        self.inflight = set()
        self.last_event = time.monotonic()
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.failed: list[str] = []
        self.foreign: list[str] = []

    def _on_request(self, request):
        self.last_event = time.monotonic()
        self.inflight.add(request)
        if not is_local(request.url):
            self.foreign.append(f"{request.method} {request.url} ({request.resource_type})")

    def _on_done(self, request):
        self.last_event = time.monotonic()
        self.inflight.discard(request)

    def _on_failed(self, request):
        self.last_event = time.monotonic()
        self.inflight.discard(request)
        if request in self.earlier:
            return
        # Requests to other hosts fail on purpose (and are listed in `foreign`); a request
        # the browser itself cancels (net::ERR_ABORTED: a navigation, a worker moving on) is not
        # a fault of the site. A missing file is an HTTP 404 (see _on_response).
        if is_local(request.url) and request.failure != "net::ERR_ABORTED":
            self.failed.append(f"{request.url} ({request.resource_type}): {request.failure}")

    def _on_response(self, response):
        if response.status >= 400 and response.request not in self.earlier:
            self.failed.append(f"{response.url} ({response.request.resource_type}): "
                               f"HTTP {response.status}")

    def _on_console(self, message):
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            self.console_errors.append(f"{message.text}" + (f" [at {where}]" if where else ""))

    def _on_page_error(self, error):
        self.page_errors.append(str(error))

    def settle(self, quiet_ms: int = 100, timeout_ms: int = 20000, grace_ms: int = 10000):
        """Wait until no request has been in flight, and none has started or ended, for quiet_ms:
        after `load`, Material's search worker still fetches the index and the lunr languages.

        A request still in flight after timeout_ms fails the caller, naming it. When nothing is
        in flight then but the quiet period could not be seen (on a loaded machine one wait can
        take seconds, or requests came and went until the end), it gets grace_ms more to be
        quiet: a page that is merely slow is not a page that never finishes loading."""
        started = time.monotonic()
        deadline, last_chance = started + timeout_ms / 1000, started + (timeout_ms + grace_ms) / 1000
        while True:
            now = time.monotonic()
            if not self.inflight and (now - self.last_event) * 1000 >= quiet_ms:
                return
            if now >= last_chance or (now >= deadline and self.inflight):
                break
            self.page.wait_for_timeout(25)
        busy = sorted(r.url for r in self.inflight)
        waited = round((time.monotonic() - started) * 1000)
        raise AssertionError(f"{self.page.url}: still loading after {waited} ms: "
                             + (", ".join(busy[:5]) if busy else
                                "requests kept starting and ending"))


def visit(monitor: Monitor, url: str, *, expect_ok: bool = False):
    """Load url in the monitor's page and wait until it is quiet; returns the main response.
    With expect_ok, a missing page or an HTTP error fails the calling test."""
    monitor.reset()
    response = monitor.page.goto(url, wait_until="load")
    monitor.settle()
    if expect_ok:
        assert response is not None and response.ok, (
            f"{url}: HTTP {response.status if response else 'no response'}")
    return response


# --------------------------------------------------------------------------- the crawl

# At a phone's width, in the content (.md-content), three ways to be too wide:
#  - an element scrolls sideways (overflow-x auto/scroll, content wider than its box);
#  - an element cuts its content off (overflow-x hidden/clip, no ellipsis);
#  - an element reaches past the screen's edge without a scrolling or clipping ancestor.
# Allowed: anything in an example diagram (.mc-diagram, made to scroll sideways), and Material's
# own table wrapper (.md-typeset__scrollwrap): Material wraps every Markdown table in it so that
# the table, never the page, scrolls; a data table has no better phone layout than that.
# (Material's wrapper has negative side margins on phones: a box wider than its parent's
# content box is therefore not a fault as long as it stays on the screen.)
OVERFLOW_JS = """
() => {
  const ALLOWED = '.mc-diagram, .md-typeset__scrollwrap';
  const se = document.scrollingElement;
  const viewport = document.documentElement.clientWidth;
  const heading = (el) => {
    for (let n = el; n && n !== document.body; n = n.parentElement) {
      for (let p = n.previousElementSibling; p; p = p.previousElementSibling)
        if (/^H[1-6]$/.test(p.tagName)) return p.textContent.replace('\u00b6', '').trim();
    }
    return '';
  };
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.classList.length) s += '.' + [...el.classList].join('.');
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 50);
    const h = heading(el);
    return s + (text ? ` "${text}"` : '') + (h ? ` (section "${h}")` : '');
  };
  const inFlowOnScreen = (el) => {   // no fixed, scrolling or clipping ancestor
    for (let a = el; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.position === 'fixed') return false;
      if (a !== el && cs.overflowX !== 'visible') return false;
    }
    return true;
  };
  const problems = [], allowed = [];
  const content = document.querySelector('.md-content') || document.body;
  for (const el of content.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const extra = el.scrollWidth - el.clientWidth;
    const ox = cs.overflowX;
    let kind = null;
    if (el.clientWidth > 0 && extra > 1 && (ox === 'auto' || ox === 'scroll'))
      kind = `scrolls sideways by ${extra}px (box ${el.clientWidth}px, content ${el.scrollWidth}px)`;
    else if (el.clientWidth > 0 && extra > 1 && ox !== 'visible' && cs.textOverflow !== 'ellipsis')
      kind = `cuts off ${extra}px of its content (overflow-x: ${ox})`;
    else if ((r.right > viewport + 1 || r.left < -1) && inFlowOnScreen(el))
      kind = `reaches past the screen (${Math.round(r.left)}px to ${Math.round(r.right)}px)`;
    if (!kind) continue;
    if (el.closest(ALLOWED)) { if (kind.startsWith('scrolls')) allowed.push(describe(el)); continue; }
    problems.push({el, kind});
  }
  // An element that scrolls or cuts its content off is reported itself (the innermost one: its
  // ancestors only inherit the width). Of boxes that reach past the screen, the outermost is
  // reported (a row of cards rather than each card).
  const boxed = problems.filter(p => p.kind.startsWith('reaches'));
  const others = problems.filter(p => !p.kind.startsWith('reaches'));
  const innermost = others.filter(p => !others.some(q => q !== p && p.el.contains(q.el)));
  const outermost = boxed.filter(p => !problems.some(q => q !== p && q.el.contains(p.el)));
  const offenders = [...innermost, ...outermost].map(p => `${describe(p.el)}: ${p.kind}`);
  // When the page itself is too wide, name the in-flow boxes that reach past the right edge.
  let widest = [];
  if (se.scrollWidth > viewport) {
    const wide = [...document.body.querySelectorAll('*')].filter(el => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right > viewport + 1 && inFlowOnScreen(el);
    });
    widest = wide.filter(el => !wide.some(o => o !== el && o.contains(el))).slice(0, 5)
                 .map(el => `${describe(el)} reaches ${Math.round(el.getBoundingClientRect().right)}px`);
  }
  return {scrollWidth: se.scrollWidth, viewport, offenders, widest, allowed};
}
"""

HEAD_JS = """
() => ({
  lang: document.documentElement.getAttribute('lang'),
  alternates: [...document.querySelectorAll('head link[rel=alternate][hreflang]')]
                 .map(l => [l.getAttribute('hreflang'), l.href]),
  selector: [...document.querySelectorAll('.md-header .md-select a[hreflang]')]
                 .map(a => [a.getAttribute('hreflang'), a.href]),
  title: document.title,
})
"""


@dataclass
class Visit:
    page: SitePage
    status: int | None = None
    error: str = ""
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    head: dict = field(default_factory=dict)
    phone: dict = field(default_factory=dict)
    axe: list[dict] | None = None      # axe-core's violations, on the pages of AXE_SAMPLE
    axe_error: str = ""


CRAWL_LANES = 2    # pages crawled at once; see crawl_site

# The pages of each language axe-core checks (test_accessibility.py), in the crawl's own visit:
# loaded, quiet, at the desktop size, before the page is narrowed to a phone's width.
AXE_SAMPLE = ["", "play/", "tutorial/04-marriages-and-claiming/", "examples/07-marriage-claim/",
              "examples/05-closing/", "faq/"]
_RUN_AXE = """
async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                              summary: (n.failureSummary || '').split('\\n').slice(0, 2).join(' ')}))
  }));
}
"""


def chromium_missing() -> str:
    """Why the browser tests cannot run here (and how to fix it), or "" when they can."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        return (f"{CHROMIUM} is missing: the browser tests need Debian's "
                "chromium-headless-shell. "
                "Run `make test`, which installs it (.ci/system-deps.sh).")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: run `make test`, which installs it."
    return ""


def launch_chromium(pw):
    return pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)


def site_context(browser, **options):
    """A browser context at the desktop size from which nothing leaves the machine: requests
    to other hosts fail at the closed proxy of CHROMIUM_ARGS (and are recorded by the page's
    Monitor); the HTTP cache works as in a reader's browser."""
    context = browser.new_context(**{"viewport": DESKTOP, "locale": "en-US",
                                     "service_workers": "block", **options})
    context.set_default_timeout(30000)   # generous: a loaded CI machine is slow, not broken
    return context


def crawl_site(base_url: str, pages: list[SitePage], lanes: int = CRAWL_LANES,
               stop: threading.Event | None = None) -> dict[str, Visit]:
    """Visit every page once, in page order, `lanes` pages at a time (see crawl_lane).

    A page mostly waits (for its load, its search worker, the quiet period), so one lane's waits
    overlap another's work. Each lane is a thread with its own Playwright and Chromium (the
    sync API serves one thread) and one foreground page: no lane is a throttled background tab."""
    shares = [pages[i::lanes] for i in range(lanes)]
    with ThreadPoolExecutor(lanes, thread_name_prefix="crawl") as pool:
        done = list(pool.map(lambda share: crawl_lane(base_url, share, stop), shares))
    visits = {path: visit for lane in done for path, visit in lane.items()}
    return {p.path: visits[p.path] for p in pages if p.path in visits}


def crawl_lane(base_url: str, pages: list[SitePage],
               stop: threading.Event | None = None) -> dict[str, Visit]:
    """Visit each page in one page (tab) of a Chromium of its own: load it at the desktop size,
    wait until it is quiet, record what it did, then narrow it to a phone's width and measure
    what sticks out. (Stops early, leaving pages out, once `stop` is set: the session ends.)"""
    from playwright.sync_api import sync_playwright

    visits: dict[str, Visit] = {}
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            context, visiting, index = site_context(browser), [], OwnSectionsOnly()
            monitor = Monitor(context.new_page())
            intercept(context, monitor.page, "*/search/search_index.json",
                      lambda route: index(route, visiting[-1]))
            for site_page in pages:
                if stop is not None and stop.is_set():
                    break
                visiting.append(site_page)
                visits[site_page.path] = visit_and_measure(monitor, base_url, site_page)
        finally:
            browser.close()
    return visits


def intercept(context, page, url_pattern: str, handler) -> None:
    """Call handler(PausedRequest) for each request of `page` (its workers' too) whose URL
    matches url_pattern (the DevTools protocol's wildcards: * and ?), instead of sending it.

    Playwright's `route` would do it, but any route turns the browser's HTTP cache off: every
    page of the crawl then fetched and compiled Material's scripts, styles and the lunr
    languages again (measured on 46 pages: 29.1 s of Chromium's CPU, 21.8 s of wall; with the
    cache, 27.0 s and 18.2 s). The Fetch domain pauses only the requests it matches and leaves
    the cache alone."""
    cdp = context.new_cdp_session(page)
    cdp.on("Fetch.requestPaused",
           lambda event: handler(PausedRequest(cdp, context.request, event)))
    cdp.send("Fetch.enable", {"patterns": [{"urlPattern": url_pattern,
                                            "requestStage": "Request"}]})


class PausedRequest:
    """A request paused by `intercept`, with the two calls of a Playwright route the crawl
    uses: fetch() asks the server itself (status, headers and body as sent), fulfill() answers
    the page."""

    def __init__(self, cdp, api, event: dict[str, Any]) -> None:
        self._cdp, self._api, self._event = cdp, api, event

    @property
    def url(self) -> str:
        return self._event["request"]["url"]

    def fetch(self):
        return self._api.get(self.url, fail_on_status_code=False)

    def fulfill(self, *, status: int, headers: dict[str, str], body: bytes | None = None,
                json: Any = None) -> None:
        if json is not None:
            body = _json_dumps(json).encode()
            headers = {k: v for k, v in headers.items() if k.lower() != "content-type"} \
                | {"content-type": "application/json"}
        self._cdp.send("Fetch.fulfillRequest", {
            "requestId": self._event["requestId"], "responseCode": status,
            "responseHeaders": [{"name": k, "value": v} for k, v in headers.items()],
            "body": base64.b64encode(body or b"").decode("ascii")})


_json_dumps = json.dumps     # PausedRequest.fulfill's `json` argument hides the module


class OwnSectionsOnly:
    """Serve the search index as the server sent it (its status and headers too), but with only
    the visited page's own sections: Material's search worker still starts, fetches the index
    and every lunr language on every page, while indexing the whole site (the same work from
    every page, ~0.3 s of each page's wait here) is left to the tests that search
    (test_search.py, test_reference.py). The index is a file of the built site: a lane fetches
    and parses it once, not once per page."""

    def __init__(self) -> None:
        self.sent: tuple[int, dict[str, str], bytes] | None = None
        self.by_page: dict[str, list[Any]] | None = None
        self.rest: dict[str, Any] = {}

    def __call__(self, route, site_page: SitePage) -> None:
        if self.sent is None:
            response = route.fetch()
            self.sent = (response.status, {k: v for k, v in response.headers.items()
                                           if k.lower() != "content-length"}, response.body())
            self._read(response.ok, self.sent[2])
        status, headers, body = self.sent
        if self.by_page is None:        # not an index: passed on as it is (the worker's error
            route.fulfill(status=status, headers=headers, body=body)      # is recorded)
            return
        route.fulfill(status=status, headers=headers,
                      json=self.rest | {"docs": self.by_page.get(site_page.path, [])})

    def _read(self, ok: bool, body: bytes) -> None:
        try:
            index = json.loads(body) if ok else None
        except ValueError:
            index = None
        if not isinstance(index, dict) or not isinstance(index.get("docs"), list):
            return
        self.by_page = {}
        for doc in index["docs"]:
            path = str(doc.get("location", "")).split("#")[0] if isinstance(doc, dict) else ""
            self.by_page.setdefault(path, []).append(doc)
        self.rest = {k: v for k, v in index.items() if k != "docs"}


def visit_and_measure(monitor: Monitor, base_url: str, site_page: SitePage) -> Visit:
    page, record = monitor.page, Visit(site_page)
    page.set_viewport_size(DESKTOP)
    try:
        response = visit(monitor, base_url + site_page.path)
        record.status = response.status if response else None
        record.head = page.evaluate(HEAD_JS)
        if site_page.rel in AXE_SAMPLE:
            record.axe, record.axe_error = run_axe(page)
        page.set_viewport_size(PHONE)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        record.phone = page.evaluate(OVERFLOW_JS)
    except Exception as exc:  # a page that does not load is a finding, not a crash
        record.error = f"{type(exc).__name__}: {exc}".splitlines()[0]
    record.console_errors = list(monitor.console_errors)
    record.page_errors = list(monitor.page_errors)
    record.failed = list(dict.fromkeys(monitor.failed))
    record.foreign = list(dict.fromkeys(monitor.foreign))
    return record


def run_axe(page) -> tuple[list[dict] | None, str]:
    """axe-core's violations on the page as it is now, or why axe could not run."""
    if not AXE_JS.is_file():
        return None, f"{AXE_JS} is missing: run `make test` (npm ci installs axe-core)"
    try:
        page.add_script_tag(path=str(AXE_JS))
        return page.evaluate(_RUN_AXE), ""
    except Exception as exc:  # reported by test_accessibility.py, not a crash of the crawl
        return None, f"{type(exc).__name__}: {exc}".splitlines()[0]


IMPACTS = ("serious", "critical")        # the axe-core violations a page check fails on


def serious_violations(violations: list[dict]) -> list[str]:
    """One line per serious or critical axe-core violation: its rule, the first nodes it found
    and what to fix."""
    lines = []
    for v in violations:
        if v["impact"] not in IMPACTS:
            continue
        nodes = v["nodes"]
        shown = "; ".join(f"{n['target']} {' '.join(n['html'].split())[:100]!r}"
                          for n in nodes[:3])
        more = f" (+{len(nodes) - 3} more)" if len(nodes) > 3 else ""
        lines.append(f"{v['impact']} {v['id']} ({v['help']}): {shown}{more}"
                     + (f" — {nodes[0]['summary']}" if nodes and nodes[0]["summary"] else ""))
    return lines


def bullet_list(items, limit: int = 25) -> str:
    items = list(items)
    text = "\n".join(f"  - {item}" for item in items[:limit])
    if len(items) > limit:
        text += f"\n  … and {len(items) - limit} more"
    return text


def fail_if(problems, header: str, limit: int = 25):
    """Fail the test with a short readable report (no traceback) when there are problems."""
    problems = list(problems)
    if problems:
        import pytest
        pytest.fail(f"{header} ({len(problems)}):\n{bullet_list(problems, limit)}", pytrace=False)
