"""The players on a page: the engine names them A and B (the record notation, the tests, the
JSON); a page shows each by the name its catalog gives (German pages name them so that they
cannot be read as the card letters A = Ass and B = Bube).

A `Seat` is the engine's name itself (a `str`, equal to "A", the same in `==`, `~`, JSON and
every engine call); only its HTML form, which Jinja's autoescaping prints for `{{ p }}` and for
every `{% trans %}` variable, is the page's name for that player.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from markupsafe import escape

from ...engine.profile import Profile
from .messages import note
from .templating import current_translations


class Seat(str):
    __slots__ = ()

    def __html__(self) -> str:
        return str(escape(player_name(str(self))))


def player_name(player: str) -> str:
    """The page's name for a player: the catalog's translation of the engine's name, in the
    context "player"; the engine's name where the catalog has none."""
    note("player", player)
    return str(current_translations().pgettext("player", player)) or player


# The keys that name a player in the engine's step events and outcomes (mariage.play.steps),
# an example's metadata and its claim summary.
PLAYER_KEYS = frozenset({"player", "winner", "dealer", "closer", "to_act", "opponent", "other"})


def named(data: Any) -> Any:
    """An event or outcome whose players print by their page names, for the replayer's captions:
    a step's data is plain JSON, so its players are the engine's letters."""
    if not isinstance(data, dict):
        return data
    return {key: Seat(value) if key in PLAYER_KEYS and isinstance(value, str) else value
            for key, value in data.items()}


def letter(player: str) -> str:
    """The engine's name of a player as plain text, for building a move in a template
    (`(closer|letter) ~ " close"`): a Seat joined with `~` would print the page's name."""
    return str(player)


def seated(profile: Profile) -> Profile:
    """The profile whose players print by their page names (see the module's docstring)."""
    if all(isinstance(p, Seat) for p in profile.players):
        return profile
    return dataclasses.replace(profile, players=[Seat(p) for p in profile.players])
