"""A small synchronous Python client for the referee, and bots that play through it."""
from __future__ import annotations

import json
import queue
import random
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from smear_dsl import cards as C
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.compiler import compile_rules
from smear_dsl.errors import SmearError
from smear_dsl.language.load import load_spec
from smear_dsl.language.pins import stored_spec
from smear_dsl.players.botspec import SIMPLE
from smear_dsl.players.heuristic import bid_for, fair_share
from smear_dsl.players.worth import best_trump, hand_worth
from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc


def error_info(err: grpc.RpcError) -> tuple[str | None, dict[str, str]]:
    """The ErrorInfo reason of a failed call (a RECORD_FORMAT.md code, STALE_VERSION, ...) and its
    metadata (NOT_OWNER: the owner's address)."""
    try:
        status = rpc_status.from_call(err)
    except (ValueError, AttributeError):
        return None, {}
    if status is None:
        return None, {}
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason, dict(info.metadata)
    return None, {}


def error_reason(err: grpc.RpcError) -> str | None:
    """The ErrorInfo reason of a failed call (a RECORD_FORMAT.md code, STALE_VERSION, ...)."""
    return error_info(err)[0]


DEFAULT_PORT = 50051
FOLLOW_SECONDS = 30.0  # how long a call keeps following owners and trying replicas before it gives up
# gRPC waits up to 120 s, growing, before it dials an address that failed again: a replica that
# restarts (or the replica a shard moved to) is dialled again within a second instead.
RECONNECT = (("grpc.initial_reconnect_backoff_ms", 100), ("grpc.min_reconnect_backoff_ms", 100),
             ("grpc.max_reconnect_backoff_ms", 1000),
             # A channel's connections are its own. In gRPC's shared pool a new channel takes over another's
             # connection to the same address; if that one failed (a referee restarted on the same port), the
             # new Client's first call failed at once with UNAVAILABLE.
             ("grpc.use_local_subchannel_pool", 1))


def bearer(token: str) -> list[tuple[str, str]]:
    """Call metadata carrying a token (`authorization: Bearer ...`)."""
    return [("authorization", f"Bearer {token}")]


def target(server: str) -> str:
    """HOST[:PORT] as gRPC wants it: the referee's default port when none is given (gRPC itself would
    take 443), IPv6 addresses in brackets. Replicas: several, separated by commas."""
    if "," in server:
        return ",".join(target(one) for one in server.split(",") if one.strip())
    server = server.strip()
    if server.startswith("["):  # [::1] or [::1]:50051
        return server if "]:" in server else f"{server}:{DEFAULT_PORT}"
    if server.count(":") > 1:  # a bare IPv6 address
        return f"[{server}]:{DEFAULT_PORT}"
    return server if ":" in server else f"{server}:{DEFAULT_PORT}"


class Route:
    """Where calls go: one referee, or any of several replicas (`a:1,b:2,c:3`). A call refused with
    NOT_OWNER is sent on to the owner its ErrorInfo names; a replica that does not answer is
    passed over for the next one. One channel per address, shared by every Client on the route."""

    def __init__(self, targets: str, channel: grpc.Channel | None = None):
        self.targets = [t.strip() for t in targets.split(",") if t.strip()] or [""]
        self.current = self.targets[0]
        self._channels: dict[str, grpc.Channel] = {}
        if channel is not None:
            self._channels[self.current] = channel

    @property
    def channel(self) -> grpc.Channel:
        ch = self._channels.get(self.current)
        if ch is None:  # records of long games can exceed gRPC's default 4 MB; the server sends up to 128 MB
            ch = self._channels[self.current] = grpc.insecure_channel(
                self.current, options=[("grpc.max_receive_message_length", 128 << 20), *RECONNECT])
        return ch

    @property
    def stub(self) -> pb_grpc.RefereeStub:
        return pb_grpc.RefereeStub(self.channel)

    def follow(self, err: grpc.RpcError) -> bool:
        """After a failed call: whether to ask again, and where (the owner named, or the next replica)."""
        if err.code() != grpc.StatusCode.UNAVAILABLE:
            return False
        reason, meta = error_info(err)
        owner = meta.get("owner", "") if reason == "NOT_OWNER" else ""
        if owner:
            self.current = owner
        elif len(self.targets) > 1 and reason not in ("STORE_FAILED", "TABLE_RELOADED"):
            i = self.targets.index(self.current) if self.current in self.targets else -1
            self.current = self.targets[(i + 1) % len(self.targets)]
        return True

    def close(self) -> None:
        for ch in self._channels.values():
            ch.close()
        self._channels.clear()


class Client:
    """Calls to a referee (or its replicas); `token` (if any) goes with every call as
    `authorization: Bearer ...`. Calls follow NOT_OWNER to the table's owner and retry a replica
    that went away, for up to FOLLOW_SECONDS."""

    def __init__(self, target: str, token: str | None = None, channel: grpc.Channel | None = None,
                 route: Route | None = None, lang: str | None = None):
        self.route = route or Route(target, channel)
        self.token = token
        self.lang = lang  # sent as `accept-language`: the referee's refusals come back in it (codes do not change)

    @property
    def channel(self) -> grpc.Channel:
        return self.route.channel

    @property
    def stub(self) -> pb_grpc.RefereeStub:
        return self.route.stub

    def with_token(self, token: str) -> Client:
        return Client("", token, route=self.route, lang=self.lang)

    def _md(self, token: bool = True) -> list[tuple[str, str]]:
        md = bearer(self.token) if self.token and token else []
        return md + [("accept-language", self.lang)] if self.lang else md

    def close(self) -> None:
        self.route.close()

    def tournament(self, method: str, request, token: bool = True, safe: bool = True):
        """A call of the Tournament service (CreateTournament, StartRound, ...), following the
        tournament's replica as table calls follow the table's. StartRound and Act are not sent again
        after a replica died while answering (`safe=False`) unless they were refused before doing anything."""
        return self._call(method, request, token, safe, service=pb_grpc.TournamentStub)

    def club(self, method: str, request, token: bool = True, safe: bool = True):
        """A call of the Club service (CreateClub, AddMember, GetClub, ...), following the club's replica (for
        a call that changes it) or the table's (JoinClubTable) as table calls do."""
        return self._call(method, request, token, safe, service=pb_grpc.ClubStub)

    def _call(self, method: str, request, token: bool = False, safe: bool = True, service=None):
        """One unary call, following owners. `safe`: it may be sent again after a replica died while
        answering (a read, or a move with its idempotency key); otherwise only after NOT_OWNER,
        which refuses before doing anything. A referee that does not answer at all is passed over
        for the route's other replicas, a few rounds of them; with one address the error is the
        caller's at once, as it always was."""
        deadline = time.monotonic() + FOLLOW_SECONDS
        pause, silent = 0.05, 0
        while True:
            try:
                stub = service(self.channel) if service is not None else self.stub
                return getattr(stub, method)(request, metadata=self._md(token) or None)
            except grpc.RpcError as e:
                reason, meta = error_info(e)
                silent = silent + 1 if reason is None else 0  # no answer at all: the address is down
                retry = self.route.follow(e) and (safe or reason == "NOT_OWNER") and \
                    silent <= 3 * (len(self.route.targets) - 1)
                if not retry or time.monotonic() + pause > deadline:
                    raise
                if not meta.get("owner"):
                    time.sleep(pause)  # a replica restarting, a shard changing hands: wait a moment
                    pause = min(1.0, pause * 2)

    # ---- calls
    def list_rules(self) -> pb.ListRulesResponse:
        return self._call("ListRules", pb.ListRulesRequest())

    def check_rules(self, text: str, file_name: str = "upload.yaml") -> pb.CheckRulesResponse:
        return self._call("CheckRules", pb.CheckRulesRequest(text=text, file_name=file_name))

    def create_table(self, rules: str | None = None, options: dict[str, Any] | None = None, players: int = 0,
                     seed: str | None = None, rules_text: str | None = None,
                     duplicate: bool = False, hand_limit: int = 0, key: str | None = None,
                     turn_seconds: int = 0) -> pb.CreateTableResponse:
        """A new table. The call carries an idempotency key (a new one unless `key` is given), so it is
        sent again if its answer is lost: the retry gets the same table and host token."""
        req = pb.CreateTableRequest(options={k: str(v).lower() if isinstance(v, bool) else str(v)
                                             for k, v in (options or {}).items()}, players=players, duplicate=duplicate,
                                    hand_limit=hand_limit, idempotency_key=key or uuid.uuid4().hex,
                                    turn_seconds=turn_seconds)
        if rules_text is not None:
            req.rules_text = rules_text
        else:
            req.rules_name = rules or ""
        if seed is not None:
            req.seed = seed
        return self._call("CreateTable", req)

    def join(self, table_id: str, seat: int | None = None, name: str = "", key: str | None = None) -> pb.JoinTableResponse:
        """A seat (or, with `seat` None, a spectator's place); idempotent like create_table: a retry
        gets the same seat and the same token, never SEAT_TAKEN by itself."""
        req = pb.JoinTableRequest(table_id=table_id, name=name, idempotency_key=key or uuid.uuid4().hex)
        if seat is None:
            req.spectator = True
        else:
            req.seat = seat
        return self._call("JoinTable", req)

    def view(self, table_id: str) -> pb.View:
        return self._call("GetView", pb.GetViewRequest(table_id=table_id), token=True)

    def list_tables(self, include_finished: bool = False, limit: int = 0) -> list[pb.TableInfo]:
        return list(self._call("ListTables", pb.ListTablesRequest(include_finished=include_finished, limit=limit)).tables)

    def table(self, table_id: str) -> pb.TableInfo:
        return self._call("GetTable", pb.GetTableRequest(table_id=table_id))

    def add_bots(self, table_id: str, kind: str = "heuristic", key: str | None = None,
                 seat: int | None = None) -> pb.AddBotsResponse:
        """Fill the free seats with bots the server plays (with the host's token), or hand this seat
        to one (with the seat's token: a bot stands in), or hand `seat` to one (the host or another seat,
        only when its player is away: docs/security.md). `kind`: heuristic, random or search[:BUDGET].
        Idempotent like create_table."""
        req = pb.AddBotsRequest(table_id=table_id, kind=kind, idempotency_key=key or uuid.uuid4().hex)
        if seat is not None:
            req.seat = seat
        return self._call("AddBots", req, token=True)

    def take_back(self, table_id: str) -> pb.TakeBackSeatResponse:
        """Take this seat back from the bot standing in for it (with the seat's token)."""
        return self._call("TakeBackSeat", pb.TakeBackSeatRequest(table_id=table_id), token=True)

    def chat(self, table_id: str, text: str | None = None, reaction: str | None = None) -> pb.ChatResponse:
        """Say a line (or a preset reaction) at the table, with a seat's token."""
        req = pb.ChatRequest(table_id=table_id, reaction=reaction) if reaction else pb.ChatRequest(table_id=table_id, text=text or "")
        return self._call("Chat", req, token=True)

    def moderate_chat(self, table_id: str, muted: list[int], spectators_may_chat: bool = False) -> pb.ModerateChatResponse:
        """The host's: mute seats, let spectators speak."""
        return self._call("ModerateChat", pb.ModerateChatRequest(table_id=table_id, muted=muted,
                                                                 spectators_may_chat=spectators_may_chat), token=True)

    def rematch(self, table_id: str) -> pb.RematchResponse:
        """Play again after a finished game (with this seat's token): the new table and this seat's token there."""
        return self._call("Rematch", pb.RematchRequest(table_id=table_id), token=True)

    def submit(self, table_id: str, move: pb.Move, expected_version: int, key: str = "") -> pb.SubmitMoveResponse:
        return self._call("SubmitMove", pb.SubmitMoveRequest(table_id=table_id, move=move,
                                                             expected_version=expected_version, idempotency_key=key),
                          token=True, safe=bool(key))

    def watch(self, table_id: str, after_seq: int = 0, timeout: float | None = None) -> Iterator[pb.TableEvent]:
        return self.stub.WatchTable(pb.WatchTableRequest(table_id=table_id, after_seq=after_seq),
                                    metadata=self._md(), timeout=timeout)

    def follow(self, table_id: str, after_seq: int = 0) -> Iterator[pb.TableEvent]:
        """The table's numbered events after `after_seq`, one by one, until the game is over: the
        stream is opened again where it broke off (a replica killed, the table moved), so no event
        is missed or repeated. Snapshots, heartbeats and changes of seats are not passed on."""
        deadline = time.monotonic() + FOLLOW_SECONDS
        while True:
            try:
                for ev in self.watch(table_id, after_seq):
                    deadline = time.monotonic() + FOLLOW_SECONDS
                    kind = ev.WhichOneof("kind")
                    if kind in ("snapshot", "heartbeat", "seats") or ev.seq <= after_seq:
                        continue
                    after_seq = ev.seq
                    yield ev
                    if kind == "game_over":
                        return
                return
            except grpc.RpcError as e:
                if not self.route.follow(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def turns(self, table_id: str, after_version: int | None = None, timeout: float | None = None) -> Iterator[pb.View]:
        """This seat's view each time it must act, and a last one when the game ends."""
        req = pb.WatchTurnsRequest(table_id=table_id)
        if after_version is not None:
            req.after_version = after_version
        return self.stub.WatchTurns(req, metadata=self._md(), timeout=timeout)

    def record(self, table_id: str) -> tuple[dict[str, Any], bool]:
        r = self._call("GetRecord", pb.GetRecordRequest(table_id=table_id), token=True)
        return json.loads(r.record_json), r.complete

    def verify(self, record: dict[str, Any] | str) -> dict[str, Any]:
        text = record if isinstance(record, str) else json.dumps(record)
        return json.loads(self._call("VerifyRecord", pb.VerifyRecordRequest(record_json=text)).verdict_json)


# ---------------------------------------------------------------- bots

RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class Persona:
    """How one bot plays: its style, its own seed, how boldly it bids (-1 cautious .. +1 bold) and
    how often it plays a random legal move instead of its best one. Tournament entrants each get
    their own, so duplicate tables do not play identically."""

    style: str = "heuristic"
    seed: int = 0
    boldness: int = 0
    noise: float = 0.0

    @classmethod
    def for_entrant(cls, master_seed: str, entrant: int, style: str) -> Persona:
        rng = random.Random(f"{master_seed}/entrant/{entrant}")
        return cls(style, rng.getrandbits(32), rng.choice((-1, 0, 0, 1)), round(rng.uniform(0.0, 0.08), 3))

    def describe(self) -> str:
        if self.style != "heuristic":
            return self.style  # random, or a search bot (the referee's, seeded per table and seat)
        bold = {-1: "cautious", 0: "steady", 1: "bold"}[self.boldness]
        return f"{self.style}, {bold} bidder, {self.noise:.0%} random moves"


def choose(view: pb.View, rng: random.Random, style: str = "random", boldness: int = 0, noise: float = 0.0,
           rules: CompiledRules | None = None) -> pb.Move:
    """A legal move from the view alone: uniformly at random, or by a heuristic (and a random legal
    move with probability `noise`). With the table's compiled `rules`, `heuristic` bids, begs and names
    trump by the hand's worth under them, as the heuristic bot does (players/heuristic.py), `boldness`
    moving how sure of a bid it wants to be; without them (house rules this installation lacks), and
    for `heuristic@1`, by trump length: `boldness` +1 enters the bidding on a weaker hand, -1 waits for
    a stronger one and bids a step lower."""
    legal = list(view.legal_moves)
    if style == "random" or len(legal) == 1 or noise and rng.random() < noise:
        return rng.choice(legal)
    kinds = {m.WhichOneof("action") for m in legal}
    if rules is not None and style != "heuristic@1":
        move = _by_worth(view, rules, legal, kinds, boldness + STYLE_BOLDNESS.get(style, 0))
        if move is not None:
            return move
    hand = list(view.hand)
    if "bid" in kinds or "pass" in kinds:
        longest = max((sum(1 for c in hand if c[-1] == s) for s in "SHDC"), default=0)
        top = sum(1 for c in hand if c[0] in "AKJ")
        want = 2 + max(0, longest + top - 5 + min(0, boldness))
        bids = sorted((m for m in legal if m.WhichOneof("action") == "bid"), key=lambda m: m.bid)
        ok = [m for m in bids if m.bid <= want]
        if ok and longest + top >= 4 - boldness:
            return ok[-1]
        passes = [m for m in legal if m.WhichOneof("action") == "pass"]
        return passes[0] if passes else bids[0]
    if "choose" in kinds:  # begging: stand (or give) with two trumps of the turned-up suit, else beg (or run)
        turned = view.current.stock.turned_up or "?"
        strong = sum(1 for c in hand if c[-1] == turned[-1]) + boldness >= 2
        choices = ("stand", "give") if strong else ("beg", "run")
        return next((m for m in legal if m.choose in choices), legal[-1])
    if "trump" in kinds:
        held = {s: sum(1 for c in hand if c[-1] == s) for s in "SHDC"}
        best = max(held, key=lambda s: held[s])
        return next(m for m in legal if m.trump == best)
    if "discard" in kinds:
        return min(legal, key=lambda m: sum(RANKS.find(c[0]) for c in m.discard.cards))
    plays = sorted(legal, key=lambda m: RANKS.find(m.play[0]))
    return plays[-1] if not view.current.trick else plays[0]


STYLE_BOLDNESS = {"heuristic:bold": 1, "heuristic:cautious": -1}


def _by_worth(view: pb.View, rules: CompiledRules, legal: list[pb.Move], kinds: set, boldness: float) -> pb.Move | None:
    """A bid, a stand or beg, or a trump from the hand's worth under the rules (players/worth.py); None
    for the play, which the view heuristic below handles."""
    if not kinds & {"bid", "pass", "choose", "trump"}:
        return None
    names = list(view.hand)
    cards = [rules.parse_card(n) for n in names + list(view.current.discarded)]
    if any(c is None for c in cards):
        return None  # a card this installation's rules do not name: not the table's rules after all
    hand, seen = C.mask_of(cards[:len(names)]), C.mask_of(cards[len(names):])
    trump = C.parse_suit(view.current.trump) if view.current.trump else None
    if "choose" in kinds:  # begging: the turned-up card's suit is the trump at stake
        turned = view.current.stock.turned_up
        trump = rules.parse_card(turned)
        trump = None if trump is None else C.suit_of(trump)
    w = best_trump(rules, hand, seen) if trump is None else hand_worth(rules, hand, trump, seen)
    passes = [m for m in legal if m.WhichOneof("action") == "pass"]
    if "bid" in kinds or "pass" in kinds:
        bids = sorted(m.bid for m in legal if m.WhichOneof("action") == "bid")
        high, sides, seat = view.current.bidder, list(view.sides), view.seat
        known = view.current.HasField("bidder") and high < len(sides) and seat < len(sides)
        b = bid_for(rules, w, bids, boldness, partner_high=known and high != seat and sides[high] == sides[seat],
                    rival_high=known and sides[high] != sides[seat]) if bids else None
        if b is not None:
            return next(m for m in legal if m.WhichOneof("action") == "bid" and m.bid == b)
        return passes[0] if passes else next((m for m in legal if m.WhichOneof("action") == "bid"), None)
    if "choose" in kinds:
        want = ("stand", "give") if w.points >= fair_share(rules) * (1.0 - 0.15 * boldness) else ("beg", "run")
        return next((m for m in legal if m.choose in want), None)
    if passes and w.points < fair_share(rules) * (1.1 - 0.15 * boldness):
        return passes[0]  # naming trump in turn: pass a hand worth less than a fair share
    return next((m for m in legal if m.WhichOneof("action") == "trump" and m.trump == C.SUIT_CHARS[w.trump]), None)


def table_rules(client: Client, table_id: str) -> CompiledRules | None:
    """The table's rules compiled here (its exact version and options), so a view-only bot can read
    them; None for uploaded house rules or a version this installation does not have."""
    try:
        info = client.table(table_id)
        if info.house_rules:
            return None
        return _compiled(info.rules, info.players, tuple(sorted(info.options.items())))
    except (grpc.RpcError, SmearError):
        return None


@lru_cache(maxsize=16)
def source_rules(rules_name: str, players: int, options: tuple) -> CompiledRules:
    """A tournament's rules compiled from its rule file's name or path (a house file a seat cannot ask
    the referee for), for its bots."""
    return compile_rules(load_spec(rules_name), players, dict(options))


@lru_cache(maxsize=16)
def _compiled(ref: str, players: int, options: tuple) -> CompiledRules:
    return compile_rules(stored_spec(ref, None), players or None, dict(options))


def house_plays(client: Client, table_id: str, kind: str) -> pb.View:
    """Hand this client's seat to a bot of `kind` the referee plays (a search bot thinks on the game's
    hidden state through what the seat may know, which only the referee can give it), then follow
    the table until the game is over. Returns the seat's final view."""
    client.add_bots(table_id, kind)
    for _ev in client.follow(table_id):
        pass
    return client.view(table_id)


class MoveRefused(Exception):
    """A move answered on a Play stream with a refusal (its status name, reason code and message)."""

    def __init__(self, result: pb.MoveResult):
        super().__init__(f"{result.reason}: {result.message}")
        self.status, self.reason, self.message = result.status, result.reason, result.message


def play_seat(client: Client, table_id: str, style: str = "random", seed: int | str | None = None,
              on_move=None, persona: Persona | None = None, rules: CompiledRules | None = None) -> pb.View:
    """Play one seat until the game ends over one Play stream: the server sends the seat's view when
    it must act and the answer to each move. A dropped stream is resumed after the last view seen.
    `persona` (if given) sets the style, boldness and noise; `seed` then varies its play per game.
    `rules`: the table's, compiled, for a heuristic that bids by the hand's worth (else asked of the table).
    Returns the final view; raises MoveRefused if a move is refused for any reason but a stale view."""
    if persona is not None:
        style, seed = persona.style, f"{persona.seed}/{seed}"
    if style not in SIMPLE:  # a search bot: it needs the game, which only the referee holds, so it plays there
        return house_plays(client, table_id, style)
    boldness, noise = (persona.boldness, persona.noise) if persona else (0, 0.0)
    if rules is None and style not in ("random", "heuristic@1"):
        rules = table_rules(client, table_id)
    rng = random.Random(seed)
    seen: int | None = None
    while True:
        outgoing: queue.Queue = queue.Queue()
        first = pb.PlayRequest(table_id=table_id)
        if seen:  # the view of `seen` again if the move made on it never landed
            first.after_version = seen - 1
        outgoing.put(first)

        def requests(q: queue.Queue = outgoing) -> Iterator[pb.PlayRequest]:
            while (item := q.get()) is not None:
                yield item
        sent: list[tuple[int, pb.Move]] = []  # moves awaiting their answer, in order
        try:
            for event in client.stub.Play(requests(), metadata=client._md()):
                if event.WhichOneof("kind") == "result":
                    seat, move = sent.pop(0)
                    if event.result.accepted:
                        if on_move and not event.result.replayed:
                            on_move(seat, move)
                    elif event.result.status == "UNAVAILABLE":  # the table moved, or its write failed:
                        break                                   # the stream ends too; ask again
                    elif event.result.reason != "STALE_VERSION":  # a newer view is on its way
                        raise MoveRefused(event.result)
                    continue
                view = event.turn
                seen = view.version
                if view.finished:
                    return view
                move = choose(view, rng, style, boldness, noise, rules)
                sent.append((view.seat, move))
                outgoing.put(pb.PlayRequest(move=move, expected_version=view.version, idempotency_key=uuid.uuid4().hex))
        except grpc.RpcError as e:
            if e.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
                raise
            client.route.follow(e)  # to the table's owner, or the next replica
            if not error_info(e)[1].get("owner"):
                time.sleep(0.2)  # the server is restarting: try again shortly
        finally:
            outgoing.put(None)
