"""Upkeep of the tables in memory: idle ones parked to the store, abandoned ones ended by rule.

`Limits.idle_seconds` without a move parks a started table (it is read back by the next call that
names it); `Limits.abandon_seconds` without one ends the game where it stands, with no winner,
recorded as abandoned (docs/referee.md).
"""
from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from smear_dsl.engine.snapshot import between_hands

from smear_referee.errors import RefereeError
from smear_referee.tables.table import Table, end_game

if TYPE_CHECKING:
    from smear_referee.tables.registry import Tables

log = logging.getLogger("smear_dsl.referee")


async def sweep(tables: Tables, now: float | None = None) -> None:
    """End the tables abandoned for abandon_seconds, then park those idle for idle_seconds."""
    now = time.time() if now is None else now
    lim = tables.limits
    stale = {tid for tid, t in tables.tables.items() if not t.game.finished and now - t.touched >= lim.abandon_seconds}
    stale.update(await tables.store.off_loop(tables.store.stale_tables, now - lim.abandon_seconds, 100))  # parked too
    for tid in stale:
        if tid in tables.open_ids and tid not in tables.damaged and tables.shards.owns(tid):
            await abandon(tables, await tables.table_for(tid, None), now)
    for t in list(tables.tables.values()):
        if not t.game.finished and t.version > 0 and t.watchers == 0 and not t.lock.locked() \
                and now - t.touched >= lim.idle_seconds:
            tables.let_go(t)


async def abandon(tables: Tables, t: Table, now: float) -> None:
    """End an abandoned game where it stands (Table's end_game): no winner, recorded as abandoned."""
    async with t.lock:
        if t.game.finished:
            return
        before = t.marks()
        end_game(t.game)
        t.ended = {"reason": "abandoned", "at": round(now, 3), "idle_seconds": round(now - t.touched)}
        events = t.news(before)

        def undo() -> None:
            t.ended = None
        try:
            await tables.commit(t, [], events, t.snapshot_here(between_hands(t.game), len(events)), undo,
                                "its end as abandoned")
        except RefereeError:  # maybe no longer ours, maybe written after all: the store decides
            log.warning("table %s: its end as abandoned could not be saved; tried again later", t.id)
            return
    async with t.changed:
        t.changed.notify_all()
