"""Perft-style exhaustive move counts on fixed deals, checked against a separate brute-force
enumerator written here from RULINGS.md (strings and lists, sharing no code with the engine)."""
from __future__ import annotations

from itertools import combinations

import pytest
from conftest import engine_perft, ref_perft, rules

from smear_dsl import moves as M
from smear_dsl.engine import Game

ORDER = "AKQJT98765432"


class Ref:
    """One hand of either seed variant, as RULINGS.md states it, with copy-on-move states."""

    def __init__(self, hands, stock, dealer, widow):
        self.n = len(hands)
        self.hands = [sorted(h) for h in hands]
        self.stock = list(stock)
        self.dealer, self.widow = dealer, widow
        self.turn = (dealer + 1) % self.n
        self.phase = "bid"
        self.spoken = 0
        self.high, self.bidder = 0, None
        self.discards = []
        self.trump = None
        self.trick = []  # (seat, card)
        self.done = False

    def copy(self):
        r = Ref.__new__(Ref)
        r.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        r.hands = [list(h) for h in self.hands]
        return r

    def moves(self):
        if self.done:
            return []
        if self.phase == "bid":
            return [("pass",)] + [("bid", v) for v in range(max(2, self.high + 1), 5)]
        if self.phase == "discard":
            hand = self.hands[self.bidder]
            return [("discard", c) for c in combinations(hand, self.widow) if self.first_leads(
                [x for x in hand if x not in c], list(c))]
        if not self.trick and self.trump is None:
            hand = self.hands[self.turn]
            return [("play", c) for c in self.first_leads(hand, self.discards)]
        hand = self.hands[self.turn]
        if not self.trick:
            return [("play", c) for c in hand]
        led = self.trick[0][1][1]
        if any(c[1] == led for c in hand):
            return [("play", c) for c in hand if c[1] in (led, self.trump)]
        return [("play", c) for c in hand]

    @staticmethod
    def first_leads(hand, discarded):
        out = []
        for c in hand:
            if any(d[1] == c[1] for d in discarded) and any(h[1] != c[1] for h in hand):
                continue
            out.append(c)
        return out

    def play(self, mv):
        s = self.copy()
        seat = s.turn
        if mv[0] in ("pass", "bid"):
            s.spoken += 1
            if mv[0] == "bid":
                s.high, s.bidder = mv[1], seat
            if (mv[0] == "bid" and mv[1] == 4) or s.spoken == s.n:
                if s.bidder is None:
                    s.done = True
                    return s
                s.hands[s.bidder] = sorted(s.hands[s.bidder] + s.stock[:s.widow])
                s.phase = "discard" if s.widow else "play"
                s.turn = s.bidder
            else:
                s.turn = (seat + 1) % s.n
            return s
        if mv[0] == "discard":
            s.hands[seat] = [c for c in s.hands[seat] if c not in mv[1]]
            s.discards = list(mv[1])
            s.phase = "play"
            return s
        card = mv[1]
        s.hands[seat] = [c for c in s.hands[seat] if c != card]
        if s.trump is None:
            s.trump = card[1]
        s.trick.append((seat, card))
        if len(s.trick) < s.n:
            s.turn = (seat + 1) % s.n
            return s
        led = s.trick[0][1][1]

        def key(sc):
            c = sc[1]
            if c[1] == s.trump:
                return 100 - ORDER.index(c[0])
            return 50 - ORDER.index(c[0]) if c[1] == led else 0
        s.turn = max(s.trick, key=key)[0]
        s.trick = []
        if not any(s.hands):
            s.done = True
        return s


def deal_from(text_hands, stock):
    return [h.split() for h in text_hands], stock.split()


FOUR_DEAL = deal_from(["AS KS 7S TH 9D 8C", "QS JH 7H AD KC 9C", "JS 9S 8H QD 7D TC", "TS AH KH JD 8D QC"],
                      "8S QH 9H KD TD 7C JC AC")
CUT3_DEAL = deal_from(["AS 2S 7H KD 3C 9C", "KS 5S AH 4D TC 2C", "JS 3S 2H AD 8C QC"],
                      " ".join(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432"
                               if f"{r}{s}" not in "AS 2S 7H KD 3C 9C KS 5S AH 4D TC 2C JS 3S 2H AD 8C QC".split()))
CUT2_DEAL = deal_from(["AH KH 2H 9S 4D JC", "QH 3H TS 8D 7C 5C"],
                      " ".join(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432"
                               if f"{r}{s}" not in "AH KH 2H 9S 4D JC QH 3H TS 8D 7C 5C".split()))


def make_game(name, players, deal, dealer, **opts):
    r = rules(name, players, **opts)
    g = Game(r, seed=0, first_dealer=dealer, auto_deal=False)
    g.start_hand(([[r.deck.id_of[c] for c in h] for h in deal[0]], [r.deck.id_of[c] for c in deal[1]]))
    return g


CASES = [
    ("four_point_ne_wisconsin", 4, FOUR_DEAL, 3, 0, 7),
    ("four_point_ne_wisconsin", 4, FOUR_DEAL, 3, 2, 7),
    ("four_point_ne_wisconsin", 4, FOUR_DEAL, 0, 3, 6),
    ("four_point_house", 4, FOUR_DEAL, 3, 2, 6),    # the house file: widow 2 by default
    ("cutthroat_canadian", 3, CUT3_DEAL, 2, 0, 7),
    ("cutthroat_canadian", 2, CUT2_DEAL, 1, 0, 9),
]


@pytest.mark.parametrize("name,players,deal,dealer,widow,depth", CASES,
                         ids=[f"{c[0]}-{c[1]}p-widow{c[4]}-d{c[5]}" for c in CASES])
def test_perft_matches_independent_enumerator(name, players, deal, dealer, widow, depth):
    opts = {"widow": widow} if name.startswith("four") else {}
    for d in range(1, depth + 1):
        expected = ref_perft(Ref(deal[0], deal[1], dealer, widow), d)
        got = engine_perft(make_game(name, players, deal, dealer, **opts), d)
        assert got == expected, f"depth {d}: engine {got}, reference {expected}"


def test_perft_by_hand_small_position():
    """Counted by hand: 2-player Cutthroat, seat 0 bids 4 at once (ends the bidding); seat 0 leads
    one of 6 cards. Leading a heart (AH, KH, 2H), seat 1 holds QH and 3H so must play one of
    them or a trump (= hearts): 2 replies each. Leading 9S/4D/JC, seat 1 holds TS/8D/7C+5C of the
    led suit, so TS (1) / 8D (1) / 7C or 5C (2), or any trump (the led suit is trump): 1, 1, 2.
    Total after the lead and reply: 3*2 + 1 + 1 + 2 = 10."""
    g = make_game("cutthroat_canadian", 2, CUT2_DEAL, 1)
    g.apply(0, M.BID_BASE + 4)
    assert g.turn == 0 and len(g.legal_moves()) == 6
    assert engine_perft(g, 2) == 10
