"""What the plugin mends in every built page (plugins/page_html.py), one row per case; the
expected pages are written by hand."""

from __future__ import annotations

import time

import pytest

from mariage_mkdocs.page_html import fix_html

ALT = '<link rel="alternate" href="/fr/" hreflang="fr">'
DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
LABEL = 'class="md-search__input" name="query" aria-label="Rechercher"'


@pytest.mark.parametrize("page, expected", [
    pytest.param("<head>\n  <meta>\n  " + ALT + "\n  <link rel=\"icon\">\n</head>",
                 "<head>\n  <meta>\n  <link rel=\"icon\">\n</head>", id="indented-alternate"),
    pytest.param("<head>\n    " + ALT + "\n    " + ALT.replace("fr", "it") + "\n</head>",
                 "<head>\n</head>", id="two-alternates-in-a-row"),
    pytest.param("<meta>\r\n\r\n\t " + ALT + "<x>", "<meta><x>",
                 id="blank-lines-crlf-and-tabs-before-it"),
    pytest.param(ALT + "<x>", "<x>", id="alternate-first-in-the-page"),
    pytest.param('<link rel="alternate" type="application/rss+xml" href="/feed">',
                 '<link rel="alternate" type="application/rss+xml" href="/feed">',
                 id="another-alternate-stays"),
    pytest.param('<a tabindex="">x</a> <b tabindex="0">y</b>', '<a>x</a> <b tabindex="0">y</b>',
                 id="empty-tabindex-only"),
    pytest.param("<title>a &lt;b&gt; c</title><h1>&lt;b&gt;</h1>",
                 "<title>a &lt;b&gt; c</title><h1>&lt;b&gt;</h1>", id="escaped-title-stays"),
    pytest.param("<title>R12 <script>x</script></title>",
                 "<title>R12 &lt;script&gt;x&lt;/script&gt;</title>", id="raw-markup-in-title"),
    pytest.param(DIALOG + "<input " + LABEL + ">",
                 DIALOG[:-1] + ' aria-label="Rechercher"><input ' + LABEL + ">",
                 id="search-dialog-named"),
    pytest.param(DIALOG + "<input>", DIALOG + "<input>", id="no-label-no-name"),
    pytest.param("", "", id="empty"),
])
def test_fix_html(page, expected):
    assert fix_html(page) == expected


def test_long_blanks_are_read_once():
    """Runs of blanks that no alternate follows (a page's indentation) are passed over in one
    read: a pattern led by \\s* retried them from every blank (20,000 blanks: 0.7 s on this
    machine; these 200,000: over a minute)."""
    page = "<p>" + " " * 200_000 + "x</p>\n" + " " * 200_000 + ALT + "<p>"
    start = time.process_time()
    assert fix_html(page) == "<p>" + " " * 200_000 + "x</p><p>"
    assert time.process_time() - start < 1.0
