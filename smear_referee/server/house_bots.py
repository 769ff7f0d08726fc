"""Bots the server plays in the seats a host filled with `AddBots`.

A bot is woken like any other seat (Table.seat_played_by: a callback when it must act), waits
`Limits.bot_seconds` so people at the table can follow, then submits its move through
`Tables.submit`: the same checks, the same durable write, the same events as a person's move.
A search bot thinks in a worker process (jobs.search_move), `Limits.bot_searches` processes at
most, each capped at `Limits.bot_search_memory_bytes`: the serving process sends the table's
rules, its last snapshot and the moves since, and gets a move back, so serving latency does not
depend on how many tables seat search bots. A search that fails or overruns is replaced by the
heuristic bot's move.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from typing import Any

from smear_dsl.players.botspec import SIMPLE, parse_budget
from smear_dsl.players.heuristic import HeuristicBot
from smear_dsl.players.make import make_bot
from smear_referee.errors import RefereeError
from smear_referee.server.sandbox import Sandbox, SandboxBusy, SandboxFailed, SandboxTimeout
from smear_referee.tables.convert import move_to_proto
from smear_referee.tables.registry import Identity, Table, Tables

log = logging.getLogger("smear_dsl.referee")


class HouseBots:
    """Drives every bot seat of every table of `tables`."""

    def __init__(self, tables: Tables):
        self.tables = tables
        self.delay = tables.limits.bot_seconds
        self.pending: dict[tuple[str, int], asyncio.Task] = {}
        self.players: dict[tuple[str, int], Any] = {}
        self.wakers: dict[tuple[str, int], Any] = {}  # the callback each bot's seat calls when it must act
        lim = tables.limits
        self.searching = asyncio.Semaphore(max(1, lim.bot_searches))
        # Worker processes started at the first search (most servers seat none); one search each at a time.
        self.thinkers = Sandbox(max(1, lim.bot_searches), max(1, lim.bot_searches), lim.bot_search_memory_bytes)
        self.fallbacks = 0  # searches that failed or overran, replaced by the heuristic bot's move
        self.waiting = 0  # search bots whose turn it is, waiting for a worker (the metrics' queue)
        self.closed = False  # the server is stopping: no bot starts a move
        tables.on_woken(self.watch)  # a parked table read back: its bots play on
        tables.on_parked(self.let_go)

    def start_all(self) -> None:
        """After start-up: the bots of every unfinished table play on."""
        for t in list(self.tables.tables.values()):
            if t.bots and not t.game.finished:
                self.watch(t)

    def watch(self, t: Table) -> None:
        """Wake this table's bots when their turn comes (and now, if it is one's turn already)."""
        if t.game.finished:
            return
        for seat, kind in t.bots.items():
            key = (t.id, seat)
            if key in self.players:
                continue
            # A search bot's generator also reads the table's id: duplicate tables share a seed, and
            # their bots should not all play alike.
            salt = f"{t.seed}:{seat}" if kind in SIMPLE else f"{t.seed}:{t.id}:{seat}:{kind}"
            rng = random.Random(hashlib.sha256(salt.encode()).digest())
            try:
                self.players[key] = make_bot(kind, rng)
            except ValueError:  # a kind stored by a server whose limits or bots differed
                self.players[key] = make_bot("heuristic", rng)
            self.wakers[key] = lambda t=t, seat=seat: self._wake(t, seat)
            t.seat_played_by(seat, self.wakers[key])
            self._wake(t, seat)

    def _wake(self, t: Table, seat: int) -> None:
        key = (t.id, seat)
        if t.game.finished:
            self._forget(t, seat)
            return
        if t.game.turn == seat and key not in self.pending and not self.closed:
            self.pending[key] = asyncio.get_running_loop().create_task(self._move(t, seat))

    async def _move(self, t: Table, seat: int) -> None:
        key = (t.id, seat)
        try:
            await asyncio.sleep(self.delay)
            g = t.game
            if g.finished or g.turn != seat:
                return
            version = t.version
            bot = self.players[key]
            if bot.name == "search":
                self.waiting += 1
                try:
                    await self.searching.acquire()
                finally:
                    self.waiting -= 1
                try:
                    if t.game is not g or t.version != version:
                        return  # it moved on (or left memory) while this bot waited to think
                    code = await self._think(t, seat, t.bots.get(seat, "search"), bot)
                finally:
                    self.searching.release()
                if t.game is not g or t.version != version:
                    return
            else:
                code = bot.choose(g)
            move = move_to_proto(t.rules, code)
            await self.tables.submit(t, Identity(t.id, "seat", seat), move, version, f"bot:{version}", by_server=True)
        except RefereeError as e:  # another move landed first: the next wake-up tries again
            log.debug("bot at %s seat %d: %s", t.id, seat, e.message)
        finally:
            self.pending.pop(key, None)
        if not t.game.finished and t.game.turn == seat:
            self._wake(t, seat)  # its turn again (it won the trick, or the next hand is its lead)

    async def _think(self, t: Table, seat: int, kind: str, bot) -> int:
        """A search bot's move, thought in a worker process; the heuristic bot's if that fails."""
        table = {"rules_name": t.rules_name, "rules_text": t.rules_text,
                 "players": t.rules.players, "options": dict(t.options), "seed": t.seed,
                 "first_dealer": t.first_dealer, "duplicate": t.duplicate, "hand_limit": t.hand_limit}
        state = t.snapshot["state"] if t.snapshot is not None else None
        budget = parse_budget(kind)
        seconds = (budget.ms / 1000 if budget is not None and budget.ms else 2.0) + 10.0  # thinking, plus start-up
        try:
            done = await self.thinkers.run("search_move", table, state, list(t.log), seat, kind,
                                           bot.rng.getrandbits(64), seconds=seconds)
            if "code" in done:
                return done["code"]
            log.warning("search bot at %s seat %d: %s; the heuristic bot moves instead", t.id, seat, done["error"])
        except (SandboxBusy, SandboxTimeout, SandboxFailed) as e:
            log.warning("search bot at %s seat %d: %s; the heuristic bot moves instead", t.id, seat, type(e).__name__)
        self.fallbacks += 1
        return HeuristicBot(bot.rng).choose(t.game)

    async def aclose(self) -> None:
        """Stop: no bot starts a move now (one already submitted is made durable all the same: the
        server waits for Tables.submitting), and the search workers end."""
        self.closed = True
        pending = list(self.pending.values())
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await self.thinkers.aclose()

    def let_go(self, t: Table) -> None:
        """The table left memory: its bots stop (a pending move is cancelled before it is made)."""
        for seat in list(t.bots):
            self.release(t, seat)

    def release(self, t: Table, seat: int) -> None:
        """The bot of `seat` stops (its player took the seat back, or the table left memory)."""
        task = self.pending.pop((t.id, seat), None)
        if task is not None:
            task.cancel()
        self._forget(t, seat)

    def _forget(self, t: Table, seat: int) -> None:
        self.players.pop((t.id, seat), None)
        wake = self.wakers.pop((t.id, seat), None)
        if wake is not None:
            t.unwait(seat, wake)
