"""What the site prints outside the Markdown, in the reader's language: the theme's interface
strings, the heading permalink title and the site description.

The English texts are msgids (context "interface" for the theme's strings), so translators
find them in their catalog like any other message. Where a catalog translates one, it replaces
Material's own translation (Material's Portuguese is Brazilian; the site's is European), and
where it does not yet, Material's stays. Translations are HTML-escaped: the theme prints them
as HTML, and a catalog never adds markup.
"""

from __future__ import annotations

from babel.support import NullTranslations
from markupsafe import escape

from ..read import catalogs
from .pages import SiteSource


def pgettext(context: str, message: str) -> str:
    """Marks a message for extraction (babel.cfg); translated at build time."""
    return message


def _(message: str) -> str:
    return message


CONTEXT = "interface"
# Translators: the description of the whole site, shown by search engines and link previews.
DESCRIPTION = _("The rules of Mariage, the two-player card game behind Sixty-Six and Schnapsen")
# Translators: tooltip of the link symbol after each heading (a link to that heading).
PERMALINK = pgettext("interface", "Permanent link")

# Material's interface keys and their English text (material/templates/partials/languages/
# en.html). Material already translates them; a catalog's translation replaces Material's.
# "mariage.made_with" is the footer note Material never translates (overrides/partials/).
THEME = {
    "action.skip": pgettext("interface", "Skip to content"),
    "clipboard.copy": pgettext("interface", "Copy to clipboard"),
    "clipboard.copied": pgettext("interface", "Copied to clipboard"),
    "footer": pgettext("interface", "Footer"),
    "footer.next": pgettext("interface", "Next"),
    "footer.previous": pgettext("interface", "Previous"),
    "header": pgettext("interface", "Header"),
    "nav": pgettext("interface", "Navigation"),
    # Translators: the name of the search box and dialog (Material's Spanish has "Buscar").
    "search": pgettext("interface", "Search"),
    # Translators: the placeholder inside the empty search field (Material's Spanish has "Búsqueda").
    "search.placeholder": pgettext("interface search field", "Search"),
    "search.reset": pgettext("interface", "Clear"),
    "search.share": pgettext("interface", "Share"),
    # Translators: the theme's own label, which Material already translates; write yours where its wording is not the one your readers use (European Portuguese: "A inicializar a pesquisa").
    "search.result.initializer": pgettext("interface", "Initializing search"),
    # Translators: the theme's own label, which Material already translates; write yours where its wording is not the one your readers use (European Portuguese: "Escreva para pesquisar").
    "search.result.placeholder": pgettext("interface", "Type to start searching"),
    "search.result.none": pgettext("interface", "No matching documents"),
    # Translators: one = the number 1 (no number is typed into a message).
    "search.result.one": pgettext("interface", "%(one)s matching document"),
    # Translators: # stands for the number of documents; keep it.
    "search.result.other": pgettext("interface", "# matching documents"),
    # Translators: one = the number 1.
    "search.result.more.one": pgettext("interface", "%(one)s more on this page"),
    # Translators: # stands for the number of further results; keep it.
    "search.result.more.other": pgettext("interface", "# more on this page"),
    "search.result.term.missing": pgettext("interface", "Missing"),
    "select.language": pgettext("interface", "Select language"),
    "toc": pgettext("interface", "Table of contents"),
    "top": pgettext("interface", "Back to top"),
    # Translators: the footer's note before the theme's name: "Made with Material for MkDocs".
    "mariage.made_with": pgettext("interface", "Made with"),
}
# The context of a theme string whose English text another one shares ("Search").
CONTEXTS = {"search.placeholder": "interface search field"}


def english(key: str) -> str:
    """The English text of a theme string, as Material prints it."""
    return THEME[key] % {"one": 1} if "%(one)s" in THEME[key] else THEME[key]


def translated(translations: NullTranslations, key: str) -> str | None:
    """A catalog's translation of a theme string, or None while it has none."""
    text = str(translations.pgettext(CONTEXTS.get(key, CONTEXT), THEME[key]))
    if text == THEME[key]:
        return None
    return text % {"one": 1} if "%(one)s" in THEME[key] else text


def theme_strings(source: SiteSource) -> dict[str, dict[str, str]]:
    """language -> {Material key: translation}, only for the strings a catalog translates."""
    out: dict[str, dict[str, str]] = {}
    for lang in source.languages()[1:]:
        tr = source.translations(lang)
        out[lang] = {key: _attribute_safe(text) for key in THEME
                     if (text := translated(tr, key)) is not None}
    return out


def _attribute_safe(text: str) -> str:
    """A theme string as Material uses it: printed raw into HTML text and double-quoted
    attributes, and into its JSON config. Only what could leave an attribute or open a tag is
    escaped; `&` and `'` stay as typed (entities are refused by the catalog check), so the
    JSON shows what the translator wrote (NC3)."""
    return text.replace('"', "&#34;").replace("<", "&lt;").replace(">", "&gt;")


def description(source: SiteSource, lang: str) -> str:
    return source.translations(lang).gettext(DESCRIPTION)


def permalink_title(source: SiteSource, lang: str) -> str:
    return str(escape(source.translations(lang).pgettext(CONTEXT, PERMALINK)))


def localize_html(output: str, source: SiteSource, lang: str) -> str:
    """The parts of a built page the theme and Markdown print in English: the permalink title
    of every heading (Python-Markdown's toc has one title for all languages)."""
    if lang == catalogs.SOURCE_LANGUAGE:
        return output
    return output.replace(f'title="{PERMALINK}"', f'title="{permalink_title(source, lang)}"')
