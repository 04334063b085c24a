"""Browser tests of the built site: one build, one local server and one Chromium per session.

Every test module here marks its tests `pytest.mark.xdist_group("browser")`, so that with
`pytest -n 2 --dist loadgroup` they all run in one worker and share these session fixtures
(tests/conftest.py makes that grouping work with pytest 9).

- `site`: the session's one build of the whole project (tests/conftest.py `session_build`,
  shared with the site tests: strict; when the strict build fails, a lenient build is made so
  the browser checks can still report, and test_build.py fails). The Nu validator starts on
  the build's HTML files right away and runs in the background (`vnu_done` waits for it).
- `base_url`: a threaded http.server on 127.0.0.1, on a free port, serving that folder from a
  process of its own (siteserver.py), so that no Python thread of the tests delays an answer.
- `browser`: Debian's Chromium for automation (/usr/bin/chromium-headless-shell) driven by
  Playwright; missing, it fails every test with the way to install it (`make test`), never
  skips.
- `monitor` / `page`: one page (tab), reused by every test, and its Monitor, which records
  console errors, uncaught exceptions, failed requests, and requests to any host but
  127.0.0.1 (they fail at a closed proxy: nothing leaves the machine).
- `crawl`: every page of every language visited once (axe-core run on the sample pages of
  sitecheck.AXE_SAMPLE); the page checks of test_pages.py and test_accessibility.py read what
  was recorded there. It starts in background threads (two Chromiums of its own) as soon as the
  site is served, and the tests that read it run last, so its ~2 minutes overlap the
  interactive tests instead of adding to them.

Shared code (the build, the page monitor, the scripts run in pages) is in sitecheck.py.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from browser.sitecheck import (DESKTOP, LANGS, BuiltSite, Monitor, Visit,
                               chromium_missing, crawl_site, discover_pages,
                               launch_chromium, site_context, start_vnu)

SITESERVER = Path(__file__).with_name("siteserver.py")


# Fixtures of work the session starts in the background: the crawl, and the Nu validator.
BACKGROUND = ("crawl", "vnu_done")


def pytest_collection_modifyitems(items):
    """The tests that read background work run after the other browser tests: the crawl and
    the Nu validator, started with the session's first browser test, run meanwhile, and no
    test waits for them early."""
    items.sort(key=lambda item: any(name in getattr(item, "fixturenames", ())
                                    for name in BACKGROUND))


def pytest_generate_tests(metafunc):
    """Any browser test taking `lang` runs once per language of the site (unless the test
    parametrizes `lang` itself)."""
    own = any("lang" in str(m.args[0]).replace(" ", "").split(",")
              for m in metafunc.definition.iter_markers("parametrize") if m.args)
    if "lang" in metafunc.fixturenames and not own:
        metafunc.parametrize("lang", LANGS)


@pytest.fixture(scope="session")
def site(session_build, tmp_path_factory) -> BuiltSite:
    site_dir = session_build.site
    pages = discover_pages(site_dir)
    if not pages:
        pytest.fail(f"the build in {site_dir} holds no index.html", pytrace=False)
    built = BuiltSite(site_dir, pages, session_build.strict_ok, session_build.strict_log)
    built.vnu_files = sorted(site_dir.rglob("*.html"))
    built.vnu_output = tmp_path_factory.mktemp("vnu") / "vnu.json"
    built.vnu = start_vnu(built.vnu_files, built.vnu_output)
    yield built
    if built.vnu is not None and built.vnu.poll() is None:
        built.vnu.kill()
        built.vnu.wait()


@pytest.fixture(scope="session")
def vnu_done(site) -> BuiltSite:
    """The site, once the Nu validator started on it has finished (or was killed after 5 min)."""
    if site.vnu is not None:
        try:
            site.vnu.wait(timeout=300)
        except subprocess.TimeoutExpired:
            site.vnu.kill()
            raise
    return site


@pytest.fixture(scope="session")
def base_url(site) -> str:
    server = subprocess.Popen([sys.executable, str(SITESERVER), str(site.root)],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        if not port.isdigit():
            pytest.fail(f"{SITESERVER.name} did not start (exit code {server.poll()})",
                        pytrace=False)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stdout.close()


# --------------------------------------------------------------------------- the browser

@pytest.fixture(scope="session")
def browser():
    missing = chromium_missing()
    if missing:
        pytest.fail(missing, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def browser_context(browser):
    context = site_context(browser)
    yield context
    context.close()


@pytest.fixture(scope="session")
def monitor(browser_context) -> Monitor:
    """The session's one page for interactive tests, and what it does (monitor.page)."""
    return Monitor(browser_context.new_page())


@pytest.fixture
def page(monitor):
    """The session's one page, at the desktop size, its monitor reset."""
    monitor.page.set_viewport_size(DESKTOP)
    monitor.reset()
    return monitor.page


# --------------------------------------------------------------------------- the crawl

@pytest.fixture(scope="session", autouse=True)
def crawl_started(request):
    """The crawl starts as soon as the site is served, in threads of its own, while the other
    browser tests run (when any test of the session reads it; a session with none, such as the
    fake-page tests alone, builds and serves nothing for it)."""
    if chromium_missing() or not any("crawl" in getattr(item, "fixturenames", ())
                                     for item in request.session.items):
        yield None
        return
    site, base_url = request.getfixturevalue("site"), request.getfixturevalue("base_url")
    stop = threading.Event()
    with ThreadPoolExecutor(1, thread_name_prefix="crawl-start") as pool:
        crawling = pool.submit(crawl_site, base_url, site.pages, stop=stop)
        yield crawling
        stop.set()      # the session ends: a crawl still running stops after its current pages


@pytest.fixture(scope="session")
def crawl(crawl_started) -> dict[str, Visit]:
    """Every page of every language, visited once (see sitecheck.crawl_site)."""
    missing = chromium_missing()
    if missing:
        pytest.fail(missing, pytrace=False)
    return crawl_started.result()
