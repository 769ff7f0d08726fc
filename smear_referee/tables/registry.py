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

from smear_dsl.errors import MoveError, Said, clip
from smear_dsl.i18n import N_

from smear_referee.tables import history, idem, restore, seats, upkeep
from smear_referee.api import referee_pb2 as pb
from smear_referee.storage.cluster import Fenced, Solo
from smear_referee.limits import Limits
from smear_referee.metrics import Metrics
from smear_referee.storage.store import Store, StoredTable, StoreDamaged
from smear_referee.tables.restore import Damaged
from smear_referee.tables.table import Event, Identity, Table
from smear_referee.errors import RefereeError, damaged
from smear_referee.tables.tokens import move_digest, token_hash

SERVER_KEYS = ("bot:", "clock:")  # the idempotency keys of the moves the server makes for a seat (record annotations)

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
                     turn_seconds: int = 0, also: list[tuple[str, tuple]] | None = None) -> tuple[Table, str]:
        """A new table and its host token (seats.create). `address` is the creator's, whose budget it
        counts against; None for the tables a tournament opens (bounded by its entrants instead). A
        game has at most Limits.hands_per_game hands (fewer if `hand_limit` asks). With `key`, a
        retry gets the table the first call made, and the same host token. `turn_seconds`: its
        turn clock (0: none; else within the limits, BAD_CLOCK otherwise). `also`: statements committed
        with it (seats.create)."""
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
        """Apply, persist, publish. Returns (replayed, version): replayed when `key` had already been
        used for this move (nothing applied), and the version the move made (then or now). Once a move is applied, its write, its key, its events and the next
        seat's wake-up all happen, even if the caller's call is dropped meanwhile (a shielded task)."""
        began = time.perf_counter()
        try:
            _admit_move(self, t, who, key, by_server)
        except RefereeError as e:
            self.metrics.refused(e.reason, time.perf_counter() - began)
            raise
        task = asyncio.ensure_future(self._submit(t, who.seat, move, expected_version, key))
        task.add_done_callback(lambda done: _count(self.metrics, done, key, began))
        return await asyncio.shield(task)

    async def _submit(self, t: Table, seat: int, move: pb.Move, expected_version: int, key: str) -> tuple[bool, int]:
        digest = move_digest(move) if key else None
        async with t.lock:
            if t.moved:
                raise self.gone(t)
            if key and (made := await self._used(t, seat, key, digest, expected_version)) is not None:
                return True, made
            if t.game.finished:
                raise RefereeError("FAILED_PRECONDITION", "GAME_OVER", Said(N_("the game is over")))
            if expected_version != t.version:
                raise RefereeError("ABORTED", "STALE_VERSION",
                                   Said(N_("the table is at version {version}, not {sent}: get the view again"),
                                        (("version", t.version), ("sent", expected_version))))
            if key.startswith("bot:") and seat not in t.bots or key.startswith("clock:") and seat in t.bots:
                # a house bot's move queued behind its player taking the seat back (or the clock's behind a bot
                # standing in): the seat is no longer the server's to play
                raise RefereeError("ABORTED", "STALE_VERSION", "the seat changed hands meanwhile")
            try:
                code, before = t.check_and_apply(seat, move)
            except MoveError as e:
                raise RefereeError("INVALID_ARGUMENT" if e.code in ("BAD_RECORD", "BAD_DEAL") else "FAILED_PRECONDITION",
                                   e.code, e.said, spec=t.rules.spec) from None
            by = mover(key)
            events = t.news(before, seat, code, by)
            now = time.time()
            try:
                await self.commit(t, Store.add_move(t.id, t.version, seat, code, key or None, digest, now, t.chain),
                                  events, t.reached(before, len(events)), t.log.pop, "a move", keyed=bool(key),
                                  touched=now)
            except seats.KeyConflict:  # the key was used in an earlier hand (its move is stored)
                if (made := await self._used(t, seat, key, digest, -1)) is not None:
                    return True, made
                raise RefereeError("UNAVAILABLE", "STORE_FAILED", "the database did not take the change; try again") \
                    from None
            made = t.version
            if by != "bot":  # turns in a row the seat's time ran out (a bot standing in counts none)
                t.misses[seat] = t.misses[seat] + 1 if by == "clock" else 0
            if key:
                t.idem[key] = (seat, digest, t.version)
        async with t.changed:
            t.changed.notify_all()
        return False, made

    async def _used(self, t: Table, seat: int, key: str, digest: str | None, expected_version: int) -> int | None:
        """The version of the move `key` was used for already, by this seat for the same move
        (IDEMPOTENCY_KEY_REUSED if for another); None if it is new. Keys of the last two hands are in memory; an older one is looked up in the store
        only when the move could not be new (the game is over or the version is not current): a new
        move's key is held unique by the store itself."""
        hit = t.idem.get(key)
        if hit is None and (t.game.finished or expected_version != t.version):
            row = await self.store.off_loop(self.store.find_key, t.id, key)
            hit = None if row is None else (row[1], row[2], row[0])
        if hit is None:
            return None
        owner, stored, version = hit
        if owner != seat:
            raise RefereeError("INVALID_ARGUMENT", "IDEMPOTENCY_KEY_REUSED", "this idempotency key was used by another seat")
        if stored is not None and stored != digest:
            raise RefereeError("INVALID_ARGUMENT", "IDEMPOTENCY_KEY_REUSED",
                               "this idempotency key was used for a different move")
        return version


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


def mover(key: str) -> str:
    """Who made a move, from its idempotency key: "bot" or "clock" for the server's own, "" for a seat's player."""
    return key.partition(":")[0] if key.startswith(SERVER_KEYS) else ""


def _admit_move(tables: "Tables", t: Table, who: Identity, key: str, by_server: bool) -> None:
    """What a move is refused for before it is tried at the table: the caller, the key, the shard."""
    if who.role != "seat" or who.seat is None:
        raise RefereeError("PERMISSION_DENIED", "NOT_A_SEAT", "only a seat token can play moves")
    if len(key) > tables.limits.key_chars:
        raise RefereeError("INVALID_ARGUMENT", "BAD_RECORD",
                           f"the idempotency key is longer than {tables.limits.key_chars} characters")
    if key.startswith(SERVER_KEYS) and not by_server:  # they mark the server's moves in the record
        raise RefereeError("INVALID_ARGUMENT", "BAD_RECORD",
                           f"an idempotency key may not start with {' or '.join(SERVER_KEYS)}: the server's own moves do")
    if t.moved or not tables.shards.owns(t.id):
        raise tables.gone(t)


def _count(metrics: Metrics, task: asyncio.Task, key: str, began: float) -> None:
    """A submitted move's outcome in the metrics: accepted (a replay is not a new move) or refused.
    Reading it also marks it read when the caller is gone (no 'exception never retrieved')."""
    if task.cancelled():
        return
    seconds = time.perf_counter() - began
    e = task.exception()
    if e is None:
        if not task.result()[0]:
            metrics.moved(mover(key) or "player", seconds)
    elif isinstance(e, RefereeError):
        metrics.refused(e.reason, seconds)
