"""Re-run the reliability review's failed attempts and count handled/total on its 132.

The review (../shared/reviews/reliability.md) made 132 attempts: 67 handled, 65 not. This
script re-runs every failed one that belongs to issue 15:
- the CLI, profile and example rows of tests/hostile/cases.py, and the build rows of
  tests/site/test_publish.py (through pytest, one verdict per test);
- the build attempts that need root to set up for real: a read-only site/ and a read-only
  project (B9, B10, run without DAC override through setpriv) and a tmpfs mount point (B11).
The catalog rows (C*, and L24 `catalogs init` overwriting) belong to issue 9 and are not
re-run here; they are counted as the review left them.

    .venv/bin/python benchmarks/hostile.py [path/to/reliability.md] [--quick]
    .venv/bin/python benchmarks/hostile.py --catalogs     # the catalog size rows only

The catalog rows (third review: C25, NC13) time `mariage catalogs check fr` on a catalog with
one oversized message: the check must stay linear (a refused message is not read further), so
a 5 MB msgstr costs about what reading 5 MB costs, and 65,000 repeats of a placeholder nothing.
`--quick` re-runs three rows of the table and the first two catalog rows, no build attempt.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from _project import copy_sources

ROOT = Path(__file__).resolve().parents[1]
# The review sits next to the project (../shared), or next to the worktrees' folder.
REVIEWS = [ROOT.parent / "shared/reviews/reliability.md",
           ROOT.parent.parent / "shared/reviews/reliability.md"]
MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]
ENV = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner",
          "--inh-caps=-dac_override,-dac_read_search,-fowner", "--"]
PUBLISH_TESTS = {
    "strict_warning": ["B1"], "two_builds": ["B7"], "symlinked_site": ["B8"],
    "dot_entries": ["B12"], "killed_before": ["B6"], "mutated_profile": ["P26"],
    "site_url": ["B13"], "mount_point": ["B11"], "read_only_site": ["B9"],
}


def review_verdicts(path: Path) -> dict[str, str]:
    """Attempt id -> the review's verdict ('handled', 'crash', ...), B0 and S3 left out."""
    verdicts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| ([PCELBS]\d+[a-z]?) \|.*\| ([^|]*) \|\s*$", line)
        if match and match.group(1) not in ("B0", "S3"):
            verdicts[match.group(1)] = match.group(2).strip("* ").split(" (")[0].strip("*")
    return verdicts


def pytest_verdicts(quick: bool = False) -> dict[str, bool]:
    """Attempt id -> passed, from the hostile table and the publishing tests (quick: three
    profile rows of the table)."""
    row = "tests/hostile/test_hostile_inputs.py::test_a_hostile_input_gets_a_clear_error[{}]"
    tests = ([row.format(i) for i in ("P5", "P6", "P7")] if quick
             else ["tests/hostile", "tests/site/test_publish.py"])
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.xml"
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0" if quick else "2",
                        *tests, f"--junitxml={report}"], cwd=ROOT, env=ENV, capture_output=True)
        cases = ET.parse(report).getroot().iter("testcase")
        results: dict[str, bool] = {}
        for case in cases:
            passed = not any(child.tag in ("failure", "error") for child in case)
            name = case.get("name", "")
            ids = (re.findall(r"(?<![A-Z])[PCELB]\d+", name.split("[", 1)[1]) if "[" in name else
                   next((v for k, v in PUBLISH_TESTS.items() if k in name), []))
            for attempt in ids:
                results[attempt] = results.get(attempt, True) and passed
        return results


def _copy(dest: Path) -> Path:
    copy_sources(dest)
    assert subprocess.run(MKDOCS, cwd=dest, env=ENV, capture_output=True).returncode == 0
    return dest


def _digest(folder: Path) -> list[tuple[str, bytes]]:
    return sorted((str(p.relative_to(folder)), p.read_bytes())
                  for p in folder.rglob("*") if p.is_file())


def privileged_verdicts() -> dict[str, bool]:
    """B9, B10, B11 for real: each must fail in one line, or publish, and keep site/ whole."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        project = _copy(Path(tmp) / "p")
        site = project / "site"
        before = _digest(site)
        subprocess.run(["chmod", "-R", "a-w", str(site)], check=True)
        run = subprocess.run(NO_DAC + MKDOCS, cwd=project, env=ENV, capture_output=True, text=True)
        subprocess.run(["chmod", "-R", "u+w", str(site)], check=True)
        results["B9"] = (run.returncode == 1 and "read-only" in run.stderr
                         and "Traceback" not in run.stderr and _digest(site) == before)
        subprocess.run(["chmod", "a-w", str(project), str(project / ".cache")], check=True)
        run = subprocess.run(NO_DAC + MKDOCS, cwd=project, env=ENV, capture_output=True, text=True)
        subprocess.run(["chmod", "u+w", str(project), str(project / ".cache")], check=True)
        results["B10"] = (run.returncode == 1 and "Traceback" not in run.stderr
                          and _digest(site) == before)
        shutil.rmtree(site)
        site.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(site)],
                                 capture_output=True).returncode == 0
        if mounted:
            (site / ".nojekyll").touch()
            run = subprocess.run(MKDOCS, cwd=project, env=ENV, capture_output=True, text=True)
            results["B11"] = (run.returncode == 0 and (site / "es/index.html").exists()
                              and (site / ".nojekyll").exists())
            subprocess.run(["umount", str(site)], check=True)
        else:
            print("B11: cannot mount a tmpfs here; the unit test in test_publish.py stands in")
    return results


def _catalog_with(folder: Path, msgid: str, msgstr: str) -> Path:
    """A copy of locales/ whose French `msgid` is translated as `msgstr`."""
    locales = folder / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / "fr/LC_MESSAGES/messages.po"
    text = po.read_text(encoding="utf-8")
    at = text.index(f'msgid "{msgid}"')
    start = text.index("msgstr", at)
    end = text.index("\n", start)
    po.write_text(text[:start] + f'msgstr "{msgstr}"' + text[end:], encoding="utf-8")
    return locales


CATALOG_ROWS = [
    ("baseline (the shipped catalog)", None, ""),
    ("C25: one 0.5 MB msgstr", "Verify it yourself", "Vérifiez " + "x" * (1 << 19)),
    ("C25: one 5 MB msgstr", "Verify it yourself", "Vérifiez " + "x" * (5 << 20)),
    ("C25b: one 50 MB msgstr (over the 8 MB file limit)", "Verify it yourself",
     "Vérifiez " + "x" * (50 << 20)),
    ("NC13: %(line)s 65,000 times (0.5 MB)", "One best continuation, in the record notation: "
     "%(line)s.", "Une suite optimale : " + "%(line)s" * 65000 + "."),
    ("NC13b: `<a` 100,000 times (refused by size before the markup check)", "Glossary",
     "<a" * 100000),
]


def catalog_rows(tiny: bool = False) -> list[tuple[str, float, int, int]]:
    """Seconds, peak MB and exit code of `catalogs check fr` on each oversized catalog."""
    from input_limits import measure

    rows = []
    for name, msgid, msgstr in CATALOG_ROWS[:2] if tiny else CATALOG_ROWS:
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            for entry in ("mkdocs.yml", "rules"):
                (project / entry).symlink_to(ROOT / entry)
            if msgid is None:
                (project / "locales").symlink_to(ROOT / "locales")
            else:
                _catalog_with(project, msgid, msgstr)
            seconds, peak, rc = measure([sys.executable, "-m", "mariage.cli", "--project", str(project),
                                         "catalogs", "check", "fr", "--errors-only"])
            rows.append((name, seconds, peak, rc))
    return rows


def print_catalog_rows(rows: list[tuple[str, float, int, int]]) -> None:
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(f"{'catalog':<66} {'seconds':>8} {'peak MB':>8} {'exit':>5}")
    for name, seconds, peak, rc in rows:
        print(f"{name:<66} {seconds:8.2f} {peak:8d} {rc:5d}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("review", nargs="?", help="the review (default: shared/reviews/)")
    parser.add_argument("--quick", action="store_true", help="three rows, no build attempts")
    parser.add_argument("--catalogs", action="store_true", help="the catalog size rows only")
    args = parser.parse_args()
    if args.catalogs:
        print_catalog_rows(catalog_rows())
        return 0
    rerun = pytest_verdicts(args.quick)
    if not args.quick:
        rerun.update(privileged_verdicts())
    print(f"re-run here: {len(rerun)} attempts, {sum(rerun.values())} handled")
    review = Path(args.review) if args.review else next((p for p in REVIEWS if p.exists()), None)
    if review is None:
        print("handled/total: the review is not here (shared/reviews/reliability.md)")
        print_catalog_rows(catalog_rows(tiny=args.quick))
        return 0
    verdicts = review_verdicts(review)
    assert len(verdicts) == 132, len(verdicts)
    handled, still = 0, []
    for attempt, verdict in verdicts.items():
        ok = rerun[attempt] if attempt in rerun else verdict == "handled"
        handled += ok
        if not ok:
            still.append(f"{attempt} ({verdict}{'' if attempt in rerun else ', not re-run'})")
    print(f"handled/total on the review's 132 attempts: {handled}/{len(verdicts)}")
    print("not handled:", ", ".join(still) or "none")
    print_catalog_rows(catalog_rows(tiny=args.quick))
    return 0


if __name__ == "__main__":
    sys.exit(main())
