"""One 404 page for every language, as hosts serve it: the default language's, its language
selector pointing at each language's home page. mkdocs-static-i18n has every language's
build write 404.html at the site's root, each over the last, its selector pointing at
whatever page that language built last.

The mariage plugin calls `keep` and `write`; `mariage generate` copies this file beside its
mkdocs.yml as a `hooks:` entry, so that MkDocs or ProperDocs building the tree without the
plugin makes the same 404 page. It therefore imports only the standard library and MkDocs.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority

SELECTOR_LINK = re.compile(r'<a href="[^"]*" hreflang="([^"]+)" class="md-select__link">')
_kept: dict[str, str] = {}          # site_dir -> the default language's 404 page


def keep(output: str, config: Any) -> None:
    """Remember the 404 page the default language's build rendered (the others render one
    too)."""
    i18n = config.plugins.get("i18n")
    default = getattr(i18n, "default_language", None)
    if i18n is None or i18n.current_language == default:
        root = urlsplit(config.site_url or "/").path or "/"
        _kept[str(config.site_dir)] = SELECTOR_LINK.sub(
            lambda m: _home_link(root, m.group(1), default), output)


def write(config: Any) -> None:
    """Write it at the site's root again, once every language is built."""
    page = _kept.pop(str(config.site_dir), None)
    if page is not None:
        (Path(config.site_dir) / "404.html").write_text(page, encoding="utf-8")


def _home_link(root: str, lang: str, default: str | None) -> str:
    home = root if lang == default else f"{root}{lang}/"
    return f'<a href="{escape(home)}" hreflang="{escape(lang)}" class="md-select__link">'


# As a MkDocs hook (`hooks:` in the generated mkdocs.yml):

def on_post_template(output: str, *, template_name: str, config: Any) -> str:
    if template_name == "404.html":
        keep(output, config)
    return output


@event_priority(-200)           # after static-i18n has built every language
def on_post_build(*, config: Any) -> None:
    if not getattr(config.plugins.get("i18n"), "building", False):
        write(config)
