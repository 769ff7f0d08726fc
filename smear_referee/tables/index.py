"""What this server holds in memory of its tables: the tables themselves, their tokens (by hash),
duplicate seals, and each address's table budget. Only memory: nothing here reads or writes the
store (ledger.py does), so every change to these containers is one of this class's methods."""
from __future__ import annotations

import hmac
from collections import OrderedDict, defaultdict
from collections.abc import Callable

from smear_referee import codes
from smear_referee.errors import RefereeError
from smear_referee.limits import Limits
from smear_referee.tables.table import Identity, Table


class Damaged(Exception):
    """A stored table that cannot be rebuilt: the move (version) where replay stopped, and why."""

    def __init__(self, version: int, reason: str):
        super().__init__(reason)
        self.version, self.reason = version, reason


class TableIndex:
    """The tables in memory and what finds them: the unfinished tables played lately and the last
    KEEP_FINISHED finished ones. Tokens are kept as SHA-256 hashes, found by a short prefix of the hash
    and then compared in full with hmac.compare_digest, so lookups take the same time whatever the token."""

    KEEP_FINISHED = 500

    def __init__(self, limits: Limits):
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, list[tuple[str, Identity]]] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()  # finished tables in memory, oldest first
        self.open_ids: set[str] = set()  # unfinished tables, in memory or parked
        self.damaged: dict[str, Damaged] = {}  # stored tables that could not be rebuilt
        self.seals: dict[str, list[str]] = defaultdict(list)  # seal -> its tables (a duplicate round)
        self.opened: set[str] = set()  # seals whose tables have all finished
        self.by_address: dict[str, dict[str, bool]] = defaultdict(dict)  # address -> {table id: uploaded rules}
        self.woken: list[Callable[[Table], None]] = []  # called with each table read back into memory
        self.parked: list[Callable[[Table], None]] = []  # called with each table let go from memory

    # ---- the tables
    def keep_in_memory(self, t: Table) -> None:
        """Hold `t` (a finished one among the last KEEP_FINISHED, the oldest let go)."""
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

    def opened_table(self, t: Table, address: str | None, uploaded: bool) -> None:
        """A new table: unfinished, counted in its seal and against its creator's address."""
        self.open_ids.add(t.id)
        if t.seal is not None:
            self.join_seal(t.seal, t.id)
        if address is not None:
            self.by_address[address][t.id] = uploaded
        self.keep_in_memory(t)

    def is_open(self, table_id: str, still: bool) -> None:
        """Count `table_id` among the unfinished tables (still) or no longer."""
        if still:
            self.open_ids.add(table_id)
        else:
            self.open_ids.discard(table_id)

    def mark_damaged(self, table_id: str, e: Damaged) -> None:
        self.damaged[table_id] = e
        self.open_ids.discard(table_id)

    def join_seal(self, seal: str, table_id: str) -> None:
        """`table_id` plays the duplicate round `seal`."""
        self.seals[seal].append(table_id)

    def seal_known(self, seal: str) -> bool:
        return seal in self.seals

    def learn_seal(self, seal: str, ids: list[str]) -> None:
        """The tables of `seal` as the store lists them (learned once)."""
        self.seals[seal] = ids

    def seal_tables(self, seal: str) -> list[str]:
        """The tables of `seal` as known here (a copy)."""
        return list(self.seals[seal])

    def seal_opened(self, seal: str) -> None:
        """Every table of `seal` has finished: it is sealed no more."""
        self.opened.add(seal)

    def touched(self, t: Table) -> None:
        """A finished table named by a call: the last to be let go."""
        if t.game.finished and t.id in self.finished:
            self.finished.move_to_end(t.id)

    # ---- tokens
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

    def hold_token(self, t: Table, h: str, ident: Identity) -> None:
        """Know a token of `t` (by its hash) while `t` is in memory."""
        self.remember_token(h, ident)
        t.holds_token(h)

    def known(self, h: str) -> Identity | None:
        """Who a token (by its hash) is, if its table is in memory; compared in constant time."""
        found = None
        for stored, ident in self.tokens.get(h[:16], ()):
            if hmac.compare_digest(stored, h):
                found = ident
        return found

    # ---- budgets and listing
    def check_quota(self, address: str | None, uploaded: bool) -> None:
        """Room for one more table on the server, and (unless `address` is None) in that address's budget."""
        lim = self.limits
        if len(self.open_ids) >= lim.max_tables:
            raise RefereeError(codes.TOO_MANY_TABLES,
                               f"this server holds {lim.max_tables} unfinished tables, as many as it may")
        if address is None:
            return
        mine = self.by_address[address]
        for tid in [tid for tid in mine if tid not in self.open_ids]:
            del mine[tid]  # finished (or gone): no longer counted
        if len(mine) >= lim.tables_per_address:
            raise RefereeError(codes.TOO_MANY_TABLES,
                               f"{lim.tables_per_address} unfinished tables were created from your address: "
                               "finish some first")
        if uploaded and sum(mine.values()) >= lim.upload_tables_per_address:
            raise RefereeError(codes.TOO_MANY_TABLES,
                               f"{lim.upload_tables_per_address} unfinished tables with uploaded rules were created "
                               "from your address: finish some first")

    def lobby(self, include_finished: bool, limit: int) -> list[Table]:
        """The tables a lobby lists: unfinished first, each group newest first; never a duplicate
        round's (their seats belong to a tournament's entrants)."""
        live = [t for t in self.tables.values() if t.seal is None and not t.game.finished]
        live.sort(key=lambda t: t.created, reverse=True)
        if include_finished and len(live) < limit:
            done = [self.tables[tid] for tid in reversed(self.finished) if tid in self.tables]
            live += [t for t in done if t.seal is None][:limit - len(live)]
        return live[:limit]
