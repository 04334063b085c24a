"""The actions of a hand in the record notation: 'A play Kh', 'B marriage s', 'A claim'."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RecordError

VERBS = ("play", "exchange", "close", "marriage", "claim", "pass")
_NEEDS_ARG = {"play": "a card, as in 'A play Kh'", "marriage": "a suit, as in 'A marriage h'"}
# R11 option: 'A close before' closes before the draw of the trick just won
_MAY_TAKE = {"close": "nothing, or 'before' to close before drawing"}
# Records repeat a few dozen action texts: each is read once (bounded against hostile input).
_READ: dict[str, "Action"] = {}
_READ_MAX = 4096


@dataclass(frozen=True)
class Action:
    """An action in the record notation: Action.parse('A play Kh')."""

    player: str
    verb: str
    arg: str | None = None

    @classmethod
    def parse(cls, text: str) -> "Action":
        known = _READ.get(text) if type(text) is str else None
        if known is not None:
            return known
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise RecordError(f"an action is a string such as 'A play Kh', not {text!r}")
        parts = text.split()
        if len(parts) < 2 or parts[1] not in VERBS:
            raise RecordError(f"cannot read action {text!r}: write '<player> <verb> [<arg>]' "
                              f"with a verb among {', '.join(VERBS)}")
        player, verb, rest = parts[0], parts[1], parts[2:]
        optional = verb in _MAY_TAKE and rest == ["before"]
        if ((verb in _NEEDS_ARG) != bool(rest) and not optional) or len(rest) > 1:
            need = _NEEDS_ARG.get(verb) or _MAY_TAKE.get(verb, "nothing after the verb")
            raise RecordError(f"cannot read action {text!r}: '{verb}' takes {need}")
        action = cls(player, verb, rest[0] if rest else None)
        if cls is Action and len(_READ) < _READ_MAX:
            _READ[text] = action
        return action

    def __str__(self) -> str:
        return " ".join(p for p in (self.player, self.verb, self.arg) if p)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"
