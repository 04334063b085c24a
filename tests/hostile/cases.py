"""The hostile inputs of the reliability review (../shared/reviews/reliability.md), one row per
attempt class, with the verdict each must now get. The table test runs every row;
benchmarks/hostile.py runs them too and counts handled/total.

A row writes its input into a fresh copy of the project, runs `python -m mariage.cli` there,
and expects an exit code and words in stderr (a file, a line, what is wrong) and never a
traceback. Build rows (B*) and the profile-per-build row (P26) are in tests/site/test_publish.py;
catalog rows (C*) belong to the catalog-safety issue.

The third review (N* ids) adds rows here by class: the profile's printed values (NP*), the
command's options (NL*), catalogs' characters, sizes and markup (NC*, C25), termbases (NT*) and
examples' front matter, file names and narratives (NE*); its build rows (the plugin's options,
site_url, the doctest worker, the folders a build owns) are in test_build_attacks.py, and
gh-deploy's and the checker-patching example's whole builds in tests/site/test_publish.py.
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


def _edit(name: str, edit: Callable[[str], str]) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        path = project / name
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return write


def _po(msgid: str, msgstr: str) -> Callable[[Path], None]:
    """The French catalog with `msgid` translated as `msgstr` (PO escapes written as in PO)."""
    def write(project: Path) -> None:
        path = project / "locales/fr/LC_MESSAGES/messages.po"
        text = path.read_text(encoding="utf-8")
        at = text.index(f'msgid "{msgid}"')
        start, end = text.index("msgstr", at), text.index("\n", text.index("msgstr", at))
        path.write_text(text[:start] + f'msgstr "{msgstr}"' + text[end:], encoding="utf-8")
    return write


def _termbase(edit: Callable[[str], str]) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        path = project / "locales/fr/termbase.yaml"
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return write


def _front(edit: Callable[[str], str], source: str = "02-deal.md",
           name: str = "99-hostile.md") -> Callable[[Path], None]:
    """A new example: `source`'s file with its text edited."""
    def write(project: Path) -> None:
        text = (project / "examples" / source).read_text(encoding="utf-8")
        (project / "examples" / name).write_text(edit(text), encoding="utf-8")
    return write


def _game(hands: str, first: str = "A") -> Callable[[Path], None]:
    return _file("examples/99-game.md", f'---\nsection: "06"\nfirst_dealer: {first}\n'
                 f"hands: {hands}\n---\n# Game\n\n```python\n>>> 1\n1\n```\n")


def _both(*writes: Callable[[Path], None]) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        for each in writes:
            each(project)
    return write


def _po_bytes(old: bytes, new: bytes) -> Callable[[Path], None]:
    def write(project: Path) -> None:
        path = project / "locales/fr/LC_MESSAGES/messages.po"
        data = path.read_bytes()
        assert old in data
        path.write_bytes(data.replace(old, new, 1))
    return write


def _big15(project: Path) -> None:
    """NL2: a profile the schema accepts with 15-card hands, and a record closing at once."""
    import json
    import random

    text = (project / "rules/mariage.yaml").read_text(encoding="utf-8")
    for old, new in (("packets: [3, 3]", "packets: [5, 5, 5]"), ("hand_size: 6", "hand_size: 15"),
                     ("stock_size: 20", "stock_size: 2"), ("min_trick: 2 ", "min_trick: 1 ")):
        text = _sub(old, new)(text)
    (project / "big15.yaml").write_text(text, encoding="utf-8")
    deck = json.loads(GOLDEN)["deck"].split()
    random.Random(1).shuffle(deck)
    (project / "big15.json").write_text(json.dumps({"dealer": "A", "deck": deck,
                                                    "actions": ["B close"]}) + "\n")


CHECK = ["check-profile"]
PROFILE = "rules/mariage.yaml"
FR_CHECK = ["catalogs", "check", "fr", "--errors-only"]
FR_PO = "locales/fr/LC_MESSAGES/messages.po:"
RANKS = 'ranks: [A, "10", K, Q, J, "9", "8", "7"]'
TERM = 'trick: {term: "levée",'

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
    # ----- the rules profile: values a page prints or the engine parses (review 3)
    Case("NP1", "a suit code with a trailing newline", CHECK, 2,
         [PROFILE, ":9:", "deck.suits.0.code", "one lowercase letter"],
         _profile(_sub("{code: c, name: clubs", '{code: "c\\n", name: clubs'))),
    Case("NP2", "a lowercase rank", CHECK, 2, [PROFILE, "deck.ranks.0", "one capital letter or a number"],
         _profile(lambda t: _sub(RANKS, RANKS.replace("[A,", "[a,"))(_sub("{A: 11,", "{a: 11,")(t)))),
    Case("NP3", "an empty rank", CHECK, 2, [PROFILE, "deck.ranks.7", "a rank written"],
         _profile(_sub(RANKS, RANKS.replace('"7"]', '""]')))),
    Case("NP3b", "a rank with a space", CHECK, 2, [PROFILE, "deck.ranks.7", "a rank written"],
         _profile(_sub(RANKS, RANKS.replace('"7"]', '"7 7"]')))),
    Case("NP3c", "a rank ending in a suit letter", CHECK, 2, [PROFILE, "deck.ranks.7", "a rank written"],
         _profile(_sub(RANKS, RANKS.replace('"7"]', '"7h"]')))),
    Case("NP21", "a key given twice through a merge key", CHECK, 2, [PROFILE, "merge keys (<<)"],
         _profile(_sub("\nthresholds:\n", "\nthresholds:\n  <<: {claim: 10}\n"))),
    Case("NP28", "a suit symbol that is Markdown", CHECK, 2,
         [PROFILE, "deck.suits.0.symbol", "non-ASCII symbol"], _profile(_sub('symbol: "♣"', 'symbol: "|"'))),
    Case("NP28b", "a bidi control as a suit symbol", CHECK, 2,
         [PROFILE, "deck.suits.0.symbol", "visible symbol"],
         _profile(_sub('symbol: "♣"', 'symbol: "\\u202e"'))),
    Case("NP5", "Markdown in a variant's names", ["--profile", "{p}/rules/variants/sixty-six.yaml", *CHECK], 2,
         ["sixty-six.yaml:13", "names.0", "plain words"],
         _edit("rules/variants/sixty-six.yaml", _sub("names: [Sixty-Six,", 'names: ["[x](javascript:alert(3))",'))),
    Case("NP5b", "a source URL closing its link to add an image",
         ["--profile", "{p}/rules/variants/sixty-six.yaml", *CHECK], 2,
         ["sixty-six.yaml:15", "sources.0.url", "without spaces, quotes, brackets or parentheses"],
         _edit("rules/variants/sixty-six.yaml", _sub('url: "https://www.pagat.com/marriage/66.html"',
                                                    'url: "https://x.org/a)![p](https://evil.example/p.png"'))),
    Case("NP5c", "an attribute list in a source title",
         ["--profile", "{p}/rules/variants/sixty-six.yaml", *CHECK], 2,
         ["sixty-six.yaml:15", "sources.0.title", "plain text"],
         _edit("rules/variants/sixty-six.yaml", _sub('title: Sechsundsechzig (66),',
                                                    'title: "66 {: onmouseover=alert(1) }",'))),
    Case("NP5d", "a link as a source's author",
         ["--profile", "{p}/rules/variants/sixty-six.yaml", *CHECK], 2,
         ["sixty-six.yaml:15", "sources.0.authors.1", "plain text"],
         _edit("rules/variants/sixty-six.yaml", _sub('John McLeod]', '"[x](javascript:alert(5))"]'))),
    Case("NP5e", "emphasis closing the italic title, in a source's chapter",
         ["--profile", "{p}/rules/variants/sixty-six.yaml", *CHECK], 2,
         ["sixty-six.yaml:17", "sources.2.part", "plain text"],
         _edit("rules/variants/sixty-six.yaml", _sub('part: Sixty-Six, year: 1897',
                                                    'part: "x* <img src=x onerror=alert(6)>", year: 1897'))),
    Case("NP5f", "English prose where a source's language code goes",
         ["--profile", "{p}/rules/variants/house-rules.yaml", *CHECK], 2,
         ["house-rules.yaml:12", "sources.0.language", "language code"],
         _edit("rules/variants/house-rules.yaml", _sub("language: es}", "language: Spanish}"))),
    Case("NP5g", "a source's year as text",
         ["--profile", "{p}/rules/variants/sixty-six.yaml", *CHECK], 2,
         ["sixty-six.yaml:17", "sources.2.year"],
         _edit("rules/variants/sixty-six.yaml", _sub("year: 1897", 'year: "about 1897"'))),
    Case("NP7", "a link as a suit name", CHECK, 2, [PROFILE, "deck.suits.0.name", "plain words"],
         _profile(_sub("name: clubs", 'name: "[x](javascript:alert(7))"'))),
    Case("NB1/NP11", "an attribute of a profile value as a ruling placeholder", CHECK, 2,
         [PROFILE, "rulings.1.text", "the profile has no name.upper"],
         _profile(_sub("the deal alternates every hand", "the deal {name.upper} alternates"))),
    Case("NB1b", "the profile's own path as a ruling placeholder", CHECK, 2,
         [PROFILE, "rulings.1.text", "the profile has no source"],
         _profile(_sub("the deal alternates every hand", "the deal {source} alternates"))),
    # ----- catalogs: characters, size and markup a translator can add (review 3)
    Case("NC16", "a NUL byte in a msgstr", FR_CHECK, 1, [FR_PO, "[characters] holds U+0000"],
         _po_bytes(b'msgstr "Glossaire"', b'msgstr "Gloss\x00aire"')),
    Case("NC15", "carriage returns as line breaks", FR_CHECK, 1, [FR_PO, "[characters] holds U+000D"],
         _po("Glossary", "Glossaire\\r\\r# Titre inject\u00e9")),
    Case("NC10", "a zero-width space as a heading", FR_CHECK, 1, [FR_PO, "U+200B (zero width space)"],
         _po("Frequently asked questions", "\u200b")),
    Case("NC11", "a right-to-left override around a number", FR_CHECK, 1,
         [FR_PO, "U+202E (right-to-left override)"],
         _po("Glossary", "Glossaire \u202e120\u202c")),
    Case("NC4", "underscore emphasis", FR_CHECK, 1, [FR_PO, "[markup] adds an underscore"],
         _po("Glossary", "__Glossaire__")),
    Case("NC5", "a trailing backslash", FR_CHECK, 1, [FR_PO, "[markup] adds a backslash"],
         _po("Frequently asked questions", "Questions fr\u00e9quentes\\\\")),
    Case("C25", "a 5 MB msgstr", FR_CHECK, 1, [FR_PO, "[size] the translation is 5,242,889 characters"],
         _po("Verify it yourself", "V\u00e9rifiez " + "x" * (5 << 20))),
    Case("C25b", "a 50 MB catalog", FR_CHECK, 1, [FR_PO, "larger than 8 MB"],
         _po("Verify it yourself", "x" * (50 << 20))),
    Case("NC13", "a placeholder repeated 65,000 times", FR_CHECK, 1, [FR_PO, "[size]"],
         _po("One best continuation, in the record notation: %(line)s.",
             "Une suite : " + "%(line)s" * 65000 + ".")),
    Case("NC13b", "a placeholder repeated 50 times", FR_CHECK, 1,
         [FR_PO, "[size] %(line)s is used 50 times"],
         _po("One best continuation, in the record notation: %(line)s.",
             "Une suite : " + "%(line)s" * 50 + ".")),
    Case("NL31", "a catalog for the source language", ["catalogs", "init", "en"], 2,
         ["en is the source language"]),
    # ----- the `mariage` command's options
    Case("NL23", "a NaN time limit", ["examples", "--timeout", "nan", "02-deal"], 2,
         ["--timeout", "more than 0"]),
    Case("NL23b", "an infinite time limit", ["examples", "--timeout", "inf", "02-deal"], 2,
         ["--timeout", "at most 3600"]),
    Case("NL23c", "a negative time limit", ["examples", "--timeout", "-1", "02-deal"], 2,
         ["--timeout", "more than 0"]),
    Case("NL24b", "a project folder that does not exist", ["--project", "/nonexistent", "catalogs", "check"], 2,
         ["/nonexistent", "no mkdocs.yml"]),
    # ----- termbases (what translators edit)
    Case("NT1", "an attribute list in a term", ["catalogs", "check", "fr"], 2,
         ["termbase.yaml:2", "trick.term", "no markup"],
         _termbase(_sub(TERM, 'trick: {term: "levée {: onmouseover=alert(1) }",'))),
    Case("NT1b", "a zero-width space in a term", ["catalogs", "check", "fr"], 2,
         ["termbase.yaml:2", "trick.term", "invisible"],
         _termbase(_sub(TERM, 'trick: {term: "lev\\u200bée",'))),
    Case("NT2", "an invalid UTF-8 byte in a termbase", ["catalogs", "check", "fr"], 2,
         ["termbase.yaml:2", "not UTF-8"],
         lambda p: (p / "locales/fr/termbase.yaml").write_bytes(
             (p / "locales/fr/termbase.yaml").read_bytes().replace("levée".encode(), b"lev\xff", 1))),
    Case("NT4", "a 5 MB termbase", ["catalogs", "check", "fr"], 2, ["termbase.yaml", "larger than 64 KB"],
         _termbase(lambda t: t + "padding: [" + "1, " * ((5 << 20) // 3) + "1]\n")),
    Case("NT6", "a key given twice inside a concept", ["catalogs", "check", "fr"], 2,
         ["termbase.yaml:2", "duplicate key 'term'"],
         _termbase(_sub(TERM, 'trick: {term: "levée", term: "pli",'))),
    # ----- worked examples: front matter and file names
    Case("NE19d", "actions: null", ["examples", "99-hostile"], 2,
         ["examples/99-hostile.md:12", "actions", "a list of actions"],
         _front(_sub("actions: []", "actions: null"))),
    Case("NE30", "an unknown first dealer", ["examples", "99-game"], 2,
         ["examples/99-game.md:3", "first_dealer", "A or B"], _game("[05-closing-fails]", first="C")),
    Case("NE15", "a game naming itself", ["examples", "99-game"], 2,
         ["examples/99-game.md:4", "cannot name itself"], _game("[99-game]")),
    Case("NE16", "a game naming a file outside examples/", ["examples", "99-game"], 2,
         ["examples/99-game.md:4", "hands"], _game("[../../t/ne16x]")),
    Case("NE17", "a game without hands", ["examples", "99-game"], 2,
         ["examples/99-game.md:4", "at least one"], _game("[]")),
    Case("NE13b", "a profile outside the project", ["examples", "99-hostile"], 2,
         ["examples/99-hostile.md:2", "no file /etc/hostname.yaml in the project"],
         _front(lambda t: t.replace("dealer: A", "profile: /etc/hostname.yaml\ndealer: A", 1))),
    Case("NE18a", "an example file name holding Markdown and newlines", ["examples"], 2,
         ["file name is letters, digits"],
         _front(lambda t: t, name="02-deal.md)\n\n[pwn](javascript:alert(1))\n\n(x.md")),
    Case("NE18b", "a hidden example file", ["examples"], 2, [".hidden.md", "file name is letters"],
         _front(lambda t: t, name=".hidden.md")),
    Case("NE27", "8 MB of front matter", ["examples", "99-hostile"], 2,
         ["examples/99-hostile.md", "larger than 256 KB"],
         _file("examples/99-hostile.md", '---\nsection: "02"\ndealer: A\ndeck: [' + "Ac, " * (2 << 20) + "Ac]\n---\n")),
    Case("NE28b", "a record that stops after a close and one trick", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "stops before the hand ends"],
         _front(lambda t: t[:t.index("  - B play 10d")] + "---\n# Stop\n\n```python\n>>> 1\n1\n```\n",
                source="05-closing.md")),
    Case("NE21", "an example patching doctest's checker still fails on a wrong number",
         ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md (en), line 19", "expected '68', got '58'"],
         _example("# Patch\n\n```python\n>>> import doctest\n>>> doctest.OutputChecker."
                  "check_output = lambda self, want, got, flags: True\n>>> 28 + 30\n68\n```\n")),
    Case("NE7", "the narrative reading a file through the example's path", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "cannot render the example (en)", "has no attribute 'path'"],
         _example('# Files\n\n{{ example.path.parent.joinpath("/etc/passwd").read_text() }}\n\n'
                  "```python\n>>> 1\n1\n```\n")),
    Case("NE7b", "the narrative reaching the profile through a position", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "cannot render the example (en)", "unsafe"],
         _example("# Profile\n\n{{ position_at(0).profile.source }}\n\n```python\n>>> 1\n1\n```\n")),
    Case("NE8", "the narrative writing a file through a path", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "cannot render the example (en)"],
         _example('# Write\n\n{{ example.path.parent.joinpath("NE8_PWNED").write_text("x") }}\n\n'
                  "```python\n>>> 1\n1\n```\n")),
    # 10^12 turns: an empty 10^8 (two loops) runs in under 3 s on a quiet machine
    Case("NE9", "a narrative looping 10^12 times", ["examples", "--timeout", "3", "99-hostile"], 1,
         ["examples/99-hostile.md", "cannot render the example (en)", "did not finish within 3 s"],
         _example("# Loop\n\n{% for i in range(10000) %}{% for j in range(10000) %}"
                  "{% for k in range(10000) %}{% endfor %}{% endfor %}{% endfor %}"
                  "\n\n```python\n>>> 1\n1\n```\n")),
    Case("NE9b", "a narrative looping 10^10 times", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "range() has at most 10,000 items"],
         _example("# Loop\n\n{% for i in range(100000) %}{% endfor %}\n\n```python\n>>> 1\n1\n```\n")),
    Case("NE10", "a narrative making a 3 GB string", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "at most 10,000 items"],
         _example('# Big\n\n{{ ("x" * 3000000000)|length }}\n\n```python\n>>> 1\n1\n```\n')),
    Case("NE11", "a narrative including itself", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "cannot render the example (en)"],
         _example('# Self\n\n{% include "examples/99-hostile.md" %}\n\n```python\n>>> 1\n1\n```\n')),
    Case("E4", "a deck with a card twice names the example", ["examples", "99-hostile"], 1,
         ["examples/99-hostile.md", "R1/R4"],
         _front(lambda t: t.replace("deck: [Kc,", "deck: [Kc, Kc,", 1))),
    Case("NL2", "solve on 15-card hands", ["--profile", "{p}/big15.yaml", "solve", "{p}/big15.json"], 1,
         [], _big15, stdout_lines=1),
    Case("NL21", "an 8 MB YAML record", ["replay", "{p}/big.yaml"], 2,
         ["big.yaml", "a YAML record file is at most 1 MB", "JSON Lines"],
         _file("big.yaml", "dealer: A\ndeck: [" + "Ac, " * ((8 << 20) // 4 - 10) + "Ac]\nactions: []\n")),
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
         ["examples/99-hostile.md (en), line 17", "ended its process"],
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
