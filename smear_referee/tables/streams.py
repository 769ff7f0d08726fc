"""The streams that follow a table: a watcher's events, and a seat's turns."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from smear_referee.api import referee_pb2 as pb
from smear_referee.tables import seen
from smear_referee.tables.table import Identity, Table

if TYPE_CHECKING:
    from smear_referee.tables.registry import Tables


async def watch(tables: Tables, t: Table, who: Identity, after: int, heartbeat: float) -> AsyncIterator[pb.TableEvent]:
    """A watcher's stream: what `who` sees now, then every event after `after` as it may see it
    (those that left memory remade from the store), a heartbeat after `heartbeat` seconds of
    quiet; it ends with the table's `gone` error if the table leaves this server."""
    sent = max(0, after)
    view, last = await t.view_and_seq(who)
    with t.held(here=who.seat if who.role == "seat" else None):
        yield pb.TableEvent(seq=last, snapshot=view)
        seating = t.seating
        yield pb.TableEvent(seq=0, seats=seen.seats(t))  # not a game event: no number
        heard = max(0, t.chat.said - len(t.chat.lines))  # the chat's last lines, then each as it is said
        while True:
            if t.moved:  # it left this server (another replica took its shard): the client asks again
                raise tables.gone(t)
            if t.seating != seating:  # someone sat down, named a seat or a bot took one
                seating = t.seating
                yield pb.TableEvent(seq=0, seats=seen.seats(t))
            if t.chat.said != heard:
                for line in t.chat.since(heard):
                    yield pb.TableEvent(seq=0, chat=line)
                heard = t.chat.said
            if sent < t.base_seq:  # resuming from before what memory holds: remade from the store
                upto = t.base_seq
                for ev in await tables.old_events(t, sent, upto):
                    yield seen.render(t, ev, who, await tables.sealed(t.seal))
                sent = upto
            for ev in t.events_after(sent):
                sent = ev[0]
                yield seen.render(t, ev, who, await tables.sealed(t.seal))
                if sent < t.base_seq:
                    break  # the table moved on a hand while this stream was sending
            if sent < t.base_seq:
                continue
            if not await t.wait_for_events(sent, heartbeat, seating, heard):
                yield pb.TableEvent(seq=sent, heartbeat=pb.Heartbeat())


async def turns(tables: Tables, t: Table, who: Identity, after: int) -> AsyncIterator[pb.View]:
    """A seat's view each time it must act at a version after `after`, and once more when the game
    ends; ends with the table's `gone` error if the table leaves this server."""
    seat, sent = who.seat, after
    assert seat is not None  # the service lets only a seat's token watch its turns
    wake = asyncio.Event()
    with t.held(seat, wake.set, here=seat):
        while True:
            if t.moved:
                raise tables.gone(t)
            if t.turn_due(seat, sent):
                sent = t.version
                yield t.view(who)
                if t.game.finished:
                    return
                continue
            # No await between the test above and this clear, so a move cannot slip in unseen.
            wake.clear()
            await wake.wait()
