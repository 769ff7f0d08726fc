"""Tables held by the referee: creation, seats, tokens, moves made durable, and what is in memory.

A move is applied under its table's lock (smear_referee/tables/table.py), written to the store, and
only then published and acknowledged. What has left memory (parked tables, old events, records)
is read back from the store when asked for.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from smear_dsl.errors import clip
from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.errors import RefereeError, damaged
from smear_referee.limits import Limits
from smear_referee.metrics import Metrics
from smear_referee.storage.cluster import Solo
from smear_referee.storage.store import Store, StoredTable
from smear_referee.tables import history, idem, moves, restore, seats, upkeep
from smear_referee.tables.desk import Desk
from smear_referee.tables.index import Damaged, TableIndex
from smear_referee.tables.ledger import Ledger
from smear_referee.tables.table import Event, Identity, Table
from smear_referee.tables.tokens import token_hash

__all__ = ["Identity", "Table", "Tables"]


class Tables:
    """Every table of this server: those in memory (index.py), the store behind them (ledger.py), and
    the calls the service makes of them, each handed to the helper that does it (restore, seats,
    moves, history, upkeep).

    In memory are the unfinished tables played lately and the last KEEP_FINISHED finished ones;
    an unfinished table idle for `Limits.idle_seconds` is parked (it stays in the store) and is
    woken by the next call that names it. Tokens of tables not in memory are looked up in the
    store, so what the server holds follows its live tables, not its history.
    """

    def __init__(self, store: Store, limits: Limits | None = None, shards=None):
        limits = limits or Limits()
        self.index = TableIndex(limits)
        # which tables this server may write (cluster.py: Solo or Leases); what an operator watches (metrics.py)
        self.ledger = Ledger(store, shards or Solo(), self.index, Metrics())
        self.desk = Desk(self.index, self.ledger, limits)
        self.metrics.watch_tables(self.index, self.ledger.shards)

    # ---- what the server's other parts read (each piece owned by the index or the ledger)
    @property
    def store(self) -> Store:
        return self.ledger.store

    @property
    def limits(self) -> Limits:
        return self.desk.limits

    @property
    def shards(self) -> Any:
        return self.ledger.shards

    @property
    def metrics(self) -> Metrics:
        return self.ledger.metrics

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id (read only: the index changes them)."""
        return self.index.tables

    @property
    def open_ids(self) -> set[str]:
        return self.index.open_ids

    @property
    def submitting(self) -> set[asyncio.Task]:
        return self.ledger.submitting

    def on_woken(self, hook: Callable[[Table], None]) -> None:
        """Call `hook` with each table read back into memory."""
        self.index.woken.append(hook)

    def on_parked(self, hook: Callable[[Table], None]) -> None:
        """Call `hook` with each table let go from memory."""
        self.index.parked.append(hook)

    # ---- start-up and reading back (restore.py)
    def load(self) -> int:
        """Read back the tables a lone server starts with (restore.load)."""
        return restore.load(self.desk)

    def restore(self, st: StoredTable) -> Table | None:
        """The stored table rebuilt and kept (None: it is damaged, which is reported and remembered)."""
        return restore.restore(self.desk, st)

    async def table_for(self, table_id: str, who: Identity | None) -> Table:
        """The table, read back if it left memory (restore.table_for)."""
        return await restore.table_for(self.desk, table_id, who)

    # ---- the store (ledger.py)
    def hand_over(self, t: Table) -> None:
        """`t` leaves memory: this server may no longer write it (Ledger.hand_over)."""
        self.ledger.hand_over(t)

    def not_owner(self, table_id: str) -> RefereeError:
        return self.ledger.not_owner(table_id)

    def gone(self, t: Table) -> RefereeError:
        return self.ledger.gone(t)

    async def write(self, t: Table | None, table_id: str, statements: list[tuple[str, tuple]],
                    keyed: bool = False, what: str = "a write") -> None:
        """Write statements of one table, fenced by its shard's lease (Ledger.write): a club's or a
        tournament's rows about a table go this way too."""
        await self.ledger.write(t, table_id, statements, keyed, what)

    async def outcome(self, table_id: str) -> tuple[bool, list[int], int | None]:
        """(finished, scores, winner) of a table, without reading it back into memory (Ledger.outcome)."""
        return await self.ledger.outcome(table_id)

    async def sealed(self, seal: str | None) -> bool:
        """Whether the tables of a duplicate round's `seal` are sealed, some still playing (Ledger.sealed)."""
        return await self.ledger.sealed(seal)

    # ---- auth
    def remember_token(self, h: str, ident: Identity) -> None:
        """Know a token (by its SHA-256) as `ident` (a tournament director's, for good)."""
        self.index.remember_token(h, ident)

    def forget_token(self, h: str) -> None:
        self.index.forget_token(h)

    def hold_token(self, t: Table, h: str, ident: Identity) -> None:
        """Know a token of `t` (by its hash) while `t` is in memory."""
        self.index.hold_token(t, h, ident)

    async def identify(self, token: str) -> Identity | None:
        """Who `token` is: found in memory, or for a table not in memory in the store (one indexed read)."""
        h = token_hash(token)
        found = self.index.known(h)
        if found is None:
            row = await self.store.off_loop(self.store.find_token, h)
            if row is not None:  # a tournament's director too: on a replica, whichever holds its shard answers
                table_id, role, seat = row
                found = Identity(table_id, "seat" if role == "bot" else role, seat)
        return found

    # ---- creation and seats (seats.py)
    def check_quota(self, address: str | None, uploaded: bool) -> None:
        """Room for one more table on the server, and (unless `address` is None) in that address's budget."""
        self.index.check_quota(address, uploaded)

    async def create(self, rules_name: str | None, rules_text: str | None, options: dict[str, str], players: int,
                     seed: str | None, duplicate: bool = False, hand_limit: int = 0, seal: str | None = None,
                     address: str | None = "local", key: idem.Keyed | None = None,
                     turn_seconds: int = 0,
                     also: Callable[[str], list[tuple[str, tuple]]] | None = None) -> tuple[Table, str]:
        """A new table and its host token (seats.create). `address` is the creator's, whose budget it
        counts against; None for the tables a tournament opens (bounded by its entrants instead). A
        game has at most Limits.hands_per_game hands (fewer if `hand_limit` asks). With `key`, a
        retry gets the table the first call made, and the same host token. `turn_seconds`: its
        turn clock (0: none; else within the limits, BAD_CLOCK otherwise). `also`: the statements committed
        with it, made from its id (seats.create)."""
        return await seats.create(self.desk, rules_name, rules_text, options, players, seed, duplicate, hand_limit,
                                  seal, address, key, turn_seconds, also)

    async def take_back(self, t: Table, who: Identity) -> None:
        """The seat's player takes it back from the bot standing in (seats.take_back)."""
        await seats.take_back(self.desk, t, who)

    async def join(self, table_id: str, seat: int | None, name: str = "", key: idem.Keyed | None = None,
                   also: list[tuple[str, tuple]] | None = None, own: bool = False) -> tuple[Table, str]:
        """A seat's token, or a spectator's (seats.join; `also`: statements committed with it; `own`: another
        token for a seat that is the caller's already)."""
        return await seats.join(self.desk, table_id, seat, name, key, also, own)

    async def renamed(self, table_id: str, seat: int, name: str) -> None:
        """A seat's name changed in the store: the table in memory shows it too (seats.renamed)."""
        await seats.renamed(self.desk, table_id, seat, name)

    async def rematch(self, old: Table, who: Identity, address: str | None) -> tuple[Table, str]:
        """Play again: the table after `old` and the caller's seat there (seats.rematch)."""
        return await seats.rematch(self.desk, old, who, address)

    async def next_table(self, t: Table) -> str | None:
        """The rematch of a finished table, if one was asked for (seats.next_table)."""
        return await seats.next_table(self.desk, t)

    def check_bot(self, kind: str) -> None:
        seats.check_bot(self.desk, kind)

    async def add_bots(self, t: Table, kind: str, seat: int | None = None, key: idem.Keyed | None = None,
                       by: Identity | None = None) -> list[int]:
        """Bots the server plays in the free seats, or in `seat` (seats.add_bots; `by` who asks)."""
        return await seats.add_bots(self.desk, t, kind, seat, key, by)

    def lobby(self, include_finished: bool, limit: int) -> list[Table]:
        """The tables a lobby lists (TableIndex.lobby)."""
        return self.index.lobby(include_finished, limit)

    async def submit(self, t: Table, who: Identity, move: pb.Move, expected_version: int, key: str,
                     by_server: bool = False) -> tuple[bool, int]:
        """Apply, persist, publish (moves.py): (replayed, version)."""
        return await moves.submit(self.desk, t, who, move, expected_version, key, by_server)

    # ---- what has left memory (history.py) and upkeep (upkeep.py)
    async def finished_record(self, table_id: str) -> dict[str, Any]:
        """A finished table's whole record, proven, whichever replica holds the table: one this server
        does not own is read back from the store for the answer only (a finished game no longer changes)."""
        if self.shards.owns(table_id):
            t = await self.table_for(table_id, None)
        else:
            stored = await self.store.off_loop(self.store.load, [table_id])
            if not stored:
                raise RefereeError(codes.NOT_FOUND, f"no table {clip(table_id)}")
            try:
                t, _behind = restore.rebuild(stored[0])
            except Damaged as e:
                raise damaged(table_id, f"could not be restored from the store at version {e.version}: {e.reason}") \
                    from None
        return (await self.record(t, Identity(table_id, "host", None)))[0]

    async def record(self, t: Table, who: Identity) -> tuple[dict[str, Any], bool]:
        """The table's record as `who` may have it, built from the stored moves."""
        return await history.record(self.desk, t, who)

    async def old_events(self, t: Table, after: int, upto: int) -> list[Event]:
        """Events numbered in (after, upto], remade from the store."""
        return await history.old_events(self.desk, t, after, upto)

    async def sweep(self, now: float | None = None) -> None:
        """End abandoned tables, park idle ones."""
        await upkeep.sweep(self.desk, now)
