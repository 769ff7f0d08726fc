"""A move at a table: admitted, applied under the table's lock, made durable, published, counted.

Once applied, a move's write, its key, its events and the next seat's wake-up all happen even if the
caller is gone (a shielded task); `Tables.submitting` holds those tasks so a stopping server waits
for them before it closes the store.
"""
from __future__ import annotations

import asyncio
import time

from smear_dsl.errors import MoveError, Said
from smear_dsl.i18n import N_
from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.errors import RefereeError
from smear_referee.metrics import Metrics
from smear_referee.storage.store import Store
from smear_referee.tables.desk import Desk
from smear_referee.tables.ledger import KeyConflict
from smear_referee.tables.table import Identity, Table
from smear_referee.tables.tokens import move_digest

SERVER_KEYS = ("bot:", "clock:")  # the idempotency keys of the moves the server makes for a seat (record annotations)


async def submit(desk: Desk, t: Table, who: Identity, move: pb.Move, expected_version: int, key: str,
             by_server: bool = False) -> tuple[bool, int]:
    """Apply, persist, publish. Returns (replayed, version): replayed when `key` had already been
    used for this move (nothing applied), and the version the move made (then or now). Once a move is
    applied, its write, its key, its events and the next seat's wake-up all happen, even if the
    caller's call is dropped meanwhile (a shielded task)."""
    began = time.perf_counter()
    try:
        _admit_move(desk, t, who, key, by_server)
    except RefereeError as e:
        desk.metrics.refused(e.reason, time.perf_counter() - began)
        raise
    assert who.seat is not None  # _admit_move let only a seat through
    task = asyncio.ensure_future(_submit(desk, t, who.seat, move, expected_version, key))
    task.add_done_callback(lambda done: _count(desk.metrics, done, key, began))
    desk.ledger.submitting.add(task)
    task.add_done_callback(desk.ledger.submitting.discard)
    return await asyncio.shield(task)


async def _submit(desk: Desk, t: Table, seat: int, move: pb.Move, expected_version: int, key: str) -> tuple[bool, int]:
    digest = move_digest(move) if key else None
    async with t.lock:
        if t.moved:
            raise desk.ledger.gone(t)
        if key and (made := await _used(desk, t, seat, key, digest, expected_version)) is not None:
            return True, made
        if t.game.finished:
            raise RefereeError(codes.GAME_OVER, Said(N_("the game is over")))
        if expected_version != t.version:
            raise RefereeError(codes.STALE_VERSION,
                               Said(N_("the table is at version {version}, not {sent}: get the view again"),
                                    (("version", t.version), ("sent", expected_version))))
        if key.startswith("bot:") and seat not in t.bots or key.startswith("clock:") and seat in t.bots:
            # a house bot's move queued behind its player taking the seat back (or the clock's behind a bot
            # standing in): the seat is no longer the server's to play
            raise RefereeError(codes.STALE_VERSION, "the seat changed hands meanwhile")
        try:
            code, before = t.check_and_apply(seat, move)
        except MoveError as e:
            raise RefereeError(codes.of_move(e.code), e.said, spec=t.rules.spec) from None
        by = mover(key)
        events = t.news(before, seat, code, by)
        now = time.time()
        try:
            await desk.ledger.commit(t, Store.add_move(t.id, t.version, seat, code, key or None, digest, now, t.chain),
                                     events, t.reached(before, len(events)), t.undo_move, "a move",
                                     keyed=bool(key), touched=now)
        except KeyConflict:  # the key was used in an earlier hand (its move is stored)
            if (made := await _used(desk, t, seat, key, digest, -1)) is not None:
                return True, made
            raise RefereeError(codes.STORE_FAILED, "the database did not take the change; try again") \
                from None
        made = t.version
        t.moved_by(seat, by, key, digest)
    await t.notify_changed()
    return False, made


async def _used(desk: Desk, t: Table, seat: int, key: str, digest: str | None, expected_version: int) -> int | None:
    """The version of the move `key` was used for already, by this seat for the same move
    (IDEMPOTENCY_KEY_REUSED if for another); None if it is new. Keys of the last two hands are in memory; an older
    one is looked up in the store
    only when the move could not be new (the game is over or the version is not current): a new
    move's key is held unique by the store itself."""
    hit = t.idem.get(key)
    if hit is None and (t.game.finished or expected_version != t.version):
        row = await desk.store.off_loop(desk.store.find_key, t.id, key)
        hit = None if row is None else (row[1], row[2], row[0])
    if hit is None:
        return None
    owner, stored, version = hit
    if owner != seat:
        raise RefereeError(codes.IDEMPOTENCY_KEY_REUSED, "this idempotency key was used by another seat")
    if stored is not None and stored != digest:
        raise RefereeError(codes.IDEMPOTENCY_KEY_REUSED,
                           "this idempotency key was used for a different move")
    return version


def mover(key: str) -> str:
    """Who made a move, from its idempotency key: "bot" or "clock" for the server's own, "" for a seat's player."""
    return key.partition(":")[0] if key.startswith(SERVER_KEYS) else ""


def _admit_move(desk: Desk, t: Table, who: Identity, key: str, by_server: bool) -> None:
    """What a move is refused for before it is tried at the table: the caller, the key, the shard."""
    if who.role != "seat" or who.seat is None:
        raise RefereeError(codes.NOT_A_SEAT, "only a seat token can play moves")
    if len(key) > desk.limits.key_chars:
        raise RefereeError(codes.BAD_RECORD,
                           f"the idempotency key is longer than {desk.limits.key_chars} characters")
    if key.startswith(SERVER_KEYS) and not by_server:  # they mark the server's moves in the record
        raise RefereeError(codes.BAD_RECORD,
                           f"an idempotency key may not start with {' or '.join(SERVER_KEYS)}: the server's own moves do")
    if t.moved or not desk.shards.owns(t.id):
        raise desk.ledger.gone(t)


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
