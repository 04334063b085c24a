"""Worked examples (examples/*.md): a hand record, a narrative template and a doctest, one file each.

A file starts with YAML front matter holding the record (dealer, deck, actions) and the tutorial
section it illustrates; the rest is a Jinja template whose numbers come from the engine's run of
that record, and whose ```python blocks are doctests. pytest runs the doctests with Sybil; every
site build runs them again on each language's rendered page, so no page can print a number the
engine does not produce.
"""

from __future__ import annotations

import doctest
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from ...engine import bounded
from ...engine.errors import MariageError, SourceError
from ...engine.game import Game
from ...engine.hand import Hand
from ...engine.notation import ReplayError, replay_hand
from ...engine.profile import Profile, default_profile, load_profile
from ..read.project import Project

FRONT_MATTER = re.compile(r"\A---\n(.*?\n)---\n", re.S)
CODE_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
META_KEYS = {"section", "dealer", "deck", "actions"}
OPTIONAL_KEYS = {"actions", "profile"}       # profile: a variant's file, e.g. rules/variants/schnapsen.yaml
GAME_KEYS = {"section", "first_dealer", "hands"}      # a game: the hands of other examples, in turn
WORKED_EXAMPLE = "07-marriage-claim"      # the example that section 07 of the tutorial teaches


@dataclass
class Example:
    name: str
    path: Path
    meta: dict[str, Any]
    body: str                      # the template, front matter blanked so line numbers hold
    profile: Profile = field(default_factory=default_profile)

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
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise SourceError(self.relpath, "'hands' lists the names of other examples",
                              line=self._line_of("hands"))
        missing = [n for n in names if not (self.path.parent / f"{n}.md").is_file()]
        if missing:
            raise SourceError(self.relpath, f"no example named {missing[0]!r}",
                              line=self._line_of("hands"), hint="name a file of examples/")
        return [read_example(self.path.parent / f"{n}.md", self.profile) for n in names]

    def game(self) -> Game:
        """A game example replayed: each hand dealt by the game's dealer in turn (R2)."""
        game = Game(str(self.meta["first_dealer"]), self.profile)
        for number, example in enumerate(self.game_hands(), 1):
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


def read_example(path: Path, profile: Profile | None = None) -> Example:
    if path.stem == "index":
        raise SourceError(path, "an example cannot be named index.md: that name is the "
                          "examples' index page", hint="rename it, e.g. 10-my-example.md")
    try:
        text = bounded.read_text(path)
    except OSError as exc:
        raise SourceError(path, f"cannot read the example ({exc.strerror})") from None
    except bounded.BadInput as exc:
        raise SourceError(path, f"cannot read the example: {exc}", line=exc.line) from None
    match = FRONT_MATTER.match(text)
    if not match:
        raise SourceError(path, "an example starts with YAML front matter between --- lines",
                          line=1, hint="copy the front matter of an existing example")
    try:
        meta = bounded.load(match.group(1))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SourceError(path, f"malformed front matter: {getattr(exc, 'problem', exc)}",
                          line=mark.line + 2 if mark else None) from None
    if not isinstance(meta, dict) or not (_fits(meta, META_KEYS) or _fits(meta, GAME_KEYS)):
        raise SourceError(path, f"front matter needs the keys {', '.join(sorted(META_KEYS))} "
                          f"(and optionally profile), or, for a game, "
                          f"{', '.join(sorted(GAME_KEYS))}", line=2)
    body = "\n" * match.group(0).count("\n") + text[match.end():]
    if "profile" in meta:                    # a variant's example plays under its own profile
        profile = _named_profile(path, meta["profile"])
    return Example(path.stem, path, meta, body, profile or default_profile())


def _named_profile(path: Path, name: object) -> Profile:
    """The profile an example names, relative to the project holding examples/."""
    if not isinstance(name, str) or not name.endswith(".yaml"):
        raise SourceError(path, "profile: name a profile file, e.g. rules/variants/schnapsen.yaml",
                          line=2)
    if not (path.parent.parent / name).is_file():
        raise SourceError(path, f"profile: no file {name} in the project", line=2,
                          hint="name a profile file relative to the project, e.g. "
                          "rules/variants/schnapsen.yaml")
    return load_profile(path.parent.parent / name)


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


# ----- running the doctests of a rendered page
class _Collect(doctest.DocTestRunner):
    def __init__(self, on_start: Callable[[int], None]) -> None:
        super().__init__(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        self.failures_seen: list[str] = []
        self.on_start = on_start

    def report_start(self, out, test, example):  # noqa: ANN001 - doctest's signature
        self.on_start(test.lineno + example.lineno + 1)

    def report_failure(self, out, test, example, got):  # noqa: ANN001 - doctest's signature
        self.failures_seen.append(
            f"line {test.lineno + example.lineno + 1}: {example.source.strip()} "
            f"expected {example.want.strip()!r}, got {got.strip()!r}")

    def report_unexpected_exception(self, out, test, example, exc_info):  # noqa: ANN001
        self.failures_seen.append(
            f"line {test.lineno + example.lineno + 1}: {example.source.strip()} raised "
            f"{exc_info[0].__name__}: {exc_info[1]}")


def run_doctests(markdown: str, name: str, source: str | None = None,
                 on_start: Callable[[int], None] = lambda line: None) -> list[str]:
    """Run every ```python block of a page as a doctest; returns failure messages whose line
    numbers are those of the block in `source` (the example file) when it is found there.
    `on_start` hears each statement's line before it runs. Runs in the calling process: the
    build calls it inside a worker (see `doctests`)."""
    runner, parser = _Collect(on_start), doctest.DocTestParser()
    globs: dict[str, object] = {}
    for match in CODE_BLOCK.finditer(markdown):
        at = source.find(match.group(1)) if source else -1
        lineno = (source.count("\n", 0, at) if source and at >= 0
                  else markdown.count("\n", 0, match.start(1)))
        test = parser.get_doctest(match.group(1), globs, name, name, lineno)
        runner.run(test, out=lambda _: None, clear_globs=False)
    return runner.failures_seen
