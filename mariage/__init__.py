"""Mariage: the reference engine of the two-player teaching profile, and the site built on it."""

from .cards import Card
from .errors import IllegalActionError, MariageError, ProfileError, RecordError
from .hand import Action, Hand
from .outcome import End, Outcome
from .profile import Profile, default_profile, load_profile

__all__ = ["Action", "Card", "End", "Hand", "IllegalActionError", "MariageError", "Outcome",
           "Profile", "ProfileError", "RecordError", "default_profile", "load_profile"]
