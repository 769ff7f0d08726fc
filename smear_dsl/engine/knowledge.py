"""What one seat knows of a hand in progress, and the worlds consistent with it.

`knowledge(game, seat)` reads only what the seat may see: its own cards and discards, the public
play (bids, tricks, face-up discards and draws, the turned-up card), and counts everyone sees
(hand sizes, how many cards each seat discarded, the stock's size). `world(game, kn, rng)` deals
the cards the seat cannot see at random among the places it cannot see into, respecting what
play revealed (a seat that did not follow suit holds none of it), and returns a copy of the game
in which every hidden card and the stock's order are that sample's, and which holds no dealing generator. A search
bot plays out such worlds (perfect-information Monte Carlo); it never looks at the real ones.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from smear_dsl import cards as C
from smear_dsl import moves as M
from smear_dsl.engine import PLAY, Game

TRIES = 8  # shuffles tried before a seat's void constraints are dropped (they can be unsatisfiable)


@dataclass(frozen=True)
class Knowledge:
    """One seat's knowledge: `unknown` cards (a mask) lie somewhere in `slots`, which are, per other
    seat, (hand size, hidden discard count, cards known in its hand, cards it cannot hold), then the
    stock (its size and the (position, card) pairs everyone can see)."""

    seat: int
    unknown: int
    slots: tuple[tuple[int, int, int, int], ...]  # indexed by seat; the seat's own entry is (0, 0, 0, 0)
    stock_size: int
    stock_known: tuple[tuple[int, int], ...]
    played_by: tuple[int, ...]  # cards each seat has played this hand (public)
    shown_by: tuple[int, ...]  # cards each seat discarded face up this hand (public)


def knowledge(game: Game, seat: int) -> Knowledge:
    """What `seat` knows now (a hand in progress): see the module docstring for what is read."""
    n, r = game.n, game.rules
    played_by = [0] * n
    for leader, _w, cards in game.tricks:
        for i, c in enumerate(cards):
            played_by[(leader + i) % n] |= 1 << c
    for s, c in zip(game.trick_seats, game.trick):
        played_by[s] |= 1 << c
    known = game.hands[seat] | game.discarded[seat] | sum(played_by)
    drawn, shown = game.public_log()
    shown_by = [0] * n
    for s, m in shown:
        shown_by[s] |= m
    known |= sum(shown_by)
    turned = game.turn_card if (r.deal.turn_up or r.bidding.beg_run) and game.turn_card >= 0 else -1
    for c in game.turned_down:
        known |= 1 << c
    in_hand = [0] * n  # cards everyone saw go into a seat's hand and not yet played
    for s, c in drawn:
        if r.deal.stock_face_up or c == turned:
            in_hand[s] |= (1 << c) & ~played_by[s]
    stock_known: list[tuple[int, int]] = []
    if game.stock and (r.deal.stock_face_up or game.stock[0] == turned):  # the face-up top card, or the turned-up one
        stock_known.append((0, game.stock[0]))
    if turned >= 0 and not (known >> turned) & 1 and not stock_known:
        holder = next((s for s in range(n) if (game.hands[s] >> turned) & 1), None)  # seen taken up with the stock
        if holder is not None:
            in_hand[holder] |= 1 << turned
    for _p, c in stock_known:
        known |= 1 << c
    known |= sum(in_hand)
    void = _voids(game)
    slots = tuple((0, 0, 0, 0) if s == seat else
                  (game.hands[s].bit_count(), (game.discarded[s] & ~shown_by[s]).bit_count(), in_hand[s], void[s])
                  for s in range(n))
    deck = C.mask_of(r.deck.cards)
    return Knowledge(seat, deck & ~known, slots, len(game.stock), tuple(stock_known), tuple(played_by),
                     tuple(shown_by))


def _voids(game: Game) -> list[int]:
    """Cards each seat cannot hold: of a suit led when it played outside what following allowed.
    With draws in play, only the trick in progress counts (a draw can refill a suit)."""
    r, n = game.rules, game.n
    void = [0] * n
    if game.phase != PLAY or game.trump < 0:
        return void
    tricks = [] if r.play.draw_in_play else [(lead, cards) for lead, _w, cards in game.tricks]
    if game.trick:
        tricks.append((game.trick_leader, game.trick))
    info = r.play.lead_info[game.trump]
    for leader, cards in tricks:
        _led, led_mask, follow_ok, _key = info[cards[0]]
        for i, c in enumerate(cards[1:], 1):
            if not (follow_ok >> c) & 1:
                void[(leader + i) % n] |= led_mask
    return void


def world(game: Game, kn: Knowledge, rng: random.Random) -> Game:
    """A copy of `game` with every card `kn.seat` cannot see dealt anew at random, consistent with
    `kn`; it deals no further hand (a search plays one hand out) and shares no generator with `game`."""
    places, stock = _deal_unknown(kn, rng)
    g = game.world_copy()
    for s, (_size, _d, known, _v) in enumerate(kn.slots):
        if s == kn.seat:
            continue
        hand, discards = places[s]
        g.redeal(s, known | hand, kn.shown_by[s] | discards, kn.played_by[s])
    for pos, c in kn.stock_known:
        stock.insert(pos, c)
    g.restock(stock, [(s, code) if s == kn.seat or code < M.DISCARD_FLAG else (s, M.DISCARD_FLAG | g.discarded[s])
                      for s, code in game.hand_moves])
    return g


def _deal_unknown(kn: Knowledge, rng: random.Random) -> tuple[list[tuple[int, int]], list[int]]:
    """The unknown cards split at random: per other seat (hand mask, hidden discard mask), and the
    stock's unseen cards as a list. Seats with the most excluded cards choose first; after TRIES
    failed shuffles the exclusions are dropped rather than fail (they only sharpen the guess)."""
    pool = list(C.bit_tuple(kn.unknown))  # the same mask in each of a decision's worlds
    order = sorted((s for s in range(len(kn.slots)) if s != kn.seat), key=lambda s: -kn.slots[s][3].bit_count())
    for attempt in range(TRIES + 1):
        rng.shuffle(pool)
        left = list(pool)
        out: list[tuple[int, int]] = [(0, 0)] * len(kn.slots)
        ok = True
        for s in order:
            size, _d, known, void = kn.slots[s]
            need = size - known.bit_count()
            avoid = void if attempt < TRIES else 0
            take = [c for c in left if not (avoid >> c) & 1][:need] if avoid else left[:need]
            if len(take) < need:
                ok = False
                break
            taken = C.mask_of(take)
            left = [c for c in left if not (taken >> c) & 1] if avoid else left[need:]  # nothing skipped: the rest in order
            out[s] = (taken, 0)
        if not ok:
            continue
        for s in order:  # hidden discards: any of the rest
            d = kn.slots[s][1]
            out[s] = (out[s][0], C.mask_of(left[:d]))
            left = left[d:]
        return out, left
    raise AssertionError("unreachable: without exclusions the unknown cards always fill their places")
