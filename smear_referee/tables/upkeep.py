"""Upkeep of the tables in memory: idle ones parked to the store, abandoned ones ended by rule.

`Limits.idle_seconds` without a move parks a started table (it is read back by the next call that
names it); `Limits.abandon_seconds` without one ends the game where it stands, with no winner,
recorded as abandoned (docs/referee.md).
"""
from __future__ import annotations

import logging
import time

from smear_dsl.engine.snapshot import between_hands
from smear_referee.errors import RefereeError
from smear_referee.tables.desk import Desk
from smear_referee.tables.restore import table_for
from smear_referee.tables.table import Table

log = logging.getLogger("smear_dsl.referee")


async def sweep(desk: Desk, now: float | None = None) -> None:
    """End the tables abandoned for abandon_seconds, then park those idle for idle_seconds."""
    now = time.time() if now is None else now
    lim, index = desk.limits, desk.index
    stale = {tid for tid, t in index.tables.items() if not t.game.finished and now - t.touched >= lim.abandon_seconds}
    stale.update(await desk.store.off_loop(desk.store.stale_tables, now - lim.abandon_seconds, 100))  # parked too
    for tid in stale:
        if tid in index.open_ids and tid not in index.damaged and desk.shards.owns(tid):
            await abandon(desk, await table_for(desk, tid, None), now)
    for t in list(index.tables.values()):
        if not t.game.finished and t.version > 0 and t.watchers == 0 and not t.lock.locked() \
                and now - t.touched >= lim.idle_seconds:
            index.let_go(t)


async def abandon(desk: Desk, t: Table, now: float) -> None:
    """End an abandoned game where it stands (Game.abandon): no winner, recorded as abandoned."""
    async with t.lock:
        if t.game.finished:
            return
        before = t.marks()
        t.abandon(now)
        events = t.news(before)
        try:
            await desk.ledger.commit(t, [], events, t.snapshot_here(between_hands(t.game), len(events)),
                                     t.undo_abandon, "its end as abandoned")
        except RefereeError:  # maybe no longer ours, maybe written after all: the store decides
            log.warning("table %s: its end as abandoned could not be saved; tried again later", t.id)
            return
    await t.notify_changed()
