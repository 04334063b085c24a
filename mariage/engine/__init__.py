"""The reference engine: the rules profile, cards, the hand and the game, hand records.

It knows nothing of the site: `mariage.site` imports it, never the reverse (an import-linter
contract in the test suite keeps it so). Importing it loads only the standard library: reading
a profile from YAML (`load_profile`, `default_profile`: PyYAML and msgspec) loads on first use,
so the play path runs where those are missing (Pyodide's core).
"""

from typing import Any

from .cards import Card
from .errors import IllegalActionError, MariageError, ProfileError, RecordError
from .hand import Action, Hand
from .outcome import End, Outcome
from .schema import Profile

__all__ = ["Action", "Card", "End", "Hand", "IllegalActionError", "MariageError", "Outcome",
           "Profile", "ProfileError", "RecordError", "default_profile", "load_profile"]


def __getattr__(name: str) -> Any:
    if name in ("default_profile", "load_profile"):
        from . import profile
        return getattr(profile, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
