"""Translation status badges: one small SVG per language, written at build time into
`assets/badges/<lang>.svg`, shown on the status page and in the README (as Weblate's are).

The badge says how much of the language readers see translated and whether it is published;
its colour follows: complete, published, or not published (below min_translated).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..read.catalogs import Stats

FOLDER = "assets/badges"
COLOURS = {"complete": "#2e7d32", "published": "#9a6700", "draft": "#c62828"}
_CHAR = 7                           # px per character of 11 px Verdana, as badge makers count


def path(lang: str) -> str:
    return f"{FOLDER}/{lang}.svg"


def state(stats: Stats, threshold: int) -> str:
    if stats.percent >= threshold:
        return "complete" if stats.percent == 100 and stats.mismatched == 0 else "published"
    return "draft"


def value(stats: Stats, threshold: int) -> str:
    shown = f"{stats.percent}%"
    return shown if stats.percent >= threshold else f"{shown}, not published"


def svg(stats: Stats, threshold: int) -> bytes:
    """A flat two-part badge: the language code, then its percent (and state)."""
    label, text = f"translated {stats.lang}", value(stats, threshold)
    left, right = 10 + _CHAR * len(label), 10 + _CHAR * len(text)
    colour = COLOURS[state(stats, threshold)]
    title = escape(f"{stats.lang}: {text}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + right}" height="20" '
            f'role="img" aria-label="{title}"><title>{title}</title>'
            f'<rect width="{left}" height="20" fill="#555"/>'
            f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
            f'<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" '
            f'text-anchor="middle"><text x="{left / 2}" y="14">{escape(label)}</text>'
            f'<text x="{left + right / 2}" y="14">{escape(text)}</text></g></svg>\n'
            ).encode("utf-8")


def files(all_stats: list[Stats], threshold: int) -> dict[str, bytes]:
    """Every language's badge, by its path under the site."""
    return {path(s.lang): svg(s, threshold) for s in all_stats}
