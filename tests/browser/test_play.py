"""The Play page, played by clicking: whole hands in several languages and profiles, the engine
running in the page (Pyodide). At every turn the buttons are exactly the engine's legal actions
for the record so far; a refused card names the engine's ruling and links to it; each finished
hand's outcome is what `mariage replay` prints for its record. No request leaves the machine,
axe finds nothing serious, and a phone's width does not scroll sideways."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from mariage.engine.hand import Hand
from mariage.engine.profile import load_profile

from browser.sitecheck import OVERFLOW_JS, PHONE, ROOT, run_axe, serious_violations, visit

pytestmark = pytest.mark.xdist_group("browser")

PROFILES = {"mariage": ROOT / "rules" / "mariage.yaml",
            "sixty-six": ROOT / "rules" / "variants" / "sixty-six.yaml",
            "schnapsen": ROOT / "rules" / "variants" / "schnapsen.yaml",
            "house-rules": ROOT / "rules" / "variants" / "house-rules.yaml"}
LOADED = 120_000          # ms: Pyodide's first load on a busy CI machine
GAME = "[data-game]"


def replay_cli(record: dict, profile: str) -> dict:
    run = subprocess.run([sys.executable, "-m", "mariage.cli", "--profile", str(PROFILES[profile]),
                          "replay", "-"], input=json.dumps(record), capture_output=True,
                         text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def start(page, monitor, site, base_url, lang: str, profile: str, seed: int) -> None:
    visit(monitor, base_url + site.url_path(lang, "play/") + f"?seed={seed}", expect_ok=True)
    page.select_option("[data-profile]", profile)
    page.click("[data-start]")
    page.wait_for_selector(f"{GAME}:not([hidden])", timeout=LOADED)


def wait_for_turn(page) -> None:
    page.wait_for_function(
        "() => { const g = document.querySelector('[data-game]');"
        " return !g.hasAttribute('aria-busy') && (g.hasAttribute('data-outcome')"
        " || g.querySelector('[data-action]')); }", timeout=60_000)


def shown_actions(page) -> list[str]:
    return page.eval_on_selector_all(f"{GAME} [data-action]", "els => els.map(e => e.dataset.action)")


def record_of(page) -> dict:
    return json.loads(page.get_attribute(GAME, "data-record"))


def choose(actions: list[str], hand: Hand, rng: random.Random, false_claim: bool) -> str:
    """A learner's choice: a claim at the threshold (or at once, to try a false one), an option
    now and then, else a random card."""
    claim = next((a for a in actions if a.endswith(" claim")), None)
    if claim and (false_claim or hand.points(hand.to_act) >= hand.profile.thresholds.claim):
        return claim
    options = [a for a in actions if " play " not in a and not a.endswith((" claim", " pass"))]
    if options and rng.random() < 0.5:
        return rng.choice(options)
    plays = [a for a in actions if " play " in a or a.endswith(" pass")]
    return rng.choice(plays)


def explain_a_refusal(page, hand: Hand, slug: str) -> bool:
    """Choose one refused card: the page names the engine's ruling and links to it (a variant's
    ruling, in its profile's words, to the variant's page)."""
    refused = page.eval_on_selector_all("[data-refused]", "els => els.map(e => e.dataset.refused)")
    if not refused:
        return False
    try:
        Hand.replay([str(hand.deck.card(i)) for i in hand.order], hand.log, dealer=hand.dealer,
                    profile=hand.profile).apply(refused[0])
    except ValueError as exc:
        ruling = str(exc).split(":")[0]
    else:
        raise AssertionError(f"the page refuses {refused[0]!r}, which the engine allows")
    page.click(f'[data-refused="{refused[0]}"]', force=True)     # aria-disabled, yet it answers
    why = page.locator("[data-why]")
    assert ruling in why.inner_text(), why.inner_text()
    href = why.locator("a").get_attribute("href")
    if slug == "mariage":
        assert href.endswith(f"rulings/#{ruling.lower()}"), href
    else:
        assert href.endswith(f"variants/{slug}/"), href
        assert hand.profile.ruling(ruling) in why.inner_text()
    return True


def play_hand(page, profile, slug: str, rng: random.Random, false_claim: bool = False) -> dict:
    """Click through one hand; at each turn the buttons are the engine's legal actions."""
    explained = False
    while True:
        wait_for_turn(page)
        record = record_of(page)
        hand = Hand.replay(record["deck"], record["actions"], dealer=record["dealer"],
                           profile=profile)
        if page.get_attribute(GAME, "data-outcome"):
            return record
        actions = shown_actions(page)
        assert hand.to_act == profile.players[0], "the reader plays the profile's first player"
        assert sorted(actions) == sorted(str(a) for a in hand.legal_actions()), record
        explained = explained or explain_a_refusal(page, hand, slug)
        page.click(f'[data-action="{choose(actions, hand, rng, false_claim)}"]')


CASES = [("en", "mariage", 11, False), ("fr", "schnapsen", 12, False),
         ("es", "sixty-six", 13, True), ("it", "house-rules", 14, False), ("pt", "mariage", 15, False)]


@pytest.mark.parametrize("lang,slug,seed,false_claim", CASES)
def test_whole_hands_clicked_end_as_mariage_replay_says(page, monitor, site, base_url, lang,
                                                        slug, seed, false_claim):
    profile = load_profile(PROFILES[slug])
    start(page, monitor, site, base_url, lang, slug, seed)
    rng = random.Random(seed)
    for number in range(2):
        record = play_hand(page, profile, slug, rng, false_claim and number == 0)
        outcome = json.loads(page.get_attribute(GAME, "data-outcome"))
        want = replay_cli(record, slug)
        assert outcome == {k: want[k] for k in ("winner", "game_points", "points")}, record
        if false_claim and number == 0 and record["actions"][-1].startswith("A claim"):
            assert want["end"] == "false_claim" or want["winner"] == "A", want
        assert page.locator(".mc-play-record").inner_text() == json.dumps(record, separators=(",", ":"))
        page.click("[data-next]")
        page.wait_for_function("() => !document.querySelector('[data-game]')"
                               ".hasAttribute('data-outcome')", timeout=LOADED)
    problems = monitor.console_errors + monitor.page_errors + monitor.failed + monitor.foreign
    assert not problems, problems


def test_the_finished_hand_steps_through_and_passes_axe_on_a_phone(page, monitor, site, base_url):
    profile = load_profile(PROFILES["mariage"])
    page.set_viewport_size(PHONE)
    start(page, monitor, site, base_url, "en", "mariage", 21)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))      # none once loaded
    problems = _axe(page, "mid-hand") + _overflow(page, "mid-hand")
    record = play_hand(page, profile, "mariage", random.Random(21))
    page.click("[data-step-through]")
    replayer = page.locator(".mc-play-after .mc-replayer")
    assert replayer.is_visible()
    page.locator("[data-go=last]").click()
    last = Hand.replay(record["deck"], record["actions"], dealer=record["dealer"], profile=profile)
    rows = {r.get_attribute("data-player"): r.locator("[data-points]").inner_text()
            for r in replayer.locator("tr[data-player]").all()}
    assert rows == {p: str(last.points(p)) for p in last.players}
    problems += _axe(page, "after the hand") + _overflow(page, "after the hand")
    problems += [f"a request after the engine loaded: {url}" for url in asked]
    page.click("[data-replay-link]")            # the link to the hand opens it at the top
    linked = page.locator("[data-replay] .mc-replayer")
    linked.wait_for()
    linked.locator("[data-go=last]").click()
    assert "#replay=mariage~" in page.url
    assert linked.locator("tr[data-player]").count() == 2
    page.evaluate("location.hash = '#replay=mariage~%7B%22dealer%22%3A%22A%22%7D'")
    page.locator("[data-replay] p").wait_for()
    assert "dealer, deck and actions" in page.locator("[data-replay] p").inner_text()
    page.click("[data-next]")
    page.wait_for_function("() => !document.querySelector('[data-game]')"
                           ".hasAttribute('data-outcome')")
    problems += monitor.console_errors + monitor.page_errors + monitor.failed + monitor.foreign
    assert not problems, problems


def test_without_javascript_the_page_says_what_it_needs(browser, site, base_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(base_url + site.url_path("fr", "play/"))
        assert "JavaScript" in page.locator(".mc-play-noscript").inner_text()
        assert page.locator("[data-setup]").is_hidden()
    finally:
        context.close()


# axe measures the colours shown: a hover transition still running (the page scrolled from under
# the pointer) would be judged at its midpoint, so the check waits for the colours at rest.
_TRANSITIONS_ENDED = """async () => {
  await Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)
    .map(a => a.finished.catch(() => null)));
}"""


def _axe(page, when: str) -> list[str]:
    """axe-core's serious and critical violations, once the page's transitions have ended."""
    page.evaluate(_TRANSITIONS_ENDED)
    violations, error = run_axe(page)
    if violations is None:
        return [f"axe ({when}) did not run: {error}"]
    return [f"axe ({when}): {line}" for line in serious_violations(violations)]


def _overflow(page, when: str) -> list[str]:
    seen = page.evaluate(OVERFLOW_JS)
    wide = [f"360 px ({when}): the page is {seen['scrollWidth']} px wide"] \
        if seen["scrollWidth"] > seen["viewport"] else []
    return wide + [f"360 px ({when}): {o}" for o in seen["offenders"]]
