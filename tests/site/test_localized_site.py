"""No English on a non-English page, and card letters in the reader's language.

The site is the project's, with its catalogs completed where the translators have not yet
translated the new interface and rank-letter messages (when none is missing, the session's own
build is that site): a French pack reads R D V, an Italian one R D F, and European Portuguese
replaces Material's Brazilian search strings. What a translator has already written is kept.
"""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from mariage.site.read import catalogs
from mariage.site.render import interface
from helpers import copy_project, mkdocs_build, site_languages

ROOT = Path(__file__).resolve().parents[2]
# One worker builds this module's site once (its tests would otherwise build it on each worker).
pytestmark = pytest.mark.xdist_group("localized-site")
LANGS = site_languages()[1:]
RANK = "rank letter"
FIXTURE: dict[str, dict[tuple[str | None, str], str]] = {
    "es": {("interface", "Made with"): "Hecho con",
           (None, interface.DESCRIPTION): "Las reglas del Mariage, el juego de cartas para dos",
           ("interface", interface.PERMALINK): "Enlace permanente"},
    "pt": {("interface", "Made with"): "Feito com",
           (None, interface.DESCRIPTION): "As regras do Mariage, o jogo de cartas para dois",
           ("interface", interface.PERMALINK): "Ligação permanente",
           ("interface", "Initializing search"): "A inicializar a pesquisa",
           ("interface", "Type to start searching"): "Escreva para pesquisar"},
    "fr": {("interface", "Made with"): "Conçu avec",
           (None, interface.DESCRIPTION): "Les règles du Mariage, le jeu de cartes à deux",
           ("interface", interface.PERMALINK): "Lien permanent",
           (RANK, "K"): "R", (RANK, "Q"): "D", (RANK, "J"): "V"},
    "it": {("interface", "Made with"): "Realizzato con",
           (None, interface.DESCRIPTION): "Le regole del Mariage, il gioco di carte per due",
           ("interface", interface.PERMALINK): "Link permanente",
           (RANK, "K"): "R", (RANK, "Q"): "D", (RANK, "J"): "F"},
}


def _completed(po: Path, lang: str) -> Catalog | None:
    """The catalog with the fixture's messages that it leaves untranslated or fuzzy filled in,
    or None when it leaves none."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    completed = False
    for (context, msgid), text in FIXTURE.get(lang, {}).items():
        message = catalog.get(msgid, context=context)
        assert message is not None, f"{msgid!r} is not in the catalog: run `mariage catalogs update`"
        if not message.string or message.fuzzy:
            message.string = text
            message.flags.discard("fuzzy")
            completed = True
    return catalog if completed else None


@pytest.fixture(scope="module")
def built(site_build, tmp_path_factory) -> Path:
    """The project built with the completed catalogs: the session's own build when the
    shipped catalogs already translate every message of the fixture (the same inputs build the
    same site), else a copy with its catalogs completed, built here."""
    completed = {lang: catalog for lang in LANGS
                 if (catalog := _completed(catalogs.po_path(lang, site_build / "locales"), lang))}
    if not completed:
        return site_build
    dest = copy_project(tmp_path_factory.mktemp("localized"))
    for lang, catalog in completed.items():
        with catalogs.po_path(lang, dest / "locales").open("wb") as handle:
            write_po(handle, catalog, width=0)
    run = mkdocs_build(dest, "--strict")
    assert run.returncode == 0, run.stderr[-3000:]
    return dest


class _Page(HTMLParser):
    """Card faces, visible text, attribute values and the theme's JSON strings of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.faces: list[str] = []
        self.texts: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self._stack: list[str] = []
        self._face = False
        self._config = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        self.attributes += [(k, v) for k, v in attrs if v and k in
                            ("title", "aria-label", "placeholder", "alt", "content", "data-md-component")]
        self._face = "mc-card" in (values.get("class") or "") and "mc-back" not in values.get("class", "")
        self._config = tag == "script" and values.get("id") == "__config"

    def handle_endtag(self, tag):
        self._face = self._config = False

    def handle_data(self, data):
        if self._config:
            self.texts += [str(v) for v in json.loads(data)["translations"].values()]
        elif self._face:
            self.faces.append(data)
        if data.strip():
            self.texts.append(data.strip())


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _pages(site: Path, lang: str) -> list[Path]:
    if lang == "en":
        return [p for p in site.rglob("*.html") if p.relative_to(site).parts[0] not in LANGS]
    return sorted((site / lang).rglob("*.html"))


def _letters(built: Path, lang: str) -> set[str]:
    if lang == "en":
        return {"A", "K", "Q", "J"}
    tr = catalogs.translations(lang, built / "locales")
    return {tr.pgettext(RANK, letter) for letter in "AKQJ"}


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_card_faces_show_the_catalogs_rank_letters(built, lang):
    letters = _letters(built, lang)
    faces = [face for path in _pages(built / "site", lang) for face in _read(path).faces]
    assert len(faces) > 100
    ranks = {re.sub(r"[♣♦♥♠]$", "", face) for face in faces}
    assert ranks == letters | {"10", "9", "8", "7"}, ranks


def test_french_and_italian_faces_use_their_own_letters(built):
    for lang, ranks in [("fr", "A 10 R D V 9 8 7"), ("it", "A 10 R D F 9 8 7")]:
        tutorial = (built / "site" / lang / "tutorial/02-cards-and-deal/index.html").read_text()
        assert ranks in tutorial
        assert 'class="mc-letter-key"' in tutorial    # own letters are keyed too (it review C1)


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_english_letters_come_with_a_key(built, lang):
    for page in ["index.html", "tutorial/02-cards-and-deal/index.html"]:
        text = (built / "site" / lang / page).read_text(encoding="utf-8")
        assert 'class="mc-letter-key"' in text and "Q = " in text, page
    home = (built / "site" / "index.html").read_text(encoding="utf-8")
    assert "mc-letter-key" not in home


def _material(lang: str) -> dict[str, str]:
    """Material's own translations for a language (its partials/languages/<lang>.html)."""
    import material

    path = Path(material.__file__).parent / "templates/partials/languages" / f"{lang}.html"
    body = re.search(r"\{\{ (\{.*\})\[key\] \}\}", path.read_text(encoding="utf-8"), re.S)
    return ast.literal_eval(body.group(1)) if body else {}


def _english_interface(built: Path, lang: str) -> set[str]:
    """English texts that must not appear on this language's pages: the description, the
    permalink title and every theme string whose localized form differs from the English."""
    tr = catalogs.translations(lang, built / "locales")
    english = {interface.DESCRIPTION, interface.PERMALINK}
    theme = _material(lang)
    for key in interface.THEME:
        text = interface.english(key)
        localized = interface.translated(tr, key) or theme.get(key, text)
        if localized != text:
            english.add(text)
        else:
            assert key in theme, f"{lang}: {key!r} would stay English: translate {text!r}"
    return english


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_interface_text_on_a_translated_page(built, lang):
    english = _english_interface(built, lang)
    pages = _pages(built / "site", lang)
    assert len(pages) > 20
    for path in pages:
        page = _read(path)
        found = {t for t in page.texts if t in english}
        found |= {v for _, v in page.attributes if v in english}
        assert not found, f"{path.relative_to(built)}: English interface text {sorted(found)}"


def test_european_portuguese_replaces_materials_brazilian_strings(built):
    home = (built / "site/pt/index.html").read_text(encoding="utf-8")
    with (ROOT / "locales/pt/LC_MESSAGES/messages.po").open("rb") as handle:
        catalog = read_po(handle, locale="pt")
    for msgid in ("Initializing search", "Type to start searching"):
        message = catalog.get(msgid, context="interface")
        shipped = message.string if message is not None and message.string and not message.fuzzy \
            else FIXTURE["pt"][("interface", msgid)]
        assert shipped in home, msgid
    assert "Inicializando a pesquisa" not in home and "Digite para iniciar a busca" not in home


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_has_its_own_description_and_permalink_title(built, lang):
    tr = catalogs.translations(lang, built / "locales")
    home = (built / "site" / lang / "index.html").read_text(encoding="utf-8")
    assert f'<meta name="description" content="{tr.gettext(interface.DESCRIPTION)}">' in home
    assert f'title="{tr.pgettext("interface", interface.PERMALINK)}"' in home
    english = (built / "site" / "index.html").read_text(encoding="utf-8")
    assert f'<meta name="description" content="{interface.DESCRIPTION}">' in english
    assert 'title="Permanent link"' in english


def test_the_description_msgid_is_mkdocs_site_description():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"site_description: {interface.DESCRIPTION}\n" in config


def test_doctests_keep_the_engines_notation(built):
    """Code is code: a French page's doctest still shows Kc, not Rc."""
    page = (built / "site/fr/examples/02-deal/index.html").read_text(encoding="utf-8")
    code = " ".join(re.findall(r"<code[^>]*>(.*?)</code>", page, re.S))
    assert "&#39;Kc&#39;" in code or "'Kc'" in code, code[:500]
    assert "Rc" not in code
