"""The site the browser tests look at builds cleanly with `mkdocs build --strict`."""

import re

import pytest

from browser.sitecheck import DEFAULT_LANG, fail_if

pytestmark = pytest.mark.xdist_group("browser")


def test_the_site_builds_in_strict_mode(site):
    if site.strict_ok:
        return
    warnings = [line for line in site.strict_log.splitlines()
                if re.match(r"(WARNING|ERROR)\b", line) or "Aborted" in line]
    shown = "\n".join(warnings[:40]) + (f"\n… and {len(warnings) - 40} more" if len(warnings) > 40 else "")
    pytest.fail("`mkdocs build --strict` fails (the browser tests ran on a lenient build):\n"
                + (shown or site.strict_log[-4000:]), pytrace=False)


def test_every_language_has_every_page(site, lang):
    """fallback_to_default is off: a page missing from one language is a 404 in that language."""
    default = {p.rel for p in site.pages_in(DEFAULT_LANG)} - {"404.html"}
    here = {p.rel for p in site.pages_in(lang)}
    missing = sorted(default - here)
    extra = sorted(here - default) if lang != DEFAULT_LANG else []
    fail_if([f"/{lang}/{rel} is missing" for rel in missing]
            + [f"/{lang}/{rel} has no {DEFAULT_LANG} original" for rel in extra],
            f"[{lang}] the pages differ from the {DEFAULT_LANG} ones")
