"""Tables read back from the store: at a lone server's start-up, when a call names a parked or
finished table, and when a replica takes a shard over. Each is rebuilt from its latest snapshot
and the moves after it; a table whose rows do not replay is reported and kept out (DATA_LOSS),
and every other table is served.
"""
from __future__ import annotations

import json
import logging
import time

from smear_dsl.errors import MoveError, OptionError, RuleError, clip
from smear_referee import codes
from smear_referee.errors import RefereeError, damaged
from smear_referee.storage import integrity as I
from smear_referee.storage.store import Store, StoredTable
from smear_referee.tables.desk import Desk
from smear_referee.tables.index import Damaged
from smear_referee.tables.rulesets import compiled, rules_spec
from smear_referee.tables.table import Identity, Table

log = logging.getLogger("smear_dsl.referee")


def load(desk: Desk) -> int:
    """Read back the unfinished tables played within idle_seconds, and those nobody has played
    yet (a lobby lists them); the others stay parked. A table that cannot be rebuilt is reported
    and kept out, every other table is served. A store written before snapshots is read whole
    once, and its tables marked. A replica reads back nothing here: it reads the tables of
    each shard it takes over (replica.py)."""
    if desk.shards.clustered:
        return 0
    since = time.time() - desk.limits.idle_seconds
    ids = []
    for tid, seal, updated in desk.store.open_tables():
        desk.index.is_open(tid, True)
        if seal:
            desk.index.join_seal(seal, tid)
        if desk.store.upgraded or updated is None or updated >= since:
            ids.append(tid)
    for st in desk.store.load(ids):
        restore(desk, st)
    return len(desk.index.open_ids)


def restore(desk: Desk, st: StoredTable) -> Table | None:
    """The stored table rebuilt and kept (None: it is damaged, which is reported and remembered)."""
    index = desk.index
    if st.id in index.tables:  # read back meanwhile by a call that named it
        return index.tables[st.id]
    try:
        t, behind = rebuild(st)
    except Damaged as e:
        _damage(desk, st.id, e)
        return None
    for h, role, seat, _name in st.tokens:
        index.hold_token(t, h, Identity(st.id, "seat" if role == "bot" else role, seat))
    if behind and t.snapshot is not None:  # it replayed past a hand its stored snapshot does not reach (an older
        statements = Store.save_snapshot(t.id, t.snapshot)  # store): save where it is
        if t.game.finished:
            statements += Store.finish(t.id, t.game.scores, t.game.winner, t.chain, t.ended)
        desk.store.write_soon(statements)
    index.is_open(t.id, not t.game.finished)
    index.keep_in_memory(t)
    for hook in index.woken:
        hook(t)
    return t


def _damage(desk: Desk, table_id: str, e: Damaged) -> None:
    desk.index.mark_damaged(table_id, e)
    log.error("%s: table %s cannot be restored at version %d: %s (the table answers DATA_LOSS; "
              "every other table is served)", desk.store.path, table_id, e.version, e.reason)


async def table_for(desk: Desk, table_id: str, who: Identity | None) -> Table:
    """The table `table_id` (read back from the store if it left memory), for `who` (None: anyone):
    NOT_OWNER on a replica that does not hold its shard, DATA_LOSS if it could not be rebuilt."""
    if not desk.shards.owns(table_id):
        raise desk.ledger.not_owner(table_id)
    index = desk.index
    t = index.tables.get(table_id)
    if t is None and table_id in index.damaged:
        e = index.damaged[table_id]
        raise damaged(table_id, f"could not be restored from the store at version {e.version}: {e.reason}")
    if t is None and len(table_id) <= 64:
        stored = await desk.store.off_loop(desk.store.load, [table_id])  # parked, or finished long ago
        t = index.tables.get(table_id)  # read back meanwhile by another call
        if t is None and stored:
            t = restore(desk, stored[0])
            if t is None:
                return await table_for(desk, table_id, who)  # now known as damaged
    if t is None:
        raise RefereeError(codes.NOT_FOUND, f"no table {clip(table_id)}")
    if who is not None and who.table_id != table_id:
        raise RefereeError(codes.WRONG_TABLE, "this token belongs to another table")
    index.touched(t)
    return t


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
            t.present(seat)  # read back: its player counts as present for a while, as on sitting down
    if st.snapshot is not None:
        try:
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
            t.remember_key(idem, seat, digest, version)
    if st.finished and st.end_digest != I.end_digest(t.chain, st.outcome_json or "", st.ended):
        raise Damaged(t.version, "its stored outcome was changed in the store (its digest does not hold)")
    if st.ended is not None:
        try:
            ended = json.loads(st.ended)
        except ValueError:
            raise Damaged(t.version, "its end (why the server ended it) does not read") from None
        t.ended_by_server(ended)
    return t, t.snapshot is not stored
