"""The hostile inputs of the reliability review (../shared/reviews/reliability.md), one row per
attempt class, with the verdict each must now get. The table test runs every row;
benchmarks/hostile.py runs them too and counts handled/total.

A row writes its input into a fresh copy of the project, runs `python -m mariage.cli` there,
and expects an exit code and words in stderr (a file, a line, what is wrong) and never a
traceback. Build rows (B*) and the profile-per-build row (P26) are in tests/site/test_publish.py;
catalog rows (C*) belong to the catalog-safety issue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

GOLDEN = '{"dealer": "A", "deck": "Ac Js Ad Jc Qs Kd Kh Qh 8c Qd 7d 9c 9h 7c 7h 7s 8d 8h 8s 10c Kc Qc 10d Jd 9d Ah 10h Jh As 10s Ks 9s", "actions": ["B play Ac", "A play Jc", "B marriage h", "B play Kh", "A play 9h", "B claim"]}'
BOMB = ", ".join(["&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"&a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)])


@dataclass(frozen=True)
class Case:
    id: str                                   # the review's attempt ids this row stands for
    what: str
    args: list[str]                           # mariage's arguments; {p} is the project copy
    rc: int
    words: list[str]                          # each must be in stderr
    files: Callable[[Path], None] = lambda p: None   # writes the input into the copy
    stdin: bytes | None = None
    stdout_lines: int | None = None           # results printed before the error
    close_stdin: bool = False
    stdout_file: str | None = None            # e.g. /dev/full
    extra: dict[str, str] = field(default_factory=dict)    # environment of the command


def _profile(edit: Callable[[str], str]) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        path = project / "rules/mariage.yaml"
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return write


def _profile_bytes(edit: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        path = project / "rules/mariage.yaml"
        path.write_bytes(edit(path.read_bytes()))
    return write


def _file(name: str, text: str | bytes) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        data = text.encode() if isinstance(text, str) else text
        (project / name).write_bytes(data)
    return write


def _example(body: str, front: str | None = None, name: str = "99-hostile.md") -> Callable[[Path], None]:
    def write(project: Path) -> None:
        deal = (project / "examples/02-deal.md").read_text(encoding="utf-8")
        head = deal[:deal.index("\n---\n", 4) + 5] if front is None else front
        (project / "examples" / name).write_text(head + body, encoding="utf-8")
    return write


def _sub(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, f"{old!r} is no longer in the profile"
        return text.replace(old, new, 1)
    return edit


CHECK = ["check-profile"]
PROFILE = "rules/mariage.yaml"

CASES = [
    # ----- the rules profile
    Case("P1/P3", "YAML alias bomb in the profile", CHECK, 2, [PROFILE, "aliases"],
         _profile(lambda t: t + f"bomb: [{BOMB}]\n")),
    Case("P4", "a 50 MB profile", CHECK, 2, [PROFILE, "larger than 128 KB"],
         _profile(lambda t: t + "junk: [" + "1, " * (17 << 20) + "1]\n")),
    Case("P5", "a Python tag", CHECK, 2, [PROFILE, ":4:", "could not determine a constructor"],
         _profile(_sub("name: ", "name: !!python/object/apply:os.system [\"true\"] #"))),
    Case("P6", "a duplicate key", CHECK, 2, [PROFILE, "duplicate key 'game'"],
         _profile(_sub("  game: 7", "  game: 7\n  game: 5"))),
    Case("P7", "a string where a number goes", CHECK, 2, [PROFILE, "thresholds.claim", "integer"],
         _profile(_sub("claim: 66 ", 'claim: "66" '))),
    Case("P11", "a 5000-digit number", CHECK, 2, [PROFILE, "more than 18 digits"],
         _profile(_sub("  game: 7", "  game: 1" + "0" * 5000))),
    Case("P18", "a format spec in a ruling placeholder", CHECK, 2,
         [PROFILE, ":53:", "rulings.2.text", "not a plain {section.key} placeholder"],
         _profile(_sub("{deal.stock_size}", "{deal:x}"))),
    Case("P19", "a huge width in a ruling placeholder", CHECK, 2,
         [PROFILE, "not a plain {section.key} placeholder"],
         _profile(_sub("{deal.stock_size}", "{deal.stock_size:>999999999}"))),
    Case("P20", "a placeholder walking into Python internals", CHECK, 2,
         [PROFILE, "not a plain {section.key} placeholder"],
         _profile(_sub("{deal.stock_size}", "{deal._consistent.__globals__}"))),
    Case("P21", "an invalid UTF-8 byte", CHECK, 2, [PROFILE, ":4:", "not UTF-8"],
         _profile_bytes(lambda b: b.replace(b"\nname:", b"\nname: \xff", 1))),
    Case("P22", "20,000 nested brackets", CHECK, 2, [PROFILE, "nested more than 32 levels"],
         _profile(lambda t: t + "junk: " + "[" * 20000 + "]" * 20000 + "\n")),
    Case("P23", "ranks without K and Q", CHECK, 2, [PROFILE, "deck.ranks", "R12", "include K"],
         _profile(lambda t: _sub('ranks: [A, "10", K, Q,', 'ranks: [A, "10", R, D,')(
             _sub("K: 4, Q: 3,", "R: 4, D: 3,")(t)))),
    Case("P24", "the same name for both players", CHECK, 2, [PROFILE, "players", "R1"],
         _profile(_sub("players: [A, B]", "players: [A, A]"))),
    Case("L14", "/dev/zero as the profile", ["--profile", "/dev/zero", *CHECK], 2,
         ["/dev/zero", "larger than 128 KB"]),
    Case("L27", "a folder as the profile", ["--profile", "{p}/rules", *CHECK], 2,
         ["cannot read the profile (Is a directory)"]),
    # ----- the `replay` command
    Case("L1", "deeply nested JSON", ["replay", "{p}/deep.json"], 2,
         ["deep.json:1", "nested too deeply"], _file("deep.json", "[" * 100000 + "]" * 100000)),
    Case("L2", "deeply nested YAML", ["replay", "{p}/deep.yaml"], 2,
         ["deep.yaml:1", "nested more than 32 levels"],
         _file("deep.yaml", "deck: " + "[" * 100000 + "]" * 100000)),
    Case("L3", "one record line over 1 MB", ["replay", "{p}/huge.jsonl"], 2,
         ["huge.jsonl:2", "longer than 1 MB"],
         _file("huge.jsonl", GOLDEN + "\n" + '{"deck": [' + '"Ac", ' * 300000 + '"Ac"]}\n'),
         stdout_lines=1),
    Case("L4", "records stream: results come before a later bad line", ["replay", "-"], 2,
         ["<stdin>:4", "unreadable JSON Lines record"],
         stdin=((GOLDEN + "\n") * 3 + "{oops\n").encode(), stdout_lines=3),
    Case("L7", "binary garbage on standard input", ["replay", "-"], 2, ["<stdin>:1", "not UTF-8"],
         stdin=b"\xf5\x00\x81garbage"),
    Case("L10", "a 5000-digit number in a record", ["replay", "{p}/bigint.json"], 2,
         ["bigint.json:1", "more than 18 digits"],
         _file("bigint.json", '{"dealer": "A", "deck": [' + "1" * 5000 + "]}")),
    Case("L10b", "a 5000-digit number in a later JSON Lines record", ["replay", "{p}/bigint.jsonl"],
         2, ["bigint.jsonl:2", "more than 18 digits"],
         _file("bigint.jsonl", GOLDEN + "\n" + '{"dealer": "A", "deck": [' + "1" * 5000 + "]}\n"),
         stdout_lines=1),
    Case("L11", "a folder as a record file", ["replay", "{p}/rules"], 2,
         ["cannot read the file (Is a directory)"]),
    Case("L13", "/dev/zero as a record file", ["replay", "/dev/zero"], 2,
         ["/dev/zero:1", "longer than 1 MB"]),
    Case("L15", "YAML alias bomb in a record", ["replay", "{p}/bomb.yaml"], 2,
         ["bomb.yaml:2", "aliases"],
         _file("bomb.yaml", f"dealer: A\ndeck: [[{BOMB}]]\nactions: []\n")),
    Case("L16", "a game record of aliased hands", ["replay", "{p}/game.yaml"], 2,
         ["game.yaml:2", "aliases"],
         _file("game.yaml", "first_dealer: A\nhands: [&h1 {deck: [Ac]}, " + ", ".join(["*h1"] * 1000) + "]\n")),
    Case("L18", "a Python tag in a record", ["replay", "{p}/tag.yaml"], 2,
         ["tag.yaml:1", "could not determine a constructor"],
         _file("tag.yaml", 'dealer: !!python/object/apply:os.system ["true"]\n')),
    Case("L29", "a full disk on standard output", ["replay", "{p}/one.json"], 1,
         ["No space left on device"], _file("one.json", GOLDEN), stdout_file="/dev/full"),
    Case("L30", "standard input closed", ["replay", "-"], 2, ["standard input is closed"],
         close_stdin=True),
    Case("L25", "a path as a language name", ["catalogs", "init", "../../x"], 2,
         ["'../../x' is not a language code"]),
    # ----- worked examples
    Case("E2", "a doctest that never ends", ["examples", "--timeout", "3", "99-hostile"], 1,
         ["examples/99-hostile.md (en), line 17", "did not finish within 3 s"],
         _example("# Hang\n\n```python\n>>> while True: pass\n```\n")),
    Case("E1", "a doctest that kills its process", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md (en), line 17", "ended the worker process"],
         _example("# Exit\n\n```python\n>>> import os; os._exit(3)\n```\n")),
    Case("E1m", "a doctest that exhausts memory", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md (en), line 17", "MemoryError"],
         _example("# Memory\n\n```python\n>>> x = ' ' * (4 << 30)\n```\n")),
    Case("E1e", "a doctest reading the builder's environment", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md (en), line 17", "expected \"'hidden'\", got ''"],
         _example("# Env\n\n```python\n>>> import os; os.environ.get('MARIAGE_SECRET')\n"
                  "'hidden'\n```\n"), extra={"MARIAGE_SECRET": "hidden"}),
    Case("E6", "Jinja reaching Python internals", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "unsafe"],
         _example('# SSTI\n\n{{ cycler.__init__.__globals__.os.popen("id").read() }}\n\n'
                  "```python\n>>> 1\n1\n```\n")),
    Case("E9", "YAML alias bomb in front matter", ["examples", "99-hostile"], 2,
         ["examples/99-hostile.md:4", "aliases"],
         _example("# Bomb\n", front=f'---\nsection: "02"\ndealer: A\ndeck: [[{BOMB}]]\nactions: []\n---\n')),
    Case("E12", "an example named index.md", ["examples"], 2,
         ["examples/index.md", "cannot be named index.md"],
         _example("# Index\n\n```python\n>>> 1\n1\n```\n", name="index.md")),
    Case("E13", "an invalid UTF-8 byte in an example", ["examples"], 2,
         ["examples/99-bad.md:6", "not UTF-8"],
         _file("examples/99-bad.md", b'---\nsection: "02"\ndealer: A\ndeck: []\n---\n# Bad \xff\n')),
]
