"""A straightforward replayer of hand records, the yardstick for `mariage replay`'s speed.

Run: `python benchmarks/naive_replay.py RULES FILE` (or `--quick`: the golden records): one hand record per JSON line in FILE,
one JSON result per line out, as `mariage replay` prints them. It implements the same rules
(R3-R18) the way a first implementation would: hands and the stock are lists of card strings,
every action is parsed with str.split, every check is a list scan. It reads the same rules
profile. It is not the engine and shares no code with it; benchmarks/replay_cli.py compares
their outputs record by record before it compares their times.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import yaml


class Illegal(Exception):
    pass


class NaiveHand:
    def __init__(self, rules: dict, deck: list[str], dealer: str) -> None:
        self.r = rules
        self.players = rules["players"]
        ranks = rules["deck"]["ranks"]
        suits = [s["code"] for s in rules["deck"]["suits"]]
        every = [rank + suit for suit in suits for rank in ranks]
        if sorted(deck) != sorted(every):
            raise Illegal("R1/R4: misdeal")
        self.ranks, self.trump_rank_low = ranks, ranks[-1]
        first = 1 - self.players.index(dealer)
        self.hands: list[list[str]] = [[], []]
        pos = 0
        for packet in rules["deal"]["packets"]:
            for seat in (first, 1 - first):
                self.hands[seat] += deck[pos:pos + packet]
                pos += packet
        self.indicator = deck[pos]
        self.trump = self.indicator[-1]
        self.stock = deck[pos + 1:] + [self.indicator]      # drawn from the front
        self.won: list[list[str]] = [[], []]
        self.bonus = [0, 0]
        self.leader, self.led = first, None
        self.step, self.married = 0, None
        self.declared: list[str] = []
        self.closer, self.closed_state = None, None
        self.last_winner, self.trick_number = None, 1
        self.result = None

    def points(self, seat: int) -> int:
        values = self.r["deck"]["card_points"]
        return sum(values[c[:-1]] for c in self.won[seat]) + self.bonus[seat]

    def stock_open(self) -> bool:
        return self.closer is None and len(self.stock) > 0

    def apply(self, text: str) -> None:
        parts = text.split()
        player, verb, arg = parts[0], parts[1], parts[2] if len(parts) > 2 else None
        if self.result is not None:
            raise Illegal("R14: the hand is over")
        seat = self.players.index(player)
        to_act = self.leader if self.led is None else 1 - self.leader
        if seat != to_act:
            raise Illegal("R5: not your turn")
        if verb != "play" and self.led is not None:
            raise Illegal("only the player on lead may " + verb)
        if verb == "play":
            self.play(seat, arg)
        elif verb == "exchange":
            self.exchange(seat)
        elif verb == "close":
            self.close(seat)
        elif verb == "marriage":
            self.marriage(seat, arg)
        elif verb == "claim":
            self.claim(seat)
        elif verb == "pass":
            if self.hands[0] or self.hands[1]:
                raise Illegal("R14: pass only after the last trick")
            self.natural_end()
        else:
            raise Illegal("unknown verb " + verb)

    def stronger(self, a: str, b: str) -> bool:
        return self.ranks.index(a[:-1]) < self.ranks.index(b[:-1])

    def play(self, seat: int, card: str) -> None:
        hand = self.hands[seat]
        if card not in hand:
            raise Illegal("R5: not held")
        if self.led is None:
            if self.married is not None and card not in ("K" + self.married, "Q" + self.married):
                raise Illegal("R12: lead the K or Q")
            hand.remove(card)
            self.led, self.step, self.married = card, 0, None
            return
        if not self.stock_open():
            self.check_strict(hand, card)
        hand.remove(card)
        led = self.led
        if card[-1] == led[-1]:
            beats = self.stronger(card, led)
        else:
            beats = card[-1] == self.trump
        winner = seat if beats else self.leader
        self.won[winner] += [led, card]
        self.led, self.leader, self.last_winner = None, winner, winner
        self.trick_number += 1
        if self.stock_open():
            self.hands[winner].append(self.stock.pop(0))
            self.hands[1 - winner].append(self.stock.pop(0))

    def check_strict(self, hand: list[str], card: str) -> None:
        led = self.led
        same = [c for c in hand if c[-1] == led[-1]]
        if same:
            higher = [c for c in same if self.stronger(c, led)]
            if card not in (higher or same):
                raise Illegal("R9: follow and beat")
            return
        trumps = [c for c in hand if c[-1] == self.trump]
        if trumps and card not in trumps:
            raise Illegal("R9: trump")

    def exchange(self, seat: int) -> None:
        seven = self.trump_rank_low + self.trump
        if self.step >= 1 or not self.stock_open() or not self.tricks(seat) \
                or seven not in self.hands[seat]:
            raise Illegal("R10: no exchange")
        self.hands[seat].remove(seven)
        self.hands[seat].append(self.stock[-1])
        self.stock[-1] = seven
        self.step = 1

    def close(self, seat: int) -> None:
        closing = self.r["closing"]
        if self.step >= 2 or not self.stock_open() or self.trick_number < closing["min_trick"] \
                or len(self.stock) < closing["min_stock"]:
            raise Illegal("R11: no close")
        self.closer = seat
        self.closed_state = (self.points(1 - seat), self.tricks(1 - seat) > 0)
        self.step = 2

    def marriage(self, seat: int, suit: str) -> None:
        hand = self.hands[seat]
        if self.step >= 3 or not self.stock_open() or not self.tricks(seat) \
                or suit in self.declared or "K" + suit not in hand or "Q" + suit not in hand:
            raise Illegal("R12: no marriage")
        bonuses = self.r["bonuses"]
        self.bonus[seat] += bonuses["trump_marriage"] if suit == self.trump else bonuses["marriage"]
        self.declared.append(suit)
        self.married, self.step = suit, 3

    def tricks(self, seat: int) -> int:
        return len(self.won[seat]) // 2

    def rate(self, points: int, has_trick: bool) -> int:
        rates = self.r["rates"]
        if not has_trick:
            return rates["opponent_no_trick"]
        safe = self.r["thresholds"]["opponent_safe"]
        return rates["opponent_safe"] if points >= safe else rates["opponent_has_trick"]

    def penalty(self) -> int:
        rates = self.r["rates"]
        return rates["closer_failed"] if self.closed_state[1] else rates["closer_failed_no_trick"]

    def claim(self, seat: int) -> None:
        other, rates = 1 - seat, self.r["rates"]
        correct = self.points(seat) >= self.r["thresholds"]["claim"]
        if self.closer is None:
            if correct:
                self.end("claim", seat, self.rate(self.points(other), self.tricks(other) > 0))
            else:
                self.end("false_claim", other, rates["false_claim"])
        elif seat == self.closer:
            if correct:
                self.end("claim", seat, self.rate(*self.closed_state))
            else:
                self.end("false_claim", other, self.penalty())
        elif correct:
            self.end("claim", seat, self.penalty())
        else:
            self.end("false_claim", other, rates["false_claim"])

    def natural_end(self) -> None:
        if self.closer is not None:
            self.end("closer_failed", 1 - self.closer, self.penalty())
            return
        self.bonus[self.last_winner] += self.r["bonuses"]["last_trick"]
        a, b = self.points(0), self.points(1)
        if a == b:
            self.end("exhausted", None, 0)
        else:
            winner = 0 if a > b else 1
            loser = 1 - winner
            self.end("exhausted", winner, self.rate(self.points(loser), self.tricks(loser) > 0))

    def end(self, how: str, winner: int | None, game_points: int) -> None:
        self.result = {"end": how, "winner": None if winner is None else self.players[winner],
                       "game_points": game_points, "points": self.scores(),
                       "tricks": {p: self.tricks(i) for i, p in enumerate(self.players)}}

    def scores(self) -> dict:
        return {p: self.points(i) for i, p in enumerate(self.players)}


def replay(rules: dict, record: dict) -> dict:
    try:
        hand = NaiveHand(rules, record["deck"], record["dealer"])
    except Illegal as exc:
        return {"error": str(exc), "action": None}
    for index, action in enumerate(record.get("actions", [])):
        try:
            hand.apply(action)
        except (Illegal, ValueError, IndexError) as exc:
            return {"error": str(exc), "action": index}
    if hand.result is None and not hand.hands[0] and not hand.hands[1]:
        hand.natural_end()
    if hand.result is not None:
        return hand.result
    return {"end": None, "winner": None, "game_points": 0, "points": hand.scores(),
            "tricks": {p: hand.tricks(i) for i, p in enumerate(hand.players)},
            "to_act": hand.players[hand.leader if hand.led is None else 1 - hand.leader]}


def main(rules_path: str, records_path: str) -> None:
    with open(rules_path, encoding="utf-8") as f:
        rules = yaml.safe_load(f)
    with open(records_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                print(json.dumps(replay(rules, json.loads(line)), ensure_ascii=False))


def quick() -> None:
    """The project's golden hand records (tests/golden/), replayed under its profile."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as out:
        for path in sorted((root / "tests" / "golden").glob("*.json")):
            record = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(record, dict) and "deck" in record:
                out.write(json.dumps(record) + "\n")
    try:
        main(str(root / "rules" / "mariage.yaml"), out.name)
    finally:
        os.unlink(out.name)


if __name__ == "__main__":
    quick() if sys.argv[1:] == ["--quick"] else main(*sys.argv[1:3])
