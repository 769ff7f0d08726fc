"""Tables held by the referee: creation, seats, tokens, moves made durable, and what is in memory.

A move is applied under its table's lock (smear_referee/tables/table.py), written to the store, and
only then published and acknowledged. What has left memory (parked tables, old events, records)
is read back from the store when asked for.
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections import OrderedDict, defaultdict
from typing import Any, Callable

from smear_dsl.errors import clip

from smear_referee.tables import history, idem, moves, restore, seats, upkeep
from smear_referee.api import referee_pb2 as pb
from smear_referee.storage.cluster import Fenced, Solo
from smear_referee.limits import Limits
from smear_referee.metrics import Metrics
from smear_referee.storage.store import Store, StoredTable, StoreDamaged
from smear_referee.tables.restore import Damaged
from smear_referee.tables.table import Event, Identity, Table
from smear_referee.errors import RefereeError, damaged
from smear_referee.tables.tokens import token_hash

__all__ = ["Identity", "Table", "Tables"]

log = logging.getLogger("smear_dsl.referee")


class Tables:
    """Every table of this server: those in memory, and the store behind them.

    In memory are the unfinished tables played lately and the last KEEP_FINISHED finished ones;
    an unfinished table idle for `Limits.idle_seconds` is parked (it stays in the store) and is
    woken by the next call that names it. Tokens of tables not in memory are looked up in the
    store, so what the server holds follows its live tables, not its history.
    """

    KEEP_FINISHED = 500

    def __init__(self, store: Store, limits: Limits | None = None, shards=None):
        self.store = store
        self.limits = limits or Limits()
        self.shards = shards or Solo()  # which tables this server may write (cluster.py: Solo or Leases)
        self.tables: dict[str, Table] = {}
        # Tokens are kept as SHA-256 hashes, found by a short prefix of the hash and then compared
        # in full with hmac.compare_digest, so lookups take the same time whatever the token.
        self.tokens: dict[str, list[tuple[str, Identity]]] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()  # finished tables in memory, oldest first
        self.open_ids: set[str] = set()  # unfinished tables, in memory or parked
        self.damaged: dict[str, Damaged] = {}  # stored tables that could not be rebuilt
        self.seals: dict[str, list[str]] = defaultdict(list)  # seal -> its tables (a duplicate round)
        self.opened: set[str] = set()  # seals whose tables have all finished
        self.by_address: dict[str, dict[str, bool]] = defaultdict(dict)  # address -> {table id: uploaded rules}
        self.woken: list[Callable[[Table], None]] = []  # called with each table read back into memory
        self.parked: list[Callable[[Table], None]] = []  # called with each table let go from memory
        self.history_slots = asyncio.Semaphore(2)  # records and old events remade from the store at once
        self.metrics = Metrics()  # what an operator watches (smear_referee/metrics.py)
        self.submitting: set[asyncio.Task] = set()  # moves being made durable: a server stopping waits for them
        self.metrics.watch_tables(self)

    # ---- start-up and reading back (restore.py)
    def load(self) -> int:
        """Read back the tables a lone server starts with (restore.load)."""
        return restore.load(self)

    def restore(self, st: StoredTable) -> Table | None:
        """The stored table rebuilt and kept (None: it is damaged, which is reported and remembered)."""
        return restore.restore(self, st)

    def keep_in_memory(self, t: Table) -> None:
        self.tables[t.id] = t
        if t.game.finished:
            self.finished[t.id] = None
            self.finished.move_to_end(t.id)
            while len(self.finished) > self.KEEP_FINISHED:
                old, _ = self.finished.popitem(last=False)
                self.let_go(self.tables[old])

    def let_go(self, t: Table) -> None:
        """Take the table out of memory (it stays in the store), with its tokens."""
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
            self.finished.pop(t.id, None)
        for h in t.token_hashes:
            self.forget_token(h)
        for hook in self.parked:
            hook(t)

    def hand_over(self, t: Table) -> None:
        """Take `t` out of memory because this server may no longer write it (its shard went to
        another replica), or because a failed write left its state in doubt: the streams holding
        it end, and the next call reads it back from the store, here or at its new owner."""
        if t.moved:
            return
        t.moved = True
        self.open_ids.discard(t.id)
        self.let_go(t)
        t.wake_all()
        asyncio.ensure_future(_notify(t))

    def not_owner(self, table_id: str) -> RefereeError:
        """UNAVAILABLE / NOT_OWNER with the owner's address in ErrorInfo metadata ('' while the shard
        changes hands): the client asks there."""
        owner = self.shards.owner_of(table_id)
        if owner and owner != self.shards.address:
            return RefereeError("UNAVAILABLE", "NOT_OWNER", f"table {clip(table_id)} is served by the replica at "
                                f"{owner}: ask there", {"owner": owner})
        return RefereeError("UNAVAILABLE", "NOT_OWNER", f"table {clip(table_id)}'s shard is changing hands: ask "
                            "again shortly", {"owner": ""})

    def gone(self, t: Table) -> RefereeError:
        """What a stream holding a table that left memory ends with."""
        if not self.shards.owns(t.id):
            return self.not_owner(t.id)
        return RefereeError("UNAVAILABLE", "TABLE_RELOADED", "the table is being read back from the store: ask again")

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
                raise seats.KeyConflict() from None
            self.metrics.store_failures.labels("failed").inc()
            raise RefereeError("UNAVAILABLE", "STORE_FAILED", "the database did not take the change; try again") from None
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
            raise RefereeError("UNAVAILABLE", "STORE_FAILED", "the database did not take the change; try again") from None

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
        t.events += events
        if touched is not None:
            t.touched = touched
        if snap is not None:
            t.adopt(snap)
        t.signal_turns()
        if t.game.finished:
            self.open_ids.discard(t.id)
            self.keep_in_memory(t)  # counts it among the finished tables kept in memory

    async def outcome(self, table_id: str) -> tuple[bool, list[int], int | None]:
        """(finished, scores, winner) of a table, without reading it back into memory (DATA_LOSS if
        its stored outcome is not proven by its digest)."""
        t = self.tables.get(table_id)
        if t is not None:
            return t.game.finished, list(t.game.scores), t.game.winner
        if table_id in self.damaged:
            return False, [], None
        try:
            return await self.store.off_loop(self.store.outcome, table_id) or (False, [], None)
        except StoreDamaged as e:
            raise damaged(table_id, e.reason) from None

    # ---- seals (duplicate rounds)
    async def sealed(self, seal: str | None) -> bool:
        """Whether the tables of `seal` (a duplicate round's; a table's `seal`) are sealed, some of them still
        playing: then their seeds, full records and hidden cards (the same boards) stay withheld, and a club
        counts none of their games."""
        if seal is None or seal in self.opened:
            return False
        if seal not in self.seals:
            self.seals[seal] = await self.store.off_loop(self.store.seal_tables, seal)
        for tid in list(self.seals[seal]):
            if not (await self.outcome(tid))[0]:
                return True
        self.opened.add(seal)
        return False

    # ---- auth
    def remember_token(self, h: str, ident: Identity) -> None:
        """Know a token (by its SHA-256) as `ident` while its table is in memory (a tournament
        director's for good)."""
        self.tokens.setdefault(h[:16], []).append((h, ident))

    def forget_token(self, h: str) -> None:
        """No longer know a token (its table left memory, or a bot standing in left its seat)."""
        found = self.tokens.get(h[:16])
        if found:
            found[:] = [(stored, ident) for stored, ident in found if stored != h]
            if not found:
                del self.tokens[h[:16]]

    async def identify(self, token: str) -> Identity | None:
        h = token_hash(token)
        found = None
        for stored, ident in self.tokens.get(h[:16], ()):
            if hmac.compare_digest(stored, h):
                found = ident
        if found is None:  # a table not in memory: the store knows its tokens (one indexed read)
            row = await self.store.off_loop(self.store.find_token, h)
            if row is not None:  # a tournament's director too: on a replica, whichever holds its shard answers
                table_id, role, seat = row
                found = Identity(table_id, "seat" if role == "bot" else role, seat)
        return found

    async def table_for(self, table_id: str, who: Identity | None) -> Table:
        if not self.shards.owns(table_id):
            raise self.not_owner(table_id)
        t = self.tables.get(table_id)
        if t is None and table_id in self.damaged:
            e = self.damaged[table_id]
            raise damaged(table_id, f"could not be restored from the store at version {e.version}: {e.reason}")
        if t is None and len(table_id) <= 64:
            stored = await self.store.off_loop(self.store.load, [table_id])  # parked, or finished long ago
            t = self.tables.get(table_id)  # read back meanwhile by another call
            if t is None and stored:
                t = self.restore(stored[0])
                if t is None:
                    return await self.table_for(table_id, who)  # now known as damaged
        if t is None:
            raise RefereeError("NOT_FOUND", "NOT_FOUND", f"no table {clip(table_id)}")
        if who is not None and who.table_id != table_id:
            raise RefereeError("PERMISSION_DENIED", "WRONG_TABLE", "this token belongs to another table")
        if t.game.finished and t.id in self.finished:
            self.finished.move_to_end(t.id)
        return t

    # ---- creation and seats
    def check_quota(self, address: str | None, uploaded: bool) -> None:
        """Room for one more table on the server, and (unless `address` is None) in that address's budget."""
        lim = self.limits
        if len(self.open_ids) >= lim.max_tables:
            raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_TABLES",
                               f"this server holds {lim.max_tables} unfinished tables, as many as it may")
        if address is None:
            return
        mine = self.by_address[address]
        for tid in [tid for tid in mine if tid not in self.open_ids]:
            del mine[tid]  # finished (or gone): no longer counted
        if len(mine) >= lim.tables_per_address:
            raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_TABLES",
                               f"{lim.tables_per_address} unfinished tables were created from your address: "
                               "finish some first")
        if uploaded and sum(mine.values()) >= lim.upload_tables_per_address:
            raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_TABLES",
                               f"{lim.upload_tables_per_address} unfinished tables with uploaded rules were created "
                               "from your address: finish some first")

    async def create(self, rules_name: str | None, rules_text: str | None, options: dict[str, str], players: int,
                     seed: str | None, duplicate: bool = False, hand_limit: int = 0, seal: str | None = None,
                     address: str | None = "local", key: "idem.Keyed | None" = None,
                     turn_seconds: int = 0,
                     also: "Callable[[str], list[tuple[str, tuple]]] | None" = None) -> tuple[Table, str]:
        """A new table and its host token (seats.create). `address` is the creator's, whose budget it
        counts against; None for the tables a tournament opens (bounded by its entrants instead). A
        game has at most Limits.hands_per_game hands (fewer if `hand_limit` asks). With `key`, a
        retry gets the table the first call made, and the same host token. `turn_seconds`: its
        turn clock (0: none; else within the limits, BAD_CLOCK otherwise). `also`: the statements committed
        with it, made from its id (seats.create)."""
        return await seats.create(self, rules_name, rules_text, options, players, seed, duplicate, hand_limit, seal,
                                  address, key, turn_seconds, also)

    async def take_back(self, t: Table, who: Identity) -> None:
        """The seat's player takes it back from the bot standing in (seats.take_back)."""
        await seats.take_back(self, t, who)

    def hold_token(self, t: Table, h: str, ident: Identity) -> None:
        """Know a token of `t` (by its hash) while `t` is in memory."""
        self.remember_token(h, ident)
        t.token_hashes.append(h)

    async def join(self, table_id: str, seat: int | None, name: str = "", key: "idem.Keyed | None" = None,
                   also: list[tuple[str, tuple]] | None = None, own: bool = False) -> tuple[Table, str]:
        """A seat's token, or a spectator's (seats.join; `also`: statements committed with it; `own`: another
        token for a seat that is the caller's already)."""
        return await seats.join(self, table_id, seat, name, key, also, own)

    async def rematch(self, old: Table, who: Identity, address: str | None) -> tuple[Table, str]:
        """Play again: the table after `old` and the caller's seat there (seats.rematch)."""
        return await seats.rematch(self, old, who, address)

    async def next_table(self, t: Table) -> str | None:
        """The rematch of a finished table, if one was asked for (seats.next_table)."""
        return await seats.next_table(self, t)

    def check_bot(self, kind: str) -> None:
        seats.check_bot(self, kind)

    async def add_bots(self, t: Table, kind: str, seat: int | None = None, key: "idem.Keyed | None" = None,
                       by: Identity | None = None) -> list[int]:
        """Bots the server plays in the free seats, or in `seat` (seats.add_bots; `by` who asks)."""
        return await seats.add_bots(self, t, kind, seat, key, by)

    def lobby(self, include_finished: bool, limit: int) -> list[Table]:
        """The tables a lobby lists: unfinished first, each group newest first; never a duplicate
        round's (their seats belong to a tournament's entrants)."""
        live = [t for t in self.tables.values() if t.seal is None and not t.game.finished]
        live.sort(key=lambda t: t.created, reverse=True)
        if include_finished and len(live) < limit:
            done = [self.tables[tid] for tid in reversed(self.finished) if tid in self.tables]
            live += [t for t in done if t.seal is None][:limit - len(live)]
        return live[:limit]

    async def submit(self, t: Table, who: Identity, move: pb.Move, expected_version: int, key: str,
                     by_server: bool = False) -> tuple[bool, int]:
        """Apply, persist, publish (moves.py): (replayed, version)."""
        return await moves.submit(self, t, who, move, expected_version, key, by_server)

    # ---- what has left memory (history.py) and upkeep (upkeep.py)
    async def finished_record(self, table_id: str) -> dict[str, Any]:
        """A finished table's whole record, proven, whichever replica holds the table: one this server
        does not own is read back from the store for the answer only (a finished game no longer changes)."""
        if self.shards.owns(table_id):
            t = await self.table_for(table_id, None)
        else:
            stored = await self.store.off_loop(self.store.load, [table_id])
            if not stored:
                raise RefereeError("NOT_FOUND", "NOT_FOUND", f"no table {clip(table_id)}")
            try:
                t, _behind = restore.rebuild(stored[0])
            except Damaged as e:
                raise damaged(table_id, f"could not be restored from the store at version {e.version}: {e.reason}") \
                    from None
        return (await self.record(t, Identity(table_id, "host", None)))[0]

    async def record(self, t: Table, who: Identity) -> tuple[dict[str, Any], bool]:
        """The table's record as `who` may have it, built from the stored moves."""
        return await history.record(self, t, who)

    async def old_events(self, t: Table, after: int, upto: int) -> list[Event]:
        """Events numbered in (after, upto], remade from the store."""
        return await history.old_events(self, t, after, upto)

    async def sweep(self, now: float | None = None) -> None:
        """End abandoned tables, park idle ones."""
        await upkeep.sweep(self, now)


async def _notify(t: Table) -> None:
    async with t.changed:
        t.changed.notify_all()
