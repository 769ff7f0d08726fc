"""One table in memory: its game, its recent moves and events, its seats, and who may see what.

A move is applied under the table's lock, written to the store, and only then published and
acknowledged (smear_referee/tables/registry.py does that). Events are kept unfiltered; `render` cuts each
one down to what one caller may see (a seat sees its own cards and discards, a spectator only
public play).
"""
from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.duplicate import boards
from smear_dsl.engine import Game
from smear_dsl.engine.snapshot import between_hands, restore
from smear_dsl.language.spec import RuleSpec
from smear_referee.api import referee_pb2 as pb
from smear_referee.storage import integrity as I
from smear_referee.tables.chat import Chat
from smear_referee.tables.convert import move_from_proto, view_to_proto
from smear_referee.tables.events import Event, Marks, marks, news

_TELLING: set[asyncio.Task] = set()  # watchers being told a player arrived or left


@dataclass(frozen=True)
class Identity:
    """Who a token speaks for: a table's host, one of its seats, or a spectator."""

    table_id: str
    role: str  # host | seat | spectator (a bot the server plays speaks as a seat)
    seat: int | None


def place(role: str, seat: int | None, name: str, taken: list[bool], names: list[str], people: list[bool],
          bots: dict[int, str]) -> bool:
    """Seat one token (role seat or bot) in these lists, whatever order tokens come in: a person's
    name stays on the seat when a bot stands in for them; a bot's seat with nobody behind it is
    named `bot:KIND`. False for a token that holds no seat (a host's, a spectator's)."""
    if role not in ("seat", "bot") or seat is None or not 0 <= seat < len(taken):
        return False
    taken[seat] = True
    if role == "bot":
        bots[seat] = name.partition(":")[2] or "heuristic"
        if not people[seat]:
            names[seat] = name
    else:
        people[seat] = True
        names[seat] = name
    return True


@dataclass
class Table:
    """One table in memory: its game, the moves and events since its snapshot before last, and who sits.

    At each hand boundary the game's state is saved (a snapshot, written with the move that reached
    it), and the finished hand's moves, events and keys leave memory a hand later (streams a little
    behind still find them); older ones are read from the store when asked for.
    """

    id: str
    rules_name: str
    rules_text: str | None
    spec: RuleSpec
    rules: CompiledRules
    options: dict[str, Any]
    seed: str
    first_dealer: int
    created: float
    duplicate: bool = False
    hand_limit: int = 0
    seal: str | None = None  # its duplicate round: nothing of its deals is shown until the round has finished
    turn_seconds: int = 0  # its turn clock (0: none): when a seat's time runs out the house bot moves (clock.py)
    genesis: str = ""  # the root of its move chain (integrity.genesis); made from the fields above if not given
    game: Game = field(init=False)
    chain: str = ""  # the chain head: the hash of its last move (integrity.link), or the root
    log: list[tuple[int, int]] = field(default_factory=list)  # accepted (seat, code) since the snapshot
    base_version: int = 0  # moves before `log`: the snapshot's version
    base_seq: int = 0  # events before `events`
    snapshot: dict[str, Any] | None = None  # the latest: {"version", "seq", "state"} (engine/snapshot.py)
    ended: dict[str, Any] | None = None  # set when the server ended the game (an abandoned table)
    touched: float = 0.0  # wall time of the last move (or of the creation)
    watchers: int = 0  # streams holding this table (it is not parked while any does)
    moved: bool = False  # it left this server's memory while streams held it: they end, their clients ask again
    idem: dict[str, tuple[int, str | None, int]] = field(default_factory=dict)  # key -> (seat, digest, version)
    seats_taken: list[bool] = field(default_factory=list)
    seat_names: list[str] = field(default_factory=list)  # as each seat's player gave it ("bot" for the server's bots)
    bots: dict[int, str] = field(default_factory=dict)  # seat -> kind, for the seats the server plays
    bot_tokens: dict[int, str] = field(default_factory=dict)  # seat -> the hash of its bot's token
    people: list[bool] = field(default_factory=list)  # a person's token holds the seat (a bot may stand in)
    here: list[int] = field(default_factory=list)  # streams open per seat: its player is at the table
    deadline: float = 0.0  # wall time the seat to act runs out of time (0: no clock running)
    misses: list[int] = field(default_factory=list)  # turns in a row each seat's time ran out
    acted: list[float] = field(default_factory=list)  # monotonic time each seat's person last sat down or moved
    streamed: list[bool] = field(default_factory=list)  # whether each seat's player has watched by a stream here
    next_id: str | None = None  # the table a rematch opened after this one (seats.rematch)
    chat: Chat = field(default_factory=Chat)  # in memory only: not part of the game (chat.py)
    token_hashes: list[str] = field(default_factory=list)  # its tokens, forgotten with it when it leaves memory
    sheets: dict[tuple[str, str], str] = field(default_factory=dict)  # (format, language) -> rules sheet, once asked
    spectators: int = 0
    seating: int = 0  # changes of who sits where (seats taken, names, bots, spectators): watchers are told of each
    events: list[Event] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    # turn_waiters[seat]: a callback per WatchTurns or Play stream of that seat, called when the seat
    # must act (or the game ends), so a move wakes only the streams that have something to send.
    turn_waiters: list[set[Callable[[], None]]] = field(default_factory=list)
    on_turn: Callable[[], None] | None = None  # the turn clock's, called after every accepted move (clock.py)

    def __post_init__(self) -> None:
        self.seats_taken = [False] * self.rules.players
        self.seat_names = [""] * self.rules.players
        self.people = [False] * self.rules.players
        self.here = [0] * self.rules.players
        self.misses = [0] * self.rules.players
        self.acted = [0.0] * self.rules.players
        self.streamed = [False] * self.rules.players
        self.turn_waiters = [set() for _ in range(self.rules.players)]
        self.touched = self.touched or self.created
        if not self.genesis:
            self.genesis = I.genesis(self.id, self.rules_name, self.rules_text, self.rules.players,
                                     I.options_json(self.options), self.seed, self.first_dealer, self.duplicate,
                                     self.hand_limit, self.seal)
        self.chain = self.genesis
        self.game = self._new_game()
        self.publish(None)

    def _game_args(self) -> dict[str, Any]:
        source = boards(self.rules, self.seed) if self.duplicate else None
        return {"seed": self.seed, "first_dealer": self.first_dealer, "deal_source": source,
                "hand_limit": self.hand_limit or None}

    def _new_game(self) -> Game:
        return Game(self.rules, **self._game_args(), keep_boundary=True)

    def _restored_game(self, state: dict[str, Any]) -> Game:
        """The game as a snapshot's state left it, without its history (engine/snapshot.py)."""
        return restore(Game, self.rules, state, **self._game_args())

    def resume(self, snapshot: dict[str, Any]) -> None:
        """Stand at `snapshot` (read back from the store): the game rebuilt from its state, no history."""
        self.snapshot = snapshot
        self.base_version, self.base_seq = snapshot["version"], snapshot["seq"]
        self.chain = snapshot["chain"]
        self.log, self.events = [], []
        self.game = self._restored_game(snapshot["state"])

    def full_game(self, moves: list[tuple[Any, ...]]) -> Game:
        """The game replayed from every stored move (version, seat, code), history and all: for a record."""
        game = Game(self.rules, **self._game_args())
        for _version, seat, code, *_chain in moves:
            game.apply(seat, int(code))
        if self.ended is not None:
            game.abandon()
        return game

    @property
    def version(self) -> int:
        return self.base_version + len(self.log)

    @property
    def last_seq(self) -> int:
        return self.base_seq + len(self.events)

    def take_seat(self, role: str, seat: int | None, name: str, token_hash: str = "") -> None:
        """Count a token handed out (or read back from the store), as `place` seats it."""
        if place(role, seat, name, self.seats_taken, self.seat_names, self.people, self.bots):
            if role == "bot" and seat is not None:
                self.bot_tokens[seat] = token_hash
        elif role == "spectator":
            self.spectators += 1
        self.seating += 1

    def bot_leaves(self, seat: int) -> None:
        """The bot standing in for `seat` leaves it (its player took it back)."""
        self.bots.pop(seat, None)
        self.bot_tokens.pop(seat, None)
        self.misses[seat] = 0
        self.seating += 1

    def seat_bots(self) -> list[str]:
        return [self.bots.get(s, "") for s in range(self.rules.players)]

    # ---- moves
    def check_and_apply(self, seat: int, move: pb.Move) -> tuple[int, tuple]:
        """Apply the move to the live game (raises MoveError, state unchanged); returns its code and
        the marks taken before it, for `news`."""
        action, payload = move_from_proto(self.rules, seat, move)
        before = self.marks()
        moves = self.game.hand_moves  # the move lands in this hand's log, even if it ends the hand
        n = len(moves)
        self.game.apply_action(seat, action, payload)
        code = moves[n][1]
        self.log.append((seat, code))
        self.chain = I.link(self.chain, self.version, seat, code)
        return code, before

    def replay_move(self, seat: int, code: int) -> dict[str, Any] | None:
        """Re-apply a logged move (start-up and rollback); the snapshot it reached, if it ended a hand."""
        before = self.marks()
        self.game.apply(seat, code)
        self.log.append((seat, code))
        self.chain = I.link(self.chain, self.version, seat, code)
        events = self.news(before, seat, code)
        self.events += events
        snap = self.reached(before)
        if snap is not None:
            self.adopt(snap)
        return snap

    def reached(self, before, pending: int = 0) -> dict[str, Any] | None:
        """The snapshot the last move reached, if it ended a hand; `pending`: its events not yet
        appended (they count before the snapshot)."""
        g = self.game
        if len(g.results) == before[1]:
            return None
        state = between_hands(g) if g.finished else g.boundary
        assert state is not None  # a server's game notes its state at each hand's end (keep_boundary)
        return self.snapshot_here(state, pending)

    def snapshot_here(self, state: dict[str, Any], pending: int = 0) -> dict[str, Any]:
        """A snapshot of `state` at the table's current version, after its `pending` unappended events."""
        return {"version": self.version, "seq": self.last_seq + pending, "state": state, "chain": self.chain}

    def adopt(self, snap: dict[str, Any]) -> None:
        """`snap` is saved: the hand before the one just ended leaves memory (moves, events, keys)."""
        prev = self.snapshot
        self.snapshot = snap
        self.log = self.log[snap["version"] - self.base_version:]
        self.base_version = snap["version"]
        if prev is not None:
            self.events = self.events[prev["seq"] - self.base_seq:]
            self.base_seq = prev["seq"]
            self.idem = {k: v for k, v in self.idem.items() if v[2] > prev["version"]}
        self.game.forget_history()

    def rebuild(self) -> None:
        """Recompute the game and events from the snapshot and the log (after a failed write)."""
        log, snap = self.log, self.snapshot
        self.chain = snap["chain"] if snap is not None else self.genesis
        if snap is None:
            self.events, self.base_seq = [], 0
            self.game = self._new_game()
            self.publish(None)
        else:
            self.events = self.events[:snap["seq"] - self.base_seq]
            self.game = self._restored_game(snap["state"])
        self.log = []
        for seat, code in log:
            self.replay_move(seat, code)

    # ---- events
    def marks(self) -> Marks:
        return marks(self.game)

    def publish(self, before: Marks | None) -> None:
        """Append the events of what changed since `before` (None: from the start)."""
        self.events += self.news(before)

    def news(self, before: Marks | None, seat: int | None = None, code: int | None = None, by: str = "") -> list[Event]:
        """The events of what changed since `before` (events.news), numbered after the last one:
        appended once the move is saved."""
        return news(self.game, before, self.last_seq, self.version, seat, code, by)

    def events_after(self, seq: int) -> list[Event]:
        """The events in memory after `seq` (which is at least base_seq)."""
        return self.events[seq - self.base_seq:]

    @contextlib.contextmanager
    def held(self, seat: int | None = None, wake: Callable[[], None] | None = None,
             here: int | None = None) -> Iterator[None]:
        """A stream holds the table while inside (it is not parked meanwhile); with `seat`, `wake` is
        called whenever that seat must act, or the game ends; with `here`, that seat's player counts
        as at the table (the others may hand a seat whose player is away to a bot)."""
        self.watchers += 1
        if seat is not None and wake is not None:
            self.turn_waiters[seat].add(wake)
        if here is not None:
            self._presence(here, 1)
        try:
            yield
        finally:
            self.watchers -= 1
            if seat is not None and wake is not None:
                self.turn_waiters[seat].discard(wake)
            if here is not None:
                self._presence(here, -1)

    def _presence(self, seat: int, change: int) -> None:
        """A seat's stream opened or closed: watchers are told when its player arrives or leaves."""
        was = self.here[seat] > 0
        self.here[seat] += change
        self.streamed[seat] = True
        if (self.here[seat] > 0) != was:
            self.seating += 1
            task = asyncio.get_running_loop().create_task(self._tell())
            _TELLING.add(task)  # held until done: the loop keeps only weak references to its tasks
            task.add_done_callback(_TELLING.discard)

    async def _tell(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    def seat_played_by(self, seat: int, wake: Callable[[], None]) -> None:
        """The server plays `seat`: `wake` is called whenever it must act."""
        self.turn_waiters[seat].add(wake)

    async def view_and_seq(self, who: Identity) -> tuple[pb.View, int]:
        """What `who` sees now and the number of the last event, read together (no move between)."""
        async with self.lock:
            return self.view(who), self.last_seq

    async def wait_for_events(self, after: int, seconds: float, seating: int | None = None,
                              chat: int | None = None) -> bool:
        """Wait until there is an event after `after`, the seats have changed since `seating`, a line
        of chat was said after `chat`, or the table has left this server; False if `seconds` pass first."""
        # asyncio.timeout, not wait_for: wait_for wraps the wait in a task of its own, and every open
        # stream waits here (a task, its context and frames per stream, and so more memory per stream).
        try:
            async with asyncio.timeout(seconds), self.changed:
                await self.changed.wait_for(
                    lambda: self.last_seq > after or self.moved or (seating is not None and self.seating != seating)
                    or (chat is not None and self.chat.said != chat))
                return True
        except TimeoutError:
            return False

    def turn_due(self, seat: int, sent: int) -> bool:
        """Whether `seat` is owed a view newer than version `sent`: it must act now, or the game is over."""
        g = self.game
        return (g.finished or g.turn == seat) and self.version > sent

    def hand_away(self) -> bool:
        """Mark the table as gone from this server's memory while streams may hold it (they end and
        their clients ask again); False if it was already."""
        if self.moved:
            return False
        self.moved = True
        return True

    def abandon(self, now: float) -> None:
        """End the game where it stands, recorded as abandoned by the server (upkeep.abandon)."""
        self.ended_by_server({"reason": "abandoned", "at": round(now, 3), "idle_seconds": round(now - self.touched)})

    def ended_by_server(self, ended: dict[str, Any]) -> None:
        """The server ended the game where it stands (`ended` says why; read back from the store too)."""
        self.ended = ended
        self.game.abandon()

    def present(self, seat: int) -> None:
        """`seat`'s person sat down or moved just now: present for a while (seats._may_hand_over)."""
        self.acted[seat] = time.monotonic()

    def holds_token(self, h: str) -> None:
        """A token of this table (by its hash): forgotten with it when it leaves memory (TableIndex.hold_token)."""
        self.token_hashes.append(h)

    def clock_runs(self, deadline: float, on_turn: Callable[[], None]) -> None:
        """The seat to act must move by `deadline` (wall time; 0: no clock running); `on_turn` is called
        after every accepted move (the turn clock's, clock.py)."""
        self.deadline = deadline
        self.on_turn = on_turn

    def clock_stops(self) -> None:
        self.deadline = 0.0

    def keep_sheet(self, fmt: str, lang: str, text: str) -> str:
        """The rules sheet in `fmt` and `lang`, made once per table (ExplainRules): kept and returned."""
        self.sheets[fmt, lang] = text
        return text

    def unwait(self, seat: int, wake: Callable[[], None]) -> None:
        """`wake` no longer waits for `seat`'s turn (a bot leaves the seat)."""
        self.turn_waiters[seat].discard(wake)

    def rename_seat(self, seat: int, name: str) -> None:
        """`seat` is shown under another name (a club member who left, by their member id)."""
        self.seat_names[seat] = name
        self.seating += 1

    def rematched(self, next_id: str) -> None:
        """The table a rematch of this one opened (seats.rematch)."""
        self.next_id = next_id

    def moved_by(self, seat: int, by: str, key: str, digest: str | None) -> None:
        """`seat`'s move (the latest) was written, made by its player ("") or the server ("bot", "clock"):
        its turns in a row out of time counted (a bot standing in counts none), its player present, its key kept."""
        if by != "bot":
            self.misses[seat] = self.misses[seat] + 1 if by == "clock" else 0
        if not by:
            self.present(seat)
        if key:
            self.remember_key(key, seat, digest, self.version)

    def undo_move(self) -> None:
        """The latest move was not written: it leaves the log (the ledger rebuilds the game)."""
        self.log.pop()

    def remember_key(self, key: str, seat: int, digest: str | None, version: int) -> None:
        """A move's idempotency key, so a retry of it gets the same answer (moves._used)."""
        self.idem[key] = (seat, digest, version)

    def undo_abandon(self) -> None:
        """The end as abandoned was not written: the table is not ended (its game is rebuilt by the ledger)."""
        self.ended = None

    async def notify_changed(self) -> None:
        """Wake every stream waiting on this table's events (wait_for_events)."""
        async with self.changed:
            self.changed.notify_all()

    def committed(self, events: list[Event], snap: dict[str, Any] | None, touched: float | None) -> None:
        """A change is written for good (ledger.commit): its events published, a hand's snapshot adopted,
        the seat to act woken."""
        self.events += events
        if touched is not None:
            self.touched = touched
        if snap is not None:
            self.adopt(snap)
        self.signal_turns()

    def wake_all(self) -> None:
        """Wake every stream and bot waiting on any seat (the table is leaving this server)."""
        for waiters in self.turn_waiters:
            for wake in list(waiters):
                wake()

    def signal_turns(self) -> None:
        """Wake the WatchTurns and Play streams of the seat that must act now (of every seat once the game is over)."""
        g = self.game
        seats = range(len(self.turn_waiters)) if g.finished else (g.turn,) if g.turn >= 0 else ()
        for seat in seats:
            for wake in list(self.turn_waiters[seat]):
                wake()
        if self.on_turn is not None:
            self.on_turn()

    def view(self, who: Identity) -> pb.View:
        v = view_to_proto(self.id, self.game, who.seat if who.role == "seat" else None, self.version)
        v.turn_seconds = self.turn_seconds
        if self.deadline:
            v.turn_left = max(0.0, self.deadline - time.time())
        return v


def option_text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)
