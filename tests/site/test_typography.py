"""Text the templates strip of markup keeps a translation's typography (French no-break spaces
before : ; ? ! and inside « »), as the page text itself does."""

import pytest

from mariage.site.render.templating import environment, striptags


@pytest.mark.parametrize("markup,text", [
    ("<b>A</b>\u00a0: 2", "A\u00a0: 2"),                      # no-break space kept
    ("B\u202f; C", "B\u202f; C"),                             # narrow no-break space kept
    ("« <i>talon</i>\u00a0»", "« talon\u00a0»"),
    ("a  b\n\tc ", "a b c"),                                  # ASCII runs collapse, as Jinja's
    ("<!-- note -->x &amp; y", "x & y"),                      # comments go, entities unescape
])
def test_striptags_collapses_ascii_space_only(markup, text):
    assert striptags(markup) == text


def test_the_page_environment_uses_it(tmp_path):
    env = environment([tmp_path])
    assert env.from_string("{{ x|striptags }}").render(x="<b>A</b>\u00a0:") == "A\u00a0:"
