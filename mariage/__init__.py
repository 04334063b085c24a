"""Mariage: the reference engine of the two-player teaching profile, and the site built on it.

Two packages, one direction: `mariage.engine` (the rules) and `mariage.site` (the generator,
which uses the engine); `mariage.cli` and the MkDocs plugin are thin adapters on top.
"""

from .engine import (Action, Card, End, Hand, IllegalActionError, MariageError, Outcome,
                     Profile, ProfileError, RecordError, default_profile, load_profile)

__all__ = ["Action", "Card", "End", "Hand", "IllegalActionError", "MariageError", "Outcome",
           "Profile", "ProfileError", "RecordError", "default_profile", "load_profile"]
