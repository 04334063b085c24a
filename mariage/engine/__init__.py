"""The reference engine: the rules profile, cards, the hand and the game, hand records.

It knows nothing of the site: `mariage.site` imports it, never the reverse (an import-linter
contract in the test suite keeps it so).
"""

from .cards import Card
from .errors import IllegalActionError, MariageError, ProfileError, RecordError
from .hand import Action, Hand
from .outcome import End, Outcome
from .profile import Profile, default_profile, load_profile

__all__ = ["Action", "Card", "End", "Hand", "IllegalActionError", "MariageError", "Outcome",
           "Profile", "ProfileError", "RecordError", "default_profile", "load_profile"]
