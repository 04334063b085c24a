"""Load and validate the rules profile (rules/mariage.yaml).

The schema lives in pydantic models; a validation error is mapped back to the YAML line of the
offending key, so the user reads "rules/mariage.yaml:27: bonuses.trump_marriage: …".
"""

from __future__ import annotations

import os
import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from . import bounded
from .errors import ProfileError

# Where a project keeps its profile. Commands find the project from where they run, never from
# where this package is installed.
PROJECT_PROFILE = Path("rules") / "mariage.yaml"

PROFILE_LIMIT = 128 << 10       # bytes; the shipped profile is about 6 KB
# Rank letters the engine reads by name, and the ruling that needs each.
NAMED_RANKS = {"K": "R12", "Q": "R12"}

PositiveInt = Field(gt=0, strict=True)
Points = Field(ge=0, strict=True)


def _fail(key: str, message: str) -> PydanticCustomError:
    """A cross-field error pinned to `key` (relative to the model), so the line is the key's."""
    return PydanticCustomError("profile", message, {"key": key})


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Suit(Strict):
    code: str = Field(pattern=r"^[a-z]$")
    name: str
    symbol: str = Field(min_length=1, max_length=1)
    color: Literal["red", "black"]


class Deck(Strict):
    suits: list[Suit] = Field(min_length=1, max_length=4)
    ranks: list[str] = Field(min_length=1, max_length=8)
    card_points: dict[str, int]
    total_points: int = PositiveInt

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def lowest_rank(self) -> str:
        """The weakest rank dealt: its trump is the card R10 exchanges (7, 9 or J)."""
        return self.ranks[-1]

    @model_validator(mode="after")
    def _consistent(self) -> "Deck":
        if len({s.code for s in self.suits}) != len(self.suits):
            raise _fail("suits", "suit codes must be distinct")
        if len(set(self.ranks)) != len(self.ranks):
            raise _fail("ranks", "ranks must be distinct")
        for rank, ruling in NAMED_RANKS.items():
            if rank not in self.ranks:
                raise _fail("ranks", f"{ruling}: a marriage is the K and Q of one suit, so the "
                            f"ranks must include {rank}")
        if set(self.card_points) != set(self.ranks):
            raise _fail("card_points", f"card_points must give exactly the ranks {self.ranks}")
        if any(v < 0 for v in self.card_points.values()):
            raise _fail("card_points", "card points cannot be negative")
        if not {"K", "Q"} <= set(self.ranks):
            raise _fail("ranks", "ranks must include K and Q, the cards of a marriage (R12)")
        total = sum(self.card_points.values()) * len(self.suits)
        if total != self.total_points:
            raise _fail("card_points", f"card points sum to {total} over the deck, "
                        f"but total_points says {self.total_points}")
        return self


class Deal(Strict):
    packets: list[int] = Field(min_length=1)
    hand_size: int = PositiveInt
    stock_size: int = PositiveInt
    # R3: how many rounds of packets go out before the indicator is turned (Schnapsen: 1 of 2)
    indicator_after: int | None = Field(default=None, gt=0, strict=True)

    @model_validator(mode="after")
    def _consistent(self) -> "Deal":
        if any(p <= 0 for p in self.packets) or sum(self.packets) != self.hand_size:
            raise _fail("packets", f"packets {self.packets} must be positive and add up to "
                        f"hand_size {self.hand_size}")
        if self.indicator_after is not None and self.indicator_after > len(self.packets):
            raise _fail("indicator_after", f"indicator_after must be at most the "
                        f"{len(self.packets)} rounds of packets")
        return self

    @property
    def indicator_round(self) -> int:
        """Rounds of packets dealt before the indicator: all of them unless the profile says."""
        return len(self.packets) if self.indicator_after is None else self.indicator_after


class Thresholds(Strict):
    claim: int = PositiveInt
    opponent_safe: int = PositiveInt
    game: int = PositiveInt


class Bonuses(Strict):
    marriage: int = Points
    trump_marriage: int = Points
    last_trick: int = Points


class Closing(Strict):
    min_stock: int = PositiveInt
    min_trick: int = PositiveInt


class Rates(Strict):
    opponent_safe: int = Points
    opponent_has_trick: int = Points
    opponent_no_trick: int = Points
    false_claim: int = Points
    closer_failed: int = Points
    closer_failed_no_trick: int = Points


class Options(Strict):
    """Switches for the rulings the games of the family settle differently. The defaults are the
    teaching profile's rulings, so a profile names only the switches it turns."""
    exchange_needs_trick: bool = True                 # R10: a trick won before the exchange
    exchange_min_stock: int = Field(default=1, gt=0, strict=True)  # R10: cards left in the stock
    marriage_before_trick: Literal["forbidden", "counts_later"] = "forbidden"   # R12
    strict_play_must_beat: bool = True                 # R9: beat the led card when able
    natural_end: Literal["higher_total", "last_trick_wins"] = "higher_total"    # R17
    natural_tie: Literal["nobody", "non_dealer"] = "nobody"                      # R17
    closer_false_claim: Literal["closer_failed", "false_claim"] = "closer_failed"  # R18


class Ruling(Strict):
    id: str = Field(pattern=r"^R[1-9][0-9]*$")
    topic: str
    text: str


class Profile(Strict):
    name: str
    names: list[str] = Field(default_factory=list)   # what the game is called where it is played
    players: list[str] = Field(min_length=2, max_length=2)
    deck: Deck
    deal: Deal
    thresholds: Thresholds
    bonuses: Bonuses
    closing: Closing
    rates: Rates
    options: Options = Field(default_factory=Options)
    rulings: list[Ruling]
    source: str = Field(default="", exclude=True)

    @model_validator(mode="after")
    def _consistent(self) -> "Profile":
        if self.players[0] == self.players[1]:
            raise _fail("players", "R1: the two players need different names")
        dealt = self.deal.hand_size * len(self.players) + self.deal.stock_size
        if dealt != self.deck.size:
            raise _fail("deal.stock_size", f"{len(self.players)} hands of {self.deal.hand_size} "
                        f"and a stock of {self.deal.stock_size} deal {dealt} cards, not the "
                        f"deck's {self.deck.size}")
        if self.deal.stock_size % len(self.players):
            raise _fail("deal.stock_size", "stock_size must share out evenly between the players")
        ids = [r.id for r in self.rulings]
        expected = [f"R{i}" for i in range(1, len(ids) + 1)]
        if ids != expected:
            raise _fail("rulings", f"rulings must be numbered {expected[0]}..{expected[-1]} in order")
        for index, ruling in enumerate(self.rulings):
            try:
                _format_text(ruling.text, self)
            except ValueError as exc:
                raise _fail(f"rulings.{index}.text", str(exc)) from None
        return self

    def ruling(self, ruling_id: str) -> str:
        """The ruling's one-line English statement, with its numbers filled in from the profile."""
        for ruling in self.rulings:
            if ruling.id == ruling_id:
                return _format_text(ruling.text, self)
        raise KeyError(ruling_id)

    def marriage_bonus(self, is_trump: bool) -> int:
        return self.bonuses.trump_marriage if is_trump else self.bonuses.marriage

    def as_context(self) -> dict[str, Any]:
        """The profile as plain data for templates (keys as in the YAML file)."""
        data = self.model_dump()
        data["deck"]["size"] = self.deck.size
        data["deck"]["lowest_rank"] = self.deck.lowest_rank
        return data


_PLACEHOLDER = re.compile(r"[a-z]+(\.[a-z][a-z_]*)*")


def _format_text(text: str, profile: Profile) -> str:
    """Fill {section.key} placeholders from the profile; an unknown key is an error, and so is
    anything beyond a plain name (a format spec, a conversion, a private attribute)."""
    values = {name: getattr(profile, name) for name in type(profile).model_fields}
    try:
        for _, field, spec, conversion in string.Formatter().parse(text):
            if field is not None and (spec or conversion or not _PLACEHOLDER.fullmatch(field)):
                raise ValueError(f"'{{{field}}}' is not a plain {{section.key}} placeholder")
        return string.Formatter().vformat(text, (), values)
    except (AttributeError, KeyError, IndexError, ValueError, TypeError) as exc:
        raise ValueError(f"ruling text {text!r} has a placeholder the profile lacks ({exc})") from None


def load_profile(path: str | Path) -> Profile:
    """Read, safely parse and validate a profile; every mistake is a ProfileError with a line."""
    path = Path(path)
    try:
        text = bounded.read_text(path, PROFILE_LIMIT)
    except OSError as exc:
        raise ProfileError(path, f"cannot read the profile ({exc.strerror})") from None
    except bounded.BadInput as exc:
        raise ProfileError(path, f"cannot read the profile: {exc}", line=exc.line) from None
    try:
        root = bounded.compose(text)
        data = bounded.construct(root)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ProfileError(path, f"malformed YAML: {problem}",
                           line=mark.line + 1 if mark else None,
                           hint="fix the YAML syntax at that line") from None
    if not isinstance(data, dict):
        raise ProfileError(path, "the profile must be a mapping of sections", line=1)
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        raise _profile_error(path, root, exc) from None
    return profile.model_copy(update={"source": str(path)})


def find_profile(start: Path | None = None) -> Path:
    """$MARIAGE_PROFILE, else rules/mariage.yaml in the current folder or the nearest one above."""
    if os.environ.get("MARIAGE_PROFILE"):
        return Path(os.environ["MARIAGE_PROFILE"])
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / PROJECT_PROFILE).is_file():
            return folder / PROJECT_PROFILE
    raise ProfileError(here, f"no {PROJECT_PROFILE} here or in any folder above",
                       hint="run the command inside a Mariage project, or pass --profile FILE")


@lru_cache(maxsize=8)
def _cached(path: str, mtime: float) -> Profile:
    return load_profile(path)


def default_profile() -> Profile:
    """The profile of the project run in ($MARIAGE_PROFILE overrides it), cached until the file
    changes."""
    path = find_profile()
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return load_profile(path)          # raises a ProfileError naming the file
    return _cached(str(path), mtime)


def _profile_error(path: Path, root: yaml.Node | None, exc: ValidationError) -> ProfileError:
    first = exc.errors()[0]
    loc = [part for part in first["loc"] if not str(part).startswith("function-after")]
    pinned = (first.get("ctx") or {}).get("key")
    if pinned:
        loc += [int(p) if p.isdigit() else p for p in pinned.split(".")]
    key = ".".join(str(part) for part in loc) or None
    message = re.sub(r"^Value error, ", "", first["msg"])
    if first["type"] == "extra_forbidden":
        message = "unknown key; remove it or check its spelling"
    elif first["type"] == "missing":
        message = "missing value; add it"
    return ProfileError(path, message, line=_line_of(root, loc), key=key,
                        hint="the rulings section at the end of this file says what each value means")


def _line_of(node: yaml.Node | None, loc: list[Any]) -> int | None:
    """The 1-based line of the YAML node at loc, or of its nearest existing parent."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if pair is None:
                break
            line, node = pair[0].start_mark.line + 1, pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
