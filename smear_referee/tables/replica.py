"""A replica's side of the leases (cluster.py), on its event loop: renew them, take over the tables of
the shards it gains, let go of those of the shards it loses or hands back.

A shard it gains is read back from the log (each unfinished table from its snapshot and the moves
after it), so its house bots play on and the first move there costs no replay. A shard it loses
(its lease expired: the process was stopped, or cut off from the database) leaves memory at once:
the streams on its tables end with NOT_OWNER and the owner's address, and their clients go there.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import TYPE_CHECKING

from smear_referee.storage.cluster import Leases, Tick, shard_of

if TYPE_CHECKING:
    from smear_referee.tables.registry import Tables

log = logging.getLogger("smear_dsl.referee")


class LeaseKeeper(threading.Thread):
    """Renews the leases every lease_seconds / 4 from a thread of its own, with a connection of its
    own, so a busy event loop does not make this replica lose its shards; what changed is handed
    to the loop (hand_over, take_over, hand_back)."""

    def __init__(self, tables: Tables, leases: Leases, loop: asyncio.AbstractEventLoop):
        super().__init__(name="smear-leases", daemon=True)
        self.tables, self.leases, self.loop = tables, leases, loop
        self.stopping = threading.Event()
        self._changing = asyncio.Lock()  # takeovers and hand-backs one at a time

    def run(self) -> None:
        every = self.leases.seconds / 4
        due = time.monotonic() + every
        while not self.stopping.wait(max(0.0, due - time.monotonic())):
            due = time.monotonic() + every
            tick = None
            try:
                tick = self.leases.tick()
                lost = self.leases.adopt(tick)
            except Exception as e:  # the database is away: leases lapse on their own, and the tables with them
                log.warning("lease renewal failed (%s): %s", type(e).__name__,
                            (str(e).strip().splitlines() or [""])[0][:200])
                lost = self.leases.lapsed()
            if lost or tick is not None and (tick.gained or tick.excess):
                try:
                    self.loop.call_soon_threadsafe(self._apply, lost, tick)
                except RuntimeError:  # the loop has closed
                    return

    def _apply(self, lost: set[int], tick: Tick | None) -> None:
        for shard in sorted(lost):
            log.warning("lost shard %d (its lease expired before it was renewed)", shard)
        hand_over(self.tables, lost)
        if tick is not None and (tick.gained or tick.excess):
            asyncio.ensure_future(self._change(tick))

    async def _change(self, tick: Tick) -> None:
        async with self._changing:
            if tick.gained:
                await take_over(self.tables, sorted(tick.gained))
            if tick.excess:
                await hand_back(self.tables, self.leases, tick.excess)

    def stop(self) -> None:
        self.stopping.set()
        self.join(10)


async def renew(tables: Tables, leases: Leases) -> None:
    """One round on the event loop (at start-up: the replica's first shards before its first call)."""
    tick = await asyncio.to_thread(leases.tick)
    hand_over(tables, leases.adopt(tick))
    if tick.gained:
        await take_over(tables, sorted(tick.gained))


def hand_over(tables: Tables, shards: set[int]) -> None:
    if not shards:
        return
    for t in [t for t in tables.tables.values() if shard_of(t.id) in shards]:
        tables.hand_over(t)
    for tid in [tid for tid in tables.open_ids if shard_of(tid) in shards]:
        tables.index.is_open(tid, False)  # parked ones too: counted by their new owner


async def take_over(tables: Tables, shards: list[int]) -> None:
    """Count the unfinished tables of these shards as this replica's, and read back those played
    within idle_seconds (or not yet played); the others stay parked until a call names one."""
    since = time.time() - tables.limits.idle_seconds
    found = await asyncio.to_thread(tables.store.open_in_shards, shards)
    for tid, _updated in found:
        tables.index.is_open(tid, True)  # counted, and ended if abandoned; the idle stay parked
    ids = [tid for tid, updated in found if updated is None or updated >= since]
    stored = await asyncio.to_thread(tables.store.load, ids)
    for st in stored:
        if tables.shards.owns(st.id):  # still ours (a round may have passed meanwhile)
            tables.restore(st)
    log.info("took over %d shards: %d tables read back", len(shards), len(stored))


async def hand_back(tables: Tables, leases: Leases, count: int) -> None:
    """Give back `count` shards (those with the fewest tables in memory), after their tables left."""
    load = {s: 0 for s in leases.held}
    for tid in tables.tables:
        s = shard_of(tid)
        if s in load:
            load[s] += 1
    for shard in sorted(load, key=lambda s: load[s])[:count]:
        epoch = leases.releasing_now(shard)  # from here on no new write of it starts
        for t in [t for t in tables.tables.values() if shard_of(t.id) == shard]:
            async with t.lock:  # a move being written finishes first
                tables.hand_over(t)
        hand_over(tables, {shard})
        await asyncio.to_thread(leases.release, shard, epoch)
