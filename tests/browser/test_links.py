"""LinkChecker, crawling the site through the local server, finds no broken link (anchors are
the strict build's job: see CONFIG)."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from browser.sitecheck import fail_if

pytestmark = pytest.mark.xdist_group("browser")

LINKCHECKER = Path(sys.executable).with_name("linkchecker")
# Two threads: LinkChecker's threads share one Python interpreter's lock. On this site's 480
# local URLs (552 results each time), alone: 8 threads 13.5 s of wall and 10.1 s of CPU, 2
# threads 8.5 s and 7.1 s, 1 thread 7.4 s and 6.1 s; beside two busy loops (as in the suite):
# 15.8 s and 8.8 s, 12.6 s and 7.0 s, 13.5 s and 7.1 s.
CONFIG = """\
[checking]
threads=2
maxrequestspersecond=1000
[filtering]
checkextern=0
[output]
status=0
warnings=0
"""
# No [AnchorCheck]: it takes ~20 s of CPU on this site, and the strict build already fails on
# a broken anchor in a page's links (mkdocs.yml: validation: anchors: warn).


def test_linkchecker_finds_no_broken_link(site, base_url, tmp_path):
    assert LINKCHECKER.is_file(), f"{LINKCHECKER} is missing: run `make test`"
    config = tmp_path / "linkcheckerrc"
    config.write_text(CONFIG, encoding="utf-8")
    # Start from every page (not only the home page), so an orphan page is checked too.
    starts = [base_url + p.path for p in site.pages]
    run = subprocess.run([str(LINKCHECKER), "--config", str(config), "--no-status", "-o", "csv",
                          *starts], capture_output=True, text=True, timeout=300,
                         env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    if run.returncode not in (0, 1):
        pytest.fail(f"linkchecker failed (exit {run.returncode}):\n{run.stderr[-3000:]}",
                    pytrace=False)
    rows = [line for line in run.stdout.splitlines() if line and not line.startswith("#")]
    problems = []
    for row in csv.DictReader(io.StringIO("\n".join(rows)), delimiter=";"):
        if row.get("valid", "").strip().lower() in ("true", "1"):
            continue
        parent = (row.get("parentname") or "").replace(base_url, "/")
        problems.append(f"{row.get('urlname')!r} on {parent or '(start URL)'}"
                        f" line {row.get('line')}: {row.get('result')} → {row.get('url', '').replace(base_url, '/')}")
    if run.returncode == 1 and not problems:
        problems.append("linkchecker exited 1 without a parsable error row:\n" + run.stdout[-2000:])
    fail_if(problems, "broken links", limit=40)
