"""Tables read back from the store: at a lone server's start-up, when a call names a parked or
finished table, and when a replica takes a shard over. Each is rebuilt from its latest snapshot
and the moves after it; a table whose rows do not replay is reported and kept out (DATA_LOSS),
and every other table is served.
"""
from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING

from smear_dsl.errors import MoveError, OptionError, RuleError, clip

from smear_referee.storage import integrity as I
from smear_referee.tables.rulesets import compiled, rules_spec
from smear_referee.storage.store import Store, StoredTable
from smear_referee.tables.table import Identity, Table, end_game

if TYPE_CHECKING:
    from smear_referee.tables.registry import Tables

log = logging.getLogger("smear_dsl.referee")


class Damaged(Exception):
    """A stored table that cannot be rebuilt: the move (version) where replay stopped, and why."""

    def __init__(self, version: int, reason: str):
        super().__init__(reason)
        self.version, self.reason = version, reason


def load(tables: "Tables") -> int:
    """Read back the unfinished tables played within idle_seconds, and those nobody has played
    yet (a lobby lists them); the others stay parked. A table that cannot be rebuilt is reported
    and kept out, every other table is served. A store written before snapshots is read whole
    once, and its tables marked. A replica reads back nothing here: it reads the tables of
    each shard it takes over (replica.py)."""
    if tables.shards.clustered:
        return 0
    since = time.time() - tables.limits.idle_seconds
    ids = []
    for tid, seal, updated in tables.store.open_tables():
        tables.open_ids.add(tid)
        if seal:
            tables.seals[seal].append(tid)
        if tables.store.upgraded or updated is None or updated >= since:
            ids.append(tid)
    for st in tables.store.load(ids):
        restore(tables, st)
    return len(tables.open_ids)

def restore(tables: "Tables", st: StoredTable) -> Table | None:
    """The stored table rebuilt and kept (None: it is damaged, which is reported and remembered)."""
    if st.id in tables.tables:  # read back meanwhile by a call that named it
        return tables.tables[st.id]
    try:
        t, behind = rebuild(st)
    except Damaged as e:
        _damage(tables, st.id, e)
        return None
    for h, role, seat, _name in st.tokens:
        tables.remember_token(h, Identity(st.id, "seat" if role == "bot" else role, seat))
        t.token_hashes.append(h)
    if behind:  # it replayed past a hand its stored snapshot does not reach (an older store): save where it is
        statements = Store.save_snapshot(t.id, t.snapshot)
        if t.game.finished:
            statements += Store.finish(t.id, t.game.scores, t.game.winner, t.chain, t.ended)
        tables.store.write_soon(statements)
    if t.game.finished:
        tables.open_ids.discard(t.id)
    else:
        tables.open_ids.add(t.id)
    tables.keep_in_memory(t)
    for hook in tables.woken:
        hook(t)
    return t

def _damage(tables: "Tables", table_id: str, e: Damaged) -> None:
    tables.damaged[table_id] = e
    tables.open_ids.discard(table_id)
    log.error("%s: table %s cannot be restored at version %d: %s (the table answers DATA_LOSS; "
              "every other table is served)", tables.store.path, table_id, e.version, e.reason)

def rebuild(st: StoredTable) -> tuple[Table, bool]:
    """The table as its snapshot and the moves after it make it, and whether it reached a newer
    snapshot than the stored one; Damaged if a row does not read, its hashes do not prove it
    (integrity.py), or a move does not replay."""
    if st.broken is not None:
        raise Damaged(st.broken.version, st.broken.what)
    root = I.genesis(st.id, st.rules_name, st.rules_text, st.players, st.options_json, st.seed, st.first_dealer,
                     st.duplicate, st.hand_limit, st.seal)
    if st.chain0 != root:
        raise Damaged(0, "its settings (rules, seats, options or seed) were changed in the store (its root hash "
                      "does not hold)")
    try:
        spec = rules_spec(st.rules_name, st.rules_text)
        rules = compiled(spec, st.players, st.options)
    except (RuleError, OptionError, ValueError) as e:
        raise Damaged(0, f"its rules no longer compile: {str(e).splitlines()[0][:200]}") from None
    t = Table(st.id, st.rules_name, st.rules_text, spec, rules, st.options, st.seed, st.first_dealer, st.created,
              st.duplicate, st.hand_limit, st.seal, turn_seconds=st.turn_seconds, genesis=root,
              touched=st.updated or st.created)
    for h, role, seat, name in st.tokens:
        t.take_seat(role, seat, name, h)
        if role == "seat" and seat is not None:
            t.acted[seat] = time.monotonic()  # read back: its player counts as present for a while, as on sitting down
    try:
        if st.snapshot is not None:
            t.resume(st.snapshot)
    except (KeyError, ValueError, TypeError, MoveError) as e:
        raise Damaged(st.snapshot["version"], f"its snapshot does not read back: {clip(str(e))}") from None
    stored = t.snapshot
    for version, seat, code, idem, digest, chain in st.moves:
        if version != t.version + 1:
            raise Damaged(version, f"the log jumps from version {t.version} to {version}")
        if chain != I.link(t.chain, version, seat, code):
            raise Damaged(version, f"move {version} was changed in the store (its hash does not follow from the "
                          "moves before it)")
        try:
            t.replay_move(seat, int(code))
        except (MoveError, ValueError, TypeError, IndexError) as e:
            reason = f"{e.code}: {e.message}" if isinstance(e, MoveError) else f"unreadable move {clip(code)}"
            raise Damaged(version, f"seat {seat}'s move does not replay: {reason}") from None
        if idem:
            t.idem[idem] = (seat, digest, version)
    if st.finished and st.end_digest != I.end_digest(t.chain, st.outcome_json or "", st.ended):
        raise Damaged(t.version, "its stored outcome was changed in the store (its digest does not hold)")
    if st.ended is not None:
        try:
            t.ended = json.loads(st.ended)
        except ValueError:
            raise Damaged(t.version, "its end (why the server ended it) does not read") from None
        end_game(t.game)
    return t, t.snapshot is not stored

