"""`mkdocs serve` as translators and authors use it: seconds from a save to the new text being
served, rebuilds per save, and what a broken catalog does to the server.

Run: `python benchmarks/serve.py [--edits N] [--langs fr] [--quick]`. Works on a copy of the project, serves it on
127.0.0.1 (a free port), edits the French catalog N times (waiting for each edit to be served),
then a page template N times (the FAQ's, served in French), an example N times (its French
page) and the rules profile once (a ruling's text, on the rulings page), then saves a broken
msgstr and checks that requests still answer and the log names the line. Prints one JSON
object. Target: under 3 s from a catalog, template or example save to served text, one rebuild
per save; a profile save, which every page reads, within one plain full build.
`--quick` (the suite's run) serves English and French only and saves once of each kind.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from _project import QUICK_LANGS, copy_sources

ROOT = Path(__file__).resolve().parent.parent
FR = Path("locales/fr/LC_MESSAGES/messages.po")
MSGID = 'msgid "No number on these pages is typed in'
TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, timeout: float = 5.0) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read().decode("utf-8", "replace")
    except (urllib.error.URLError, TimeoutError, ConnectionError):
        return None


def wait_for(url: str, text: str, started: float) -> float:
    """Seconds from `started` until the page at `url` holds `text`."""
    while time.perf_counter() - started < TIMEOUT:
        page = fetch(url)
        if page is not None and text in page:
            return time.perf_counter() - started
        time.sleep(0.1)
    raise SystemExit(f"{text!r} not served within {TIMEOUT:.0f} s")


def set_msgstr(po: Path, text: str) -> None:
    """Replace the msgstr that follows MSGID (one line, as catalogs are written)."""
    lines = po.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(MSGID))
    lines[at + 1] = f'msgstr "{text}"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"{path}: {old!r} is not there to replace")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# Each kind of save: (what to save, given a mark with no digit, since a number the English does
# not state is refused by the numbers check; the page that shows the mark)
SAVES = {
    "catalog": (lambda project, mark: set_msgstr(project / FR, f"Aucun nombre de ces pages "
                                                 f"({mark}) n’est saisi."), "fr/"),
    "template": (lambda project, mark: append(project / "templates/pages/faq.md.j2",
                                              f'\n<p class="{mark}">{mark}</p>\n'), "fr/faq/"),
    "example": (lambda project, mark: append(project / "examples/06-tie.md",
                                             f'\n<p class="{mark}">{mark}</p>\n'),
                "fr/examples/06-tie/"),
    "profile": (lambda project, mark: replace(project / "rules/mariage.yaml",
                                              "except after a misdeal.",
                                              f"except after a misdeal ({mark})."), "rulings/"),
}


def cpu_seconds(pid: int) -> float:
    """CPU time of the server and its ended children (user + system), from /proc: what a save
    costs, which other work on a shared machine disturbs far less than wall time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def served_languages(project: Path, langs: str) -> list[str]:
    """The languages this serve publishes besides English (MARIAGE_LANGS, else all)."""
    wanted = langs.replace(",", " ").split()
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    return [lang for lang in re.findall(r"- locale: (\w+)", config)
            if lang != "en" and (not wanted or lang in wanted)]


def logged_since(log: Path, since: int) -> str:
    """What the server logged after byte `since` (a size from stat(): bytes, not characters;
    the log holds the languages' accented descriptions)."""
    return log.read_bytes()[since:].decode("utf-8", "replace")


def peak_rss_mib(pid: int) -> float | None:
    """The server's peak resident memory (VmHWM), where /proc has it: what a long serve keeps."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    return round(int(found.group(1)) / 1024, 1) if found else None


def rebuilds(log: Path, since: int) -> int:
    return logged_since(log, since).count("Building documentation")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--langs", default="", help="serve only these languages (plus "
                        "English), as MARIAGE_LANGS does; default: all")
    parser.add_argument("--quick", action="store_true", help="one save, English and French "
                        "only, starting from the checkout's stage cache (the suite runs it to "
                        "prove the script works)")
    args = parser.parse_args()
    if args.quick:
        args.edits = 1
    # After a save is served, how long to watch for a second rebuild: MkDocs polls the files
    # every 0.5 s, so one would start within a second; the full run waits longer.
    settle = 1.5 if args.quick else 3.0
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        copy_sources(project, languages=QUICK_LANGS if args.quick else None)
        if args.quick and (ROOT / ".cache" / "stages").is_dir():     # keyed by content: valid
            shutil.copytree(ROOT / ".cache" / "stages", project / ".cache" / "stages")
        port, log = free_port(), Path(tmp) / "serve.log"
        url = f"http://127.0.0.1:{port}/fr/"
        started = time.perf_counter()
        with log.open("w") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
                cwd=project, stdout=out, stderr=subprocess.STDOUT,
                env=os.environ | {"NO_MKDOCS_2_WARNING": "1", "MARIAGE_LANGS": args.langs,
                                  "PYTHONUNBUFFERED": "1"})
        try:
            first = wait_for(url, "<html", started)
            time.sleep(2)          # let the watcher settle
            first_index = json.loads(fetch(url.replace("/fr/", "/search/search_index.json"))
                                     or "{}")
            kinds: dict[str, dict[str, list[Any]]] = {}
            for kind, (save, page) in SAVES.items():
                done = kinds[kind] = {"seconds": [], "cpu": [], "rebuilds": []}
                for n in range(1 if kind == "profile" else args.edits):
                    mark, size = f"save-{kind}-{chr(ord('a') + n % 26)}", log.stat().st_size
                    started, before = time.perf_counter(), cpu_seconds(server.pid)
                    save(project, mark)
                    done["seconds"].append(wait_for(url.replace("/fr/", f"/{page}"), mark,
                                                    started))
                    done["cpu"].append(cpu_seconds(server.pid) - before)
                    time.sleep(settle)     # a second rebuild, if any, would start by now
                    done["rebuilds"].append(rebuilds(log, size))
            size = log.stat().st_size
            set_msgstr(project / FR, "Aucun nombre [voir](https://evil.example/)")
            started = time.perf_counter()
            english = wait_for(url, '<span lang="en">No number on these pages', started)
            answered = fetch(url, timeout=10) is not None
            others = {lang: fetch(url.replace("/fr/", f"/{lang}/")) is not None
                      for lang in served_languages(project, args.langs)}
            index = json.loads(fetch(url.replace("/fr/", "/search/search_index.json")) or "{}")
            warned = bool(re.search(r"WARNING.*fr/LC_MESSAGES/messages.po:\d+: \[markup\]",
                                    logged_since(log, size)))
        except SystemExit:
            print(log.read_text(encoding="utf-8", errors="replace")[-6000:], file=sys.stderr)
            raise
        finally:
            peak = peak_rss_mib(server.pid)
            server.terminate()
            server.wait(timeout=30)
    catalog = kinds.pop("catalog")
    seconds, cpu = catalog["seconds"], catalog["cpu"]
    print(json.dumps({
        "first_page_s": round(first, 2),
        "save_to_served_s": [round(s, 2) for s in seconds],
        "save_to_served_median_s": round(statistics.median(seconds), 2),
        "cpu_per_save_s": [round(c, 2) for c in cpu],
        "cpu_per_save_median_s": round(statistics.median(cpu), 2),
        "rebuilds_per_save": catalog["rebuilds"],
        **{f"{kind}_save": {"save_to_served_s": [round(x, 2) for x in done["seconds"]],
                            "save_to_served_median_s": round(statistics.median(done["seconds"]),
                                                             2),
                            "cpu_per_save_median_s": round(statistics.median(done["cpu"]), 2),
                            "rebuilds_per_save": done["rebuilds"]}
           for kind, done in kinds.items()},
        "every_language_served": all(others.values()),
        "server_peak_rss_mib": peak,
        "search_entries_first_and_last": [len(first_index.get("docs", [])),
                                          len(index.get("docs", []))],
        "search_index_languages": sorted({d["location"].split("/")[0] if "/" in d["location"]
                                          and len(d["location"].split("/")[0]) == 2 else "en"
                                          for d in index.get("docs", [])}),
        "broken_catalog": {"english_served_after_s": round(english, 2),
                           "requests_answer": answered, "log_names_the_line": warned},
        "languages": args.langs or "all",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }, indent=2))


if __name__ == "__main__":
    main()
