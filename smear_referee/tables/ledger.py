"""The one way anything of a table reaches the store: a write fenced by the table's shard lease,
a game's change committed then published, and a table handed over when this server may no longer
write it. Clubs and tournaments write their rows through `write` too, so every row is fenced and
counted the same way."""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from smear_dsl.errors import clip
from smear_referee import codes
from smear_referee.errors import RefereeError, damaged
from smear_referee.metrics import Metrics
from smear_referee.storage.cluster import Fenced
from smear_referee.storage.store import Store, StoreDamaged
from smear_referee.tables.index import TableIndex
from smear_referee.tables.table import Event, Table

log = logging.getLogger("smear_dsl.referee")


class KeyConflict(Exception):
    """A keyed write found its idempotency key stored already (a concurrent retry committed first)."""


class Ledger:
    """Writes to the store for the tables of `index`, fenced by `shards` (cluster.py: Solo or Leases)."""

    def __init__(self, store: Store, shards: Any, index: TableIndex, metrics: Metrics):
        self.store = store
        self.shards = shards
        self.index = index
        self.metrics = metrics
        self.submitting: set[asyncio.Task] = set()  # moves being made durable: a server stopping waits for them
        self.history_slots = asyncio.Semaphore(2)  # records and old events remade from the store at once

    def hand_over(self, t: Table) -> None:
        """Take `t` out of memory because this server may no longer write it (its shard went to
        another replica), or because a failed write left its state in doubt: the streams holding
        it end, and the next call reads it back from the store, here or at its new owner."""
        if not t.hand_away():
            return
        self.index.is_open(t.id, False)
        self.index.let_go(t)
        t.wake_all()
        asyncio.ensure_future(t.notify_changed())

    def not_owner(self, table_id: str) -> RefereeError:
        """UNAVAILABLE / NOT_OWNER with the owner's address in ErrorInfo metadata ('' while the shard
        changes hands): the client asks there."""
        owner = self.shards.owner_of(table_id)
        if owner and owner != self.shards.address:
            return RefereeError(codes.NOT_OWNER, f"table {clip(table_id)} is served by the replica at "
                                f"{owner}: ask there", {"owner": owner})
        return RefereeError(codes.NOT_OWNER, f"table {clip(table_id)}'s shard is changing hands: ask "
                            "again shortly", {"owner": ""})

    def gone(self, t: Table) -> RefereeError:
        """What a stream holding a table that left memory ends with."""
        if not self.shards.owns(t.id):
            return self.not_owner(t.id)
        return RefereeError(codes.TABLE_RELOADED, "the table is being read back from the store: ask again")

    async def write(self, t: Table | None, table_id: str, statements: list[tuple[str, tuple]],
                    keyed: bool = False, what: str = "a write") -> None:
        """Write statements of one table, fenced by its shard's lease (NOT_OWNER if that is lost);
        `keyed`: they hold an idempotency key, and a key stored already is KeyConflict."""
        began = time.perf_counter()
        try:
            await self.store.write(statements, self.shards.fence(table_id))
            self.metrics.commit_seconds.observe(time.perf_counter() - began)
        except self.store.backend.IntegrityError:
            if keyed:
                raise KeyConflict() from None
            self.metrics.store_failures.labels("failed").inc()
            raise RefereeError(codes.STORE_FAILED, "the database did not take the change; try again") from None
        except Fenced:
            log.warning("fenced: %s at table %s was refused (its shard is no longer this replica's)", what, table_id)
            self.metrics.store_failures.labels("fenced").inc()
            if t is not None:
                self.hand_over(t)
            raise self.not_owner(table_id) from None
        except self.store.backend.Error:
            self.metrics.store_failures.labels("failed").inc()
            if t is not None and self.store.backend.name == "postgresql":
                self.hand_over(t)  # the commit may or may not have happened: the store decides
            raise RefereeError(codes.STORE_FAILED, "the database did not take the change; try again") from None

    async def commit(self, t: Table, statements: list[tuple[str, tuple]], events: list[Event],
                     snap: dict[str, Any] | None, undo: Callable[[], None], what: str, keyed: bool = False,
                     touched: float | None = None) -> None:
        """The one way a table's game changes for good, under `t.lock` (held by the caller, which has
        changed the game and computed the change's events and, at a hand's end, its snapshot): the
        statements that record it, with the snapshot and the game's end, are written fenced by the
        shard's lease; if the write fails, `undo` takes back what the change did beside the game and
        the game is rebuilt from the snapshot and the log (then the error is raised); if it holds,
        the change is published: events, snapshot, the seat to act woken, a finished game counted."""
        if snap is not None:
            statements = statements + Store.save_snapshot(t.id, snap)
        if t.game.finished:
            statements = statements + Store.finish(t.id, t.game.scores, t.game.winner, t.chain, t.ended)
        try:
            await self.write(t, t.id, statements, keyed=keyed, what=what)
        except Exception:
            undo()
            t.rebuild()
            raise
        t.committed(events, snap, touched)
        if t.game.finished:
            self.index.is_open(t.id, False)
            self.index.keep_in_memory(t)  # counts it among the finished tables kept in memory

    async def outcome(self, table_id: str) -> tuple[bool, list[int], int | None]:
        """(finished, scores, winner) of a table, without reading it back into memory (DATA_LOSS if
        its stored outcome is not proven by its digest)."""
        t = self.index.tables.get(table_id)
        if t is not None:
            return t.game.finished, list(t.game.scores), t.game.winner
        if table_id in self.index.damaged:
            return False, [], None
        try:
            return await self.store.off_loop(self.store.outcome, table_id) or (False, [], None)
        except StoreDamaged as e:
            raise damaged(table_id, e.reason) from None

    async def sealed(self, seal: str | None) -> bool:
        """Whether the tables of `seal` (a duplicate round's; a table's `seal`) are sealed, some of them still
        playing: then their seeds, full records and hidden cards (the same boards) stay withheld, and a club
        counts none of their games."""
        index = self.index
        if seal is None or seal in index.opened:
            return False
        if not index.seal_known(seal):
            index.learn_seal(seal, await self.store.off_loop(self.store.seal_tables, seal))
        for tid in index.seal_tables(seal):
            if not (await self.outcome(tid))[0]:
                return True
        index.seal_opened(seal)
        return False
