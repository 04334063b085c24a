"""axe-core finds no serious or critical violation on a sample of pages in every language.

axe runs in the crawl's visit of each page of the sample (sitecheck.AXE_SAMPLE: loaded, quiet,
at the desktop size), so a page is loaded once for all the page checks."""

from __future__ import annotations

import pytest

from browser.sitecheck import AXE_JS, AXE_SAMPLE, fail_if, run_axe, serious_violations

pytestmark = pytest.mark.xdist_group("browser")

def test_axe_finds_no_serious_violation(crawl, site, lang):
    assert AXE_JS.is_file(), f"{AXE_JS} is missing: run `make test` (npm ci installs axe-core)"
    problems = []
    for rel in AXE_SAMPLE:
        path = site.url_path(lang, rel)
        visit = crawl.get(path)
        if not (site.root / path / "index.html").is_file() or visit is None:
            problems.append(f"/{path}: not built")
            continue
        if visit.error or visit.status is None or visit.status >= 400:
            problems.append(f"/{path}: did not load: {visit.error or f'HTTP {visit.status}'}")
            continue
        if visit.axe is None:
            problems.append(f"/{path}: axe-core did not run: {visit.axe_error}")
            continue
        problems += [f"/{path}: {line}" for line in serious_violations(visit.axe)]
    fail_if(problems, f"[{lang}] axe-core serious/critical violations", limit=40)


def test_axe_reports_a_serious_violation_as_the_crawl_runs_it(page):
    """The crawl's run of axe reports what the test above fails on: a button with no name
    (axe's button-name, critical) on an otherwise plain page."""
    page.set_content("<!doctype html><html lang='en'><head><title>t</title></head>"
                     "<body><main><h1>t</h1><button></button></main></body></html>")
    violations, error = run_axe(page)
    assert error == "" and violations is not None
    assert {(v["id"], v["impact"]) for v in violations} >= {("button-name", "critical")}
    assert any(line.startswith("critical button-name") for line in serious_violations(violations))
