"""Typed errors. Each is a ValueError whose message a user can act on without a traceback."""

from __future__ import annotations


class MariageError(ValueError):
    """Base of every error the project reports to a user."""


class SourceError(MariageError):
    """A mistake in a file the user edits: names the file, the line and the key or message."""

    def __init__(self, path: object, message: str, line: int | None = None, key: str | None = None,
                 hint: str | None = None) -> None:
        self.path, self.line, self.key, self.hint = str(path), line, key, hint
        self.reason = message
        where = self.path + (f":{line}" if line else "")
        text = f"{where}: " + (f"{key}: " if key else "") + message
        super().__init__(text + (f" ({hint})" if hint else ""))


class ProfileError(SourceError):
    """The rules profile is malformed or impossible."""


class IllegalActionError(MariageError):
    """An action the rules do not allow now; the message starts with the ruling, e.g. 'R12: …'."""

    def __init__(self, ruling: str, message: str) -> None:
        self.ruling = ruling
        super().__init__(f"{ruling}: {message}")


class RecordError(MariageError):
    """A hand or game record that cannot be read (bad card, wrong deck size, bad action text)."""
