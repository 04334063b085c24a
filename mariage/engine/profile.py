"""Load and validate the rules profile (rules/mariage.yaml).

The schema is a set of frozen msgspec Structs, checked by msgspec.convert (types, ranges,
unknown and missing keys) and by each Struct's __post_init__ (the cross-field rules). A
validation error is mapped back to the YAML line of the offending key, so the user reads
"rules/mariage.yaml:27: bonuses.trump_marriage: …". msgspec rather than a heavier schema
library keeps `mariage replay`'s start-up short: the profile is read on every run.
"""

from __future__ import annotations

import os
import re
import string
import unicodedata
from functools import lru_cache, wraps
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, TypeVar, get_args, get_origin, get_type_hints

import msgspec
import yaml
from msgspec import Meta, Struct, field

from . import bounded
from .errors import ProfileError

# Where a project keeps its profile. Commands find the project from where they run, never from
# where this package is installed.
PROJECT_PROFILE = Path("rules") / "mariage.yaml"

PROFILE_LIMIT = 128 << 10       # bytes; the shipped profile is about 6 KB
# Rank letters the engine reads by name, and the ruling that needs each.
NAMED_RANKS = {"K": "R12", "Q": "R12"}

PositiveInt = Annotated[int, Meta(gt=0)]
Points = Annotated[int, Meta(ge=0)]
# Strings that pages print: plain words only, so no profile can put Markdown or HTML (a link,
# an image, emphasis, an attribute list) on a page. \A...\Z: `$` would allow a final newline.
_WORDS = r"\A(?:[^\W_]|[ \-'’.,])+\Z"
_RANK = r"\A(?:[A-Z]|[1-9][0-9]?)\Z"
_SUIT_CODE = r"\A[a-z]\Z"
_SYMBOL = r"\A(?:[A-Za-z]|[^\x00-\x7f])\Z"
_PATTERNS = {
    _WORDS: "plain words (letters, digits, spaces and - ' . , only)",
    _RANK: "a rank written as one capital letter or a number, such as K or 10",
    _SUIT_CODE: "one lowercase letter",
    _SYMBOL: "one letter or one non-ASCII symbol such as ♣",
    r"\A[^\W_]+\Z": "one word of letters or digits",
}
Words = Annotated[str, Meta(pattern=_WORDS)]


class _Pinned(ValueError):
    """A cross-field error pinned to `key` (relative to the Struct), so the line is the key's."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def _fail(key: str, message: str) -> _Pinned:
    return _Pinned(key, message)


class Strict(Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Suit(Strict, frozen=True):
    code: Annotated[str, Meta(pattern=_SUIT_CODE)]
    name: Words
    symbol: Annotated[str, Meta(pattern=_SYMBOL)]
    color: Literal["red", "black"]

    def __post_init__(self) -> None:
        if unicodedata.category(self.symbol)[0] in "CZM":     # controls, spaces, combining marks
            raise _fail("symbol", "must be a visible symbol, not a control, space or mark")


class Deck(Strict, frozen=True):
    suits: Annotated[list[Suit], Meta(min_length=1, max_length=4)]
    ranks: Annotated[list[Annotated[str, Meta(pattern=_RANK)]], Meta(min_length=1, max_length=8)]
    card_points: dict[str, int]
    total_points: PositiveInt

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def lowest_rank(self) -> str:
        """The weakest rank dealt: its trump is the card R10 exchanges (7, 9 or J)."""
        return self.ranks[-1]

    def __post_init__(self) -> None:
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


class Deal(Strict, frozen=True):
    packets: Annotated[list[int], Meta(min_length=1)]
    hand_size: PositiveInt
    stock_size: PositiveInt
    # R3: how many rounds of packets go out before the indicator is turned (Schnapsen: 1 of 2)
    indicator_after: PositiveInt | None = None

    def __post_init__(self) -> None:
        if any(p <= 0 for p in self.packets) or sum(self.packets) != self.hand_size:
            raise _fail("packets", f"packets {self.packets} must be positive and add up to "
                        f"hand_size {self.hand_size}")
        if self.indicator_after is not None and self.indicator_after > len(self.packets):
            raise _fail("indicator_after", f"indicator_after must be at most the "
                        f"{len(self.packets)} rounds of packets")

    @property
    def indicator_round(self) -> int:
        """Rounds of packets dealt before the indicator: all of them unless the profile says."""
        return len(self.packets) if self.indicator_after is None else self.indicator_after


class Thresholds(Strict, frozen=True):
    claim: PositiveInt
    opponent_safe: PositiveInt
    game: PositiveInt


class Bonuses(Strict, frozen=True):
    marriage: Points
    trump_marriage: Points
    last_trick: Points


class Closing(Strict, frozen=True):
    min_stock: PositiveInt
    min_trick: PositiveInt


class Rates(Strict, frozen=True):
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

    def values(self) -> list[int]:
        """Every rate the profile sets, in the order above."""
        return [v for v in msgspec.structs.astuple(self) if v is not None]


class Options(Strict, frozen=True):
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


class Source(Strict, frozen=True):
    """A source the profile's comments cite as [id]: its title as published, and where to read it."""
    id: Annotated[str, Meta(pattern=r"^[A-Za-z0-9-]+$")]
    title: Annotated[str, Meta(pattern=r"^[^\[\]<>`]+$")]      # shown as a link's text
    url: Annotated[str, Meta(pattern=r"^(https?://[^\s<>\"]+)?$")] = ""


class Ruling(Strict, frozen=True):
    id: Annotated[str, Meta(pattern=r"^R[1-9][0-9]*$")]
    topic: Annotated[str, Meta(pattern=r"\A[a-z_]+\Z")]
    text: str


class Profile(Strict, frozen=True):
    name: Words
    players: Annotated[list[Annotated[str, Meta(pattern=r"\A[^\W_]+\Z")]],
                       Meta(min_length=2, max_length=2)]
    deck: Deck
    deal: Deal
    thresholds: Thresholds
    bonuses: Bonuses
    closing: Closing
    rates: Rates
    rulings: list[Ruling]
    names: list[Words] = field(default_factory=list)   # what the game is called where it is played
    sources: list[Source] = field(default_factory=list)   # what the values' [id] citations name
    options: Options = field(default_factory=Options)
    source: str = ""                                 # the file read; not part of the rules

    def __post_init__(self) -> None:
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

    def ruling(self, ruling_id: str) -> str:
        """The ruling's one-line English statement, with its numbers filled in from the profile."""
        for ruling in self.rulings:
            if ruling.id == ruling_id:
                return _format_text(ruling.text, self)
        raise KeyError(ruling_id)

    def marriage_bonus(self, is_trump: bool) -> int:
        return self.bonuses.trump_marriage if is_trump else self.bonuses.marriage

    def as_data(self) -> dict[str, Any]:
        """The profile as plain data, keys as in the YAML file (`source` left out)."""
        data = msgspec.to_builtins(self)
        del data["source"]
        return data

    @classmethod
    def from_data(cls, data: Any, source: str = "") -> "Profile":
        """Validate plain data (as_data's, or a YAML file's) into a Profile; msgspec's
        ValidationError if it breaks a rule of the schema."""
        profile = msgspec.convert(data, cls)
        return msgspec.structs.replace(profile, source=source) if source else profile

    def replace(self, **changes: Any) -> "Profile":
        """A copy with some sections replaced (tests and variants use it); not re-validated."""
        return msgspec.structs.replace(self, **changes)

    def as_context(self) -> dict[str, Any]:
        """The profile as plain data for templates (keys as in the YAML file)."""
        data = self.as_data()
        data["deck"]["size"] = self.deck.size
        data["deck"]["lowest_rank"] = self.deck.lowest_rank
        return data


_PLACEHOLDER = re.compile(r"[a-z]+(\.[a-z][a-z_]*)*")


def _format_text(text: str, profile: Profile) -> str:
    """Fill {section.key} placeholders with the profile's values; anything but a plain name of
    a number or word of the profile (a format spec, a conversion, an attribute such as
    {name.upper}, a section) is an error."""
    values, out = profile.as_context(), []
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
        return Profile.from_data(data, source=str(path))
    except msgspec.ValidationError as exc:
        raise _profile_error(path, root, exc) from None


T = TypeVar("T")


def per_profile(build: Callable[[Profile], T]) -> Callable[[Profile], T]:
    """build(profile), made once per profile object: the engine's tables (the deck, the deal's
    positions, the action texts). Profiles are immutable; each entry keeps its profile alive, so
    its id cannot be reused by another."""
    cache: dict[int, tuple[Profile, T]] = {}

    @wraps(build)
    def get(profile: Profile) -> T:
        entry = cache.get(id(profile))
        if entry is None or entry[0] is not profile:
            entry = cache[id(profile)] = (profile, build(profile))
        return entry[1]
    return get


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


_AT = re.compile(r"^(?P<message>.*) - at `\$(?P<path>[^`]*)`$", re.S)
_PART = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_KINDS = {"int": "an integer", "str": "a string", "bool": "true or false", "float": "a number",
          "array": "a list", "object": "a mapping", "null": "empty"}


def _profile_error(path: Path, root: yaml.Node | None, exc: msgspec.ValidationError) -> ProfileError:
    """msgspec's "Expected `int`, got `str` - at `$.thresholds.claim`" as the user's message:
    the key's path, its YAML line, and plain words."""
    found = _AT.match(str(exc))
    message, where = (found["message"], found["path"]) if found else (str(exc), "")
    loc: list[Any] = [int(index) if index else name for name, index in _PART.findall(where)]
    pinned = getattr(exc.__cause__, "key", None)
    if pinned:
        loc += [int(p) if p.isdigit() else p for p in pinned.split(".")]
    if named := re.match(r"Object contains unknown field `(.*)`$", message):
        loc, message = loc + [named[1]], "unknown key; remove it or check its spelling"
    elif named := re.match(r"Object missing required field `(.*)`$", message):
        loc, message = loc + [named[1]], "missing value; add it"
    elif allowed := _allowed(loc):
        message = "must be " + " or ".join(map(repr, allowed))
    else:
        message = _plain(message)
    key = ".".join(str(part) for part in loc) or None
    return ProfileError(path, message, line=_line_of(root, loc), key=key,
                        hint="the rulings section at the end of this file says what each value means")


def _plain(message: str) -> str:
    """"Expected `int` >= 1, got `str`" in plain words: "must be an integer >= 1, not a string"."""
    for pattern, words in _PATTERNS.items():
        message = message.replace(f"`str` matching regex {pattern!r}", words)
    message = re.sub(r"`(\w+)`", lambda m: _KINDS.get(m[1], m[1]), message)
    message = re.sub(r"^Expected ", "must be ", message)
    return re.sub(r", got ", ", not ", message)


def _allowed(loc: list[Any]) -> tuple[Any, ...]:
    """The values a Literal field allows, or () for any other field."""
    try:
        kind = _field_type(loc)
    except (KeyError, IndexError, TypeError):
        return ()
    return get_args(kind) if get_origin(kind) is Literal else ()


def _field_type(loc: list[Any]) -> Any:
    """The declared type at a path of the schema (for the values a Literal allows)."""
    kind: Any = Profile
    for part in loc:
        while get_origin(kind) is Annotated:
            kind = get_args(kind)[0]
        if isinstance(part, int):
            kind = get_args(kind)[0]
        else:
            kind = get_type_hints(kind, include_extras=True)[part]
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    return kind


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
