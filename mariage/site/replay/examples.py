"""Worked examples (examples/*.md): a hand record, a narrative template and a doctest, one file each.

A file starts with YAML front matter holding the record (dealer, deck, actions) and the tutorial
section it illustrates; the rest is a Jinja template whose numbers come from the engine's run of
that record, and whose ```python blocks are doctests. pytest runs the doctests with Sybil; every
site build runs them again on each language's rendered page, so no page can print a number the
engine does not produce.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine import bounded
from ...engine.errors import SourceError
from ...engine.game import Game
from ...engine.hand import Hand
from ...engine.notation import ReplayError, read_records, replay_hand
from ...engine.profile import Profile, default_profile, load_profile
from ..cache import digest, file_digest
from ..read.project import Project

FRONT_MATTER = re.compile(r"\A---\n(.*?\n)---\n", re.S)
CODE_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
META_KEYS = {"section", "dealer", "deck", "actions"}
OPTIONAL_KEYS = {"actions", "profile"}       # profile: a variant's file, e.g. rules/variants/schnapsen.yaml
GAME_KEYS = {"section", "first_dealer", "hands"}      # a game: the hands of other examples, in turn
WORKED_EXAMPLE = "07-marriage-claim"      # the example that section 07 of the tutorial teaches
EXAMPLE_LIMIT = 256 << 10                 # bytes: an example file is a few kilobytes
# A file name becomes a page path, a nav entry and a link: letters, digits, - and . only.
_FILE_NAME = re.compile(r"\A[^\W_][\w.-]*\Z")
_SECTION = re.compile(r"\A(?:[0-9]{2}|[a-z][a-z-]*)\Z")


@dataclass
class Example:
    name: str
    path: Path
    meta: dict[str, Any]
    body: str                      # the template, front matter blanked so line numbers hold
    profile: Profile = field(default_factory=default_profile)

    def check(self) -> None:
        """Every value of the front matter the build uses, checked here, each mistake named
        with its key and line: the record itself is replayed by `hand()` and `game()`."""
        section = self.meta["section"]
        if not isinstance(section, str) or not _SECTION.match(section):
            self._refuse("section", 'the tutorial section, written "02" … "07", or variants')
        players = self.profile.players
        dealer_key = "first_dealer" if self.is_game else "dealer"
        if self.meta[dealer_key] not in players:
            self._refuse(dealer_key, f"the dealer is {' or '.join(players)} (R2)")
        if self.is_game:
            names = self.meta["hands"]
            if (not isinstance(names, list) or not names
                    or not all(isinstance(n, str) and _FILE_NAME.match(n) for n in names)):
                self._refuse("hands", "'hands' lists the names of other examples of examples/, "
                             "at least one")
            if self.name in names:
                self._refuse("hands", "a game example cannot name itself as one of its hands")
            return
        deck, actions = self.meta["deck"], self.meta.get("actions", [])
        if not isinstance(deck, (list, str)):
            self._refuse("deck", "'deck' is a list of cards, top card first")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            self._refuse("actions", "'actions' is a list of actions such as 'A play Kh' "
                         "(write [] for none)")

    def as_context(self) -> dict[str, Any]:
        """The example as templates see it: plain values only (no path, no profile object)."""
        return {"name": self.name, "relpath": self.relpath, "section": self.section,
                "is_game": self.is_game, "variant": self.variant,
                "actions": [] if self.is_game else self.actions, "meta": dict(self.meta)}

    def _refuse(self, key: str, message: str) -> None:
        raise SourceError(self.relpath, message, line=self._line_of(key), key=key)

    @property
    def section(self) -> str:
        return str(self.meta["section"])

    @property
    def variant(self) -> str | None:
        """The stem of the variant profile the example names (None: the build's profile)."""
        return Path(self.meta["profile"]).stem if "profile" in self.meta else None

    @property
    def actions(self) -> list[str]:
        return list(self.meta.get("actions", []))

    @property
    def is_game(self) -> bool:
        return "hands" in self.meta

    def game_hands(self) -> list["Example"]:
        """A game example's hands: the examples it names, in the order they were dealt."""
        names = self.meta["hands"]
        missing = [n for n in names if not (self.path.parent / f"{n}.md").is_file()]
        if missing:
            raise SourceError(self.relpath, f"no example named {missing[0]!r}",
                              line=self._line_of("hands"), hint="name a file of examples/")
        hands = [read_example(self.path.parent / f"{n}.md", self.profile) for n in names]
        games = [h.name for h in hands if h.is_game]
        if games:
            raise SourceError(self.relpath, f"{games[0]} is a game, not a hand: a game example "
                              "names hand examples", line=self._line_of("hands"))
        return hands

    def game(self) -> Game:
        """A game example replayed: each hand dealt by the game's dealer in turn (R2)."""
        game = Game(str(self.meta["first_dealer"]), self.profile)
        for number, example in enumerate(self.game_hands(), 1):
            if game.winner is not None:
                raise SourceError(self.relpath, f"R19: {game.winner} has won the game with "
                                  f"{game.game_points[game.winner]} game points before hand "
                                  f"{number} ({example.name}); remove the hands after the win",
                                  line=self._line_of("hands"))
            if game.hands and game.hands[-1].outcome is None:
                raise SourceError(self.relpath, f"R19: hand {number - 1} stops mid-hand; only "
                                  "the last hand of a game may", line=self._line_of("hands"))
            if example.meta["dealer"] != game.dealer:
                raise SourceError(self.relpath, f"hand {number} ({example.name}) is dealt by "
                                  f"{example.meta['dealer']}, but R2 gives the deal to "
                                  f"{game.dealer}", line=self._line_of("hands"))
            hand = example.hand()
            game.hands.append(hand)
            if hand.outcome is not None:
                game.record(hand.outcome)
        return game

    def hand(self, stop: int | None = None) -> Hand:
        """The hand after its actions up to (not including) index `stop`; the whole record
        ends the hand as replay does, a prefix leaves it where it stands."""
        if self.is_game:
            raise SourceError(self.relpath, "a game example has no single hand: use game()")
        record = {"dealer": self.meta["dealer"], "deck": self.meta["deck"],
                  "actions": self.actions[:stop]}
        try:
            return replay_hand(record, profile=self.profile, finish=stop is None)
        except ReplayError as exc:
            where = "" if exc.action is None else f" (action {exc.action}: {self.actions[exc.action]!r})"
            raise SourceError(self.relpath, f"the record does not replay{where}: {exc}",
                              line=self._line_of("actions" if exc.action is not None else "deck"),
                              hint="fix the record so every action is legal") from None

    @property
    def relpath(self) -> str:
        """examples/<name>.md, relative to the project that holds it."""
        return str(self.path.relative_to(self.path.parent.parent))

    def _line_of(self, key: str) -> int | None:
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith(f"{key}:"):
                return number
        return None


def inputs(example: Example) -> str:
    """The content hash of what replaying an example reads: its file, the files of a game's
    hands, and its profile."""
    hands = example.meta.get("hands") if example.is_game else None
    names = [n for n in hands if isinstance(n, str)] if isinstance(hands, list) else []
    files = [example.path] + [example.path.parent / f"{n}.md" for n in names]
    return digest([file_digest(p) for p in files], example.profile)


def read_example(path: Path, profile: Profile | None = None) -> Example:
    """Read and check an example file: its name, its front matter (through the record reader
    `replay` uses, within its limits) and every value the build will use."""
    if path.stem == "index":
        raise SourceError(path, "an example cannot be named index.md: that name is the "
                          "examples' index page", hint="rename it, e.g. 10-my-example.md")
    if not _FILE_NAME.match(path.stem):
        raise SourceError(path.parent / repr(path.name)[1:-1], "an example's file name is "
                          "letters, digits, - and . (it becomes a page's address and link)",
                          hint="rename it, e.g. 10-my-example.md")
    try:
        text = bounded.read_text(path, EXAMPLE_LIMIT)
    except OSError as exc:
        raise SourceError(path, f"cannot read the example ({exc.strerror})") from None
    except bounded.BadInput as exc:
        raise SourceError(path, f"cannot read the example: {exc}", line=exc.line) from None
    match = FRONT_MATTER.match(text)
    if not match:
        raise SourceError(path, "an example starts with YAML front matter between --- lines",
                          line=1, hint="copy the front matter of an existing example")
    meta = _front_matter(path, match.group(1))
    body = "\n" * match.group(0).count("\n") + text[match.end():]
    if "profile" in meta:                    # a variant's example plays under its own profile
        profile = _named_profile(path, meta["profile"])
    example = Example(path.stem, path, meta, body, profile or default_profile())
    example.check()
    return example


def _front_matter(path: Path, text: str) -> dict[str, Any]:
    """The front matter as one record, read as `mariage replay` reads a record file (the
    leading newline keeps the file's line numbers)."""
    try:
        records = read_records("\n" + text, str(path))
    except SourceError as exc:
        raise SourceError(path, f"malformed front matter: {exc.reason}", line=exc.line) from None
    meta = records[0].data if len(records) == 1 else None
    if not isinstance(meta, dict) or not (_fits(meta, META_KEYS) or _fits(meta, GAME_KEYS)):
        raise SourceError(path, f"front matter needs the keys {', '.join(sorted(META_KEYS))} "
                          f"(and optionally profile), or, for a game, "
                          f"{', '.join(sorted(GAME_KEYS))}", line=2)
    return meta


def _named_profile(path: Path, name: object) -> Profile:
    """The profile an example names, relative to the project holding examples/."""
    if not isinstance(name, str) or not name.endswith(".yaml"):
        raise SourceError(path, "profile: name a profile file, e.g. rules/variants/schnapsen.yaml",
                          line=2)
    project = path.parent.parent.resolve()
    target = (project / name).resolve()
    if not target.is_relative_to(project) or not target.is_file():
        raise SourceError(path, f"profile: no file {name} in the project", line=2,
                          hint="name a profile file relative to the project, e.g. "
                          "rules/variants/schnapsen.yaml")
    return load_profile(target)


def _fits(meta: dict[str, Any], keys: set[str]) -> bool:
    return not (keys - OPTIONAL_KEYS - set(meta)) and not (set(meta) - keys - OPTIONAL_KEYS)


def all_examples(folder: Path, profile: Profile | None = None) -> list[Example]:
    return [read_example(p, profile) for p in sorted(folder.glob("*.md"), key=lambda p: p.stem)
            if p.name != "README.md"]


# While a build verifies a page: the examples folder and the profile of that build.
_BUILD: ContextVar[tuple[Path, Profile] | None] = ContextVar("example_build", default=None)


def load(name: str, stop: int | None = None) -> Hand:
    """The hand of examples/<name>.md, replayed up to action index `stop` (for doctests).
    While a build verifies a page, names resolve in the examples folder being built, under the
    build's profile; elsewhere, in the project the command runs in."""
    build = _BUILD.get()
    folder, profile = build if build else (Project.find().examples, None)
    return read_example(folder / f"{name}.md", profile).hand(stop)


def load_game(name: str) -> Game:
    """The game of examples/<name>.md (for doctests), found as load() finds a hand."""
    build = _BUILD.get()
    folder, profile = build if build else (Project.find().examples, None)
    return read_example(folder / f"{name}.md", profile).game()


def claim_summary(example: Example) -> dict[str, Any]:
    """Numbers of an example that ends in a claim: the claimant's card points and bonus just
    before the claim, the opponent's state, and the game points the claim scores."""
    before, after = example.hand(-1), example.hand()
    player = example.actions[-1].split()[0]
    other = next(p for p in before.players if p != player)
    outcome = after.outcome
    if outcome is None:
        raise SourceError(example.relpath, "this example must end with a claim")
    return {"player": player, "card_points": before.card_points(player),
            "marriage_bonus": before.points(player) - before.card_points(player),
            "total": before.points(player), "opponent_points": before.points(other),
            "opponent_tricks": before.tricks(other), "game_points": outcome.game_points,
            "end": outcome.end.value}


