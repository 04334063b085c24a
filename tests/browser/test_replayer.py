"""The step-through replayer: clicked through, every displayed step is the engine's state;
the keys, the #step-N links, focus and a phone's width work; no request leaves the page."""

from __future__ import annotations

import pytest

from mariage.site.replay.examples import read_example

from browser.sitecheck import LANGS, PHONE, ROOT, visit

pytestmark = pytest.mark.xdist_group("browser")

SHOWN = """root => ({
  step: Number(root.getAttribute('data-step')),
  caption: root.querySelector('[data-caption]').textContent,
  rows: [...root.querySelectorAll('tr[data-player]')].map(r => ({
    player: r.getAttribute('data-player'),
    cards: [...r.querySelectorAll('[data-card]')].map(c => c.getAttribute('data-card')),
    points: Number(r.querySelector('[data-points]').textContent),
    tricks: Number(r.querySelector('[data-tricks]').textContent)})),
  table: [...root.querySelectorAll('[data-table] [data-card]')].map(c => c.getAttribute('data-card')),
  stock: Number(root.querySelector('[data-stock]').getAttribute('data-stock')),
  focused: document.activeElement && document.activeElement.getAttribute('data-go'),
})"""


def engine_state(example, step: int) -> dict:
    hand = example.hand(None if step == len(example.actions) else step)
    return {"rows": [{"player": p, "cards": [str(c) for c in hand.holding(p)],
                      "points": hand.points(p), "tricks": hand.tricks(p)} for p in hand.players],
            "stock": hand.stock_size, "led": None if hand.led is None else str(hand.led)}


def shown(page) -> dict:
    return page.locator("[data-replayer]").evaluate(SHOWN)


@pytest.mark.parametrize("name,lang", [("05-closing", lang) for lang in LANGS]
                         + [("06-last-trick", LANGS[0])])
def test_each_step_clicked_through_is_the_engine_state(page, monitor, site, base_url, name, lang):
    example = read_example(ROOT / "examples" / f"{name}.md")
    visit(monitor, base_url + site.url_path(lang, f"examples/{name}/"), expect_ok=True)
    assert page.locator("[data-replayer]").is_visible()
    for step in range(len(example.actions) + 1):
        seen, want = shown(page), engine_state(example, step)
        assert seen["step"] == step and seen["caption"].strip()
        assert seen["rows"] == want["rows"], f"step {step}"
        assert seen["stock"] == want["stock"], f"step {step}"
        if want["led"] is not None:
            assert seen["table"] == [want["led"]], f"step {step}"
        # At the last step the button says aria-disabled, and a click there changes nothing.
        page.locator("[data-go=next]").click(force=step == len(example.actions))
        assert shown(page)["focused"] == "next", "the button keeps the focus"
    assert shown(page)["step"] == len(example.actions), "next stops at the last step"
    problems = monitor.console_errors + monitor.page_errors + monitor.failed + monitor.foreign
    assert not problems, problems


def test_keys_and_step_links(page, monitor, site, base_url):
    example = read_example(ROOT / "examples" / "05-closing.md")
    last = len(example.actions)
    visit(monitor, base_url + "examples/05-closing/#step-8", expect_ok=True)
    assert shown(page)["step"] == 8
    assert "A" in shown(page)["caption"]
    page.locator("[data-go=next]").focus()
    for key, step in (("ArrowLeft", 7), ("ArrowRight", 8), ("End", last), ("Home", 0)):
        page.keyboard.press(key)
        assert shown(page)["step"] == step, key
    page.locator("[data-go=last]").click()
    assert page.evaluate("location.hash") == f"#step-{last}"
    page.locator("[data-slider]").fill("3")
    assert shown(page)["step"] == 3


def test_a_phone_has_no_sideways_scroll(page, monitor, site, base_url):
    page.set_viewport_size(PHONE)
    visit(monitor, base_url + "examples/06-last-trick/#step-20", expect_ok=True)
    assert page.locator("[data-replayer]").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px"


def test_the_game_shows_its_score_through_the_hands(page, monitor, site, base_url):
    """06-game-to-seven: 0-0 at the first deal; 7-3 for A at the last step (R19)."""
    visit(monitor, base_url + "examples/06-game-to-seven/", expect_ok=True)
    score = "() => JSON.parse(document.querySelector('[data-score]').getAttribute('data-score'))"
    assert page.evaluate(score) == {"A": 0, "B": 0}
    page.locator("[data-go=last]").click()
    assert page.evaluate(score) == {"A": 7, "B": 3}
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px"
