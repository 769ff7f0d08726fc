"""A table's events: what changed in its game since a mark, as the numbered tuples streams send
(Table keeps them; seen.render cuts each down to what one caller may see)."""
from __future__ import annotations

import json
from typing import Any

from smear_dsl.engine import Game

# An event is a plain tuple of ints, strings and tuples: (seq, kind, *fields), the fields in the
# order `event` is given them. The garbage collector stops tracking such tuples once it has seen
# them, so a server holding long games does not keep growing the heap every full collection walks
# (that showed as 100-200 ms pauses in bench_referee's latency).
Event = tuple
# Where a game stands, to tell what changed after it: (hands dealt, hands scored, the tricks list,
# tricks in it, finished).
Marks = tuple


def marks(g: Game) -> Marks:
    return len(g.record_hands), len(g.results), g.tricks, len(g.tricks), g.finished


def news(g: Game, before: Marks | None, last_seq: int, version: int, seat: int | None = None,
         code: int | None = None, by: str = "") -> list[Event]:
    """The events of what changed in `g` since `before` (None: from the start), numbered after
    `last_seq`: a move (`seat`'s `code`, by its player or `by` the server, making `version`), tricks
    won, hands scored and dealt, the game's end."""
    n_hands, n_results, old_tricks, n_tricks, was_over = before if before is not None else (0, 0, [], 0, False)
    out: list[Event] = []

    def event(kind: str, *fields: Any) -> None:
        out.append((last_seq + len(out) + 1, kind, *fields))
    if seat is not None and code is not None:
        event("move", seat, code, version, by)
    for leader, winner, cards in old_tricks[n_tricks:]:
        event("trick_won", leader, winner, tuple(cards))
    for i in range(n_results, len(g.results)):
        event("hand_scored", i, json.dumps(g.results[i].to_json()), tuple(g.results[i].scores))
    for h in range(n_hands, len(g.record_hands)):
        dealer, hands, _stock, _moves = g.record_hands[h]
        event("hand_started", h, dealer, tuple(tuple(x) for x in hands))
    if g.finished and not was_over:
        event("game_over", g.winner, tuple(g.scores))
    if len(g.results) > n_results:
        g.compact_history()  # a hand ended: its record and result need not be tracked by the GC
    return out
