"""The step-through replayer's data as a page embeds it: the engine's steps, each step's
caption, the card faces and the labels, in the page's language. Serialized here with json
(as Jinja's `tojson` would, safe inside a <script>); the template only places it.

The captions, faces and labels are the catalogs' text, rendered by the macros of
templates/_replayer.j2 and _cards.j2; the faces and labels, the same on every page of a
language, are made once per language and deck.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from .messages import remembered
from .seats import player_name
from .templating import striptags

def _(message: str) -> str:
    """Marks a message for extraction (babel.cfg); translated at build time."""
    return message


# The labels the replayer shows, each the English msgid and its placeholders.
LABELS = {
    "player": (_("Player"), {}), "cards": (_("Cards held"), {}), "points": (_("Points"), {}),
    "tricks": (_("Tricks"), {}), "on_lead": (_("on lead"), {}), "trump": (_("Trump:"), {}),
    "exhausted": (_("stock exhausted"), {}),
    "closed": (_("stock closed by %(player)s"), {"player": "{player}"}),
    "stock": (_("Cards in the stock: %(count)s"), {"count": "{count}"}),
    "table": (_("On the table:"), {}), "empty": (_("nothing"), {}),
    "step": (_("Step %(step)s of %(total)s"), {"step": "{step}", "total": "{total}"}),
    "game": (_("Hand %(hand)s. Game points: %(score)s"), {"hand": "{hand}", "score": "{score}"}),
}


def replayer_data(env: Environment, context: dict[str, Any], steps: list[dict[str, Any]],
                  shared: dict[Any, Any]) -> Markup:
    """The JSON of one page's replayer; `shared` keeps one language's faces and labels for
    the next page of the same language and deck."""
    replayer: Any = env.get_template("_replayer.j2").make_module(context)
    captions = [_caption(replayer, step) for step in steps]
    deck = context["rules"]["deck"]
    key = (context["lang"], repr(deck["suits"]), repr(deck["ranks"]))
    faces, labels = remembered(shared, key, lambda: (_faces(env, context), _labels(env, context)))
    names = {str(p): player_name(p) for p in context["rules"]["players"]}
    data = {"steps": steps, "captions": captions, "cards": faces, "labels": labels,
            "names": names}
    return Markup(htmlsafe_json_dumps(data, dumps=env.policies["json.dumps_function"],
                                      **env.policies["json.dumps_kwargs"]))


def _caption(replayer: Any, step: dict[str, Any]) -> str:
    text = striptags(replayer.caption(step["event"]))
    return text + (" " + striptags(replayer.result(step["outcome"])) if step["outcome"] else "")


def _faces(env: Environment, context: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each card's face (its letter in the reader's packs and its suit's symbol), colour and
    spoken label."""
    cards: Any = env.get_template("_cards.j2").make_module(context)
    deck = context["rules"]["deck"]
    return {rank + suit["code"]: {"text": str(Markup(cards.rank_letter(rank)) + suit["symbol"]),
                                  "color": suit["color"],
                                  "label": striptags(cards.card_label(rank + suit["code"]))}
            for suit in deck["suits"] for rank in deck["ranks"]}


def _labels(env: Environment, context: dict[str, Any]) -> dict[str, str]:
    """The labels, translated by the environment's own gettext (English marked), as plain
    text: replayer.js shows them with textContent, so an escaped `&` would show as `&amp;`."""
    gettext = env.globals["gettext"]
    template_context = env.get_template("_replayer.j2").new_context(context)
    return {key: striptags(gettext(template_context, msgid, **variables))  # type: ignore[operator]
            for key, (msgid, variables) in LABELS.items()}
