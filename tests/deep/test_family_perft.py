"""Perft-style move counts for the family's rule files, against a second brute-force enumerator.

`Ref` below is written from the variants' descriptions (FAMILY.md and the rule files' header
comments), with card strings and lists, sharing no code with the engine: bidding (range,
matching, stick-the-dealer, early end), naming trump or fixing it by the first lead, the jick,
jokers placed in the trump order (equal jokers: first played wins), no joker lead before trump
is fixed, and follow-suit-or-trump. Variants with discard phases are counted from the start of
the play, after the discards were made through the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from conftest import engine_perft, ref_perft, rules

from smear_dsl import moves as M
from smear_dsl.engine import PLAY, Game

PLAIN = "AKQJT98765432"
SISTER = {"S": "C", "C": "S", "H": "D", "D": "H"}


@dataclass
class Variant:
    n: int
    bid_min: int
    bid_max: int
    ends_at: int
    may_match: object  # (is_dealer, high) -> bool
    stick_dealer: bool
    named_trump: bool
    trump_order: list[str]  # high to low: ranks, "jick", joker names; a "=" joins equal jokers
    jokers: list[str] = field(default_factory=list)
    eldest_pitches: bool = False  # all pass: the player left of the dealer plays as the bidder
    follow_suit_only: bool = False  # holding the suit led, a player must play it (no trumping instead)


def no_match(is_dealer, high):
    return False


VARIANTS = {
    "partnership_pitch": Variant(4, 2, 5, 6, lambda d, h: d, True, True, list(PLAIN)),
    "five_point_jick": Variant(3, 2, 5, 5, no_match, False, True, ["A", "K", "Q", "J", "jick", *"T98765432"]),
    "five_point_joker": Variant(4, 2, 5, 5, no_match, True, False, ["A", "K", "Q", "J", "JK", *"T987"], ["JK"]),
    "auction_pitch": Variant(3, 1, 4, 4, lambda d, h: d and h < 4, False, False, list(PLAIN), eldest_pitches=True),
    "setback": Variant(4, 2, 4, 5, lambda d, h: d and h == 4, False, False, list(PLAIN)),
    "six_point_ne_wisconsin": Variant(4, 2, 6, 6, no_match, False, False, [*"AKQJT987", "BJ=RJ"], ["BJ", "RJ"]),
    "cutthroat_joker": Variant(3, 2, 4, 4, no_match, False, False, ["A", "K", "Q", "J", "JK", *"T98765432"], ["JK"]),
    "ten_point_jack_jick_joker": Variant(4, 2, 10, 10, no_match, True, True,
                                         ["A", "K", "Q", "J", "jick", "BJ=RJ", *"T98765432"], ["BJ", "RJ"]),
    # Cinch version 1 made a player holding the suit led follow it; version 2 lets them trump (Foster).
    "cinch@1": Variant(4, 1, 14, 14, no_match, False, True, [*"AKQJT98765", "sister:5", *"432"], follow_suit_only=True),
    "cinch@2": Variant(4, 1, 14, 14, no_match, False, True, [*"AKQJT98765", "sister:5", *"432"]),
    "pedro@1": Variant(4, 1, 9, 9, no_match, False, True, list(PLAIN), follow_suit_only=True),
    "st_paul_schmier": Variant(6, 3, 6, 6, no_match, False, True, ["A", "K", "Q", "J", "jick", *"T98765432", "JK"],
                               ["JK"]),
}


class Ref:
    """One hand from the deal (or from the first lead), copy-on-move."""

    def __init__(self, v: Variant, hands, dealer):
        self.v, self.n = v, v.n
        self.hands = [list(h) for h in hands]
        self.dealer = dealer
        self.turn = (dealer + 1) % self.n
        self.phase = "bid"
        self.spoken = 0
        self.high, self.bidder = 0, None
        self.trump = None
        self.trick = []  # (seat, card)
        self.tricks_done = 0
        self.done = False

    def copy(self):
        r = Ref.__new__(Ref)
        r.__dict__ = dict(self.__dict__)
        r.hands = [list(h) for h in self.hands]
        r.trick = list(self.trick)
        return r

    # ---- cards
    def is_joker(self, c):
        return c in self.v.jokers

    def suit(self, c):
        """Effective suit: jokers and the jick belong to trump."""
        if self.is_joker(c):
            return self.trump
        if self.trump and "jick" in self.v.trump_order and c == "J" + SISTER[self.trump]:
            return self.trump
        if self.trump and any(e == "sister:" + c[0] for e in self.v.trump_order) and c[1] == SISTER[self.trump]:
            return self.trump  # e.g. Cinch's left pedro: the other five of trump's colour
        return c[1]

    def trump_rank(self, c):
        """Position in the trump order, high = larger; equal jokers share one position."""
        for i, entry in enumerate(self.v.trump_order):
            names = entry.split("=")
            if c in names:
                return len(self.v.trump_order) - i
            if entry == "jick" and c == "J" + SISTER[self.trump]:
                return len(self.v.trump_order) - i
            if entry.startswith("sister:") and c == entry[7:] + SISTER[self.trump]:
                return len(self.v.trump_order) - i
            if len(entry) == 1 and c == entry + self.trump:
                return len(self.v.trump_order) - i
        raise AssertionError(c)

    # ---- moves
    def moves(self):
        if self.done:
            return []
        if self.phase == "bid":
            forced = (self.v.stick_dealer and self.turn == self.dealer and self.bidder is None)
            out = [] if forced else [("pass",)]
            for b in range(self.v.bid_min, self.v.bid_max + 1):
                if b > self.high or (b == self.high and self.v.may_match(self.turn == self.dealer, self.high)):
                    out.append(("bid", b))
            return out
        if self.phase == "trump":
            return [("trump", s) for s in "SHDC"]
        hand = self.hands[self.turn]
        if not self.trick:
            if self.trump is None:
                return [("play", c) for c in hand if not self.is_joker(c)]
            return [("play", c) for c in hand]
        led = self.suit(self.trick[0][1])
        if any(self.suit(c) == led for c in hand):
            allowed = (led,) if self.v.follow_suit_only else (led, self.trump)
            return [("play", c) for c in hand if self.suit(c) in allowed]
        return [("play", c) for c in hand]

    def play(self, mv):
        s = self.copy()
        seat = s.turn
        if mv[0] in ("pass", "bid"):
            s.spoken += 1
            if mv[0] == "bid":
                s.high, s.bidder = mv[1], seat
            if (mv[0] == "bid" and mv[1] >= s.v.ends_at) or s.spoken == s.n:
                if s.bidder is None and s.v.eldest_pitches:
                    s.high, s.bidder = 0, (s.dealer + 1) % s.n
                if s.bidder is None:
                    s.done = True
                    return s
                s.phase = "trump" if s.v.named_trump else "play"
                s.turn = s.bidder
            else:
                s.turn = (seat + 1) % s.n
            return s
        if mv[0] == "trump":
            s.trump, s.phase = mv[1], "play"
            return s
        card = mv[1]
        s.hands[seat].remove(card)
        if s.trump is None:
            s.trump = card[1]
        s.trick.append((seat, card))
        if len(s.trick) < s.n:
            s.turn = (seat + 1) % s.n
            return s
        led = s.suit(s.trick[0][1])
        best, winner = None, None
        for who, c in s.trick:  # strictly greater: the first of equal cards wins
            k = (2, s.trump_rank(c)) if s.suit(c) == s.trump else (1, -PLAIN.index(c[0])) if s.suit(c) == led else (0, 0)
            if best is None or k > best:
                best, winner = k, who
        s.turn, s.trick = winner, []
        if not any(s.hands):
            s.done = True
        return s


def start(name, hands, dealer, stock_front=""):
    r = rules(name, VARIANTS[name].n if name in VARIANTS else 2)
    ids = [[r.deck.id_of[c] for c in h.split()] for h in hands]
    front = [r.deck.id_of[c] for c in stock_front.split()]
    used = {c for h in ids for c in h} | set(front)
    g = Game(r, seed=0, first_dealer=dealer, auto_deal=False)
    g.start_hand((ids, front + [c for c in r.deck.cards if c not in used]))
    return g


# Deals chosen so that following is often forced and trumps, jicks and jokers meet.
FROM_THE_DEAL = [
    ("partnership_pitch", ["AS JD 2S TH 9C 3D", "KS 4H QD JC 5S 8H", "QS JS AH 3C 7D TD", "2H KH 9S AD 6C JH"], 3, 7),
    ("five_point_jick", ["AS JC 2S TH 9D 3H", "KS 4C QD JS 5S 8H", "QS 2C AH 3C 7D TD"], 2, 7),
    ("five_point_joker", ["JK AS 7S TH 9D 8C", "QS JH 7H AD KC 9C", "JS 9S 8H QD 7D TC", "TS AH KH JD 8D QC"], 3, 7),
    ("auction_pitch", ["AS 2S 7H KD 3C 9C", "KS 5S AH 4D TC 2C", "JS 3S 2H AD 8C QC"], 2, 8),
    ("setback", ["AS JD 2S TH 9C 3D", "KS 4H QD JC 5S 8H", "QS JS AH 3C 7D TD", "2H KH 9S AD 6C JH"], 3, 7),
    ("six_point_ne_wisconsin", ["BJ AS 7S TH 9D 8C", "RJ JH 7H AD KC 9C", "JS 9S 8H QD 7D TC", "TS AH KH JD 8D QC"], 3, 7),
    ("cutthroat_joker", ["JK 2S 7H KD 3C 9C", "KS 5S AH 4D TC 2C", "JS 3S 2H AD 8C QC"], 2, 8),
]


@pytest.mark.parametrize("name,hands,dealer,depth", FROM_THE_DEAL, ids=[c[0] for c in FROM_THE_DEAL])
def test_perft_from_the_deal(name, hands, dealer, depth):
    for d in range(1, depth + 1):
        expected = ref_perft(Ref(VARIANTS[name], [h.split() for h in hands], dealer), d)
        got = engine_perft(start(name, hands, dealer), d)
        assert got == expected, f"depth {d}: engine {got}, reference {expected}"


def _to_play(g: Game, script: str) -> None:
    r = g.rules
    for token in script.split():
        seat, what = token.split(":")
        if what == "pass":
            code = M.PASS
        elif what.isdigit():
            code = M.BID_BASE + int(what)
        elif len(what) == 1 and what in "SHDC":
            code = M.TRUMP_BASE + "SHDC".index(what)
        else:
            code = M.DISCARD_FLAG | (0 if what == "-" else sum(1 << r.deck.id_of[c] for c in what.split("+")))
        g.apply(int(seat), code)
    assert g.phase == PLAY


# (name, dealt hands, stock front, dealer, moves up to the first lead, trump, depth)
FROM_THE_PLAY = [
    ("ten_point_jack_jick_joker",
     ["BJ 8D 7D JH 5D AC KC QC JC TC", "AD KD JD QH RJ 3D 5C 6C 7C 8C", "QD 9D AS KS QS JS TS 9S 8S 7S",
      "2D TD 4D AH KH 3H TH 9H 8H 7H"], "", 3,
     "0:pass 1:6 2:pass 3:pass 1:D 0:KC+QC+JC+TC 1:5C+6C+7C+8C 2:TS+9S+8S+7S 3:TH+9H+8H+7H", "D", 6),
    ("st_paul_schmier",
     ["AH KH JD 3S 4S 2H", "JH AS KS QS JS 5S", "AC KC QC JC TC 9C", "AD KD QD TD 9D 8D", "8S 7S 6S QH JK 9S",
      "8C 7C 6C 5C 4C 3C"], "6H 5H 4H 3H 2C", 5,
     "0:3 1:pass 2:pass 3:pass 4:pass 5:pass 0:H 0:3S+4S 1:- 2:- 3:- 4:8S+7S+6S "
     "5:8C+7C+6C+5C+4C+3C+7D+6D+5D+4D+3D+2D", "H", 7),
    # Cinch: everyone keeps only trumps, the 16-card stock refills them and the dealer robs the
    # rest; 5D, the left pedro, is a trump between 5H and 4H, and (version 1) players must follow
    # suit, or (version 2) follow suit or trump.
    *(("cinch@" + v,
       ["AH 5D 3H 2S 3S 4S 5S 6S 7S", "KH 5H 4D 2C 3C 4C 5C 6C 7C", "QH JH 2H 8S 9S TS 8C 9C TC",
        "TH 9H 8H 4H AS KS QS JS AC"], "2D 3D 6D 7D 8D 9D TD JD QD KD", 3,
       "0:1 1:pass 2:pass 3:pass 0:H 0:2S+3S+4S+5S+6S+7S 1:4D+2C+3C+4C+5C+6C+7C 2:8S+9S+TS+8C+9C+TC "
       "3:AS+KS+QS+JS+AC+AD+KC+QC+JC", "H", 8 if v == "1" else 7) for v in "12"),  # trumping at will: a wider tree
    # Pedro version 1, the same deal: 5D is a plain diamond now, so seat 0 must let it go and draws four.
    ("pedro@1",
     ["AH 5D 3H 2S 3S 4S 5S 6S 7S", "KH 5H 4D 2C 3C 4C 5C 6C 7C", "QH JH 2H 8S 9S TS 8C 9C TC",
      "TH 9H 8H 4H AS KS QS JS AC"], "2D 3D 6D 7D 8D 9D TD JD QD KD", 3,
     "0:1 1:pass 2:pass 3:pass 0:H 0:5D+2S+3S+4S+5S+6S+7S 1:4D+2C+3C+4C+5C+6C+7C 2:8S+9S+TS+8C+9C+TC "
     "3:AS+KS+QS+JS+AC+AD+KC+QC", "H", 8),
]


@pytest.mark.parametrize("name,hands,stock,dealer,script,trump,depth", FROM_THE_PLAY,
                         ids=[c[0] for c in FROM_THE_PLAY])
def test_perft_from_the_first_lead(name, hands, stock, dealer, script, trump, depth):
    g = start(name, hands, dealer, stock)
    _to_play(g, script)
    r = g.rules
    ref = Ref(VARIANTS[name], [[r.card_name(c) for c in sorted_bits(m)] for m in g.hands], dealer)
    ref.phase, ref.trump, ref.bidder, ref.turn = "play", trump, g.bidder, g.turn
    for d in range(1, depth + 1):
        assert engine_perft(g, d) == ref_perft(ref, d), f"depth {d}"


def sorted_bits(m: int) -> list[int]:
    return [i for i in range(m.bit_length()) if (m >> i) & 1]


def test_reference_sees_the_jick_and_jokers_as_trumps():
    """A check on the reference itself: with hearts trump, JD and both jokers follow a trump lead."""
    ref = Ref(VARIANTS["ten_point_jack_jick_joker"], [["AH"], ["JD", "2C"], ["BJ", "3C"], ["5S", "4S"]], 3)
    ref.phase, ref.trump, ref.turn = "play", "H", 0
    s = ref.play(("play", "AH"))
    assert s.moves() == [("play", "JD")]
    s = s.play(("play", "JD"))
    assert s.moves() == [("play", "BJ")]


def two_card_winner(trick, trump):
    """Who takes a two-card trick of plain suits: the higher trump, else the higher card of the suit
    led (the leader wins unless beaten)."""
    (a, x), (b, y) = trick

    def key(c):
        return (2 if c[1] == trump else 1 if c[1] == x[1] else 0, -PLAIN.index(c[0]))
    return b if key(y) > key(x) else a


class DrawRef:
    """One hand of California Jack (and Shasta Sam, whose moves are the same) as Bicycle's rules
    state it: trump is the suit of the stock's top card; no bidding, the non-dealer leads; follow
    suit or trump, and a player void in the suit led who holds a trump must trump; after each
    trick the winner draws the stock's top card and the other player the next."""

    def __init__(self, hands, stock, dealer):
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self.trump = self.stock[0][1]
        self.turn = (dealer + 1) % 2
        self.trick = []
        self.done = False

    def moves(self):
        hand = self.hands[self.turn]
        if not self.trick:
            return list(hand)
        led = self.trick[0][1][1]
        follow = [c for c in hand if c[1] in (led, self.trump)]
        if any(c[1] == led for c in hand):
            return follow
        trumps = [c for c in hand if c[1] == self.trump]
        return trumps or list(hand)

    def play(self, card):
        s = DrawRef.__new__(DrawRef)
        s.__dict__ = dict(self.__dict__)
        s.hands = [list(h) for h in self.hands]
        s.stock, s.trick = list(self.stock), list(self.trick)
        seat = s.turn
        s.hands[seat].remove(card)
        s.trick.append((seat, card))
        if len(s.trick) < 2:
            s.turn = 1 - seat
            return s
        winner = two_card_winner(s.trick, s.trump)
        for who in (winner, 1 - winner):
            if s.stock:
                s.hands[who].append(s.stock.pop(0))
        s.turn, s.trick = winner, []
        s.done = not any(s.hands)
        return s


# Stocks front-loaded with trumps and the suits in hand, so draws change what must be played.
FROM_THE_DRAW = [
    ("california_jack", ["AS 9S 2H 3C 4C KD", "QS 7H 8D 9D TD 5C"], "6H 9C KH 3D 2S JH", 1, 8),
    ("shasta_sam", ["TC 4S 5S 7C 2D AH", "KC 3S JS 8C QD 6D"], "4C AC 2C 8S QH 9H", 0, 7),
]


@pytest.mark.parametrize("name,hands,stock,dealer,depth", FROM_THE_DRAW, ids=[c[0] for c in FROM_THE_DRAW])
def test_perft_with_draws_during_the_play(name, hands, stock, dealer, depth):
    g = start(name, hands, dealer, stock)
    ref_stock = [g.rules.card_name(c) for c in g.stock]
    assert ref_stock[:len(stock.split())] == stock.split()
    for d in range(1, depth + 1):
        expected = ref_perft(DrawRef([h.split() for h in hands], ref_stock, dealer), d)
        got = engine_perft(start(name, hands, dealer, stock), d)
        assert got == expected, f"depth {d}: engine {got}, reference {expected}"


class BegRef:
    """One hand of two-player All Fours from the deal, as Foster and Pagat state it: the eldest
    (the non-dealer) stands on the turned-up suit or begs; the dealer gives one or runs the cards:
    the turned card goes aside, three more to each (eldest first) and the next card is turned, again
    while it is of the suit begged (a stock too short to run ends the hand: the same dealer redeals).
    The eldest leads; follow suit or trump, a player without the suit led plays anything."""

    def __init__(self, hands, stock, dealer):
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self.dealer, self.eldest = dealer, 1 - dealer
        self.trump = self.stock[0][1]
        self.turn, self.phase = self.eldest, "stand_or_beg"
        self.trick = []
        self.done = False

    def moves(self):
        if self.phase == "stand_or_beg":
            return ["stand", "beg"]
        if self.phase == "give_or_run":
            return ["give", "run"]  # at 0 points a gift can never win
        hand = self.hands[self.turn]
        if not self.trick or not any(c[1] == self.trick[0][1][1] for c in hand):
            return list(hand)
        return [c for c in hand if c[1] in (self.trick[0][1][1], self.trump)]

    def play(self, move):
        s = BegRef.__new__(BegRef)
        s.__dict__ = dict(self.__dict__)
        s.hands = [list(h) for h in self.hands]
        s.stock, s.trick = list(self.stock), list(self.trick)
        if move == "beg":
            s.phase, s.turn = "give_or_run", s.dealer
        elif move in ("stand", "give"):
            s.phase, s.turn = "play", s.eldest
        elif move == "run":
            begged = s.stock[0][1]
            while True:
                if len(s.stock) < 8:
                    s.done = True
                    return s
                s.stock.pop(0)
                for who in (s.eldest, s.dealer):
                    s.hands[who] += s.stock[:3]
                    del s.stock[:3]
                if s.stock[0][1] != begged:
                    break
            s.trump, s.phase, s.turn = s.stock[0][1], "play", s.eldest
        else:
            seat = s.turn
            s.hands[seat].remove(move)
            s.trick.append((seat, move))
            if len(s.trick) < 2:
                s.turn = 1 - seat
                return s
            s.turn, s.trick = two_card_winner(s.trick, s.trump), []
            s.done = not any(s.hands)
        return s


# The first turn-up is a heart and so is the second: a run goes twice before clubs are trump.
FROM_THE_BEG = [
    ("all_fours", ["AS 9S 2H 3C 4C KD", "QS 7H 8D 9D TD 5C"], "6H 9C 3D 2S JH 4S 8S KH 7C AD TS 5S QC 2C 6C", 1, 7),
]


@pytest.mark.parametrize("name,hands,stock,dealer,depth", FROM_THE_BEG, ids=[c[0] for c in FROM_THE_BEG])
def test_perft_from_begging(name, hands, stock, dealer, depth):
    g = start(name, hands, dealer, stock)
    ref_stock = [g.rules.card_name(c) for c in g.stock]
    for d in range(1, depth + 1):
        expected = ref_perft(BegRef([h.split() for h in hands], ref_stock, dealer), d)
        got = engine_perft(start(name, hands, dealer, stock), d)
        assert got == expected, f"depth {d}: engine {got}, reference {expected}"
    run = BegRef([h.split() for h in hands], ref_stock, dealer).play("beg").play("run")
    assert run.trump == "C" and [len(h) for h in run.hands] == [12, 12]  # the reference runs twice here


class PlayRef:
    """The play of one hand without bidding, from the first lead, as Don's and Trinidad's sources state
    it: trump is given (Trinidad's turned-up card) or fixed by the first card led (Don); holding the
    suit led a player plays it (Don), or may trump instead (Trinidad); Trinidad bars an undertrump
    (a trump lower than one already winning a trick led in a plain suit) while the player holds a
    card that is not a trump. Four players; no two cards rank equal."""

    def __init__(self, hands, leader, trump, suit_only, no_undertrump):
        self.hands = [list(h) for h in hands]
        self.turn, self.trump, self.trick, self.done = leader, trump, [], False
        self.suit_only, self.no_undertrump = suit_only, no_undertrump

    def key(self, c, led):
        return (2, -PLAIN.index(c[0])) if c[1] == self.trump else (1, -PLAIN.index(c[0])) if c[1] == led else (0, 0)

    def moves(self):
        hand = self.hands[self.turn]
        if not self.trick:
            return list(hand)
        led = self.trick[0][1][1]
        if any(c[1] == led for c in hand):
            out = [c for c in hand if c[1] == led or (not self.suit_only and c[1] == self.trump)]
        else:
            out = list(hand)
        if self.no_undertrump and led != self.trump:
            best = max(self.key(c, led) for _s, c in self.trick)
            if best[0] == 2 and any(c[1] != self.trump for c in hand):
                allowed = [c for c in out if not (c[1] == self.trump and self.key(c, led) < best)]
                out = allowed or out  # a rule that would forbid every card forbids none
        return out

    def play(self, card):
        s = PlayRef.__new__(PlayRef)
        s.__dict__ = dict(self.__dict__)
        s.hands = [list(h) for h in self.hands]
        s.trick = list(self.trick)
        seat = s.turn
        s.hands[seat].remove(card)
        if s.trump is None:
            s.trump = card[1]
        s.trick.append((seat, card))
        if len(s.trick) < 4:
            s.turn = (seat + 1) % 4
            return s
        led = s.trick[0][1][1]
        s.turn = max(s.trick, key=lambda sc: s.key(sc[1], led))[0]
        s.trick = []
        s.done = not any(s.hands)
        return s


# Don: 13 cards each, seat 0 (left of dealer 3) leads and fixes trump; follow suit only.
# Trinidad: hearts turned (3H), seat 0 stands and leads; trumping allowed, undertrumping not.
DON_HANDS = ["AS 9S 5S 2H 3H 4H 9D 5D 2C 3C 4C 6C 7C", "KS QS 3S AH 9H 5H KD QD 8C 9C TC JC QC",
             "JS TS 4S KH QH JH 8H AD JD TD 2D 3D AC", "8S 7S 6S 2S TH 7H 6H 4D 6D 7D 8D KC 5C"]
TT_HANDS = ["AS 9S 5S 2H 3C 4D", "KS 3S AH 9H 5C 2D", "JS TS 4S KH QC JD", "8S 7S 6S TH KC 8D"]


@pytest.mark.parametrize("name,hands,stock,before,trump,suit_only,undertrump,depth", [
    ("don", DON_HANDS, "", "", None, True, False, 6),
    ("all_fours_trinidad", TT_HANDS, "3H", "0:stand", "H", False, True, 8),
], ids=["don", "all_fours_trinidad"])
def test_perft_without_bidding_from_the_first_lead(name, hands, stock, before, trump, suit_only, undertrump, depth):
    r = rules(name, 4)
    ids = [[r.deck.id_of[c] for c in h.split()] for h in hands]
    front = [r.deck.id_of[c] for c in stock.split()]
    used = {c for h in ids for c in h} | set(front)
    g = Game(r, seed=0, first_dealer=3, auto_deal=False)
    g.start_hand((ids, front + [c for c in r.deck.cards if c not in used]))
    for token in before.split():
        seat, what = token.split(":")
        g.apply(int(seat), M.CHOOSE_BASE + M.CHOICES.index(what))
    assert g.phase == PLAY and g.turn == 0
    ref = PlayRef([h.split() for h in hands], 0, trump, suit_only, undertrump)
    for d in range(1, depth + 1):
        assert engine_perft(g, d) == ref_perft(ref, d), f"depth {d}"
