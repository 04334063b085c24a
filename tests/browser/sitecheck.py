"""What the browser tests share: the site's languages and pages, the build, the local server's
handler, the page monitor and the scripts run in the page. Imported as `browser.sitecheck`
(tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import http.server
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}


def _languages() -> list[str]:
    """The site's languages, default first, read from mkdocs.yml (the i18n plugin's list)."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
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

    def page(self, lang: str, rel: str) -> SitePage | None:
        return next((p for p in self.pages if p.lang == lang and p.rel == rel), None)

    def url_path(self, lang: str, rel: str) -> str:
        return rel if lang == DEFAULT_LANG else f"{lang}/{rel}"


BUILD_SCRIPT = """
import logging, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
logging.basicConfig(level=logging.INFO, format="%(levelname)-7s -  %(message)s", stream=sys.stderr)
site_dir, generated, strict = sys.argv[1], sys.argv[2], sys.argv[3] == "strict"
config = load_config("mkdocs.yml", site_dir=site_dir, strict=strict)
config.plugins["mariage"].config["generated"] = generated   # not the shared .cache/docs
config.plugins.on_startup(command="build", dirty=False)
try:
    build(config)
finally:
    config.plugins.on_shutdown()
"""


def build_site(site_dir: Path, generated: Path, strict: bool) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BUILD_SCRIPT, str(site_dir), str(generated),
         "strict" if strict else "lenient"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)


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
    Its JSON report (written to stderr) goes to `output`, so no pipe can fill up and stall it."""
    java = shutil.which("java")
    if java is None or not VNU_JAR.is_file():
        return None
    with output.open("w", encoding="utf-8") as sink:
        return subprocess.Popen(
            [java, "-jar", str(VNU_JAR), "--errors-only", "--format", "json", *map(str, files)],
            stdout=sink, stderr=subprocess.STDOUT)


# --------------------------------------------------------------------------- the local server

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        # LinkChecker only goes above 10 requests a second to a server that sends this header.
        self.send_header("LinkChecker", "allow")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass


class Monitor:
    """What the page did since the last reset(): console errors, failures, foreign hosts."""

    def __init__(self):
        self.inflight: set = set()
        self.reset()

    def reset(self):
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.failed: list[str] = []
        self.foreign: list[str] = []

    def is_local(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ws", "wss"):
            return True        # data:, blob:, about: never leave the machine
        return parts.hostname == "127.0.0.1"

    # event handlers
    def on_request(self, request):
        self.inflight.add(request)
        if not self.is_local(request.url):
            self.foreign.append(f"{request.method} {request.url} ({request.resource_type})")

    def on_done(self, request):
        self.inflight.discard(request)

    def on_failed(self, request):
        self.inflight.discard(request)
        if self.is_local(request.url):
            self.failed.append(f"{request.url} ({request.resource_type}): {request.failure}")

    def on_response(self, response):
        if response.status >= 400:
            self.failed.append(f"{response.url} ({response.request.resource_type}): "
                               f"HTTP {response.status}")

    def on_console(self, message):
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            self.console_errors.append(f"{message.text}" + (f" [at {where}]" if where else ""))

    def on_page_error(self, error):
        self.page_errors.append(str(error))

    def settle(self, page, quiet_ms: int = 120, timeout_ms: int = 8000):
        """Wait until no request has been in flight for quiet_ms (Material fetches after load)."""
        deadline = time.monotonic() + timeout_ms / 1000
        quiet_since = None
        while time.monotonic() < deadline:
            if self.inflight:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
                return
            page.wait_for_timeout(30)


def visit(page, monitor, url: str):
    """Load url and wait until the page is quiet; returns the main response (or None)."""
    monitor.reset()
    response = page.goto(url, wait_until="load")
    monitor.settle(page)
    return response


# --------------------------------------------------------------------------- the crawl

# In the content (article), what sticks out sideways at a phone's width. Allowed: whatever is in
# an example diagram (.mc-diagram, made to scroll), and Material's own table wrapper
# (.md-typeset__scrollwrap: Material wraps every Markdown table in it so that the table, never the
# page, scrolls; a data table has no better phone layout than that).
OVERFLOW_JS = """
() => {
  const ALLOWED = '.mc-diagram, .md-typeset__scrollwrap';
  const se = document.scrollingElement;
  const viewport = document.documentElement.clientWidth;
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = [...el.classList].join('.');
    if (cls) s += '.' + cls;
    const heading = (() => {
      let n = el;
      while (n && n !== document.body) {
        let p = n.previousElementSibling;
        while (p) { if (/^H[1-6]$/.test(p.tagName)) return p.textContent.replace('¶','').trim(); p = p.previousElementSibling; }
        n = n.parentElement;
      }
      return '';
    })();
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
    return s + (text ? ` "${text}"` : '') + (heading ? ` (under the heading "${heading}")` : '');
  };
  const problems = [];
  const content = document.querySelector('.md-content') || document.body;
  for (const el of content.querySelectorAll('*')) {
    if (el.closest(ALLOWED)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || el.clientWidth === 0) continue;
    const extra = el.scrollWidth - el.clientWidth;
    if (extra <= 1) continue;
    const ox = cs.overflowX;
    let kind;
    if (ox === 'auto' || ox === 'scroll') kind = 'scrolls sideways';
    else if (ox === 'visible') kind = 'content sticks out of its box';
    else if (cs.textOverflow === 'ellipsis') continue;     // cut on purpose, with an ellipsis
    else kind = 'content is cut off';
    problems.push({el, kind, extra});
  }
  // Report the innermost culprits: an overflowing child makes its parents overflow too.
  const innermost = problems.filter(p => !problems.some(q => q !== p && p.el.contains(q.el)));
  const offenders = innermost.map(p =>
      `${describe(p.el)}: ${p.kind} by ${p.extra}px (box ${p.el.clientWidth}px, content ${p.el.scrollWidth}px)`);
  // When the page itself is too wide, say which in-flow boxes reach past the right edge.
  const wide = [];
  if (se.scrollWidth > viewport) {
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= viewport + 1) continue;
      let clipped = false, fixed = false;
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.position === 'fixed') { fixed = true; break; }
        if (a !== el && cs.overflowX !== 'visible') { clipped = true; break; }
      }
      if (!clipped && !fixed) wide.push(el);
    }
  }
  const widest = wide.filter(el => !wide.some(o => o !== el && el.contains(o)))
                     .slice(0, 5).map(el => `${describe(el)} reaches ${Math.round(el.getBoundingClientRect().right)}px`);
  return {scrollWidth: se.scrollWidth, viewport, innerWidth: window.innerWidth,
          offenders, widest};
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


def bullet_list(items, limit: int = 25) -> str:
    items = list(items)
    text = "\n".join(f"  - {item}" for item in items[:limit])
    if len(items) > limit:
        text += f"\n  … and {len(items) - limit} more"
    return text
