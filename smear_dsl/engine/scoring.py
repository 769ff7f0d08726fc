"""Scoring a finished hand: who won each point, each side's count for Game, the new scores, and
whether a side has won the game by it. Everything comes from the compiled rules (point plans,
scoring formulas, tie-breaks); the engine calls `score_hand` when a hand's last trick is taken."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from smear_dsl import cards as C
from smear_dsl.compile.compiled import (POINT_BY_TRUMP, POINT_EXPR, POINT_GIFT, POINT_MOST, POINT_SCAN_PLAYED,
                                        TIE_BIDDER, TIE_ELDEST)
from smear_dsl.expr.emit import first_in

if TYPE_CHECKING:  # the engine imports this module
    from smear_dsl.engine import Game


class HandResult(NamedTuple):
    """What one hand came to (the verdict's hand entry); a NamedTuple because one is built per hand."""

    dealer: int
    bidder: int | None
    bid: int | None
    trump: int | None
    points: dict[str, int | None] | None
    game_points: list[int] | None
    made: bool | None
    delta: list[int]
    scores: list[int]

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "bidder": self.bidder, "bid": self.bid,
                "trump": C.SUIT_CHARS[self.trump] if self.trump is not None else None,
                "points": dict(self.points) if self.points is not None else None,
                "game_points": list(self.game_points) if self.game_points is not None else None,
                "made": self.made, "delta": list(self.delta), "scores": list(self.scores)}


def award(game: Game, taken: list[int], early: bool = False) -> tuple[list[int | None], list[int]]:
    """The side that won each point (in rule order; None: nobody) and each side's Game count,
    from the cards each seat took in tricks; `early`: before the play, only the points settled
    then (the gift, a turned-up card) are won."""
    r = game.rules
    side_of = r.side_of
    if r.n_sides == game.n:  # every seat for itself: seat and side are one
        won = [a | b for a, b in zip(game.credit, taken)] if r.points.credits_discards else taken
    else:
        won = list(game.credit)
        for seat, m in enumerate(taken):
            won[side_of[seat]] |= m
    vr, vj = r.deck.value_by_rank, r.deck.value_by_jokers
    game_points = [vr[m & 8191] + vr[m >> 13 & 8191] + vr[m >> 26 & 8191] + vr[m >> 39 & 8191] + vj[m >> 52]
                   for m in won]
    held_by = game.held
    held = sum(held_by)  # the seats' cards are disjoint, so their sum is their union
    trump = game.trump
    env = None
    out: list[int | None] = []
    for kind, card, extra, to_winner, tie in r.points.plan:
        if kind >= POINT_GIFT:
            out.append(_before_play(game, kind, card, extra))
            continue
        if early:
            out.append(None)
            continue
        if kind == POINT_MOST:
            tied = side_of[game.bidder] if tie == TIE_BIDDER and game.bidder >= 0 else \
                side_of[(game.dealer + 1) % game.n] if tie == TIE_ELDEST else None
            out.append(_most(game_points, tied))
            continue
        if trump < 0 or kind == POINT_EXPR:
            if env is None:
                # Every card held at the start of play has been played when the hand is scored.
                env = {"played": held, "dealt": sum(game.dealt), "held": held, "trump": trump, "bid": game.high}
            c = card(env)
        elif kind == POINT_BY_TRUMP:
            c = extra[trump]
        else:  # the first of this trump's cards in pick order that is in the set scanned
            c = first_in(extra[trump], held if kind == POINT_SCAN_PLAYED else sum(game.dealt))
        got: int | None = None
        if c is not None and c >= 0 and (held >> c) & 1:
            # Every card held at the start of play is played by its holder, so "player" and
            # "holder" both look in `held`; "winner" looks in the tricks each seat took.
            bit = 1 << c
            for seat, m in enumerate(taken if to_winner else held_by):
                if m & bit:
                    got = side_of[seat]
                    break
        out.append(got)
    return out, game_points


def _before_play(game: Game, kind: int, card, by_trump) -> int | None:
    """Who won a point settled before the play: the side given the gift, or the dealer's side when
    the point's card is the card turned up for trump."""
    if kind == POINT_GIFT:
        return game.gift_side if game.gift_side >= 0 else None
    trump = game.trump
    if trump < 0 or game.turn_card < 0:
        return None
    c = by_trump[trump] if by_trump is not None else card({"played": 0, "dealt": sum(game.dealt), "held": 0,
                                                            "trump": trump, "bid": game.high})
    return game.rules.side_of[game.dealer] if c == game.turn_card else None


def _most(counts: list[int], bidder_side: int | None) -> int | None:
    """The side with the unique highest count; a tie goes to the bidder's side when it is among
    the tied and the rule says so (`bidder_side` given), else to nobody."""
    top = max(counts)
    if counts.count(top) == 1:
        return counts.index(top)
    return bidder_side if bidder_side is not None and counts[bidder_side] == top else None


def _tally(game: Game, each_tricks: bool, early: bool) -> tuple[list[int], list[int | None], list[int], list[int]]:
    """Per side: tricks taken (when the formulas read them), the side that won each point, the
    Game counts, and the worth of the points won."""
    r = game.rules
    tricks_won = [0] * r.n_sides
    if each_tricks:
        for _l, w, _cards in game.tricks:
            tricks_won[r.side_of[w]] += 1
    got, game_points = award(game, game.taken(), early)
    pts = [0] * r.n_sides
    for v, s in zip(r.points.values, got):
        if s is not None:
            pts[s] += v
    return tricks_won, got, game_points, pts


def score_hand(game: Game, early: bool = False) -> tuple[HandResult, int | None]:
    """The hand just played as a result (points, made, each side's new score) and the side that has
    won the game by it (None: nobody yet); `early`: the hand so far, before the play (see award)."""
    r = game.rules
    ns, side_of = r.n_sides, r.side_of
    each_tricks, each_dealer, each_previous, each_delta = r.scoring.flags
    tricks_won, got, game_points, pts = _tally(game, each_tricks, early)
    bidder = game.bidder  # -1 with `bidding: none`: every side is scored by `others`
    bside, dside = side_of[bidder] if bidder >= 0 else -1, side_of[game.dealer]
    old = game.scores
    # One env, updated per side: the closures read it and keep nothing.
    bidder_tricks = sum(w == game.bidder for _l, w, _c in game.tricks) if "bidder_tricks" in r.scoring.reads else None
    env = {"bid": game.high, "total_tricks": len(game.tricks),
           "bidder_tricks": bidder_tricks,
           "target": r.end.target, "points": pts[bside], "tricks": tricks_won[bside], "score": old[bside],
           "dealer": bside == dside, "bidder": True}
    point_reads = r.points.reads
    if point_reads and bidder >= 0:
        for i, name in point_reads:
            env[name] = got[i] == bside
    made = env["made"] = bool(r.scoring.made(env)) if bidder >= 0 else None
    cap_when, win_if, bidder_delta, others_delta = r.scoring.cap_when, r.end.win_if, r.scoring.bidder_delta, r.scoring.others_delta
    new, cands = [], []
    for s in range(ns):  # once per side of every hand: the rules' closures are read into locals above
        was = old[s]
        env["points"] = pts[s]
        env["score"] = was
        if each_tricks:
            env["tricks"] = tricks_won[s]
        if each_dealer:
            env["dealer"] = s == dside
        if point_reads:
            for i, name in point_reads:
                env[name] = got[i] == s
        if s == bside:
            env["bidder"] = True
            v = was + bidder_delta(env)
        else:
            env["bidder"] = False
            v = was + others_delta(env)
        if cap_when is not None and cap_when(env):
            v = min(v, max(was, r.scoring.cap_at(env)))
        new.append(v)
        # Whether this side wins reads only its own figures, so it is decided here too.
        env["score"] = v
        if each_previous:
            env["previous"] = was
        if each_delta:
            env["delta"] = v - was
        if win_if(env):
            cands.append(s)
    result = HandResult(game.dealer, bidder if bidder >= 0 else None, game.high if bidder >= 0 else None, game.trump,
                        dict(zip(r.points.names, got)), game_points, made, [v - w for v, w in zip(new, old)], list(new))
    if len(cands) > 1:
        cands = _tie_break(r, cands, new, old, got, bside)
    return result, cands[0] if len(cands) == 1 else None


def _tie_break(r, cands: list[int], scores: list[int], old: list[int], got: list[int | None],
               bidder_side: int) -> list[int]:
    """Of the sides that reached a win this hand, those the tie-breaks leave (one: the winner)."""
    for rule in r.end.tie_break:
        if len(cands) <= 1:
            break
        if rule == "bidder" and bidder_side in cands:
            cands = [bidder_side]
        elif rule == "highest":
            top = max(scores[s] for s in cands)
            cands = [s for s in cands if scores[s] == top]
        elif rule == "count_out" and r.end.count_plan is not None:
            cands = _count_out(r, cands, old, got)
    return cands


def _count_out(r, cands: list[int], old: list[int], got: list[int | None]) -> list[int]:
    """Count the hand's points out in the rules' order, each onto its side's score from before the
    hand: the first of `cands` to reach the target goes out (all of them if none reaches it so)."""
    running = list(old)
    for i in r.end.count_plan:
        side = got[i]
        if side is None:
            continue
        running[side] += r.points.values[i]
        if side in cands and running[side] >= r.end.target:
            return [side]
    return cands
