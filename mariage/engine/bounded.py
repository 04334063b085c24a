"""Bounded reading of the files users hand us: sizes, nesting, numbers and YAML aliases.

PyYAML and json trust their input: an alias bomb expands exponentially, deep nesting exhausts
Python's recursion, a 5000-digit number cannot even be printed, and /dev/zero never ends.
Everything the project reads from a user goes through here; a breach is a yaml.YAMLError or
a ValueError with the line, which the callers turn into their usual one-line message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import msgspec
import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.events import (AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent)

MAX_DEPTH = 32            # a hand record nests 3 deep, the profile 4
MAX_DIGITS = 18           # no rule value or card needs more
MAX_FILE = 8 << 20        # bytes: a record file or profile larger than this is refused
MAX_LINE = 1 << 20        # bytes: one JSON Lines record
MAX_YAML = 1 << 20        # bytes: a YAML record file (JSON, read far faster, may be MAX_FILE)


class BadInput(ValueError):
    """An input over one of the limits, or not text; the message says which."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class NotText(BadInput):
    """Bytes that are not UTF-8 text."""


class BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases, duplicate keys, deep nesting and huge integers."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):  # noqa: ANN001 - PyYAML's signature
        if self.check_event(AliasEvent):
            raise ComposerError(None, None, "YAML aliases (*name) are not accepted here; write "
                                "the value out", self.peek_event().start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                                    self.peek_event().start_mark)
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if isinstance(node, yaml.MappingNode):
            _refuse_duplicate_keys(node)
        return node

    def construct_yaml_int(self, node):  # noqa: ANN001
        if len(node.value.lstrip("+-").replace("_", "")) > MAX_DIGITS:
            raise ConstructorError(None, None, f"a number of more than {MAX_DIGITS} digits",
                                   node.start_mark)
        return super().construct_yaml_int(node)


BoundedLoader.add_constructor("tag:yaml.org,2002:int", BoundedLoader.construct_yaml_int)


def _refuse_duplicate_keys(node: yaml.MappingNode) -> None:
    seen: set[str] = set()
    for key, _ in node.value:
        if key.tag == "tag:yaml.org,2002:merge":
            raise ConstructorError(None, None, "YAML merge keys (<<) are not accepted here; "
                                   "write the keys out", key.start_mark)
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen:
                raise ConstructorError(None, None, f"duplicate key {key.value!r}; keep one",
                                       key.start_mark)
            seen.add(key.value)


# libyaml, where PyYAML was built with it: the profile is read at every command's start.
_C_LOADER = getattr(yaml, "CSafeLoader", None)
_NODE_EVENTS = (ScalarEvent, MappingStartEvent, SequenceStartEvent)
_END_EVENTS = (MappingEndEvent, SequenceEndEvent)


def compose(text: str) -> yaml.Node | None:
    """The YAML node tree of one document, within the limits. With libyaml, its event stream
    (made without recursion) is checked for aliases and depth first, and only then composed,
    so the limits and messages are BoundedLoader's at a tenth of the time."""
    if _C_LOADER is not None:
        return _compose_c(text)
    return _compose_python(text)


def _compose_c(text: str) -> yaml.Node | None:
    _check_events(text)
    loader: Any = _C_LOADER
    node = yaml.compose(text, Loader=loader)
    if node is not None:
        _check_mappings(node)
    return node


def _check_events(text: str) -> None:
    """Aliases and depth, checked on libyaml's event stream (made without recursion) before
    anything is composed."""
    loader: Any = _C_LOADER
    depth = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            mark: Any = event.start_mark
            if isinstance(event, AliasEvent):
                raise ComposerError(None, None, "YAML aliases (*name) are not accepted here; "
                                    "write the value out", mark)
            if isinstance(event, _NODE_EVENTS) and depth >= MAX_DEPTH:
                raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep", mark)
            if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                depth += 1
            elif isinstance(event, _END_EVENTS):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" not in str(exc.problem):  # libyaml's own limit, met before ours
            raise
        raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep",
                            exc.problem_mark) from None


def _check_mappings(node: yaml.Node) -> None:
    """Duplicate keys refused, inner mappings first (as BoundedLoader meets them)."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _check_mappings(key)
            _check_mappings(value)
        _refuse_duplicate_keys(node)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_mappings(item)


def _compose_python(text: str) -> yaml.Node | None:
    loader = BoundedLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def construct(node: yaml.Node | None) -> Any:
    """The Python data of a composed node (parsed once: the node keeps its lines)."""
    if node is None:
        return None
    loader = BoundedLoader("")
    try:
        return loader.construct_document(node)
    finally:
        loader.dispose()


def load(text: str) -> Any:
    return construct(compose(text))


def load_all(text: str) -> Iterator[tuple[Any, int]]:
    """Each YAML document with its first line, one at a time (libyaml where PyYAML has it:
    the limits are checked on its events first, as `compose` does)."""
    if _C_LOADER is not None:
        _check_events(text)
        fast: Any = _C_LOADER
        for document in yaml.compose_all(text, Loader=fast):
            if document is not None:
                _check_mappings(document)
                yield construct(document), document.start_mark.line + 1
        return
    loader = BoundedLoader(text)
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is not None:
                yield loader.construct_document(node), node.start_mark.line + 1
    finally:
        loader.dispose()


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadInput(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


FAST_JSON = msgspec.json.Decoder().decode
FAST_JSON_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError)


def json_record(line: bytes) -> Any:
    """One JSON Lines record, read fast by msgspec. msgspec refuses what the limits are for (a
    number past Python's 4,300-digit limit, nesting past the recursion limit) and anything that
    is not plain JSON (NaN, lone surrogates, bad syntax): those go to json_loads, whose message
    (more than MAX_DIGITS digits, nested too deeply, the syntax error) the user then reads.
    Undecodable bytes are NotText."""
    try:
        return FAST_JSON(line)
    except FAST_JSON_ERRORS:
        return json_loads(decode(line))


def json_loads(text: str) -> Any:
    """json.loads within the limits; a breach is BadInput, bad syntax JSONDecodeError."""
    try:
        return json.loads(text, parse_int=_bounded_int)
    except RecursionError:
        raise BadInput("nested too deeply") from None


def read_text(path: Path, limit: int = MAX_FILE) -> str:
    """A file's UTF-8 text, refusing more than `limit` bytes (one bounded read, so /dev/zero
    or a FIFO cannot exhaust memory). OSError passes through; BadInput/NotText otherwise."""
    with open(path, "rb") as stream:
        return decode(read_bounded(stream, limit))


def read_bounded(stream: BinaryIO, limit: int = MAX_FILE) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise BadInput(f"larger than {_size(limit)}; no profile or record file is that big")
    return data


def _size(limit: int) -> str:
    return f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit >> 10} KB"


def decode(data: bytes) -> str:
    """UTF-8 text; an invalid byte is NotText, naming its line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(f"byte 0x{data[exc.start]:02x} is not UTF-8; save the file as UTF-8",
                      line=data.count(b"\n", 0, exc.start) + 1) from None
