"""The English source states the rulings exactly: each correction of issue 10 is held here."""

from __future__ import annotations

import re

import pytest

from mariage.site.render.pages import SiteSource, render_site
from mariage.site.build.generate import generate
from mariage.site.replay.examples import all_examples


@pytest.fixture(scope="module")
def site(warm_stages, tmp_path_factory) -> dict[tuple[str, str], str]:
    """Every generated page, as written (lang, path) -> Markdown."""
    pages = generate(tmp_path_factory.mktemp("site"), SiteSource())
    return {(p.lang, p.path): p.text for p in pages}


@pytest.fixture(scope="module")
def english(site) -> dict[str, str]:
    return {path: re.sub(r"\s+", " ", text) for (lang, path), text in site.items() if lang == "en"}


def _summary_bullets(text: str) -> list[str]:
    return text.split("The game in one minute", 1)[1].split(" - ")[1:]


def test_the_one_minute_summary_states_r12s_conditions(english):
    marriage = next(b for b in _summary_bullets(english["index.md"]) if "king and queen" in b)
    assert "while the stock is open" in marriage
    assert "won a trick this hand" in marriage
    assert "lead one of the two" in marriage


def test_the_summary_puts_the_indicator_at_the_bottom_of_the_stock(english):
    deal = _summary_bullets(english["index.md"])[0]
    assert "indicator" in deal and "bottom card of the stock" in deal


def test_no_deal_in_packets_that_add_up_to_seven(english):
    assert not any("two, three and two" in text for text in english.values())


def test_a_false_claim_is_possible_not_forbidden(english):
    assert not any(re.search(r"cannot claim", text) for text in english.values())
    # The generator links the citation to the rulings page.
    assert "does not claim (a claim would be false, [R16](../rulings.md#r16))" in english["examples/06-tie.md"]


def test_the_indicator_is_never_under_the_stock_nor_a_trump_card(english):
    for path, text in english.items():
        assert "under the stock" not in text, path
        assert "trump card" not in text, path


def test_every_statement_of_the_alternating_deal_names_the_misdeal(english):
    for path in ["faq.md", "tutorial/02-cards-and-deal.md", "glossary.md"]:
        sentences = re.findall(r"[^.]*deal alternates[^.]*\.[^.]*\.", english[path])
        assert sentences, path
        for sentence in sentences:
            assert "misdeal" in sentence, (path, sentence)


# One row per corrected statement: the page, what it no longer says, what it says instead.
CORRECTED = [
    ("closed-hand-card-points", "tutorial/06-card-and-game-points.md",
     ["shared between the two players"],
     ["in a closed hand, the cards left in the stock count for nobody"]),
    ("one-line-rulings", "rulings.md", [],
     ["a card exposed during the deal is a misdeal",                                    # R4
      "in trumps; one marriage per lead, each suit once.",                              # R12
      "A 10 K Q J 9 8 7 in each suit, strongest first. "
      "Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0, 8 0, 7 0; 120 in all.",             # R1
      "each player 6 cards in packets, the non-dealer first",                           # R3
      "has won a trick this hand may exchange it",                                      # R10
      "scores, in game points, 1 if the opponent has 33 points or more, "
      "2 if fewer but at least one trick, 3 if no trick",                               # R15
      "(fewer than 66 points, in a hand the claimant did not close)",                   # R16
      "rate, measured on the loser’s total and tricks; a tie scores nothing",             # R17
      "scored on the opponent’s state at the close",                                    # R18
      "or the opponent claims correctly first",
      "the opponent’s false claim is an ordinary one"]),
    ("closer-never-claims", "faq.md", ["never reaches", "closer’s rules"],
     ["What if the closer never claims correctly?", "even if the closer reached 66 points",
      "by the rules of the closed hand"]),
    ("higher-total-wins", "examples/06-last-trick.md", ["the higher total, and wins"],
     ["A has 68 and B has 62: A has the higher total and wins the hand."]),
    ("claim-after-marriage", "examples/04-exchange-then-marriage.md",
     ["the next step is the lead"],
     ["after a marriage, only a claim or the lead can follow"]),
    ("strategy-strict-play", "strategy.md",
     ["scores nothing, you must", "must follow suit from now on", "already safe"],
     ["from now on your opponent must follow suit, and beat the card led if able"]),
    ("house-rules-intro", "variants/house-rules.md", ["relative of Mariage"],
     ["as the longer rule pages play it"]),
    ("schnapsen-is-a-relative", "variants/schnapsen.md", [], ["relative of Mariage"]),
    ("marriages-need-a-trick", "tutorial/06-card-and-game-points.md",
     ["marriages and the last trick bonus all come from"],
     ["a marriage can be declared only after winning a trick"]),
    ("misdeal-same-dealer", "quick-reference.md", ["A misdeal is dealt again"],
     ["is a misdeal: the same dealer deals again, and nothing is scored."]),
    ("claim-needs-66", "history.md", ["won by claiming"], ["a claim needs 66 points"]),
    # issue 23: the audit's history corrections
    ("paderborn-is-sixty-six", "history.md", ["has no earlier record behind it"],
     ["A plaque at Paderborn says that Sixty-Six was invented", "A study made in 1960"]),
    ("three-player-forms-are-old", "history.md", ["in modern rule pages rather than in the old sources"],
     ["a Sixty-Six for 3 players in which the dealer deals only to the other players",
      "*Sechsundsechzig zu Dritt*"]),
    ("santase-own-rules", "history.md", ["in German and *Santase* in Bulgaria"],
     ["*Santase*, played in Bulgaria, is often named beside Sixty-Six but has rules of its own"]),
    ("sources-as-cited", "history.md", ["David Parlett’s *Penguin Book of Card Games*"],
     ["Each variant page lists the sources of its profile", "by Keith Waclena and John McLeod",
      "by Günther Senst and John McLeod"]),
    ("claim-from-sixty-six", "tutorial/01-origins.md", ["too brief to say"],
     ["what set Sixty-Six apart from Mariage", "a study of 1960"]),
    ("faq-current-rule", "faq.md", ["Some older rules let such a marriage count"],
     ["Sixty-Six, Schnapsen and the longer rule pages let such a marriage count"]),
    ("closing-fails-misplayed", "examples/05-closing-fails.md", ["The strict play costs"],
     ["The close was sound; the play after it was not."]),
    # issue 22: each rule where the reader meets it, with its exceptions
    ("marriage-then-lead-or-claim", "tutorial/04-marriages-and-claiming.md",
     ["announce the marriage", "and then lead one of the two. The other", "unless you claim first"],
     ["Then lead one of the two, or claim instead of leading: a claim may come between the "
      "declaration and the lead"]),
    ("lead-options-follow", "tutorial/03-open-stock.md",
     ["in a fixed order", "at any point of this sequence"],
     ["each may follow only the steps listed above it",
      "After closing, no exchange and no marriage may follow",
      "may come before any of these steps or right after any of them"]),
    ("quick-reference-order", "quick-reference.md",
     ["in this order", "at any point of this sequence", "4. **Claim**"],
     ["Each step is optional and may follow only those above it.",
      "before or after any step, or after the last trick"]),
    ("close-and-marriage-never-share-a-lead", "tutorial/05-exhausted-or-closed-stock.md",
     ["Closing fits into the sequence"],
     ["A marriage and a close never share a lead"]),
    ("closer-opponent-claims-first", "tutorial/05-exhausted-or-closed-stock.md",
     ["those same game points"],
     ["they score as if you had failed: 2 game points, or 3 if they had no trick when you closed"]),
    ("seven-becomes-the-indicator", "tutorial/03-open-stock.md", [],
     ["From then on the seven is the indicator"]),
    ("glossary-seven-indicator", "glossary.md", [],
     ["After a trump-seven exchange the seven lies there in its place and is the indicator."]),
    ("claim-after-last-trick", "tutorial/04-marriages-and-claiming.md", [],
     ["Such a claim is judged without the last trick bonus",
      "For the closer, the player who closed the stock (next section), this is the last chance"]),
    ("quick-reference-last-trick-claim", "quick-reference.md", [],
     ["or after the last trick (without the last trick bonus)"]),
    ("stock-laid-in-order", "tutorial/02-cards-and-deal.md", ["go face down on top of it"],
     ["laid across it as one face-down pile, in the order they came",
      "Card 14 of the pack is now the top card of the stock, and it is drawn first."]),
    ("glossary-stock-19-and-indicator", "glossary.md", ["face down on the face-up indicator: 20"],
     ["The face-up indicator and the 19 cards left after the deal, laid face down across it: "
      "20 cards in all."]),
    ("first-dealer-tie", "tutorial/02-cards-and-deal.md", [],
     ["if the two cards are of equal rank, both draw again"]),
    ("first-dealer-tie-at-the-table", "at-the-table.md", [],
     ["if both cards are of equal rank, both players draw again"]),
    ("loser-total-with-bonus", "tutorial/06-card-and-game-points.md", [],
     ["if the loser won the last trick, the loser’s total includes the bonus"]),
    ("profile-scope", "tutorial/01-origins.md", ["settles every question"],
     ["It leaves the conduct of the table to the players", "how a claim is checked"]),
    ("glossary-hand", "glossary.md", ["The sense is usually clear"],
     ["One deal played out, from the shuffle to the moment it is scored."]),
    ("opponent-state-at-close", "quick-reference.md", ["points and tricks are noted"],
     ["Note the opponent’s points and whether they have a trick."]),
    ("whole-hand-one-lead", "examples/06-whole-hand.md", ["Whatever B leads", "tenth", "six"],
     ["B leads only trick 11:", "takes all 6 last tricks", "After trick 10 the stock is exhausted"]),
    # issue 22 (from issue 20): numbers come from the profile or the engine, never as words
    ("index-section-count", "index.md", ["seven short sections", "in seven sections"],
     ["7 short sections in the order of play", "The tutorial in 7 sections"]),
    ("century-as-placeholder", "tutorial/01-origins.md", ["eighteenth-century", "two-player"],
     ["some texts of the 18th century add a bonus", "games for 2 players"]),
    ("schnapsen-packets", "examples/schnapsen-jack-exchange.md",
     ["three cards each", "two more each", "three tricks in a row"],
     ["deals 3 cards each", "then deals 2 more each", "wins 3 tricks in a row"]),
    ("perfect-play-is-hypothetical", "examples/05-closing-fails.md",
     ["gives the following result", "As played, the hand gave another"],
     ["Suppose both players had played perfectly from", "would score"]),
    # issue 22 item 1: a newcomer's stumbles (S1-S18), each stated where it is met (RULES.md)
    ("s1-index-claim-instead-of-lead", "index.md", ["unless you claim first"],
     ["and then lead one of the two, or claim instead of leading."]),                   # R12, R14
    ("s1-faq-claim-instead-of-lead", "faq.md", ["unless you claim first"],
     ["you must lead one of the two, or else claim instead of leading, which ends the hand"]),
    ("s1-glossary-claim-instead-of-lead", "glossary.md", ["unless claiming first"],
     ["who then leads one of them, or claims instead of leading."]),
    ("s1-quick-reference-claim-instead", "quick-reference.md", ["unless you claim."],
     ["Then lead one of the two, or claim instead of leading."]),
    ("s2-index-one-pile", "index.md", ["the other cards go face down across it"],
     ["the other 19 cards are laid across it as one face-down pile",                    # R3
      "Together they make the stock of 20 cards, drawn from the top."]),
    ("s2-first-lead-at-the-deal", "tutorial/02-cards-and-deal.md", [],
     ["Play begins once the stock is laid: the non-dealer leads the first trick."]),    # R5
    ("s3-packets-in-rounds", "tutorial/02-cards-and-deal.md", ["in packets (3 + 3)"],
     ["gives each player 6 cards, face down, in 2 rounds. In each round the non-dealer "
      "receives a packet first, then the dealer a packet of the same size; the packets hold "
      "3 and 3 cards"]),                                                                # R3
    ("s3-quick-reference-packets", "quick-reference.md", ["6 cards (3 + 3)"],
     ["Each player gets 6 cards in packets of 3 and 3, the non-dealer receiving each packet first."]),
    ("s4-first-dealer-by-strength", "tutorial/02-cards-and-deal.md", ["the higher card deals"],
     ["the card higher in the order of strength (A 10 K Q J 9 8 7) deals, whatever the suits "
      "and the card points; if the two cards are of equal rank, both draw again"]),    # R1, R2
    ("s4-first-dealer-at-the-table", "at-the-table.md", ["the higher card deals"],
     ["the card higher in the order of strength (A 10 K Q J 9 8 7) deals, whatever the suits "
      "and the card points, and if both cards are of equal rank, both players draw again"]),
    ("s5-exchange-four-conditions", "tutorial/03-open-stock.md", ["Both conditions"],
     ["All four conditions must hold: that player is on lead, holds the seven of trumps, "
      "has already won a trick this hand, and the stock is open."]),                    # R10
    ("s6-close-where-first-listed", "tutorial/03-open-stock.md", [],
     ["turn the indicator face down, so that nobody draws again and strict play begins; "
      "the section on the exhausted or closed stock explains it"]),                      # R11
    ("s6-bonus-where-first-met", "tutorial/04-marriages-and-claiming.md", [],
     ["10 points for the winner of the last trick when a hand that was not closed is played "
      "out with no claim"]),                                                             # R17
    ("s6-closer-where-first-met", "tutorial/04-marriages-and-claiming.md", [],
     ["For the closer, the player who closed the stock (next section), this is the last chance"]),
    ("s8-claim-on-the-first-lead", "tutorial/04-marriages-and-claiming.md", [],
     ["Even the very first lead of a hand allows a claim, but with no trick won yet such a "
      "claim can only be false."]),                                                      # R14, R16
    ("s8-glossary-claim-after-last-trick", "glossary.md", [],
     ["before playing the lead card, at any step before it, or after the last trick, when no "
      "card is left to play. A claim after the last trick is judged without the last trick bonus."]),
    ("s9-why-claim-after-last-trick", "tutorial/04-marriages-and-claiming.md", [],
     ["such a claim gives the same result as the natural end, except when the opponent’s "
      "points are at least the claimant’s plus the bonus: then only the claim wins the hand"]),
    ("s9-faq-why-claim-after-last-trick", "faq.md", [],
     ["This matters most to a closer, whose closed hand is lost without the closer’s correct claim"]),
    ("s10-close-up-to-trick-10", "tutorial/05-exhausted-or-closed-stock.md",
     ["at least 2 cards remain"],
     ["at any lead from that of trick 2 up to that of trick 10, the last lead with 2 or more "
      "cards in the stock, the indicator included."]),                                                                # R11
    ("s10-faq-close-up-to-trick-10", "faq.md", ["at least 2 cards remain"],
     ["Up to the lead of trick 10, the last lead with 2 or more cards in the stock, the "
      "indicator included."]),
    ("s10-glossary-close", "glossary.md", ["at least 2 cards remain"],
     ["at any lead from that of trick 2 up to that of trick 10."]),
    ("s10-quick-reference-close", "quick-reference.md", ["2 or more cards in the stock"],
     ["**Close**: turn the indicator face down, at any lead from that of trick 2 up to that of trick 10."]),
    ("s11-exchange-up-to-trick-10", "faq.md", ["the lead before the last card is drawn"],
     ["up to the lead of trick 10, when the stock holds only one face-down card and the indicator"]),
    ("s12-closer-has-won-a-trick", "tutorial/05-exhausted-or-closed-stock.md",
     ["so never before both players have drawn"],
     ["a closer has always won at least one trick"]),                                    # R5, R11
    ("s13-noted-points-include-marriages", "tutorial/05-exhausted-or-closed-stock.md", [],
     ["note the points of the closer’s opponent, their card points and declared marriages together"]),
    ("s14-disjoint-false-claim-rows", "tutorial/06-card-and-game-points.md",
     ["A false claim in a hand the claimant did not close"],
     ["| A false claim in a hand that was not closed | the claimant’s opponent | 2 |",   # R16
      "| The closer’s opponent claims falsely | the closer | 2 |"]),
    ("s15-deliberate-false-claim", "faq.md", ["has won one since"],
     ["and is now on lead after winning a trick since the close, gives away 2 game points"]),
    ("s16-score-sheet-points", "at-the-table.md", ["| Points |"],
     ["| Points, A – B |", "A’s first, then B’s, and after a natural end it includes the last "
      "trick bonus"]),
    ("s18-position-key", "examples/02-deal.md", [],
     ["<caption>Each player’s cards are sorted by suit, strongest first. Points are card "
      "points plus marriages.</caption>"]),
    # issue 22, the second English newcomer (R14, R16, R18)
    ("n2-index-claim-after-last-trick", "index.md", ["on lead, before you play your card: a correct"],
     ["on lead, before you play your card, or once you have won the last trick: a correct claim"]),
    ("n2-glossary-false-claim-amounts", "glossary.md", ["It ends the hand, and the opponent scores. "],
     ["It ends the hand, and the opponent scores 2 game points; if the claimant closed the stock, "
      "the opponent scores 2, or 3 if the opponent had no trick at the close."]),
    ("n2-closed-hand-recorded-facts", "tutorial/05-exhausted-or-closed-stock.md",
     ["decide the scoring of the closed hand"],
     ["the opponent’s points and tricks set the rate of the closer’s correct claim, and whether the "
      "opponent had a trick sets the penalty if the closer fails."]),
]


@pytest.mark.parametrize("page,gone,said", [row[1:] for row in CORRECTED],
                         ids=[row[0] for row in CORRECTED])
def test_a_corrected_statement_stays_corrected(english, page, gone, said):
    text = english[page]
    for old in gone:
        assert old not in text, (page, old)
    for new in said:
        assert new in text, (page, new)


# Words the English source no longer uses anywhere (issue 22): one verb per concept, "hand" only
# for the deal played, and no names of documents a reader cannot see.
@pytest.mark.parametrize("phrase", [
    r"\bannounc", r"\binto hand\b", r"\bfrom (the )?hand\b(?! to)", r"\bin (your|the player’s) hand\b",
    r"\bboth hands\b", r"\bhands (are |been )?(empty|refilled)", r"\bcards in hand\b",
    r"dealer’s hand", r"\bYour hand holds\b", r"\bby hand\b", r"of the longer pages",
    r"\bin hand\b(?!\.)", r"\byour hand\b"])
def test_a_retired_wording_is_gone_everywhere(english, phrase):
    for path, text in english.items():
        assert not re.search(phrase, text, re.I), (path, phrase)


def test_the_profile_does_not_claim_to_settle_irregularities(english):
    text = english["tutorial/01-origins.md"]
    assert "answers every question" not in text
    for irregularity in ["revoke", "out of turn", "looking back at tricks"]:
        assert irregularity in text


@pytest.mark.parametrize("overstatement", [
    "national card game", "grew from", "Both kept", "It keeps the marriages",
    "Some descriptions say that it leaves out the tens"])
def test_history_is_hedged(english, overstatement):
    assert overstatement not in english["history.md"] + english["tutorial/01-origins.md"]


def test_history_names_its_sources(english):
    text = english["history.md"]
    assert "Parlett" in text and "1715" in text and "pagat.com" in text


# ----------------------------------------------------------- round 4: the reviewers' list

def test_every_markdown_table_starts_after_a_blank_line(site):
    """A table glued to the paragraph before it is not a table (the history page's was)."""
    for (lang, path), text in site.items():
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if re.match(r"^\|(\s*:?-+:?\s*\|)+\s*$", line) and i >= 1:
                assert lines[i - 1].startswith("|"), (lang, path, i)
                assert i < 2 or not lines[i - 2].strip(), (lang, path, lines[i - 2])


def test_the_history_table_renders(site):
    text = site[("en", "history.md")]
    assert "under Variants.\n\n| Game | Pack |" in text


def test_strict_play_is_never_worded_as_beat_else_trump(english):
    for path, text in english.items():
        assert "beat if able, else trump" not in text, path
        assert "must beat it or trump it" not in text, path
        assert "follow suit and beat if able, or trump" not in text, path
    wording = "follow suit, and beat the card led if able; with no card of the suit led"
    for path in ["rulings.md", "quick-reference.md", "variants/schnapsen.md", "variants/sixty-six.md"]:
        assert wording in english[path], path


def test_the_examples_state_r9_exactly(english):
    for path in ["examples/05-false-claim-saves.md", "examples/06-whole-hand.md"]:
        assert "can follow suit and beat it, or trump it when out of that suit" in english[path]


def test_three_consecutive_hands_only_as_the_longer_pages_house_rule(english):
    """The seeds' 'tres manos consecutivas' (002 Victoria) is a house rule of the longer pages:
    it appears on the history and house-rules pages only."""
    assert not any("three hands in a row" in text for text in english.values())
    pages = {path for path, text in english.items() if "three consecutive hands" in text}
    assert pages == {"history.md", "variants/house-rules.md"}


MOVE = re.compile(r"\b[AB] (play|exchange|close|marriage|claim|pass)\b")
KEY = "Moves are written as the engine reads them"


def _first_move(text: str) -> int | None:
    """Where the first move in the engine's notation shows: in a code block or a code span."""
    fenced, offset = False, 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        spans = [line] if fenced else re.findall(r"`[^`]*`", line)
        for span in spans:
            move = MOVE.search(span)
            if move:
                return offset + line.index(span) + move.start()
        offset += len(line)
    return None


def test_each_example_page_keys_the_notation_before_its_first_move(site):
    pages = {k: v for k, v in site.items() if k[1].startswith("examples/") and k[1] != "examples/index.md"}
    assert pages
    keyed = 0
    for (lang, path), text in pages.items():
        first = _first_move(text)
        if lang != "en":
            continue
        if first is None:
            assert KEY not in text, path
        else:
            assert KEY in text and text.index(KEY) < first, path
            assert text.count(KEY) == 1, path
            keyed += 1
    assert keyed >= 10


def test_lists_and_percentages_follow_the_page_language(site):
    assert "take out the 6, 5, 4, 3 and 2 of every suit" in site[("en", "at-the-table.md")]
    assert "6, 5, 4, 3 y 2" in site[("es", "at-the-table.md")]
    assert "Also known as: Schnapser, Snapszer, Šnapsr and Šnops." in site[("en", "variants/schnapsen.md")]
    assert "| 100% |" in site[("en", "translation-status.md")]
    assert "| 100\u00a0% |" in site[("fr", "translation-status.md")]
    assert "| 100 % |" not in site[("fr", "translation-status.md")]


def test_a_generated_cell_says_with_only_once(english):
    row = next(line for line in english["variants/schnapsen.md"].split(" | Exchange | ")[1:2])
    # issue 23: Schnapsen exchanges at any open stock (pagat, Tompa), so no count is stated
    assert row.startswith("the trump jack for the indicator, by the player on lead while the stock is open |")
    assert "cards in the stock" not in row.split(" | ")[0]


def test_the_glossary_names_the_languages_in_the_page_language(site):
    assert "| English | Spanish | Portuguese | French | Italian |" in site[("en", "glossary.md")]
    assert "| Inglés | Español | Portugués | Francés | Italiano |" in site[("es", "glossary.md")]


def test_the_glossary_defines_play_a_trump_and_discard(english):
    text = english["glossary.md"]
    assert '<dt id="play-a-trump">play a trump</dt>' in text
    assert '<dt id="discard">discard</dt>' in text


# S17: every page that defines a misdeal uses the same words (R4).
MISDEAL = "the same dealer deals again, and nothing is scored"


@pytest.mark.parametrize("page", ["tutorial/02-cards-and-deal.md", "faq.md", "glossary.md",
                                  "at-the-table.md", "quick-reference.md"])
def test_a_misdeal_is_stated_in_one_wording(english, page):
    text = english[page]
    assert MISDEAL in text, page
    assert "dealing a player the wrong number of cards" in text.lower(), page
    for variant in ["deals a new hand", "a new deal by the same dealer", "a wrong count",
                    "exposed by mistake"]:
        assert variant not in text, (page, variant)


def test_closing_is_bounded_by_the_trick_it_allows(english):
    """S10: a card count alone ("at least 2 cards remain") does not tell a reader when closing
    stops; each page that bounds it names the last trick, and the variant pages, which close
    while the stock is open, contrast with it (R11)."""
    for path, text in english.items():
        assert not re.search(r"at least 2 cards remain|with 2 or more cards in the stock\.", text), path
    for path in ["variants/sixty-six.md", "variants/house-rules.md", "variants/schnapsen.md"]:
        assert "from trick 1 on, while the stock is open, even with one face-down card left" in english[path]


def test_the_position_tables_are_keyed_on_every_example_page(site):
    """S18: a table of a position says how its cards are sorted and what its points hold."""
    keyed = 0
    for (lang, path), text in site.items():
        if lang == "en" and path.startswith("examples/"):
            positions = text.count('class="mc-diagram mc-position"')
            assert positions == text.count("<caption>Each player’s cards"), path
            keyed += positions
    assert keyed >= 10
