"""Site build time: the full five-language build, and a plain MkDocs + Material + static-i18n
build of the same generated Markdown, measured in the same run.

Run: `python benchmarks/build.py [--repeat N]`. The difference is what the `mariage` plugin
costs: rendering every template in every language, compiling the catalogs in memory and running
every worked example's doctests on every language's page.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def timed_build(config: Path, site: Path) -> float:
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config),
                    "-d", str(site)], check=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


def plain_config(tmp: Path) -> Path:
    """mkdocs.yml without the mariage plugin, reading the Markdown the plugin generated."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = yaml.safe_load(re.sub(r"^site_url:.*$", "site_url: https://mariage.invalid/", text,
                                   flags=re.M))
    config["plugins"] = [p for p in config["plugins"]
                         if p != "mariage" and not (isinstance(p, dict) and "mariage" in p)]
    config["docs_dir"] = str(ROOT / ".cache" / "docs")
    config["theme"]["custom_dir"] = str(ROOT / "overrides")
    examples = sorted(p.name for p in (ROOT / ".cache/docs/en/examples").glob("*.md") if p.name != "index.md")
    for entry in config["nav"]:
        if isinstance(entry, dict) and "Worked examples" in entry:
            entry["Worked examples"] += [f"examples/{name}" for name in examples]
    path = tmp / "mkdocs-plain.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        full = [timed_build(ROOT / "mkdocs.yml", tmp / "full") for _ in range(args.repeat)]
        plain_yml = plain_config(tmp)
        plain = [timed_build(plain_yml, tmp / "plain") for _ in range(args.repeat)]
    print(json.dumps({"full_build_seconds": round(statistics.median(full), 2),
                      "plain_mkdocs_material_i18n_seconds": round(statistics.median(plain), 2),
                      "runs": args.repeat}, indent=2))


if __name__ == "__main__":
    main()
