"""The rules profile's schema: frozen dataclasses on the standard library alone.

The engine's play path reads a profile through these classes and nothing else, so it runs
wherever Python does (Pyodide's core included). Reading a YAML file and checking its types is
`profile.py`'s job, at build time and in the CLI (msgspec converts into these classes); each
class's own checks (ranges, patterns, the cross-field rules) run in __post_init__ (`fields.py`),
so a profile handed in as plain data (`Profile.from_plain`) is checked the same way.
"""

from __future__ import annotations

import dataclasses
import re
import string
import unicodedata
from dataclasses import dataclass, field
from functools import wraps
from typing import Annotated, Any, Callable, Literal, TypeVar, get_args, get_origin, get_type_hints

from .fields import (LANGUAGE, ONE_WORD, PATTERNS, RANK, SOURCE_ID, SOURCE_TITLE, SOURCE_URL,
                     SUIT_CODE, SYMBOL, WORDS, Checked, Limit, Pinned, Points, PositiveInt, Words)

# Rank letters the engine reads by name, and the ruling that needs each.
NAMED_RANKS = {"K": "R12", "Q": "R12"}


@dataclass(frozen=True)
class Suit(Checked):
    code: Annotated[str, Limit(pattern=SUIT_CODE)]
    name: Words
    symbol: Annotated[str, Limit(pattern=SYMBOL)]
    color: Literal["red", "black"]

    def check(self) -> None:
        if unicodedata.category(self.symbol)[0] in "CZM":     # controls, spaces, combining marks
            raise Pinned("symbol", "must be a visible symbol, not a control, space or mark")


@dataclass(frozen=True)
class Deck(Checked):
    suits: Annotated[list[Suit], Limit(min_length=1, max_length=4)]
    ranks: Annotated[list[Annotated[str, Limit(pattern=RANK)]], Limit(min_length=1, max_length=8)]
    card_points: dict[str, int]
    total_points: PositiveInt

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def lowest_rank(self) -> str:
        """The weakest rank dealt: its trump is the card R10 exchanges (7, 9 or J)."""
        return self.ranks[-1]

    @property
    def strength(self) -> str:
        """The ranks, strongest first, as a ruling states them ("A 10 K Q J 9 8 7", R1)."""
        return " ".join(self.ranks)

    @property
    def values(self) -> str:
        """Each rank's card points, as a ruling states them ("A 11, 10 10, K 4", R1)."""
        return ", ".join(f"{rank} {self.card_points[rank]}" for rank in self.ranks)

    def check(self) -> None:
        for index, rank in enumerate(self.ranks):
            if not isinstance(rank, str) or not re.search(RANK, rank):
                raise Pinned(f"ranks.{index}", "must be " + PATTERNS[RANK])
        if len({s.code for s in self.suits}) != len(self.suits):
            raise Pinned("suits", "suit codes must be distinct")
        if len(set(self.ranks)) != len(self.ranks):
            raise Pinned("ranks", "ranks must be distinct")
        for rank, ruling in NAMED_RANKS.items():
            if rank not in self.ranks:
                raise Pinned("ranks", f"{ruling}: a marriage is the K and Q of one suit, so the "
                             f"ranks must include {rank}")
        if set(self.card_points) != set(self.ranks):
            raise Pinned("card_points", f"card_points must give exactly the ranks {self.ranks}")
        if any(v < 0 for v in self.card_points.values()):
            raise Pinned("card_points", "card points cannot be negative")
        if not {"K", "Q"} <= set(self.ranks):
            raise Pinned("ranks", "ranks must include K and Q, the cards of a marriage (R12)")
        total = sum(self.card_points.values()) * len(self.suits)
        if total != self.total_points:
            raise Pinned("card_points", f"card points sum to {total} over the deck, "
                         f"but total_points says {self.total_points}")


@dataclass(frozen=True)
class Deal(Checked):
    packets: Annotated[list[int], Limit(min_length=1)]
    hand_size: PositiveInt
    stock_size: PositiveInt
    # R3: how many rounds of packets go out before the indicator is turned (Schnapsen: 1 of 2)
    indicator_after: PositiveInt | None = None

    def check(self) -> None:
        if any(p <= 0 for p in self.packets) or sum(self.packets) != self.hand_size:
            raise Pinned("packets", f"packets {self.packets} must be positive and add up to "
                         f"hand_size {self.hand_size}")
        if self.indicator_after is not None and self.indicator_after > len(self.packets):
            raise Pinned("indicator_after", f"indicator_after must be at most the "
                         f"{len(self.packets)} rounds of packets")

    @property
    def indicator_round(self) -> int:
        """Rounds of packets dealt before the indicator: all of them unless the profile says."""
        return len(self.packets) if self.indicator_after is None else self.indicator_after


@dataclass(frozen=True)
class Thresholds(Checked):
    claim: PositiveInt
    opponent_safe: PositiveInt
    game: PositiveInt


@dataclass(frozen=True)
class Bonuses(Checked):
    marriage: Points
    trump_marriage: Points
    last_trick: Points


@dataclass(frozen=True)
class Closing(Checked):
    min_stock: PositiveInt
    min_trick: PositiveInt
    # R11: the trick's winner may also close before the draw; then neither player draws
    before_drawing: bool = False
    # R18: the closer's correct claim is scored on the opponent's state at the close, or at the claim
    scored_at: Literal["close", "claim"] = "close"


@dataclass(frozen=True)
class Rates(Checked):
    opponent_safe: Points
    opponent_has_trick: Points
    opponent_no_trick: Points
    false_claim: Points
    closer_failed: Points
    closer_failed_no_trick: Points
    # R16: the false claim's rate when made before the opponent's first trick (None: false_claim)
    false_claim_no_trick: Points | None = None
    # R17: game points for winning at the natural end (None: R15's rate on the loser's state)
    natural_end: Points | None = None
    # R18: game points for the closer's opponent who claims correctly first (None: the
    # closer's penalty, closer_failed or closer_failed_no_trick)
    closer_beaten: Points | None = None

    def values(self) -> list[int]:
        """Every rate the profile sets, in the order above."""
        return [v for v in dataclasses.astuple(self) if v is not None]


@dataclass(frozen=True)
class Options(Checked):
    """Switches for the rulings the games of the family settle differently. The defaults are the
    teaching profile's rulings, so a profile names only the switches it turns."""
    exchange_needs_trick: bool = True                 # R10: a trick won before the exchange
    exchange_min_stock: PositiveInt = 1              # R10: cards left in the stock
    marriage_before_trick: Literal["forbidden", "counts_later"] = "forbidden"   # R12
    marriage_needs_open_stock: bool = True             # R12: none once closed or exhausted
    strict_play_must_beat: bool = True                 # R9: beat the led card when able
    natural_end: Literal["higher_total", "last_trick_wins"] = "higher_total"    # R17
    # R17: equal totals; "next_hand": nobody scores, and the next hand's winner scores 1 more
    natural_tie: Literal["nobody", "non_dealer", "next_hand"] = "nobody"
    closer_false_claim: Literal["closer_failed", "false_claim"] = "closer_failed"  # R18


SourceText = Annotated[str, Limit(pattern=SOURCE_TITLE)]


@dataclass(frozen=True)
class Source(Checked):
    """A source the profile's comments cite as [id], as a reference list gives it. Each field is
    as published (names, titles, site), never translated: the page writes the words around them
    in the reader's language, so no field holds English prose."""
    id: Annotated[str, Limit(pattern=SOURCE_ID)]
    title: SourceText                                   # the work, page or program cited
    authors: list[SourceText] = field(default_factory=list)
    part: SourceText | None = None                      # the chapter or section of `title` cited
    where: SourceText | None = None                     # the site, publisher or series
    year: Annotated[int, Limit(ge=1)] | None = None
    language: Annotated[str, Limit(pattern=LANGUAGE)] | None = None   # when not English
    kind: Literal["text", "program"] = "text"           # "program": the rules in its help
    url: Annotated[str, Limit(pattern=SOURCE_URL)] = ""


@dataclass(frozen=True)
class Ruling(Checked):
    id: Annotated[str, Limit(pattern=r"^R[1-9][0-9]*$")]
    topic: Annotated[str, Limit(pattern=r"\A[a-z_]+\Z")]
    text: str


@dataclass(frozen=True)
class Profile(Checked):
    name: Words
    players: Annotated[list[str], Limit(min_length=2, max_length=2)]
    deck: Deck
    deal: Deal
    thresholds: Thresholds
    bonuses: Bonuses
    closing: Closing
    rates: Rates
    rulings: list[Ruling]
    names: list[str] = field(default_factory=list)   # what the game is called where it is played
    sources: list[Source] = field(default_factory=list)   # what the values' [id] citations name
    options: Options = field(default_factory=Options)
    source: str = ""                                 # the file read; not part of the rules

    def check(self) -> None:
        for key, items, pattern in (("players", self.players, ONE_WORD), ("names", self.names, WORDS)):
            for index, item in enumerate(items):
                if not isinstance(item, str) or not re.search(pattern, item):
                    raise Pinned(f"{key}.{index}", "must be " + PATTERNS[pattern])
        if self.players[0] == self.players[1]:
            raise Pinned("players", "R1: the two players need different names")
        dealt = self.deal.hand_size * len(self.players) + self.deal.stock_size
        if dealt != self.deck.size:
            raise Pinned("deal.stock_size", f"{len(self.players)} hands of {self.deal.hand_size} "
                         f"and a stock of {self.deal.stock_size} deal {dealt} cards, not the "
                         f"deck's {self.deck.size}")
        if self.deal.stock_size % len(self.players):
            raise Pinned("deal.stock_size", "stock_size must share out evenly between the players")
        ids = [r.id for r in self.rulings]
        expected = [f"R{i}" for i in range(1, len(ids) + 1)]
        if ids != expected:
            raise Pinned("rulings", f"rulings must be numbered {expected[0]}..{expected[-1]} in order")
        for index, ruling in enumerate(self.rulings):
            try:
                format_text(ruling.text, self)
            except ValueError as exc:
                raise Pinned(f"rulings.{index}.text", str(exc)) from None

    def ruling(self, ruling_id: str) -> str:
        """The ruling's one-line English statement, with its numbers filled in from the profile."""
        for ruling in self.rulings:
            if ruling.id == ruling_id:
                return format_text(ruling.text, self)
        raise KeyError(ruling_id)

    def without_prose(self) -> "Profile":
        """The profile without the words written about its rules (the rulings' texts, the
        names the game goes by, the sources): what playing and scoring a hand read. A result
        computed from it, and keyed by it, stays valid when only the wording changes."""
        return dataclasses.replace(
            self, rulings=[dataclasses.replace(r, text="") for r in self.rulings], names=[],
            sources=[], source="")

    def marriage_bonus(self, is_trump: bool) -> int:
        return self.bonuses.trump_marriage if is_trump else self.bonuses.marriage

    def as_data(self) -> dict[str, Any]:
        """The profile as plain data, keys as in the YAML file (`source` left out)."""
        data = dataclasses.asdict(self)
        del data["source"]
        return data

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> "Profile":
        """A profile from as_data()'s plain data, with the standard library alone: for a profile
        validated at build time (the browser's engine reads it this way). Each class's checks
        run; the types are trusted."""
        return _build(cls, data)

    def replace(self, **changes: Any) -> "Profile":
        """A copy with some sections replaced (tests and variants use it)."""
        return dataclasses.replace(self, **changes)

    def as_context(self) -> dict[str, Any]:
        """The profile as plain data for templates (keys as in the YAML file)."""
        data = self.as_data()
        data["deck"]["size"] = self.deck.size
        data["deck"]["lowest_rank"] = self.deck.lowest_rank
        data["deck"]["strength"] = self.deck.strength
        data["deck"]["values"] = self.deck.values
        return data


def _build(cls: Any, data: Any) -> Any:
    """Plain data into nested dataclasses, by the declared field types."""
    hints = get_type_hints(cls)
    values = {}
    for item in dataclasses.fields(cls):
        if item.name not in data:
            continue
        kind, value = hints[item.name], data[item.name]
        if dataclasses.is_dataclass(kind):
            value = _build(kind, value)
        elif get_origin(kind) is list and dataclasses.is_dataclass(get_args(kind)[0]):
            value = [_build(get_args(kind)[0], v) for v in value]
        values[item.name] = value
    return cls(**values)


_PLACEHOLDER = re.compile(r"[a-z]+(\.[a-z][a-z_]*)*")


def format_text(text: str, profile: Profile) -> str:
    """Fill {section.key} placeholders with the profile's values; anything but a plain name of
    a number or word of the profile (a format spec, a conversion, an attribute such as
    {name.upper}, a section) is an error."""
    values, out = _format_values(profile), []
    try:
        for literal, name, spec, conversion in string.Formatter().parse(text):
            out.append(literal)
            if name is None:
                continue
            if spec or conversion or not _PLACEHOLDER.fullmatch(name):
                raise ValueError(f"'{{{name}}}' is not a plain {{section.key}} placeholder")
            out.append(str(_value(values, name)))
    except ValueError as exc:
        raise ValueError(f"ruling text {text!r} has a placeholder the profile lacks ({exc})") from None
    return "".join(out)


def _value(values: dict[str, Any], name: str) -> Any:
    value: Any = values
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            raise ValueError(f"the profile has no {name}")
        value = value[part]
    if isinstance(value, (dict, list, bool)):
        raise ValueError(f"{name} is not one number or word")
    return value


T = TypeVar("T")


def per_profile(build: Callable[[Profile], T], kept: int | None = None) -> Callable[[Profile], T]:
    """build(profile), made once per profile object: the engine's tables (the deck, the deal's
    positions, the action texts). Profiles are immutable; each entry keeps its profile alive, so
    its id cannot be reused by another. The last `kept` (default PER_PROFILE_KEPT) profiles are
    kept: a long `mkdocs serve` makes new ones at every rebuild (each example's, seated). The
    entries are the function's `cached` (by the profile's id)."""
    cache: dict[int, tuple[Profile, T]] = {}

    @wraps(build)
    def get(profile: Profile) -> T:
        entry = cache.get(id(profile))
        if entry is None or entry[0] is not profile:
            if len(cache) >= (kept or PER_PROFILE_KEPT):
                cache.pop(next(iter(cache)))
            entry = cache[id(profile)] = (profile, build(profile))
        return entry[1]
    get.cached = cache          # type: ignore[attr-defined]
    return get


PER_PROFILE_KEPT = 256


def _ruling_values(profile: Profile) -> dict[str, Any]:
    """What a ruling's placeholders may name (a profile's check fills every ruling's text).
    Never changed by its readers: it is shared (below)."""
    values = profile.as_context()
    values["players"] = len(profile.players)          # a ruling states how many, never the names
    return values


_format_values = per_profile(_ruling_values, kept=64)
