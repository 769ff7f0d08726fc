"""The turn clock: at a table that sets one (CreateTable's turn_seconds), a seat's time runs from
the moment it must act; when it runs out the house bot moves for it, through the same checks and
the same durable write as any move, under a `clock:` key that the record annotates. A seat whose
time runs out `Limits.clock_misses` turns in a row gets a bot standing in, until its token takes
the seat back. The clock runs only while every seat is taken and never for a bot's seat; a
restarted server gives the seat to act its full time again (the deadline is not stored).
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time

from smear_dsl.players.heuristic import HeuristicBot
from smear_referee.errors import RefereeError
from smear_referee.server.house_bots import HouseBots
from smear_referee.tables.convert import move_to_proto
from smear_referee.tables.registry import Identity, Table, Tables
from smear_referee.tables.seats import HOUSE_BOT

log = logging.getLogger("smear_dsl.referee")


class TurnClock:
    """Keeps the clock of every clocked table in this server's memory."""

    def __init__(self, tables: Tables, bots: HouseBots):
        self.tables, self.bots = tables, bots
        self.timers: dict[str, asyncio.TimerHandle] = {}
        tables.on_woken(self.arm)
        tables.on_parked(self.stop)

    def start_all(self) -> None:
        for t in list(self.tables.tables.values()):
            self.arm(t)

    def arm(self, t: Table) -> None:
        """(Re)start the clock of the seat to act at `t`, if it runs there now; its table hook is set
        so every accepted move restarts it."""
        if not t.turn_seconds:
            return
        self.stop(t)
        g = t.game
        if g.finished or g.turn < 0 or g.turn in t.bots or not all(t.seats_taken):
            t.clock_runs(0.0, lambda: self.arm(t))
            return
        t.clock_runs(time.time() + t.turn_seconds, lambda: self.arm(t))
        self.timers[t.id] = asyncio.get_running_loop().call_later(
            t.turn_seconds, self._expire, t, t.version, g.turn)

    def stop(self, t: Table) -> None:
        timer = self.timers.pop(t.id, None)
        if timer is not None:
            timer.cancel()
        t.clock_stops()

    def _expire(self, t: Table, version: int, seat: int) -> None:
        self.timers.pop(t.id, None)
        asyncio.get_running_loop().create_task(self._move(t, version, seat))

    async def _move(self, t: Table, version: int, seat: int) -> None:
        """The house bot's move for `seat`, unless the table moved on meanwhile."""
        g = t.game
        if g.finished or t.version != version or g.turn != seat or seat in t.bots:
            return
        rng = random.Random(hashlib.sha256(f"{t.seed}:clock:{version}".encode()).digest())
        move = move_to_proto(t.rules, HeuristicBot(rng).choose(g))
        try:
            await self.tables.submit(t, Identity(t.id, "seat", seat), move, version, f"clock:{version}",
                                     by_server=True)
        except RefereeError as e:  # the seat's own move landed first: its clock restarted with it
            log.debug("clock at %s seat %d: %s", t.id, seat, e.message)
            return
        if t.misses[seat] >= self.tables.limits.clock_misses and seat not in t.bots and not g.finished:
            try:
                await self.tables.add_bots(t, HOUSE_BOT, seat)  # its player is gone: a bot stands in
            except RefereeError as e:
                log.debug("clock at %s seat %d: no stand-in: %s", t.id, seat, e.message)
            else:
                self.bots.watch(t)
                self.arm(t)
