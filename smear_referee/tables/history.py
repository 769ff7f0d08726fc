"""What has left a table's memory, remade from the store when asked for: its record, old events.

Both replay the table's stored moves (in a worker thread, two at a time at most), so their cost
follows the length of one game (bounded by Limits.hands_per_game), never the server's history.
"""
from __future__ import annotations

import asyncio
from typing import Any

from smear_referee.errors import damaged
from smear_referee.storage import integrity as I
from smear_referee.storage.store import Store, StoreDamaged
from smear_referee.tables import seen
from smear_referee.tables.desk import Desk
from smear_referee.tables.table import Event, Identity, Table


async def record(desk: Desk, t: Table, who: Identity) -> tuple[dict[str, Any], bool]:
    """The table's record as `who` may have it (Table.redact), built from the stored moves (a
    finished game's is built once and kept)."""
    try:
        rec = await desk.store.off_loop(desk.store.record_of, t.id, t.chain) if t.game.finished else None
    except StoreDamaged as e:
        raise damaged(t.id, e.reason) from None
    if rec is None:
        async with desk.ledger.history_slots:
            async with t.lock:  # the moves stored so far are the moves made (none is being written)
                moves = await _proven_moves(desk, t)
                head = t.chain
                made = await desk.store.off_loop(desk.store.server_moves_of, t.id)
            game = await asyncio.to_thread(t.full_game, moves)  # the replay holds up no move
            rec = annotated(game.to_record(), made, t.turn_seconds)
        if t.game.finished and desk.shards.owns(t.id):  # kept by the table's owner (others only read it)
            desk.store.write_soon(Store.keep_record(t.id, rec, head))
    return seen.redact(t, rec, who, await desk.ledger.sealed(t.seal))


def annotated(rec: dict[str, Any], made: dict[int, str], turn_seconds: int) -> dict[str, Any]:
    """The record with the moves the server made for a seat marked: `annotations` lists each as
    {"hand", "move" (indexes into `hands` and that hand's `moves`, from 0), "seat", "by"}, `by` being
    "clock" (the seat's time ran out: the house bot moved) or "bot" (the server's bot played the seat);
    `turn_seconds` is the table's turn clock. Both are informative: a verifier judges the moves alone."""
    if turn_seconds:
        rec["turn_seconds"] = turn_seconds
    notes, version = [], 0
    for h, hand in enumerate(rec["hands"]):
        for i, m in enumerate(hand["moves"]):
            version += 1
            if version in made:
                notes.append({"hand": h, "move": i, "seat": m["seat"], "by": made[version]})
    if notes:
        rec["annotations"] = notes
    return rec


async def _proven_moves(desk: Desk, t: Table) -> list[tuple[int, int, str, str | None]]:
    """Every stored move of `t`, each proven by the chain from its root to the head in memory
    (DATA_LOSS naming the table at the first that is not)."""
    moves = await desk.store.off_loop(desk.store.moves_of, t.id)
    try:
        head = I.walk(t.genesis, moves)
    except I.Broken as e:
        raise damaged(t.id, e.what) from None
    if head != t.chain:
        raise damaged(t.id, f"its stored moves end at another hash than the game in memory ({len(moves)} moves)")
    return moves


async def old_events(desk: Desk, t: Table, after: int, upto: int) -> list[Event]:
    """The events numbered after `after` up to `upto`, remade from the stored moves (they have
    left memory): what a stream resuming from far back is sent."""
    async with desk.ledger.history_slots:
        async with t.lock:
            moves = await _proven_moves(desk, t)
        return await asyncio.to_thread(_remade_events, t, moves, after, upto)


def _remade_events(t: Table, moves: list[tuple[Any, ...]], after: int, upto: int) -> list[Event]:
    """Replay `t`'s stored moves from the start and keep the events numbered in (after, upto]."""
    scratch = Table(t.id, t.rules_name, t.rules_text, t.spec, t.rules, t.options, t.seed, t.first_dealer, t.created,
                    t.duplicate, t.hand_limit, t.seal)
    out = [ev for ev in scratch.events if after < ev[0] <= upto]
    for _version, seat, code, *_chain in moves:
        if scratch.last_seq >= upto:
            break
        seen = scratch.last_seq
        scratch.replay_move(seat, int(code))  # as at start-up: memory stays at two hands
        out += [ev for ev in scratch.events_after(seen) if after < ev[0] <= upto]
    return out
