"""Scoring a finished hand: who won each point, each side's count for Game, the new scores, and
whether a side has won the game by it. Everything comes from the compiled rules (point plans,
scoring formulas, tie-breaks); the engine calls `score_hand` when a hand's last trick is taken."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

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
    TIE_BIDDER,
    TIE_ELDEST,
    TO_EXPR,
    TO_WINNER,
)
from smear_dsl.compile.pointkinds import UnknownKind
from smear_dsl.expr.emit import first_in

if TYPE_CHECKING:
    from smear_dsl.compile.compiled import CompiledRules


# An award as it fell: (point index, side (None: nobody; per side, a list), value, when, card).
Award = tuple[Any, ...]


class Game(Protocol):
    """What scoring reads of a game (engine.Game has it all): the hand as played, never changed here."""

    rules: CompiledRules
    n: int
    dealer: int
    bidder: int
    trump: int
    turn_card: int
    gift_side: int
    scores: list[int]
    credit: list[int]
    dealt: list[int]
    held: list[int]
    high: int
    tricks: list[tuple[int, int, list[int]]]
    hand_moves: list[tuple[int, int]]

    def taken(self) -> list[int]: ...


# How scoring reads each kind of point (compile/pointkinds.py); tests/engine/test_point_kinds.py holds this
# complete, and a kind it lacks raises UnknownKind rather than being scored as another.
READS = {
    POINT_MOST: "_game_point: the side with the most card value, a tie as the point's rule says",
    POINT_BY_TRUMP: "_point_card: the card looked up for the trump, to its taker",
    POINT_SCAN_PLAYED: "_point_card: the first card of the trump's list held when play began",
    POINT_SCAN_DEALT: "_point_card: the first card of the trump's list that was dealt",
    POINT_EXPR: "_point_card: the card the point's expression names",
    POINT_EACH: "_many: every card of the trump's mask, to its taker, as its trick is won",
    POINT_TRICKS: "_many: every trick, to its winner's side",
    POINT_GIFT: "_before_play: the side the dealer gave the gift to",
    POINT_TURNED: "_before_play: the dealer's side, when the point's card is the card turned up",
}


class HandResult(NamedTuple):
    """What one hand came to (the verdict's hand entry); a NamedTuple because one is built per hand."""

    dealer: int
    bidder: int | None
    bid: int | None
    trump: int | None
    points: dict[str, int | None] | None
    game_points: Sequence[int] | None  # lists, made tuples once the hand is history (compact_history)
    made: bool | None
    delta: Sequence[int]
    scores: Sequence[int]
    # The hand's awards in the order they fell (Awards); None for a void hand.
    fell: Awards | None = None

    def awards(self) -> tuple[Award, ...]:
        """Every award of the hand in the order it fell (see award)."""
        return () if self.fell is None else self.fell.awards()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dealer": self.dealer, "bidder": self.bidder, "bid": self.bid,
               "trump": C.SUIT_CHARS[self.trump] if self.trump is not None else None,
               "points": {k: (list(v) if isinstance(v, list) else v) for k, v in self.points.items()}
               if self.points is not None else None,
               "game_points": list(self.game_points) if self.game_points is not None else None,
               "made": self.made, "delta": list(self.delta), "scores": list(self.scores)}
        if self.fell is not None:
            r = self.fell.rules
            out["points_won"] = [fell_json(e, r.points.names, r.deck.name_of) for e in self.awards()]
        return out


class Awards(tuple[Any, ...]):
    """A hand's awards in the order they fell (see award), with the rules that name their points and
    cards: (rules, entries). Worked out as the hand is scored, compactly (a hand keeps no reference to
    its tricks)."""

    @property
    def rules(self) -> CompiledRules:
        rules: CompiledRules = self[0]
        return rules

    def awards(self) -> tuple[Award, ...]:
        entries: tuple[Award, ...] = self[1]
        return entries


def fell_json(entry: Award, point_names: Sequence[str], card_names: Any) -> dict[str, Any]:
    """One award as records and views show it: the point, its side, its worth, the card, and when it
    fell (`trick`: the trick's index from 0; `at`: deal, trick or end)."""
    i, side, value, when, card = entry
    at = "deal" if when == AT_DEAL else "end" if when == AT_END else "trick"
    return {"point": point_names[i], "side": side, "value": value,
            "card": card_names[card] if card is not None and card >= 0 else None,
            "at": at, "trick": when // 16 if at == "trick" else None}


# When a point fell, as the order key of the hand's awards: before the play, in trick i (at the
# position of its card), or with the whole hand (after the last trick).
AT_DEAL, AT_END = -1, 1 << 20


def award(game: Game, taken: list[int], early: bool = False, log: list[Award] | None = None,
          cards: list[int] | None = None) -> tuple[list[Any], list[int]]:
    """The side that won each point (rule order; None: nobody; per card or trick: each side's total) and
    each side's Game count; `early`: only the points settled before the play. `log` gets every award as
    it fell, (point, side, value, when, card), `when` AT_DEAL, 16 * trick + place or AT_END; or, by the
    short path (_plain), `cards` gets each point's card, from which PlainAwards makes that log if asked."""
    r = game.rules
    game_points = _card_values(game, taken)
    if cards is not None:  # scoring, by the short path
        return _plain(game, taken, early, game_points, cards), game_points
    held = sum(game.held)  # the seats' cards are disjoint, so their sum is their union
    values = r.points.values
    out: list[Any] = []
    places = None  # card -> (trick index, position in it): where each card played fell
    for i, (kind, card, extra, to, tie, to_fn) in enumerate(r.points.plan):
        if kind >= POINT_GIFT:
            got = _before_play(game, kind, card, extra)
            out.append(got)
            if got is not None and log is not None:
                log.append((i, got, values[i], AT_DEAL, game.turn_card if kind == POINT_TURNED else -1))
            continue
        if kind == POINT_EACH or kind == POINT_TRICKS:
            per_side = [0] * r.n_sides
            out.append(per_side)
            if not early:
                _many(game, i, kind, extra, to, to_fn, per_side, log)
            continue
        if early:
            out.append(None)
            continue
        if kind == POINT_MOST:
            got = _game_point(game, tie, game_points)
            out.append(got)
            if got is not None and log is not None:
                log.append((i, got, values[i], AT_END, -1))
            continue
        c = _point_card(game, kind, card, extra, held)
        got = None
        if c is not None and c >= 0 and (held >> c) & 1:
            if places is None and (log is not None or to == TO_EXPR):
                places = _places(game)
            got = _one(game, i, kind, c, to, to_fn, taken, places, log)
        out.append(got)
    if log is not None and len(log) > 1:
        log.sort(key=_fell)
    return out, game_points


def may_win_before_play(game: Game) -> bool:
    """Whether the points settled before the play (a turned-up card, the gift) could end the game now.
    Where a side scores just its points (`others: points`, no bidder, no cap) and win_if reads only the
    scores, each side's score after them is its score plus the points it took, and win_if on those says
    (the full scoring, with its tie-break, runs only if some side would win)."""
    r = game.rules
    if not (r.scoring.points_only and r.end.scores_only) or r.scoring.cap_when is not None:
        return True
    pts = [0] * r.n_sides
    for kind, card, extra, value in r.points.pre_plan:
        side = _before_play(game, kind, card, extra)
        if side is not None:
            pts[side] += value
    env = {"target": r.end.target}
    for s, score in enumerate(game.scores):
        env["score"] = score + pts[s]
        if r.end.win_if(env):
            return True
    return False


def _card_values(game: Game, taken: list[int]) -> list[int]:
    """Each side's card value (deck.values) in the tricks it took and the discards credited to it."""
    r = game.rules
    if r.n_sides == game.n:  # every seat for itself: seat and side are one
        won = [a | b for a, b in zip(game.credit, taken)] if r.points.credits_discards else taken
    else:
        won = list(game.credit)
        for seat, m in enumerate(taken):
            won[r.side_of[seat]] |= m
    vr, vj = r.deck.value_by_rank, r.deck.value_by_jokers
    return [vr[m & 8191] + vr[m >> 13 & 8191] + vr[m >> 26 & 8191] + vr[m >> 39 & 8191] + vj[m >> 52] for m in won]


def _plain(game: Game, taken: list[int], early: bool, game_points: list[int], cards: list[int]) -> list[int | None]:
    """award's short path (every point one card's, won by a rule word, or Game or the gift): the side
    that won each point, and in `cards` the card each point looked at (-1: none), from which
    PlainAwards works out when each fell, if asked."""
    r = game.rules
    side_of = r.side_of
    held_by = game.held
    held = sum(held_by)  # the seats' cards are disjoint, so their sum is their union
    trump = game.trump
    out: list[int | None] = []
    plan = r.points.plain_plan
    assert plan is not None, "the short path is taken only with a plain plan"
    for kind, card, extra, to, tie, to_fn in plan:
        if kind >= POINT_GIFT:
            out.append(_before_play(game, kind, card, extra))
            cards.append(-1)
            continue
        if early:
            out.append(None)
            cards.append(-1)
            continue
        if kind == POINT_MOST:
            out.append(_game_point(game, tie, game_points))
            cards.append(-1)
            continue
        # _point_card and _taker, inlined: scoring's hot path (a call each per point cost the seed
        # variants about 1% of their moves per second, bench_ab --instructions).
        if trump < 0 or kind == POINT_EXPR:
            c = card({"played": held, "dealt": sum(game.dealt), "held": held, "trump": trump, "bid": game.high})
        elif kind == POINT_BY_TRUMP:
            c = extra[trump]
        elif kind == POINT_SCAN_PLAYED or kind == POINT_SCAN_DEALT:
            c = first_in(extra[trump], held if kind == POINT_SCAN_PLAYED else sum(game.dealt))
        else:
            raise UnknownKind(kind, "scoring")
        got: int | None = None
        if c is not None and c >= 0 and (held >> c) & 1:
            if to == TO_EXPR:
                got = _chosen_in(game, to_fn, c)
            else:
                bit = 1 << c
                for seat, m in enumerate(taken if to == TO_WINNER else held_by):
                    if m & bit:
                        got = side_of[seat]
                        break
        out.append(got)
        cards.append(c if c is not None else -1)
    return out


class PlainAwards(tuple[Any, ...]):
    """The awards of a hand scored by award's short path, worked out only when asked (a verdict, a
    view): (rules, seats, the hand's moves, the side of each point, the card of each point, the
    turned card). The moves are the record's own list, so keeping them costs nothing."""

    @property
    def rules(self) -> CompiledRules:
        rules: CompiledRules = self[0]
        return rules

    def awards(self) -> tuple[Award, ...]:
        found = self.__dict__.get("_log")
        if found is None:
            rules, n, moves, got, cards, turn_card = self
            place, k = {}, 0
            for _seat, code in moves:
                if 0 <= code < 64:  # a card played: the k-th of the hand, in trick k // n
                    place[code] = (k // n) * 16 + k % n
                    k += 1
            values, log = rules.points.values, []
            for i, (kind, _card, _extra, _to, _tie, _fn) in enumerate(rules.points.plain_plan):
                side = got[i]
                if side is None:
                    continue
                c = cards[i]
                if kind >= POINT_GIFT:
                    when, c = AT_DEAL, turn_card if kind == POINT_TURNED else -1
                else:  # a card named by trump alone falls with its trick; the others with the whole hand
                    when = place.get(c, AT_END) if kind == POINT_BY_TRUMP else AT_END
                log.append((i, side, values[i], when, c))
            log.sort(key=_fell)
            found = self._log = tuple(log)
        return found


def _game_point(game: Game, tie: int, game_points: list[int]) -> int | None:
    """The side that wins the Game point (most card value), a tie going as the rule's TIE_* says."""
    side_of = game.rules.side_of
    tied = side_of[game.bidder] if tie == TIE_BIDDER and game.bidder >= 0 else \
        side_of[(game.dealer + 1) % game.n] if tie == TIE_ELDEST else None
    return _most(game_points, tied)


def _point_card(game: Game, kind: int, card: Any, extra: Any, held: int) -> int | None:
    """The card a point is carried by: looked up per trump, the first of the trump's cards in pick order
    in the set scanned, or the selector evaluated (before trump is fixed, or an expression)."""
    trump = game.trump
    if trump < 0 or kind == POINT_EXPR:
        # Every card held at the start of play has been played when the hand is scored.
        found: int | None = card({"played": held, "dealt": sum(game.dealt), "held": held, "trump": trump,
                                  "bid": game.high})
        return found
    if kind == POINT_BY_TRUMP:
        by_trump: int | None = extra[trump]
        return by_trump
    if kind == POINT_SCAN_PLAYED or kind == POINT_SCAN_DEALT:
        return first_in(extra[trump], held if kind == POINT_SCAN_PLAYED else sum(game.dealt))
    raise UnknownKind(kind, "scoring")


def _taker(side_of: Sequence[int], c: int, masks: list[int]) -> int | None:
    """The side of the seat whose mask holds card `c`. With the tricks each seat took: who won it; with
    the cards held when play began: who held (and so played) it."""
    bit = 1 << c
    for seat, m in enumerate(masks):
        if m & bit:
            return side_of[seat]
    return None


def _one(game: Game, i: int, kind: int, c: int, to: int, to_fn: Any, taken: list[int],
         places: dict[int, tuple[int, int]] | None, log: list[Award] | None) -> int | None:
    """The side that wins point `i`, carried by card `c` (held when play began), logged as it fell."""
    side_of = game.rules.side_of
    got = None
    if to == TO_EXPR:
        assert places is not None, "a point given by an expression reads where each card fell"
        got = _chosen(game, to_fn, c, places)
    else:
        got = _taker(side_of, c, taken if to == TO_WINNER else game.held)
    if got is not None and log is not None:
        assert places is not None, "a point logged as it fell reads where its card fell"
        # A card named by the trump alone falls with its trick; one chosen among the cards
        # played (the lowest trump played) is known only when the hand is over.
        ti, pos = places.get(c, (None, 0))
        when = ti * 16 + pos if kind == POINT_BY_TRUMP and ti is not None else AT_END
        log.append((i, got, game.rules.points.values[i], when, c))
    return got


def fallen(game: Game) -> tuple[list[Award], list[int]]:
    """During the play: the awards that have fallen so far (settled before the play, or with a trick
    already won), and each side's total of them. Only what everyone has seen decides them: a point
    that waits for the whole hand (the lowest trump played, Game) is left out until the hand ends."""
    log: list[Award] = []
    award(game, game.taken(), log=log)
    log = [e for e in log if e[3] != AT_END]
    totals = [0] * game.rules.n_sides
    for _i, side, v, _when, _c in log:
        totals[side] += v
    return log, totals


def _fell(entry: Award) -> tuple[int, int]:
    return entry[3], entry[0]


def _places(game: Game) -> dict[int, tuple[int, int]]:
    """card -> (trick index, position in the trick) for every card played this hand."""
    return {c: (ti, pos) for ti, (_l, _w, cards) in enumerate(game.tricks) for pos, c in enumerate(cards)}


def _to_env(game: Game, c: int, ti: int, pos: int) -> dict[str, Any]:
    """What a point's `to:` condition reads for card `c`, played at `pos` of trick `ti`."""
    r = game.rules
    side_of = r.side_of
    leader, w, cards = game.tricks[ti]
    player = side_of[(leader + pos) % game.n]
    return {"player": player, "winner": side_of[w], "holder": player, "dealer": side_of[game.dealer],
            "bidder": side_of[game.bidder] if game.bidder >= 0 else -1, "nobody": -1, "card": c,
            "captured_by": cards[(w - leader) % game.n], "trick": ti + 1, "trump": game.trump, "bid": game.high}


def _chosen(game: Game, to_fn: Any, c: int, places: dict[int, tuple[int, int]]) -> int | None:
    """The side a `to:` condition gives card `c`'s point (None: nobody, or the card was not played)."""
    if c not in places:
        return None
    side = to_fn(_to_env(game, c, *places[c]))
    return side if side >= 0 else None


def _chosen_in(game: Game, to_fn: Any, c: int) -> int | None:
    """_chosen without a map of every card's place: card `c`'s trick found by a scan (a `to:` point on
    the short path looks for one card or two)."""
    for ti, (_l, _w, cards) in enumerate(game.tricks):
        if c in cards:
            side = to_fn(_to_env(game, c, ti, cards.index(c)))
            return side if side >= 0 else None
    return None


def _many(game: Game, i: int, kind: int, each: Any, to: int, to_fn: Any, per_side: list[int], log: list[Award] | None) -> None:
    """A point scored per card (`each`) or per trick, trick by trick: each side's total in `per_side`,
    every award in `log` (it falls with its trick)."""
    r = game.rules
    side_of, n, v = r.side_of, game.n, r.points.values[i]
    if kind != POINT_TRICKS and kind != POINT_EACH:
        raise UnknownKind(kind, "scoring")
    if kind == POINT_TRICKS:
        for ti, (_l, w, _cards) in enumerate(game.tricks):
            s = side_of[w]
            per_side[s] += v
            if log is not None:
                log.append((i, s, v, ti * 16 + 15, -1))
        return
    mask = each[game.trump] if game.trump >= 0 else 0
    if not mask:
        return
    for ti, (leader, w, cards) in enumerate(game.tricks):
        for pos, c in enumerate(cards):
            if not (mask >> c) & 1:
                continue
            if to == TO_WINNER:
                s = side_of[w]
            elif to == TO_EXPR:
                s = to_fn(_to_env(game, c, ti, pos))
                if s < 0:
                    continue
            else:
                s = side_of[(leader + pos) % n]
            per_side[s] += v
            if log is not None:
                log.append((i, s, v, ti * 16 + pos, c))


def _before_play(game: Game, kind: int, card: Any, by_trump: Any) -> int | None:
    """Who won a point settled before the play: the side given the gift, or the dealer's side when
    the point's card is the card turned up for trump."""
    if kind == POINT_GIFT:
        return game.gift_side if game.gift_side >= 0 else None
    if kind != POINT_TURNED:
        raise UnknownKind(kind, "scoring")
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


def _tally(game: Game, each_tricks: bool, early: bool) -> tuple[list[int], list[Any], list[int], list[int], Any]:
    """Per side: tricks taken (when the formulas read them), the side that won each point, the
    Game counts, and the worth of the points won; and the hand's awards as they fell (see award)."""
    r = game.rules
    plain = r.points.plain_plan is not None
    log: list[Award] | None = None if plain else []
    cards: list[int] | None = [] if plain else None
    tricks_won = [0] * r.n_sides
    if each_tricks:
        for _l, w, _cards in game.tricks:
            tricks_won[r.side_of[w]] += 1
    got, game_points = award(game, game.taken(), early, log, cards)
    fell = PlainAwards((r, game.n, game.hand_moves, got, cards, game.turn_card)) if plain else Awards((r, tuple(log or ())))
    pts = [0] * r.n_sides
    if not r.points.pegged:
        for v, s in zip(r.points.values, got):
            if s is not None:
                pts[s] += v
        return tricks_won, got, game_points, pts, fell
    for v, s in zip(r.points.values, got):
        if s is None:
            continue
        if s.__class__ is int:
            pts[s] += v
        else:  # a point per card or per trick: each side's total
            for side, x in enumerate(s):
                pts[side] += x
    return tricks_won, got, game_points, pts, fell


def score_hand(game: Game, early: bool = False) -> tuple[HandResult, int | None]:
    """The hand just played as a result (points, made, each side's new score) and the side that has
    won the game by it (None: nobody yet); `early`: the hand so far, before the play (see award)."""
    # Kept whole: it runs once per hand of every game, and its per-side loop reads the rules' closures
    # as locals; split, the env and the locals would pass through calls.
    r = game.rules
    ns, side_of = r.n_sides, r.side_of
    each_tricks, each_dealer, each_previous, each_delta = r.scoring.flags
    tricks_won, got, game_points, pts, fell = _tally(game, each_tricks, early)
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
            env[name] = _won(got[i], bside)
    made_fn = r.scoring.made  # (there is one whenever there is a bidder)
    made = env["made"] = bool(made_fn(env)) if bidder >= 0 and made_fn is not None else None
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
                env[name] = _won(got[i], s)
        if s == bside:
            env["bidder"] = True
            assert bidder_delta is not None, "a side that bid has the bidder's formula"
            v = was + bidder_delta(env)
        else:
            env["bidder"] = False
            v = was + others_delta(env)
        if cap_when is not None and cap_when(env):
            cap_at = r.scoring.cap_at
            assert cap_at is not None, "a cap has a when and an at"
            v = min(v, max(was, cap_at(env)))
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
                        dict(zip(r.points.names, got)), game_points, made, [v - w for v, w in zip(new, old)], list(new),
                        fell)
    if len(cands) > 1:
        cands = _tie_break(r, cands, new, old, got, bside, result.fell)
    return result, cands[0] if len(cands) == 1 else None


def _won(got: Any, side: int) -> bool:
    """Whether `side` won a point (for a point per card or per trick: any of it)."""
    return got == side if got is None or got.__class__ is int else got[side] > 0


def _tie_break(r: CompiledRules, cands: list[int], scores: list[int], old: list[int], got: list[Any],
               bidder_side: int, fell: Any) -> list[int]:
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
            cands = _count_out(r, cands, old, got, fell.awards())
    return cands


def _count_out(r: CompiledRules, cands: list[int], old: list[int], got: list[Any], log: list[Award]) -> list[int]:
    """Count the hand's points out, in the order they fell (`order: as_won`) or in the rules' order,
    each onto its side's score from before the hand: the first of `cands` to reach the target goes
    out (all of them if none reaches it so)."""
    running = list(old)
    if r.end.count_as_won:
        steps = [(side, v) for _i, side, v, _when, _c in log]
    else:
        steps = []
        for i in r.end.count_plan or ():
            side = got[i]
            if side is None:
                continue
            if side.__class__ is int:
                steps.append((side, r.points.values[i]))
            else:  # a point per card or per trick, in the order its cards fell
                steps += [(s, v) for j, s, v, _when, _c in log if j == i]
    for side, v in steps:
        running[side] += v
        if side in cands and running[side] >= r.end.target:
            return [side]
    return cands
