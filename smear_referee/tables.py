"""Tables held by the referee: the game, its move log, numbered events, tokens and idempotency.

A move is applied under the table's lock, written to the store, and only then published and
acknowledged. Events are kept unfiltered; `render` cuts each one down to what one caller may
see (a seat sees its own cards and discards, a spectator only public play).
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from smear_dsl.compiler import CompiledRules, compile_rules
from smear_dsl.duplicate import boards, first_dealer
from smear_dsl.engine import Game
from smear_dsl.errors import MoveError, OptionError, RuleError, clip
from smear_dsl.language import load_spec, spec_from_text
from smear_dsl.record import apply_parsed, rules_fields
from smear_dsl.spec import RuleSpec

from .api import referee_pb2 as pb
from .convert import move_from_proto, move_to_proto, view_to_proto
from .limits import Limits
from .store import Store, StoredTable

log = logging.getLogger("smear_dsl.referee")
BOT_KINDS = ("heuristic", "random")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def move_digest(move: pb.Move) -> str:
    """What an idempotency key is stored with: the same key must come back with the same move."""
    return hashlib.sha256(move.SerializeToString(deterministic=True)).hexdigest()[:32]


@dataclass(frozen=True)
class Identity:
    """Who a token speaks for: a table's host, one of its seats, or a spectator."""

    table_id: str
    role: str  # host | seat | spectator (a bot the server plays speaks as a seat)
    seat: int | None


# An event is a plain tuple of ints, strings and tuples: (seq, kind, *fields), the fields in the
# order `_event` is given them. The garbage collector stops tracking such tuples once it has seen
# them, so a server holding long games does not keep growing the heap every full collection walks
# (that showed as 100-200 ms pauses in bench_referee's latency).
Event = tuple


class RefereeError(Exception):
    """An error with a gRPC status name and a reason (the RECORD_FORMAT.md code or our own)."""

    def __init__(self, status: str, reason: str, message: str):
        super().__init__(message)
        self.status, self.reason, self.message = status, reason, message


@dataclass
class Table:
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
    game: Game = field(init=False)
    log: list[tuple[int, int]] = field(default_factory=list)  # accepted (seat, code)
    idem: dict[str, tuple[int, str | None]] = field(default_factory=dict)  # key -> (seat, move digest)
    seats_taken: list[bool] = field(default_factory=list)
    seat_names: list[str] = field(default_factory=list)  # as each seat's player gave it ("bot" for the server's bots)
    bots: dict[int, str] = field(default_factory=dict)  # seat -> kind, for the seats the server plays
    sheets: dict[str, str] = field(default_factory=dict)  # format -> this table's rules sheet, once asked for
    spectators: int = 0
    events: list[Event] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    # turn_waiters[seat]: a callback per WatchTurns or Play stream of that seat, called when the seat
    # must act (or the game ends), so a move wakes only the streams that have something to send.
    turn_waiters: list[set[Callable[[], None]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seats_taken = [False] * self.rules.players
        self.seat_names = [""] * self.rules.players
        self.turn_waiters = [set() for _ in range(self.rules.players)]
        self.game = self._new_game()
        self.publish(None)

    def _new_game(self) -> Game:
        source = boards(self.rules, self.seed) if self.duplicate else None
        return Game(self.rules, seed=self.seed, first_dealer=self.first_dealer, deal_source=source,
                    hand_limit=self.hand_limit or None)

    @property
    def version(self) -> int:
        return len(self.log)

    def info(self, spectators_allowed: bool = True) -> pb.TableInfo:
        """What anyone may know of the table (a lobby's line): nothing hidden."""
        return pb.TableInfo(table_id=self.id, rules=self.rules_name, title=self.spec.name, players=self.rules.players,
                            options={k: _text(v) for k, v in self.rules.options.items()},
                            seat_taken=self.seats_taken, finished=self.game.finished, seat_names=self.seat_names,
                            started=self.version > 0, spectators=self.spectators,
                            spectators_allowed=spectators_allowed, house_rules=self.rules_text is not None,
                            created=self.created, version=self.version, scores=self.game.scores)

    def take_seat(self, role: str, seat: int | None, name: str) -> None:
        """Count a token handed out (or read back from the store)."""
        if role in ("seat", "bot") and seat is not None and 0 <= seat < self.rules.players:
            self.seats_taken[seat] = True
            self.seat_names[seat] = name
            if role == "bot":
                self.bots[seat] = name.partition(":")[2] or "heuristic"
        elif role == "spectator":
            self.spectators += 1

    # ---- moves
    def check_and_apply(self, seat: int, move: pb.Move) -> tuple[int, tuple]:
        """Apply the move to the live game (raises MoveError, state unchanged); returns its code and
        the marks taken before it, for `publish`."""
        action, payload = move_from_proto(self.rules, seat, move)
        before = self._marks()
        moves = self.game.hand_moves  # the move lands in this hand's log, even if it ends the hand
        n = len(moves)
        apply_parsed(self.game, seat, action, payload)
        code = moves[n][1]
        self.log.append((seat, code))
        return code, before

    def replay_move(self, seat: int, code: int) -> None:
        """Re-apply a logged move (start-up and rollback)."""
        before = self._marks()
        self.game.apply(seat, code)
        self.log.append((seat, code))
        self.publish(before, seat, code)

    def rebuild(self) -> None:
        """Recompute the game and events from the log (after a failed write)."""
        log = list(self.log)
        self.log, self.events = [], []
        self.game = self._new_game()
        self.publish(None)
        for seat, code in log:
            self.replay_move(seat, code)

    # ---- events
    def _marks(self):
        g = self.game
        return len(g.record_hands), len(g.results), g.tricks, len(g.tricks), g.finished

    def publish(self, before, seat: int | None = None, code: int | None = None) -> None:
        """Append the events of what changed since `before` (the game's `_marks()`; None: from the start)."""
        g = self.game
        n_hands, n_results, old_tricks, n_tricks, was_over = before if before is not None else (0, 0, [], 0, False)
        if seat is not None and code is not None:
            self._event("move", seat, code, self.version)
        for leader, winner, cards in old_tricks[n_tricks:]:
            self._event("trick_won", leader, winner, tuple(cards))
        for i in range(n_results, len(g.results)):
            self._event("hand_scored", i, json.dumps(g.results[i].to_json()), tuple(g.results[i].scores))
        for h in range(n_hands, len(g.record_hands)):
            dealer, hands, _stock, _moves = g.record_hands[h]
            self._event("hand_started", h, dealer, tuple(tuple(x) for x in hands))
        if g.finished and not was_over:
            self._event("game_over", g.winner, tuple(g.scores))
        if len(g.results) > n_results:
            g.compact_history()  # a hand ended: its record and result need not be tracked by the GC

    def _event(self, kind: str, *fields: Any) -> None:
        self.events.append((len(self.events) + 1, kind, *fields))

    def render(self, ev: Event, who: Identity, sealed: bool = False) -> pb.TableEvent:
        """One event as `who` may see it (a sealed table's seed is not shown)."""
        seq, kind = ev[0], ev[1]
        r = self.rules
        if kind == "move":
            _s, _k, seat, code, version = ev
            visible = who.role == "seat" and who.seat == seat
            return pb.TableEvent(seq=seq, move=pb.MovePlayed(seat=seat, version=version,
                                                               move=move_to_proto(r, code, visible)))
        if kind == "trick_won":
            _s, _k, leader, winner, cards = ev
            return pb.TableEvent(seq=seq, trick_won=pb.TrickWon(winner=winner, leader=leader,
                                                                  cards=[r.card_name(c) for c in cards]))
        if kind == "hand_scored":
            _s, _k, hand, result_json, scores = ev
            return pb.TableEvent(seq=seq, hand_scored=pb.HandScored(hand=hand, result_json=result_json, scores=scores))
        if kind == "hand_started":
            _s, _k, hand, dealer, hands = ev
            mine = [r.card_name(c) for c in hands[who.seat]] if who.role == "seat" else []
            return pb.TableEvent(seq=seq, hand_started=pb.HandStarted(hand=hand, dealer=dealer, your_cards=mine))
        _s, _k, winner, scores = ev
        over = pb.GameOver(scores=scores, seed="" if sealed else self.seed)
        if winner is not None:
            over.winner = winner
        return pb.TableEvent(seq=seq, game_over=over)

    def turn_due(self, seat: int, sent: int) -> bool:
        """Whether `seat` is owed a view newer than version `sent`: it must act now, or the game is over."""
        g = self.game
        return (g.finished or g.turn == seat) and self.version > sent

    def signal_turns(self) -> None:
        """Wake the WatchTurns and Play streams of the seat that must act now (of every seat once the game is over)."""
        g = self.game
        seats = range(len(self.turn_waiters)) if g.finished else (g.turn,) if g.turn >= 0 else ()
        for seat in seats:
            for wake in list(self.turn_waiters[seat]):
                wake()

    def view(self, who: Identity) -> pb.View:
        return view_to_proto(self.id, self.game, who.seat if who.role == "seat" else None, self.version)

    def record(self, who: Identity, sealed: bool = False) -> tuple[dict[str, Any], bool]:
        """The record; while the game runs (or its round is sealed), other seats' cards, the stock
        and their discards are left out. An uploaded rule file travels in `rules_text`."""
        rec = self.game.to_record()
        if self.rules_text is not None:
            rec.update(rules_fields(self.rules_text))
        if self.game.finished and not sealed:
            rec["seed"] = self.seed
            return rec, True
        mine = who.seat if who.role == "seat" else None
        for hand in rec["hands"]:
            hand["deal"]["hands"] = [h if i == mine else [] for i, h in enumerate(hand["deal"]["hands"])]
            hand["deal"]["stock"] = []
            for m in hand["moves"]:
                if m["action"] == "discard" and m["seat"] != mine:
                    m["cards"] = []
        rec["redacted"] = True
        if sealed:
            rec["sealed"] = True
        return rec, False


def _text(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


class Damaged(Exception):
    """A stored table that cannot be rebuilt: the move (version) where replay stopped, and why."""

    def __init__(self, version: int, reason: str):
        super().__init__(reason)
        self.version, self.reason = version, reason


class Tables:
    """Every table of this server, their tokens, and the store behind them."""

    # Finished games kept in memory; older ones live on in the store only and are rebuilt from
    # their log when asked for (a record, a view), so a long-running server's heap stays bounded.
    KEEP_FINISHED = 500

    def __init__(self, store: Store, limits: Limits | None = None):
        self.store = store
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        # Tokens are kept as SHA-256 hashes, found by a short prefix of the hash and then compared
        # in full with hmac.compare_digest, so lookups take the same time whatever the token.
        self.tokens: dict[str, list[tuple[str, Identity]]] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()  # finished tables in memory, oldest first
        self.retired: dict[str, tuple[list[int], int | None]] = {}  # stored only: id -> (scores, winner)
        self.damaged: dict[str, Damaged] = {}  # stored tables that could not be rebuilt
        self.seals: dict[str, list[str]] = defaultdict(list)  # seal -> its tables (a duplicate round)
        self.opened: set[str] = set()  # seals whose tables have all finished
        self.by_address: dict[str, dict[str, bool]] = defaultdict(dict)  # address -> {table id: uploaded rules}

    # ---- start-up
    def load(self) -> int:
        """Rebuild every table from the store (finished ones beyond KEEP_FINISHED are then let go).
        A table that cannot be rebuilt is reported and kept out; every other table is served."""
        for st in self.store.load():
            for h, role, seat, _name in st.tokens:
                self.remember_token(h, Identity(st.id, "seat" if role == "bot" else role, seat))
            if st.seal:
                self.seals[st.seal].append(st.id)
            self._restore(st)
        return len(self.tables) + len(self.retired)

    def _restore(self, st: StoredTable) -> Table | None:
        """The stored table rebuilt and kept (None: it is damaged, which is reported and remembered)."""
        try:
            t = self._rebuild(st)
        except Damaged as e:
            self.retired.pop(st.id, None)
            self._damage(st.id, e)
            return None
        self._add(t)
        return t

    def _damage(self, table_id: str, e: Damaged) -> None:
        self.damaged[table_id] = e
        log.error("%s: table %s cannot be restored at version %d: %s (the table answers DATA_LOSS; "
                  "every other table is served)", self.store.path, table_id, e.version, e.reason)

    def _rebuild(self, st: StoredTable) -> Table:
        """The table as its stored log makes it; Damaged if a row does not replay."""
        try:
            spec = rules_spec(st.rules_name, st.rules_text)
            rules = _compiled(spec, st.players, st.options)
        except (RuleError, OptionError, ValueError) as e:
            raise Damaged(0, f"its rules no longer compile: {str(e).splitlines()[0][:200]}") from None
        t = Table(st.id, st.rules_name, st.rules_text, spec, rules, st.options, st.seed, st.first_dealer, st.created,
                  st.duplicate, st.hand_limit, st.seal)
        for _h, role, seat, name in st.tokens:
            t.take_seat(role, seat, name)
        for version, seat, code, idem, digest in st.moves:
            if version != t.version + 1:
                raise Damaged(version, f"the log jumps from version {t.version} to {version}")
            try:
                t.replay_move(seat, int(code))
            except (MoveError, ValueError, TypeError, IndexError) as e:
                reason = f"{e.code}: {e.message}" if isinstance(e, MoveError) else f"unreadable move {clip(code)}"
                raise Damaged(version, f"seat {seat}'s move does not replay: {reason}") from None
            if idem:
                t.idem[idem] = (seat, digest)
        return t

    def _add(self, t: Table) -> None:
        self.tables[t.id] = t
        self.retired.pop(t.id, None)
        if t.game.finished:
            self.finished[t.id] = None
            self.finished.move_to_end(t.id)
            while len(self.finished) > self.KEEP_FINISHED:
                old, _ = self.finished.popitem(last=False)
                g = self.tables.pop(old).game
                self.retired[old] = (list(g.scores), g.winner)

    def outcome(self, table_id: str) -> tuple[bool, list[int], int | None]:
        """(finished, scores, winner) of a table, without rebuilding a retired one."""
        if table_id in self.retired:
            scores, winner = self.retired[table_id]
            return True, scores, winner
        if table_id in self.damaged:
            return False, [], None
        g = self.table_for(table_id, None).game
        return g.finished, list(g.scores), g.winner

    # ---- seals (duplicate rounds)
    def sealed(self, t: Table) -> bool:
        """Whether `t` is in a duplicate round some table of which still plays: then its seed,
        its full record and its hidden cards (the same boards as at those tables) stay withheld."""
        if t.seal is None or t.seal in self.opened:
            return False
        if all(self.outcome(tid)[0] for tid in self.seals[t.seal]):
            self.opened.add(t.seal)
            return False
        return True

    # ---- auth
    def remember_token(self, h: str, ident: Identity) -> None:
        """Know a token (by its SHA-256) as `ident` from now on (a table's, or a tournament director's)."""
        self.tokens.setdefault(h[:16], []).append((h, ident))

    def identify(self, token: str) -> Identity | None:
        h = token_hash(token)
        found = None
        for stored, ident in self.tokens.get(h[:16], ()):
            if hmac.compare_digest(stored, h):
                found = ident
        return found

    def table_for(self, table_id: str, who: Identity | None) -> Table:
        t = self.tables.get(table_id)
        if t is None and table_id in self.retired:
            st = self.store.load(table_id)
            if st:
                t = self._restore(st[0])
        if t is None and table_id in self.damaged:
            e = self.damaged[table_id]
            raise RefereeError("DATA_LOSS", "TABLE_DAMAGED",
                               f"table {table_id} could not be restored from the store at version {e.version}: {e.reason}")
        if t is None:
            raise RefereeError("NOT_FOUND", "NOT_FOUND", f"no table {clip(table_id)}")
        if who is not None and who.table_id != table_id:
            raise RefereeError("PERMISSION_DENIED", "WRONG_TABLE", "this token belongs to another table")
        return t

    # ---- creation and seats
    def check_quota(self, address: str | None, uploaded: bool) -> None:
        """Room for one more table on the server, and (unless `address` is None) in that address's budget."""
        lim = self.limits
        if len(self.tables) >= lim.max_tables:
            raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_TABLES", "this server holds as many tables as it can")
        if address is None:
            return
        mine = self.by_address[address]
        for tid in [tid for tid in mine if tid not in self.tables or self.tables[tid].game.finished]:
            del mine[tid]  # finished (or gone): no longer counted
        if len(mine) >= lim.tables_per_address:
            raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_TABLES",
                               f"{lim.tables_per_address} unfinished tables were created from your address: "
                               "finish some first")
        if uploaded and sum(mine.values()) >= lim.upload_tables_per_address:
            raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_TABLES",
                               f"{lim.upload_tables_per_address} unfinished tables with uploaded rules were created "
                               "from your address: finish some first")

    async def create(self, rules_name: str | None, rules_text: str | None, options: dict[str, str], players: int,
                     seed: str | None, duplicate: bool = False, hand_limit: int = 0, seal: str | None = None,
                     address: str | None = "local") -> tuple[Table, str]:
        """A new table. `address` is the creator's, whose budget it counts against; None for the tables
        a tournament opens (bounded by its entrants instead)."""
        self.check_quota(address, rules_text is not None)
        if rules_text is not None:
            rules_text, spec = await asyncio.to_thread(upload_spec, rules_text)
        else:
            spec = rules_spec(rules_name, None)
        rules = _compiled(spec, players or None, options)
        seed = seed if seed else secrets.token_hex(16)
        first = first_dealer(seed, rules.players)
        table_id = secrets.token_hex(8)
        t = Table(table_id, spec.stem if rules_name else "upload", rules_text, spec, rules, dict(rules.options), seed,
                  first, time.time(), duplicate, hand_limit, seal)
        host = new_token()
        stored = StoredTable(table_id, t.rules_name, rules_text, rules.players, t.options, seed, first, t.created,
                             [(token_hash(host), "host", None, "")], [], duplicate, hand_limit, seal)
        await self.store.write(Store.create_table(stored))
        self.tables[table_id] = t
        if seal:
            self.seals[seal].append(table_id)
        if address is not None:
            self.by_address[address][table_id] = rules_text is not None
        self.remember_token(token_hash(host), Identity(table_id, "host", None))
        return t, host

    async def join(self, table_id: str, seat: int | None, name: str = "") -> tuple[Table, str]:
        t = self.table_for(table_id, None)
        token = new_token()
        name = " ".join(name.split())[:self.limits.player_name_chars]
        async with t.lock:
            if seat is not None:
                self._check_free(t, seat)
            else:
                if self.sealed(t):
                    raise RefereeError("FAILED_PRECONDITION", "ROUND_SEALED",
                                       "this table plays a duplicate round: it can be watched once the round is over")
                if t.spectators >= self.limits.spectators_per_table:
                    raise RefereeError("RESOURCE_EXHAUSTED", "TOO_MANY_SPECTATORS",
                                       f"this table has {t.spectators} spectators already")
            role = "seat" if seat is not None else "spectator"
            await self.store.write(Store.add_token(table_id, token_hash(token), role, seat, name))
            t.take_seat(role, seat, name)
            self.remember_token(token_hash(token), Identity(table_id, role, seat))
        return t, token

    @staticmethod
    def _check_free(t: Table, seat: int) -> None:
        if not 0 <= seat < t.rules.players:
            raise RefereeError("INVALID_ARGUMENT", "BAD_SEAT", f"seats are 0..{t.rules.players - 1}, not {seat}")
        if t.seats_taken[seat]:
            raise RefereeError("ALREADY_EXISTS", "SEAT_TAKEN", f"seat {seat} is taken")

    async def add_bots(self, t: Table, kind: str, seat: int | None = None) -> list[int]:
        """Seat a bot the server plays (smear_referee/house_bots.py) in every free seat, or in `seat`
        (its player hands it over: a bot stands in); their tokens are stored (so the bots play on
        after a restart) and never shown."""
        if kind not in BOT_KINDS:
            raise RefereeError("INVALID_ARGUMENT", "BAD_BOT", f"bots are {' or '.join(BOT_KINDS)}, not {clip(kind)}")
        if t.game.finished:
            raise RefereeError("FAILED_PRECONDITION", "GAME_OVER", "the game is over")
        async with t.lock:
            free = [s for s, taken in enumerate(t.seats_taken) if not taken] if seat is None else \
                [] if seat in t.bots else [seat]
            tokens = [(token_hash(new_token()), seat) for seat in free]
            await self.store.write([row for h, seat in tokens for row in
                                    Store.add_token(t.id, h, "bot", seat, f"bot:{kind}")])
            for h, seat in tokens:
                t.take_seat("bot", seat, f"bot:{kind}")
                self.remember_token(h, Identity(t.id, "seat", seat))
        return free

    def lobby(self, include_finished: bool, limit: int) -> list[Table]:
        """The tables a lobby lists: unfinished first, each group newest first; never a duplicate
        round's (their seats belong to a tournament's entrants)."""
        live = [t for t in self.tables.values() if t.seal is None and not t.game.finished]
        live.sort(key=lambda t: t.created, reverse=True)
        if include_finished and len(live) < limit:
            done = [self.tables[tid] for tid in reversed(self.finished) if tid in self.tables]
            live += [t for t in done if t.seal is None][:limit - len(live)]
        return live[:limit]

    async def submit(self, t: Table, who: Identity, move: pb.Move, expected_version: int, key: str) -> bool:
        """Apply, persist, publish. Returns True when `key` had already been used for this move
        (nothing applied). Once a move is applied, its write, its key, its events and the next
        seat's wake-up all happen, even if the caller's call is dropped meanwhile (a shielded task)."""
        if who.role != "seat" or who.seat is None:
            raise RefereeError("PERMISSION_DENIED", "NOT_A_SEAT", "only a seat token can play moves")
        if len(key) > self.limits.key_chars:
            raise RefereeError("INVALID_ARGUMENT", "BAD_RECORD",
                               f"the idempotency key is longer than {self.limits.key_chars} characters")
        task = asyncio.ensure_future(self._submit(t, who.seat, move, expected_version, key))
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    async def _submit(self, t: Table, seat: int, move: pb.Move, expected_version: int, key: str) -> bool:
        digest = move_digest(move) if key else None
        async with t.lock:
            if key and key in t.idem:
                owner, stored = t.idem[key]
                if owner != seat:
                    raise RefereeError("INVALID_ARGUMENT", "IDEMPOTENCY_KEY_REUSED",
                                       "this idempotency key was used by another seat")
                if stored is not None and stored != digest:
                    raise RefereeError("INVALID_ARGUMENT", "IDEMPOTENCY_KEY_REUSED",
                                       "this idempotency key was used for a different move")
                return True
            if t.game.finished:
                raise RefereeError("FAILED_PRECONDITION", "GAME_OVER", "the game is over")
            if expected_version != t.version:
                raise RefereeError("ABORTED", "STALE_VERSION",
                                   f"the table is at version {t.version}, not {expected_version}: get the view again")
            try:
                code, before = t.check_and_apply(seat, move)
            except MoveError as e:
                raise RefereeError("INVALID_ARGUMENT" if e.code in ("BAD_RECORD", "BAD_DEAL") else "FAILED_PRECONDITION",
                                   e.code, e.message) from None
            try:
                await self.store.write(Store.add_move(t.id, t.version, seat, code, key or None, digest))
            except Exception:
                t.log.pop()
                t.rebuild()
                raise RefereeError("UNAVAILABLE", "STORE_FAILED", "the move could not be saved; try again") from None
            if key:
                t.idem[key] = (seat, digest)
            t.publish(before, seat, code)
            t.signal_turns()
            if t.game.finished:
                self._add(t)  # counts it among the finished tables kept in memory
        async with t.changed:
            t.changed.notify_all()
        return False


def _retrieve(task: asyncio.Task) -> None:
    """Read a shielded submit's outcome when its caller is gone (no 'exception never retrieved')."""
    if not task.cancelled():
        task.exception()


def rules_spec(rules_name: str | None, rules_text: str | None) -> RuleSpec:
    """The spec of a table's rules: its uploaded text (parsed once per content), else a rule of rules/."""
    if rules_text is not None:
        return upload_spec(rules_text)[1]
    return _known_spec(rules_name or "", _mtime(rules_name or ""))


_UPLOADS: OrderedDict[str, tuple[str, RuleSpec]] = OrderedDict()
_UPLOADS_LOCK = threading.Lock()  # parsed in worker threads (asyncio.to_thread)
UPLOADS_KEPT = 64


def upload_spec(text: str) -> tuple[str, RuleSpec]:
    """An uploaded rule file, parsed once per content: tables with the same upload share one text,
    one spec and so (see _compiled) one CompiledRules, whoever uploaded it and how often."""
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
    with _UPLOADS_LOCK:
        hit = _UPLOADS.get(digest)
        if hit is not None:
            _UPLOADS.move_to_end(digest)
            return hit
    hit = (text, spec_from_text(text, "upload.yaml", known_parents_only=True))
    with _UPLOADS_LOCK:
        hit = _UPLOADS.setdefault(digest, hit)
        while len(_UPLOADS) > UPLOADS_KEPT:
            _UPLOADS.popitem(last=False)
    return hit


@functools.lru_cache(maxsize=256)
def _known_spec(name: str, _mtime: float) -> RuleSpec:
    """A rule file of rules/, parsed once per version of the file (tables are created often)."""
    return load_spec(name)


def known_spec(name: str) -> RuleSpec:
    """A rule file of rules/ by name (the caller has checked the name is one of rule_names())."""
    return _known_spec(name, _mtime(name))


_COMPILED: dict[tuple, CompiledRules] = {}


def _compiled(spec: RuleSpec, players: int | None, options: dict[str, Any]) -> CompiledRules:
    """Tables of the same rules, seats and options share one CompiledRules (it is never changed
    while playing), so a server with many tables keeps one copy of its tables and closures."""
    key = (id(spec), players, tuple(sorted((k, str(v)) for k, v in options.items())))
    hit = _COMPILED.get(key)
    if hit is not None and hit.spec is spec:
        return hit
    rules = compile_rules(spec, players, options)
    if len(_COMPILED) >= 256:
        _COMPILED.clear()
    _COMPILED[key] = rules
    return rules


def _mtime(name: str) -> float:
    from smear_dsl.language import resolve_rules_path
    path = resolve_rules_path(name)
    return path.stat().st_mtime if path is not None else 0.0
