"""The variant profiles (rules/variants/*.yaml): a page each, and the comparison on the history
page. Every fact shown comes from a profile; the differences from the teaching profile are found
by comparing the two profiles key by key, never written by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment

from ...engine.profile import Profile, load_profile
from ..cache import digest
from .messages import render_cached
from .dependencies import template_inputs
from .templating import RenderedPage, base_context, render

VARIANTS = Path("rules") / "variants"
TEMPLATE = "variant.md.j2"
# Keys that name or describe a game rather than rule it, and the values derived from others
# (deck.ranks and deck.card_points show them).
NOT_COMPARED = {"name", "names", "sources", "rulings", "deck.suits", "deck.size",
                "deck.lowest_rank", "deck.strength", "deck.values"}


def variant_profiles(root: Path) -> list[tuple[str, Profile]]:
    """Each variant profile of the project, by file stem, in name order."""
    return [(path.stem, load_profile(path)) for path in sorted((root / VARIANTS).glob("*.yaml"))]


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"deck": {"ranks": [...]}} -> {"deck.ranks": [...]}; lists stay values."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and not (prefix == "deck." and key == "card_points"):
            flat |= flatten(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = value
    return flat


# A row that reads as the continuation of another ("… if that opponent had no trick"): shown
# under its parent row, which is listed with it even where the parent's values agree.
CONTINUES = {"rates.closer_failed_no_trick": "rates.closer_failed",
             "rates.false_claim_no_trick": "rates.false_claim"}


def differences(base: Profile, variant: Profile) -> list[dict[str, Any]]:
    """The keys whose values differ, in the profile's order, with both values; a continuation
    row comes right after its parent row."""
    ours, theirs = flatten(base.as_context()), flatten(variant.as_context())
    keys = [key for key, value in theirs.items()
            if key not in NOT_COMPARED and ours.get(key) != value]
    rows: list[str] = []
    for key in keys:
        parent = CONTINUES.get(key)
        if parent is not None:
            if parent in rows:
                rows.remove(parent)
            rows.append(parent)
        if key not in rows:
            rows.append(key)
    return [{"key": key, "base": ours.get(key), "variant": theirs.get(key)} for key in rows]


def summaries(base: Profile, variants: list[tuple[str, Profile]]) -> list[dict[str, Any]]:
    """The teaching profile, then each variant, as the comparison table reads them."""
    rows = [{"slug": None, "rules": base.as_context()}]
    return rows + [{"slug": slug, "rules": p.as_context()} for slug, p in variants]


def render_variants(source: Any, lang: str, examples: list[Any]) -> list[RenderedPage]:
    """Render templates/variant.md.j2 once per variant profile of the project, in `lang`;
    again only when the template, a message it uses, a site-wide value or an example changed."""
    env = source.environment()
    key = digest(source.context_digest(lang), [p for _, p in source.variants()],
                 template_inputs(env, TEMPLATE, cache=source.cache),
                 [(e.name, e.variant, e.body, e.profile) for e in examples if e.variant])
    return render_cached(source.cache, "page", key, source.shipped(lang),
                         lambda: _render_variants(source, env, lang, examples))


def _render_variants(source: Any, env: Environment, lang: str,
                     examples: list[Any]) -> list[RenderedPage]:
    context = base_context(source.profile, lang, source.languages()) | source.context()
    pages = []
    with source.language(lang):
        for slug, profile in source.variants():
            own = [e for e in examples if e.variant == slug]
            extra = {"variant": profile.as_context(), "slug": slug,
                     "differences": differences(source.profile, profile),
                     "variant_examples": [(e.as_context(), _title(env, e, context)) for e in own]}
            pages.append(RenderedPage(lang, f"variants/{slug}.md",
                                      render(env, TEMPLATE, context | extra),
                                      f"templates/{TEMPLATE}"))
    return pages


def _title(env: Environment, example: Any, context: dict[str, Any]) -> str:
    """An example's heading in the current language: its first `# ` line, rendered alone."""
    heading = next((line[2:] for line in example.body.splitlines() if line.startswith("# ")), "")
    if not heading:
        return str(example.name)
    return env.from_string(heading).render(context | {"rules": example.profile.as_context()})
