"""The review's attacks on the build (reliability review, third round), one row per attempt,
grouped by class: the plugin's options, the published URL and description, the doctest worker,
and the folders the build owns. Each row runs the part of the build the attack reaches (the
config loader, the doctest worker, the publish step), not a whole site build; the whole-build
rows (gh-deploy killed, a strict failure under gh-deploy) are in tests/site/test_publish.py."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from types import SimpleNamespace
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, PluginError

from helpers import with_plugin_options
from mariage.engine.errors import MariageError, SourceError
from mariage.engine.profile import default_profile
from mariage.site.build import publish
from mariage.site.replay.doctests import DoctestWorker
from mariage_mkdocs.mariage_site import MariagePlugin, _check_site_url

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------- the plugin's options

@dataclass(frozen=True)
class Option:
    id: str
    option: str          # the line added under the mariage plugin in mkdocs.yml
    words: str           # what MkDocs' configuration error must say


OPTIONS = [
    Option("NB7", "example_timeout: .nan", "option 'example_timeout': the value must be more than 0"),
    Option("NB7b", "example_timeout: -1", "option 'example_timeout': the value must be more than 0"),
    Option("NB7c", "example_timeout: .inf", "at most 3600 seconds"),
    Option("NB7d", "example_timeout: true", "option 'example_timeout': the value is a number of seconds"),
    Option("NB7e", 'example_timeout: "30"', "expected a number of seconds, not the string '30'"),
    Option("NB8", "min_translated: 101", "option 'min_translated': expected a whole percentage"),
    Option("NB8b", "min_translated: 80.5", "expected a whole percentage from 0 to 100, not 80.5"),
    Option("NB6", "generated: /tmp", "option 'generated': '/tmp' is not a folder inside the project"),
    Option("NB6b", "generated: ../elsewhere", "'../elsewhere' is not a folder inside the project"),
    Option("NB6c", "generated: .", "'.' is not a folder inside the project"),
    Option("NB20b", "lock_timeout: 0", "option 'lock_timeout': the value must be more than 0"),
    Option("NL24p", "profile: rules/nope.yaml", "option 'profile': The path"),
    Option("NL24l", "locales: nope", "option 'locales': The path"),
    Option("NL24e", "examples: 7", "option 'examples'"),
]


@pytest.mark.parametrize("row", OPTIONS, ids=[r.id for r in OPTIONS])
def test_a_bad_plugin_option_is_a_configuration_error(row, tmp_path, capsys, caplog):
    config = tmp_path / "mkdocs.yml"
    shipped = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    key = row.option.split(":")[0]
    shipped = re.sub(rf"^ +{key}:.*\n", "", shipped, flags=re.M)    # the row's value only
    config.write_text(with_plugin_options(shipped, row.option), encoding="utf-8")
    for folder in ("rules", "locales", "examples", "docs", "overrides", "templates"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    with pytest.raises(Abort, match="configuration error"):
        load_config(str(config))
    assert row.words in caplog.text + capsys.readouterr().err


def test_the_plugin_options_as_shipped_are_valid():
    config = load_config(str(ROOT / "mkdocs.yml"))
    options = config.plugins["mariage"].config
    assert options.min_translated == 80 and options.example_timeout == 30.0
    assert Path(options.generated) == ROOT / ".cache/docs"


# ----------------------------------------------------------------- what reaches every page

@pytest.mark.parametrize("url", [
    pytest.param("javascript://example.org/%0aalert(1)//", id="NB22"),
    pytest.param("JAVASCRIPT://example.org/", id="NB22b"),
    pytest.param("data:text/html,<b>x</b>", id="NB22c"),
    pytest.param("ftp://example.org/", id="NB22d"),
    pytest.param("//evil.example/", id="NB22e"),
    pytest.param('https://example.org/a"><img src=x>/', id="B13"),
    pytest.param("https://example.org/\\evil", id="B13b"),
])
def test_only_a_plain_http_site_url_is_published(url):
    with pytest.raises(PluginError, match="not a plain http:// or https:// URL"):
        _check_site_url(url)


def test_an_http_site_url_passes():
    _check_site_url("https://example.org/mariage/")
    _check_site_url("http://localhost:8000/")


class _Language:
    def __init__(self, locale: str) -> None:
        self.locale, self.site_description = locale, None


class _I18n:
    def __init__(self) -> None:
        self.config = SimpleNamespace(languages=[_Language("en"), _Language("fr")])


class _Source:
    """What _localize_theme reads of the site: a French description that closes the attribute."""
    def translations(self, lang: str):
        class Tr:
            def gettext(self, text: str) -> str:
                return '0;url=//evil.example/x" http-equiv="refresh" data-x="'
        return Tr()

    def languages(self) -> list[str]:
        return ["en", "fr"]

    def unpublished(self) -> dict[str, str]:
        return {}


def test_NC6_the_translated_description_reaches_the_theme_escaped(monkeypatch):
    from mariage.site.build import standalone
    from mariage.site.render import interface

    plugin, i18n = MariagePlugin(), _I18n()
    monkeypatch.setattr(interface, "theme_strings", lambda source: {})
    monkeypatch.setattr(standalone, "not_found_notes", lambda source: [])
    monkeypatch.setattr(interface, "description", lambda source, lang: _Source().translations(
        lang).gettext(""))
    config = type("Config", (), {"extra": {}, "nav": [], "plugins": {"i18n": i18n}})()
    plugin._apply(config, standalone.additions(_Source(), []))
    french = i18n.config.languages[1].site_description
    assert '"' not in french and "&#34;" in french and "http-equiv=&#34;refresh&#34;" in french


# ----------------------------------------------------------------- the doctest worker

@dataclass(frozen=True)
class Doctest:
    id: str
    code: str            # a page's ```python block
    failure: str | None  # words of the failure the build must report; None: the page passes


DOCTESTS = [
    Doctest("NE21", ">>> import doctest\n>>> doctest.OutputChecker.check_output = "
            "lambda self, want, got, flags: True\n>>> 28 + 30\n68\n", "28 + 30 expected '68', got '58'"),
    Doctest("NE21b", ">>> import doctest\n>>> doctest.DocTestRunner.run = lambda *a, **k: None\n"
            ">>> 1 + 1\n3\n", "1 + 1 expected '3', got '2'"),
    Doctest("NE3", ">>> import os; _ = os.write(1, b'{\"results\": []}\\n')\n>>> 1 + 1\n3\n",
            "1 + 1 expected '3', got '2'"),
    Doctest("NE2", ">>> import os; os.system('echo hi')\n0\n", None),
    Doctest("NE1", ">>> import os\n>>> b'MARIAGE_CI_TOKEN' in open('/proc/%d/environ' % "
            "os.getppid(), 'rb').read()\nFalse\n>>> 'MARIAGE_CI_TOKEN' in os.environ\nFalse\n", None),
    Doctest("E1", ">>> import os; os._exit(3)\n", "ended its process"),
    Doctest("E1s", ">>> raise SystemExit(0)\n", "raised SystemExit"),
    Doctest("E2", ">>> while True: pass\n", "did not finish within 3 s"),
    Doctest("NE6", ">>> import os\n>>> for _ in range(64): _ = os.write(1, b'x' * (1 << 20))\n", None),
    Doctest("NE6b", ">>> print('x' * (8 << 20))\n", "expected ''"),
]


@pytest.mark.parametrize("row", DOCTESTS, ids=[r.id for r in DOCTESTS])
def test_an_example_cannot_change_how_it_is_checked(row, monkeypatch):
    """The build compares; the example's process only runs its code, and a fresh one runs
    each page, with an empty environment and nothing of it left afterwards."""
    monkeypatch.setenv("MARIAGE_CI_TOKEN", "s3cret")
    page = f"# Page\n\n```python\n{row.code}```\n"
    with DoctestWorker(3) as worker:
        try:
            failures = worker.run(page, "examples/99.md (en)", page, ROOT / "examples",
                                  default_profile())
        except MariageError as exc:
            failures = [str(exc)]
        after = worker.run("```python\n>>> 1 + 1\n2\n```\n", "next", "", ROOT / "examples",
                           default_profile())
    assert after == [], "the next page inherited something of this one"
    if row.failure is None:
        assert failures == []
    else:
        assert failures and row.failure in failures[0], failures


def test_NE4_every_process_a_page_started_is_killed(tmp_path):
    flag = tmp_path / "survived"
    code = (">>> import subprocess\n>>> _ = subprocess.Popen(['sh', '-c', 'sleep 2; touch "
            f"{flag}'], start_new_session=True)\n")
    page = f"```python\n{code}```\n"
    with DoctestWorker(5) as worker:
        assert worker.run(page, "orphan", page, ROOT / "examples", default_profile()) == []
    time.sleep(3)
    assert not flag.exists()


# ----------------------------------------------------------------- folders the build owns

def test_NB15_a_users_folder_named_like_a_build_folder_is_kept(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    users = tmp_path / ".site.new-backup"
    users.mkdir()
    (users / "important.txt").write_text("notes")
    (tmp_path / ".site.new-123").mkdir()
    leftover = publish.mark(tmp_path / ".site.new-123")       # a killed build's folder
    publication = publish.prepare(site, tmp_path / "work")
    publish.discard(publication)
    assert (users / "important.txt").read_text() == "notes"
    assert not leftover.exists()


def test_NB6_the_generated_folder_must_be_the_builds_own(tmp_path):
    (tmp_path / "keep.txt").write_text("precious")
    with pytest.raises(SourceError, match="holds files the build did not write"):
        publish.claim(tmp_path)
    assert (tmp_path / "keep.txt").read_text() == "precious"
    fresh = tmp_path / "docs"
    publish.claim(fresh)
    publish.claim(fresh)            # its own folder, claimed again by the next `serve`
    assert publish.owned(fresh)


def test_NB20_a_build_waits_a_bounded_time_then_names_the_holder(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from pathlib import Path; from mariage.site.build import publish; "
        f"publish.lock(Path({str(tmp_path)!r})); print('held', flush=True); time.sleep(30)")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        waited, start = [], time.monotonic()
        with pytest.raises(SourceError) as caught:
            publish.lock(tmp_path, lambda: waited.append(True), timeout=1.0)
        assert 1.0 <= time.monotonic() - start < 5 and waited == [True]
        message = str(caught.value)
        assert f"pid {holder.pid} on " in message and "started 20" in message
        assert "for more than 1 s" in message and "lock_timeout" in message
    finally:
        holder.kill()
        holder.wait()
    fd = publish.lock(tmp_path, timeout=5.0)        # freed when its holder died
    assert fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB) is None
    publish.unlock(fd)
    assert os.path.exists(tmp_path / publish.LOCK)


# ----------------------------------------------------------------- glossary exports

@pytest.mark.parametrize("fmt", ["tbx", "csv"])
def test_NT9_NL51_exports_escape_what_their_format_requires(fmt, tmp_path):
    """A definition with `&`, `]]>` and quotes stays well-formed TBX; a cell starting like a
    spreadsheet formula is exported as text."""
    import csv
    import io
    import shutil
    import xml.etree.ElementTree as ET

    from mariage.site.read import translate
    from mariage.site.read.project import Project

    shutil.copytree(ROOT / "locales", tmp_path / "locales")
    source = tmp_path / "locales/termbase.yaml"
    text = source.read_text(encoding="utf-8")
    text = text.replace("  definition: One card from each player;",
                        "  definition: 'Cards & \"tricks\" ]]> <b>' #", 1)
    text = text.replace("  en: [trick, tricks]", "  en: ['=HYPERLINK(\"x\")', trick, tricks]", 1)
    source.write_text(text, encoding="utf-8")
    project = Project(tmp_path, tmp_path / "rules.yaml", tmp_path / "locales")
    data = translate.termbase(project, "fr", fmt)
    if fmt == "tbx":
        root = ET.fromstring(data)
        notes = [n.text for n in root.iter("note")]
        assert any(n and n.endswith('Cards & "tricks" ]]> <b>') for n in notes), notes
    else:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        first = next(r for r in rows if r[2] == "trick")
        assert first[0] == "'=HYPERLINK(\"x\")"


def test_NC2_NC3_C41_a_translation_is_escaped_once(tmp_path):
    """`&` and `'` in the replayer's labels and the theme's strings are shown as typed; a quote
    in a theme string cannot leave Material's attributes; an example's title in the examples'
    index is escaped once (C41)."""
    import json
    import re
    import shutil

    from mariage.site.build.generate import render_examples, replay_examples
    from mariage.site.render import interface
    from mariage.site.render.pages import SiteSource
    from mariage.site.replay.examples import read_example

    locales = tmp_path / "locales"
    shutil.copytree(ROOT / "locales", locales)
    po = locales / "fr/LC_MESSAGES/messages.po"
    text = po.read_text(encoding="utf-8")
    for msgid, msgstr in (("Cards held", "Cartes & main"),
                          ("Copied to clipboard", "Copié & c'est \\\"fait\\\""),
                          ("A whole hand, trick by trick", "L'exemple \\\"donne\\\" & co, levée")):
        start = text.index("msgstr", text.index(f'msgid "{msgid}"'))
        text = text[:start] + f'msgstr "{msgstr}"' + text[text.index("\n", start):]
    po.write_text(text, encoding="utf-8")
    source = SiteSource(locales=locales)
    example = read_example(ROOT / "examples/07-marriage-claim.md", source.profile)
    whole = read_example(ROOT / "examples/06-whole-hand.md", source.profile)
    pages = render_examples(source, "fr", [example, whole], replay_examples([example, whole]))
    page, index = pages[0].text, pages[-1].text
    assert "L&#39;exemple &#34;donne&#34; &amp; co, levée" in index, index
    steps = re.search(r"<script type=\"application/json\" data-steps>(.*?)</script>", page, re.S)
    assert json.loads(steps.group(1))["labels"]["cards"] == "Cartes & main"
    assert interface.theme_strings(source)["fr"]["clipboard.copied"] == \
        "Copié & c'est &#34;fait&#34;"


# ----------------------------------------------------------------- records the build reads

@pytest.mark.parametrize("edit, words", [
    pytest.param(lambda t: t.replace("    actions: [A play Jd, B play Kc,", "    actions: {a: 1}\n"
                                     "    old: [A play Jd, B play Kc,", 1),
                 "hand 1 does not replay: 'actions' is a list", id="NE29"),
    pytest.param(lambda t: t.replace("first_dealer: B", "first_dealer: C", 1),
                 "the first dealer is A or B (R2)", id="NE30s"),
    pytest.param(lambda t: "", "the score sheet needs one game record", id="NE29e"),
    pytest.param(lambda t: "{oops", "unreadable", id="NE29j"),
])
def test_a_broken_score_sheet_is_named(edit, words, tmp_path):
    from mariage.engine.profile import default_profile
    from mariage.site.render.tables import score_sheet

    sheet = tmp_path / "score-sheet.yaml"
    sheet.write_text(edit((ROOT / "examples/records/score-sheet.yaml").read_text(encoding="utf-8")),
                     encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        score_sheet(sheet, default_profile())
    assert str(sheet) in str(caught.value) and words in str(caught.value), str(caught.value)


def test_NE26_the_doctests_of_a_whole_build_share_a_bounded_time(tmp_path):
    """Each page within its limit, the build within its total: a page that waits 1.5 s, four
    times, under a 3 s total."""
    page = "```python\n>>> import time; time.sleep(1.5)\n```\n"
    outcomes = []
    with DoctestWorker(5, total=3) as worker:
        for number in range(4):
            try:
                outcomes.append(worker.run(page, f"p{number}", page, ROOT / "examples",
                                           default_profile()))
            except MariageError as exc:
                outcomes.append(str(exc))
    assert outcomes[0] == []
    assert "did not finish within 1." in outcomes[1] and "build's 3 s" in outcomes[1]
    assert outcomes[2:] == [f"p{n}: the examples' doctests have used the build's 3 s; an example "
                            "must not wait" for n in (2, 3)]
