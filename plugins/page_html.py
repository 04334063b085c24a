"""What the plugin mends in every built page (`fix_html`): Material and static-i18n emit a few
things that are wrong for this site, and MkDocs puts a page's H1 into its <title> unescaped."""

from __future__ import annotations

import re

_HEAD_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
_SEARCH_LABEL = re.compile(r'class="md-search__input" name="query" aria-label="([^"]*)"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def fix_html(output: str) -> str:
    """Mend what Material + static-i18n emit, in every page:
    - drop the head's <link rel=alternate> tags and the blanks before each (split at their text:
      a regex led by \\s* is tried at every blank, 37 times slower): Material fetches
      `sitemap.xml` next to each of them, which 404s for static-i18n's per-page alternates; the
      hreflang alternates stay in the language selector's links and the alternate-aware sitemap;
    - drop `tabindex=""` (navigation.sections writes it; an empty tabindex is invalid HTML);
    - name the search dialog (ARIA dialogs need an accessible name);
    - keep <title> plain text: MkDocs unescapes the page's H1 into it, so an escaped `<` from a
      catalog would come back as a raw one."""
    pieces = _HEAD_ALTERNATE.split(output)
    output = "".join([p.rstrip() for p in pieces[:-1]] + pieces[-1:]).replace(' tabindex=""', "")
    output = _TITLE.sub(lambda m: "<title>" + m.group(1).replace("<", "&lt;").replace(">", "&gt;")
                        + "</title>", output, count=1)
    label = _SEARCH_LABEL.search(output)
    if label:
        output = output.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + f' aria-label="{label.group(1)}">')
    return output
