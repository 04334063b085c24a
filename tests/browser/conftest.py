"""Browser tests of the built site: one build, one local server and one Chromium per session.

Every test module here marks its tests `pytest.mark.xdist_group("browser")`, so that with
`pytest -n 2 --dist loadgroup` they all run in one worker and share these session fixtures.

- `site`: the site, built once into a temporary folder (strict; when the strict build fails, a
  lenient build is made so the browser checks can still report, and test_build.py fails).
  Generated Markdown goes to a temporary folder too, never to the shared .cache/docs.
- `base_url`: a threaded http.server on 127.0.0.1, on a free port, serving that folder.
- `browser` / `page`: Debian's Chromium (/usr/bin/chromium) driven by Playwright; one page
  reused by every test, with a `monitor` that records console errors, failed requests and
  requests to any host but 127.0.0.1 (those are aborted, never sent).
- `crawl`: every page of every language visited once; what each test asserts is recorded there.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading

import pytest

from browser.sitecheck import (CHROMIUM, CHROMIUM_ARGS, DESKTOP, LANGS, PHONE, HEAD_JS,
                               OVERFLOW_JS, BuiltSite, Monitor, QuietHandler, Visit, build_site,
                               discover_pages, start_vnu, visit)


def pytest_generate_tests(metafunc):
    """Any browser test taking `lang` runs once per language of the site."""
    if "lang" in metafunc.fixturenames:
        metafunc.parametrize("lang", LANGS)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> BuiltSite:
    work = tmp_path_factory.mktemp("browser-site")
    site_dir, generated = work / "site", work / "generated-docs"
    strict = build_site(site_dir, generated, strict=True)
    strict_log = strict.stderr + strict.stdout
    if strict.returncode != 0:
        lenient = build_site(site_dir, generated, strict=False)
        if lenient.returncode != 0:
            pytest.fail("the site does not build, even without --strict:\n"
                        + (lenient.stderr + lenient.stdout)[-6000:], pytrace=False)
    pages = discover_pages(site_dir)
    if not pages:
        pytest.fail(f"the build in {site_dir} holds no index.html", pytrace=False)
    built = BuiltSite(site_dir, pages, strict.returncode == 0, strict_log)
    built.vnu_files = sorted(site_dir.rglob("*.html"))
    built.vnu_output = work / "vnu.json"
    built.vnu = start_vnu(built.vnu_files, built.vnu_output)
    yield built
    if built.vnu is not None and built.vnu.poll() is None:
        built.vnu.kill()
        built.vnu.wait()


@pytest.fixture(scope="session")
def base_url(site) -> str:
    handler = functools.partial(QuietHandler, directory=str(site.root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


# --------------------------------------------------------------------------- the browser

@pytest.fixture(scope="session")
def browser():
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's chromium. "
                    "Run `make test`, which installs it (.ci/system-deps.sh).", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: run `make test`, which installs it.",
                    pytrace=False)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def monitor() -> Monitor:
    return Monitor()


@pytest.fixture(scope="session")
def browser_context(browser, monitor):
    context = browser.new_context(viewport=DESKTOP, locale="en-US", service_workers="block")
    context.set_default_timeout(15000)
    # Nothing may leave the machine: requests to other hosts are recorded, then aborted.
    context.route(lambda url: not monitor.is_local(url), lambda route: route.abort())
    context.on("request", monitor.on_request)
    context.on("requestfinished", monitor.on_done)
    context.on("requestfailed", monitor.on_failed)
    context.on("response", monitor.on_response)
    yield context
    context.close()


@pytest.fixture(scope="session")
def session_page(browser_context, monitor):
    page = browser_context.new_page()
    page.on("console", monitor.on_console)
    page.on("pageerror", monitor.on_page_error)
    return page


@pytest.fixture
def page(session_page, monitor):
    """The session's one page, at the desktop size, its monitor reset."""
    session_page.set_viewport_size(DESKTOP)
    monitor.reset()
    return session_page


# --------------------------------------------------------------------------- the crawl

@pytest.fixture(scope="session")
def crawl(site, base_url, session_page, monitor) -> dict[str, Visit]:
    """Visit every page of every language once, at the desktop size then at a phone's width."""
    page = session_page
    visits: dict[str, Visit] = {}
    for site_page in site.pages:
        record = Visit(site_page)
        page.set_viewport_size(DESKTOP)
        try:
            response = visit(page, monitor, base_url + site_page.path)
            record.status = response.status if response else None
            record.head = page.evaluate(HEAD_JS)
            page.set_viewport_size(PHONE)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            record.phone = page.evaluate(OVERFLOW_JS)
        except Exception as exc:  # a page that does not load is a finding, not a crash
            record.error = f"{type(exc).__name__}: {exc}".splitlines()[0]
        record.console_errors = list(monitor.console_errors)
        record.page_errors = list(monitor.page_errors)
        record.failed = list(dict.fromkeys(monitor.failed))
        record.foreign = list(dict.fromkeys(monitor.foreign))
        visits[site_page.path] = record
    page.set_viewport_size(DESKTOP)
    return visits
