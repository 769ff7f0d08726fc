"""What a hand is worth under each trump, read from the compiled rules (never a variant's name): the
points its side can expect to take, and how surely, so a bot bids, names trump, discards and plays by it.

An estimate by counting cards, not a search: each point of the rule file is a card (found per trump, or
the highest or lowest trump in play), cards per kind, tricks, or the most Game; each unseen card is in a
partner's hand, an opponent's, the stock or a draw to come in proportion to the cards each will hold; a
card is taken by the side that holds the higher trumps over it. Points the rules decide by a condition
the estimate cannot read count at an even share. Bidding then asks how likely the side is to reach each
bid (the points as a sum of independent chances) and weighs a made bid against the set penalty.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from smear_dsl import cards as C
from smear_dsl.compile.compiled import (
    POINT_BY_TRUMP,
    POINT_EACH,
    POINT_EXPR,
    POINT_GIFT,
    POINT_MOST,
    POINT_SCAN_DEALT,
    POINT_SCAN_PLAYED,
    POINT_TRICKS,
    POINT_TURNED,
    TO_WINNER,
    CompiledRules,
)
from smear_dsl.compile.pointkinds import UnknownKind

# How the bots value each kind of point when they bid (compile/pointkinds.py; tests/engine/
# test_point_kinds.py holds this complete, and _points raises UnknownKind for a kind it lacks).
READS = {
    POINT_MOST: "a share of the Game point, sloped by the side's share of the tricks",
    POINT_BY_TRUMP: "_card_point: the chance the side takes the card named for this trump",
    POINT_SCAN_PLAYED: "_scan_point: the chance the first card of the trump's list held falls to the side",
    POINT_SCAN_DEALT: "_scan_point: the chance the first card of the trump's list dealt falls to the side",
    POINT_EXPR: "an even share: the count cannot read a condition",
    POINT_EACH: "_card_point summed over every card of the trump's mask",
    POINT_TRICKS: "the side's expected tricks",
    POINT_GIFT: "nothing: settled before the play, not won by bidding",
    POINT_TURNED: "nothing: settled before the play, not won by bidding",
}

SAVE_PARTNER = 0.55  # a card at risk is still saved this often when a partner takes a trick it can be thrown on
SAVE_ALONE = 0.15  # ... and this often with no partner (played when the higher cards are out)
GAME_SLOPE = 1.1  # how far the Game point follows the side's share of the tricks
MODEL_SD = 0.12  # the card count's own error, beside the chance of each point: this share of a hand's points


@dataclass(frozen=True)
class Outlook:
    """The table's shape as the estimate reads it, once per rule set: who holds how many cards, who
    draws, and what each point is."""

    players: int
    partners: int  # other seats on one's side
    opponents: int
    hand_size: int
    tricks: int  # tricks in a hand (the cards each plays)
    draws: str  # "" none, "refill" (non-trumps thrown, hands filled again), "take" (the bidder takes the widow)
    take: int  # cards the bidder takes up (a widow)
    refill_to: int
    plan: tuple[tuple[int, int, int, Any], ...]  # per point: (POINT_* kind, value, TO_*, by_trump / scan / each, by kind)
    game_total: int  # the Game count of the deck
    total: float  # the most points a hand awards (per card and per trick points counted in full)


@lru_cache(maxsize=64)
def outlook(rules: CompiledRules) -> Outlook:
    """The shape of `rules`' table for the estimate (cached: compiled rules are immutable)."""
    n = rules.players
    partners = sum(1 for s in range(n) if rules.side_of[s] == rules.side_of[0]) - 1
    draws, take, refill_to = "", 0, rules.deal.hand_size
    for st in rules.play.steps:
        if st.kind == "refill" and st.exact:
            draws, refill_to = "refill", st.exact
        elif st.kind == "take" and st.who == "bidder" and not draws:
            draws, take = "take", st.exact or 0
    plan = tuple((kind, p.value, to, extra) for p, (kind, _card, extra, to, _tie, _f) in
                 zip(rules.points.entries, rules.points.plan))
    tricks = refill_to if draws == "refill" else rules.deal.hand_size
    total = sum(value * (extra[0].bit_count() if kind == POINT_EACH else tricks if kind == POINT_TRICKS else 1)
                for kind, value, _to, extra in plan if kind < POINT_GIFT)
    return Outlook(n, partners, n - 1 - partners, rules.deal.hand_size, tricks, draws, take, refill_to, plan,
                   sum(rules.deck.value[c] for c in rules.deck.cards), total)


@lru_cache(maxsize=256)
def _trump_order(rules: CompiledRules, trump: int) -> tuple[int, ...]:
    """The trumps under `trump`, from the highest."""
    key = rules.rank_order(trump)
    return tuple(sorted(C.bits(rules.trumps(trump)), key=key.__getitem__, reverse=True))


@dataclass(frozen=True)
class Worth:
    """A hand's prospects under one trump: the points its side expects, their spread, and the tricks."""

    trump: int
    points: float
    sd: float
    tricks: float

    def chance(self, bid: int) -> float:
        """How likely the side takes at least `bid` points."""
        return 0.5 * math.erfc((bid - 0.5 - self.points) / (self.sd * math.sqrt(2)))


def hand_worth(rules: CompiledRules, hand: int, trump: int, seen: int = 0, bidder: bool = True,
               parts: list[float] | None = None) -> Worth:
    """What `hand` (a card mask) is worth to its side if `trump` is trump (see _worth); remembered, as
    bots and a search's playouts ask of the same hands again and again."""
    if parts is not None:
        return _worth(rules, hand, trump, seen, bidder, parts)
    return _remembered(rules, trump, *_read(rules, hand, trump, seen), seen, bidder)


def _read(rules: CompiledRules, hand: int, trump: int, seen: int) -> tuple[int, int, int]:
    """All _held_worth reads of `hand`: its trumps, how many of its cards are in play, how many side tops it holds."""
    return hand & rules.trumps(trump), (hand & rules.deck.mask & ~seen).bit_count(), \
        (hand & _suit_tops(rules, trump)).bit_count()


def _worth(rules: CompiledRules, hand: int, trump: int, seen: int = 0, bidder: bool = True,
           parts: list[float] | None = None) -> Worth:
    """What `hand` (a card mask) is worth to its side if `trump` is trump, `seen` being cards known to
    be out of play (discarded, turned down); `bidder`: the seat would take up and draw as the bidder;
    `parts`, if given, gets each point's expected share (in the rules' order: what calibration reads)."""
    return _held_worth(rules, trump, *_read(rules, hand, trump, seen), seen, bidder, parts)


def _held_worth(rules: CompiledRules, trump: int, mine: int, held_n: int, tops_n: int, seen: int, bidder: bool,
                parts: list[float] | None = None) -> Worth:
    """_worth from all it reads of the hand: its trumps `mine`, how many of its cards are in play
    (`held_n`) and how many side suits' tops it holds (`tops_n`). Hands alike in these are worth the
    same, so a search's many random hands share the remembered answers."""
    o = outlook(rules)
    order = _trump_order(rules, trump)
    deck = rules.deck.mask & ~seen
    draw, p_partner, p_opp, took, stride, w_of, kept_of = _placement(
        rules, len(order), deck.bit_count(), held_n, mine.bit_count() if o.draws == "refill" else 0, bidder)
    # Each of my trumps: how likely it takes a trick and my side keeps it (_placement's tables, by how
    # many unseen trumps rank over it and how many of mine). Each unseen trump: how many of mine outrank it.
    kept: dict[int, float] = {}
    mine_over: dict[int, int] = {}
    u = m = 0
    trump_tricks = 0.0
    for c in order:
        if not (deck >> c) & 1:
            continue
        if (mine >> c) & 1:
            i = u * stride + m
            trump_tricks += w_of[i]
            kept[c] = kept_of[i]
            m += 1
        else:
            mine_over[c] = m
            u += 1
    # Tricks: my trumps that win, a side suit's top cards, a partner's fair share.
    my_tricks = trump_tricks + tops_n * 0.6 * (1.0 - p_opp * 0.5) + \
        draw * u * 0.5
    side_tricks = min(o.tricks, my_tricks + o.partners * o.tricks / o.players)
    share = side_tricks / o.tricks if o.tricks else 0.0
    points, var = _points(o, rules.n_sides, trump, deck, kept, mine_over, took, draw, p_partner, p_opp, share,
                          side_tricks, parts)
    return Worth(trump, points, math.sqrt(var + (MODEL_SD * o.total) ** 2), side_tricks)


@lru_cache(maxsize=1024)
def _placement(rules: CompiledRules, n_trumps: int, live_n: int, held_n: int, mine_n: int, bidder: bool) -> tuple:
    """Where an unseen card will be, and what it makes of a trump of mine, for a hand of `held_n` cards in
    play (its `mine_n` trumps read only where hands are refilled), `live_n` cards not known out of play:
    (draw, p_partner, p_opp, took, stride, w_of, kept_of). w_of[u * stride + m]: how likely a trump of mine
    that u unseen trumps and m of mine outrank takes a trick; kept_of[...]: how likely my side keeps it. A
    few placements serve every hand, so each is worked out once."""
    o = outlook(rules)
    unseen_n = max(1, live_n - held_n)
    # Where an unseen card will be: drawn by this seat, with a partner, with an opponent, or out of play.
    draw = 0.0
    if o.draws == "refill":
        draw = max(0, o.refill_to - mine_n) / unseen_n
    elif o.draws == "take" and bidder:
        draw = o.take / unseen_n
    in_play = min(1.0, (o.players - 1) * o.hand_size / unseen_n)
    trump_in_play = 1.0 if o.draws == "refill" else in_play  # trumps are kept and drawn to when hands are filled
    rest = 1.0 - draw
    p_partner = rest * trump_in_play * o.partners / (o.players - 1)
    p_opp = rest * trump_in_play * o.opponents / (o.players - 1)
    save = SAVE_PARTNER if o.partners else SAVE_ALONE
    q = 1.0 - p_opp
    took = _took(n_trumps, draw, p_partner, p_opp, save)
    stride = n_trumps + 1
    w_of: list[float] = []
    kept_of: list[float] = []
    for u in range(stride):
        for m in range(stride):
            # Takes a trick: no opponent holds an unseen trump over it, my higher ones drawing theirs out.
            w = q ** max(0.0, u - 0.5 * m)
            w_of.append(w)
            # My higher trumps draw the others' first, as they would take it from a partner: a card of
            # mine is kept at least as surely as one a partner or an opponent holds.
            kept_of.append(max(w + (1.0 - w) * min(0.9, save + 0.08 * m), took[m]))
    return draw, p_partner, p_opp, took, stride, tuple(w_of), tuple(kept_of)


def _took(n: int, draw: float, p_partner: float, p_opp: float, save: float) -> tuple[float, ...]:
    """How likely my side takes an unseen trump over which k of mine rank, for k = 0..n (see _worth):
    drawn or a partner's (kept as mine are), or an opponent's that my higher trumps force out (a part
    of _placement, which is remembered)."""
    return tuple(draw * 0.8 + p_partner * min(0.9, save + 0.08 * k) + p_opp * (min(0.8, 1.0 - 0.7 ** k) if k else 0.05)
                 for k in range(n + 1))


def _points(o: Outlook, n_sides: int, trump: int, deck: int, kept: dict, mine_over: dict, took: tuple, draw: float,
            p_partner: float, p_opp: float, share: float, side_tricks: float,
            parts: list[float] | None) -> tuple[float, float]:
    """The expected points of the rules' point list and their variance, from the card model above."""
    points = var = 0.0
    for kind, value, to, extra in o.plan:
        if kind >= POINT_GIFT or kind == POINT_TURNED:
            ev = v = 0.0  # the dealer's gift, a kick: settled before the play, not won by bidding
        elif kind == POINT_TRICKS:
            ev, v = value * side_tricks, value * value * side_tricks * (1 - share)
        elif kind == POINT_EACH:
            n = sum(_card_point(c, deck, to, kept, mine_over, took, p_partner, share)
                    for c in C.bits(extra[trump] & deck))
            ev, v = value * n, value * value * n * 0.5
        else:
            if kind == POINT_MOST:
                p = min(0.95, max(0.05, 1.0 / n_sides + GAME_SLOPE * (share - 1.0 / n_sides)))
            elif kind == POINT_BY_TRUMP:
                p = _card_point(extra[trump], deck, to, kept, mine_over, took, p_partner)
            elif kind in (POINT_SCAN_PLAYED, POINT_SCAN_DEALT):
                p = _scan_point(extra[trump], deck, to, kept, mine_over, took, draw, p_partner, p_opp)
            elif kind == POINT_EXPR:  # a condition the count cannot read: an even share
                p = 1.0 / n_sides
            else:
                raise UnknownKind(kind, "the bots' worth of a hand")
            ev, v = value * p, value * value * p * (1.0 - p)
        points += ev
        var += v
        if parts is not None:
            parts.append(ev)
    return points, var


def _card_point(c: int, deck: int, to: int, kept: dict, mine_over: dict, took: tuple, p_partner: float,
                share: float = 0.5) -> float:
    """How likely my side gets the point of card `c` (to the trick's winner, or to who holds or plays
    it); `kept` my trumps' chances, `mine_over` the unseen trumps', `took` by my trumps over them."""
    if c is None or c < 0 or not (deck >> c) & 1:
        return 0.0
    if c in kept:
        return kept[c] if to == TO_WINNER else 1.0
    if c in mine_over:
        return took[mine_over[c]] if to == TO_WINNER else p_partner
    return share if to == TO_WINNER else p_partner  # not a trump: its trick goes with the side's share


def _scan_point(run, deck: int, to: int, kept: dict, mine_over: dict, took: tuple, draw: float, p_partner: float,
                p_opp: float) -> float:
    """The highest or lowest trump in play (`run`: (bit, card) in the order the scan takes them): the
    first in play decides; mine, drawn, a partner's or an opponent's."""
    p, none_yet = 0.0, 1.0
    in_play = draw + p_partner + p_opp
    for _bit, c in run:
        if c in kept:
            return p + none_yet * (kept[c] if to == TO_WINNER else 1.0)
        if c not in mine_over:
            continue  # out of play
        p += none_yet * (took[mine_over[c]] if to == TO_WINNER else draw + p_partner)
        none_yet *= 1.0 - in_play
        if none_yet < 0.01:
            break
    return p


_remembered = lru_cache(maxsize=1 << 14)(_held_worth)


@lru_cache(maxsize=256)
def _suit_tops(rules: CompiledRules, trump: int) -> int:
    """The mask of each side suit's highest card under `trump` (a trick while trumps hold off)."""
    key, tops = rules.rank_order(trump), 0
    trumps = rules.trumps(trump)
    for s in range(4):
        suit = rules.deck.suit_mask[trump + 1][s] & ~trumps
        if suit:
            tops |= 1 << max(C.bits(suit), key=key.__getitem__)
    return tops


@lru_cache(maxsize=1 << 12)
def best_trump(rules: CompiledRules, hand: int, seen: int = 0, bidder: bool = True) -> Worth:
    """The trump the hand is worth most under; remembered like hand_worth (a search's playouts bid
    the same hands in many worlds). Reads the hand as hand_worth does (_read), suit by suit."""
    suits, refill = _suit_reads(rules)
    held = [read for read in suits if hand & read[1]]
    held_n = (hand & rules.deck.mask & ~seen).bit_count()
    alike = None if seen else _alike_suits(rules)
    best: Worth | None = None
    for s, trumps, tops in held if held and not refill else suits:  # no trump is named from a void but to draw to it
        mine, tops_n = hand & trumps, (hand & tops).bit_count()
        if alike is None or not s:
            w = _remembered(rules, s, mine, held_n, tops_n, seen, bidder)
        else:  # the same trumps by place under the first suit: the same worth, to the float
            place, first = alike[s], alike[0]
            as_first = 0
            for c in C.bits(mine):
                as_first |= 1 << first[place[c]]
            w = _remembered(rules, 0, as_first, held_n, tops_n, 0, bidder)
            w = Worth(s, w.points, w.sd, w.tricks)
        if best is None or w.points > best.points:  # the first of equals, as max() takes
            best = w
    assert best is not None, "four suits were weighed"
    return best


@lru_cache(maxsize=64)
def _alike_suits(rules: CompiledRules) -> tuple | None:
    """When every suit reads alike to _held_worth with nothing seen (as many trumps; each point's card,
    cards or scan at the same places of the trump order, met in the same order): the first suit's trump
    at each place, then for each other suit each trump's place (best_trump then asks one worth for
    hands alike by place, with the same sums in the same order: the same floats). Else None.
    Ten-card hands rarely repeat their trumps card for card; by place, up to four times as often."""
    deck = rules.deck.mask
    sigs, places, orders = [], [], []
    for s in range(4):
        whole = _trump_order(rules, s)
        order = [c for c in whole if (deck >> c) & 1]
        place = {c: i for i, c in enumerate(order)}
        sig: list = [len(whole), len(order)]
        for kind, _value, _to, extra in outlook(rules).plan:
            if kind == POINT_BY_TRUMP:
                c = extra[s]
                sig.append(None if c is None or c < 0 or not (deck >> c) & 1 else place.get(c, "side"))
            elif kind == POINT_EACH:
                sig.append(tuple(place.get(c, "side") for c in C.bits(extra[s] & deck)))
            elif kind in (POINT_SCAN_PLAYED, POINT_SCAN_DEALT):
                sig.append(tuple(place.get(c, "out") for _bit, c in extra[s]))
        sigs.append(tuple(sig))
        places.append(place)
        orders.append(order)
    if any(sig != sigs[0] for sig in sigs):
        return None
    return orders[0], places[1], places[2], places[3]  # [0]: the first suit's trump at each place; [s]: suit s's places


@lru_cache(maxsize=64)
def _suit_reads(rules: CompiledRules) -> tuple[tuple[tuple[int, int, int], ...], bool]:
    """((suit, its trumps' mask, its side tops' mask) for each suit, whether hands are refilled): what
    best_trump reads of a hand under each trump."""
    return tuple((s, rules.trumps(s), _suit_tops(rules, s)) for s in range(4)), outlook(rules).draws == "refill"


def set_penalty(rules: CompiledRules, bid: int) -> tuple[float, float]:
    """(gain if the bid is made, loss if set) for the bidder's side, from the rules' scoring formula (a
    made bid scored as exactly the bid; the usual `bid` each way when the formula reads more than that)."""
    out = []
    for made in (True, False):
        env = {"bid": bid, "points": bid if made else max(0, bid - 1), "made": made, "bidder": True, "score": 0,
               "target": rules.end.target, "tricks": 0, "dealer": False, "total_tricks": 0, "bidder_tricks": 0,
               "previous": 0, "delta": 0}
        for _i, name in rules.points.reads:
            env[name] = False
        guess, formula = float(bid) if made else -float(bid), rules.scoring.bidder_delta
        try:  # no formula (`bidding: none`): the bid itself
            out.append(float(formula(env)) if formula is not None else guess)
        except Exception:  # a formula reading what a hand not yet played cannot say
            out.append(guess)
    return max(0.5, out[0]), max(0.0, -out[1])
