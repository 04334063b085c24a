"""The W3C Nu validator finds no error in any HTML file of the build.

One known error is Material's, and filtered out by its exact message: the theme's hidden toggle
checkboxes carry `autocomplete="off"`, which HTML allows on text-like inputs only."""

from __future__ import annotations

import json

import pytest

from browser.sitecheck import VNU_JAR, fail_if

pytestmark = pytest.mark.xdist_group("browser")

KNOWN = {
    "Attribute “autocomplete” is only allowed when the input type is “color”, “date”, "
    "“datetime-local”, “email”, “hidden”, “month”, “number”, “password”, “range”, “search”, "
    "“tel”, “text”, “time”, “url”, or “week”.",
}


def test_nu_validator_finds_no_error(vnu_done):
    site = vnu_done                  # started right after the build (conftest.site)
    assert VNU_JAR.is_file(), f"{VNU_JAR} is missing: run `make test` (npm ci installs vnu-jar)"
    assert site.vnu is not None, "java is missing: run `make test`, which installs it"
    output = site.vnu_output.read_text(encoding="utf-8")
    stdout = site.vnu_output.with_name(site.vnu_output.name + ".stdout").read_text(encoding="utf-8")
    try:
        messages = json.loads(output or stdout)["messages"]
    except (ValueError, KeyError):
        pytest.fail(f"the Nu validator did not report JSON (exit {site.vnu.returncode}):\n"
                    + (output + stdout)[-3000:], pytrace=False)
    errors = [m for m in messages
              if m.get("type") in ("error", "non-document-error") and m.get("message") not in KNOWN]
    prefix = f"file:{site.root}"
    grouped: dict[str, list[dict]] = {}
    for m in errors:
        grouped.setdefault(m.get("message", "?"), []).append(m)
    problems = []
    for message, hits in grouped.items():
        places = [m.get("url", "?").replace(prefix, "") + (f":{m['lastLine']}" if "lastLine" in m else "")
                  for m in hits]
        extract = " ".join(hits[0].get("extract", "").split())[:160]
        problems.append(f"{message} — {len(hits)} time(s): {', '.join(places[:6])}"
                        + (" …" if len(places) > 6 else "") + (f"\n      e.g. {extract!r}" if extract else ""))
    fail_if(problems, f"Nu validator errors in {len(site.vnu_files)} HTML files", limit=20)
