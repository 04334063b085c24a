"""Mariage: the reference engine of the two-player teaching profile, and the site built on it.

Three packages, one direction: `mariage.engine` (the rules), `mariage.play` (the computer
opponent and the browser's table, on the engine) and `mariage.site` (the generator, which uses
both); `mariage.cli` and the MkDocs plugin are thin adapters on top.
"""

from typing import Any

from .engine import (Action, Card, End, Hand, IllegalActionError, MariageError, Outcome,
                     Profile, ProfileError, RecordError)

__all__ = ["Action", "Card", "End", "Hand", "IllegalActionError", "MariageError", "Outcome",
           "Profile", "ProfileError", "RecordError", "default_profile", "load_profile"]


def __getattr__(name: str) -> Any:
    if name in ("default_profile", "load_profile"):      # PyYAML and msgspec: on first use
        from .engine import profile
        return getattr(profile, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
