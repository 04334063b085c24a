"""bounded.json_record, the fast reader of JSON Lines records (msgspec), against the standard
library's json.loads within the project's limits (bounded.json_loads), one row per kind of
line: the same value, or the same refusal."""

from __future__ import annotations

import json

import pytest

from mariage.engine import bounded
from mariage.engine.notation import read_records
from mariage.engine.errors import SourceError


def _reference(line: bytes):
    try:
        return ("value", bounded.json_loads(bounded.decode(line)))
    except (json.JSONDecodeError, bounded.BadInput) as exc:
        return ("refused", type(exc).__name__, str(exc))


def _fast(line: bytes):
    try:
        return ("value", bounded.json_record(line))
    except (json.JSONDecodeError, bounded.BadInput) as exc:
        return ("refused", type(exc).__name__, str(exc))


ROWS = [
    ("a hand record", b'{"dealer": "A", "deck": ["Ac", "10h"], "actions": ["B play Ac"]}'),
    ("unicode and escapes", b'{"a": "K\\u2665 \xc3\xa9", "b": "\\n\\t\\"\\\\"}'),
    ("numbers", b'[0, -1, 1.5, -2e3, 1e-7, 999999999999999999]'),
    ("a number too large for a float", b'{"a": 1e400}'),
    ("NaN, which JSON has not", b'{"a": NaN}'),
    ("Infinity", b'[Infinity, -Infinity]'),
    ("a lone surrogate", b'{"a": "\\ud800"}'),
    ("a duplicate key: the last one wins", b'{"a": 1, "a": 2}'),
    ("a byte-order mark", b'\xef\xbb\xbf{"a": 1}'),
    ("not UTF-8", b'{"a": "\xff"}'),
    ("a 5000-digit number", b'[' + b'7' * 5000 + b']'),
    ("nested 100000 deep", b'[' * 100000 + b']' * 100000),
    ("trailing garbage", b'{"a": 1} x'),
    ("truncated", b'{"a": [1, 2'),
    ("trailing comma", b'[1, 2,]'),
    ("single quotes", b"{'a': 1}"),
    ("CRLF line end", b'{"a": 1}\r'),
    ("markup in a string", b'{"a": "<script>alert(1)</script>"}'),
]


@pytest.mark.parametrize("line", [row[1] for row in ROWS], ids=[row[0] for row in ROWS])
def test_the_fast_reader_agrees_with_the_standard_library(line):
    assert _fast(line) == _reference(line)


def test_the_one_documented_difference_is_a_long_number_within_pythons_limit():
    """Numbers of 19 to 4300 digits: msgspec reads them, the standard path refuses them (over
    MAX_DIGITS). No record field is a number, so such a record is refused as a record."""
    line = b'{"dealer": ' + b'9' * 30 + b'}'
    assert _reference(line)[0] == "refused"
    assert _fast(line) == ("value", {"dealer": 10 ** 30 - 1})


@pytest.mark.parametrize("text,line,words", [
    ('{"a": 1}\n{"a": NaN}\n', 2, None),            # NaN: read as the standard library does
    ('{"a": 1}\n\n   \n{oops\n', 4, "unreadable JSON Lines record"),
    ('{"a": 1}\n[' + '7' * 5000 + ']\n', 2, "more than 18 digits"),
    ('{"a": 1}\n' + '[' * 100000 + ']' * 100000 + '\n', 2, "nested too deeply"),
])
def test_a_later_line_is_read_or_refused_with_its_number(text, line, words):
    if words is None:
        records = read_records(text, "x.jsonl")
        assert [r.source for r in records] == ["x.jsonl:1", f"x.jsonl:{line}"]
        return
    with pytest.raises(SourceError) as caught:
        read_records(text, "x.jsonl")
    assert f"x.jsonl:{line}" in str(caught.value) and words in str(caught.value)
