"""The Referee service: RPC handlers over `Tables`, and the one interceptor that checks tokens.

Errors leave as gRPC statuses with a google.rpc.ErrorInfo (domain `smear-dsl`) whose reason is
the RECORD_FORMAT.md code, via grpc-status's rich status, never as a silent drop.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
from collections import Counter

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from smear_dsl.errors import Diagnostic, OptionError, RuleError, clip
from smear_dsl.i18n import LANGUAGES, negotiate
from smear_dsl.language.paths import rule_names, split_ref
from smear_dsl.language.versions import is_known, latest_ref, versions_of
from smear_dsl.sheets.explain import render
from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.codes import Code
from smear_referee.errors import RefereeError
from smear_referee.limits import Limits, address_of
from smear_referee.server.clock import TurnClock
from smear_referee.server.house_bots import HouseBots
from smear_referee.server.jobs import diagnostic
from smear_referee.server.sandbox import Sandbox, SandboxBusy, SandboxFailed, SandboxTimeout
from smear_referee.storage.store import StoreDamaged, StoreDown, store_errors
from smear_referee.tables import idem, seen, streams
from smear_referee.tables.convert import rule_info
from smear_referee.tables.idem import keyed
from smear_referee.tables.lobby import stored_lobby
from smear_referee.tables.registry import Identity, Table, Tables
from smear_referee.tables.rulesets import known_spec
from smear_referee.tables.seats import prior

SERVICE = "smear.referee.v1.Referee"
TOURNAMENT = "smear.referee.v1.Tournament"
CLUB = "smear.referee.v1.Club"
NEEDS_TOKEN = {f"/{SERVICE}/{m}" for m in ("GetView", "SubmitMove", "WatchTable", "WatchTurns", "Play", "GetRecord",
                                           "AddBots", "TakeBackSeat", "Rematch", "Chat", "ModerateChat")} | \
    {f"/{TOURNAMENT}/{m}" for m in ("StartRound", "Act", "ExportTournament")}
CALLER: contextvars.ContextVar[Identity | None] = contextvars.ContextVar("caller", default=None)
LANG: contextvars.ContextVar[str] = contextvars.ContextVar("lang", default="en")  # the caller's, for refusals
MESSAGE_CHARS = Limits.message_chars
HEARTBEAT_SECONDS = 10.0
PLAY_BACKLOG = 256  # answers and views a Play stream may hold for a client that is not reading
MOVED = object()  # a Play stream's outbox: the table left this server


def _status(code: str, reason: str, message: str, metadata: dict[str, str] | None = None) -> status_pb2.Status:
    info = error_details_pb2.ErrorInfo(reason=reason, domain="smear-dsl", metadata=metadata or {})
    detail = any_pb2.Any()
    detail.Pack(info)
    if len(message) > MESSAGE_CHARS:  # a status travels in trailers: past ~16 KB the client sees a transport error
        message = message[:MESSAGE_CHARS] + "..."
    return status_pb2.Status(code=getattr(code_pb2, code), message=message, details=[detail])


async def _abort(context: grpc.aio.ServicerContext, code: Code, message: str,
                 metadata: dict[str, str] | None = None) -> None:
    """End the call with `code`'s status and ErrorInfo (the one place a refusal leaves the service)."""
    await context.abort_with_status(rpc_status.to_status(_status(code.status, code.name, message, metadata)))


class AuthInterceptor(grpc.aio.ServerInterceptor):
    """Checks the `authorization: Bearer <token>` metadata of every call that needs one."""

    def __init__(self, tables: Tables):
        self.tables = tables

    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        if handler is None or details.method not in NEEDS_TOKEN:
            return handler
        meta = dict(details.invocation_metadata or ())
        try:
            who = await caller_of(self.tables, meta.get("authorization", ""))
        except RefereeError as e:
            return _deny(handler, e.code, e.message)
        return _with_caller(handler, who)


async def caller_of(tables: Tables, authorization: str) -> Identity:
    """Who `authorization: Bearer <token>` speaks for (UNAUTHENTICATED if nobody): for gRPC
    metadata and the web's HTTP header alike."""
    token = authorization[7:].strip() if authorization[:7].lower() == "bearer " else ""
    try:
        who = await tables.identify(token) if token else None
    except StoreDown as e:
        raise RefereeError(codes.STORE_FAILED, f"{e}; try again") from None
    if who is None:
        raise RefereeError(codes.UNAUTHENTICATED, "unknown token" if token else
                           "send `authorization: Bearer <token>` metadata")
    return who


async def optional_caller(tables: Tables, context) -> Identity | None:
    """Who the call's token speaks for, if it carries one that is known; None otherwise (a public read)."""
    meta = dict(context.invocation_metadata() or ())
    auth = meta.get("authorization", "")
    if not auth:
        return None
    try:
        return await caller_of(tables, auth)
    except RefereeError:
        return None


def _deny(handler, code: Code, message: str):
    async def unary(request, context):
        await _abort(context, code, message)

    async def stream(request, context):
        await _abort(context, code, message)
        yield  # pragma: no cover - unreachable, makes this an async generator

    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(stream, handler.request_deserializer, handler.response_serializer)
    if handler.stream_stream:
        return grpc.stream_stream_rpc_method_handler(stream, handler.request_deserializer, handler.response_serializer)
    return grpc.unary_unary_rpc_method_handler(unary, handler.request_deserializer, handler.response_serializer)


def _with_caller(handler, who: Identity):
    """The handler with the caller set for the call (server streams and bidirectional ones alike)."""
    def streaming(inner):
        async def wrapped(request_or_iterator, context):
            CALLER.set(who)
            async for item in inner(request_or_iterator, context):
                yield item
        return wrapped

    if handler.stream_stream:
        return grpc.stream_stream_rpc_method_handler(streaming(handler.stream_stream), handler.request_deserializer,
                                                     handler.response_serializer)
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(streaming(handler.unary_stream), handler.request_deserializer,
                                                    handler.response_serializer)
    inner_u = handler.unary_unary

    async def unary(request, context):
        CALLER.set(who)
        return await inner_u(request, context)
    return grpc.unary_unary_rpc_method_handler(unary, handler.request_deserializer, handler.response_serializer)


def _our_errors() -> tuple[type[BaseException], ...]:
    """What a call may fail with on purpose (a status for each: _abort_for); read when one is raised."""
    return (RefereeError, OptionError, ValueError, RuleError, StoreDown, StoreDamaged, *store_errors())


async def _abort_for(context, e: Exception) -> None:
    """End the call with the status for one of _our_errors()."""
    if isinstance(e, StoreDown):
        await _abort(context, codes.STORE_FAILED, f"{e}; try again")
    elif isinstance(e, StoreDamaged):
        await _abort(context, codes.damaged_code(e.what), str(e), {f"{e.what}_id": e.table_id})
    elif isinstance(e, store_errors()):  # a write the database did not take (it is down, or restarting)
        await _abort(context, codes.STORE_FAILED, "the database did not take the change; try again")
    elif isinstance(e, RefereeError):
        await _abort(context, e.code, e.message_in(LANG.get()), e.metadata)
    elif isinstance(e, (OptionError, ValueError)):
        await _abort(context, codes.BAD_OPTION, str(e))
    else:  # a RuleError
        diagnostics = e.diagnostics if isinstance(e, RuleError) else []
        await _abort(context, codes.BAD_RULES, _short(diagnostics[0]).format() if diagnostics else "bad rules")


def _short(d: Diagnostic) -> Diagnostic:
    """A diagnostic cut to a size a message can carry (the caller's own line, clipped)."""
    line = d.source_line
    if line is not None and len(line) > 200:
        line = line[:200] + "..."
    return Diagnostic(d.path[:200], d.line, d.col, d.message[:500], (d.hint or "")[:300] or None, line, d.severity)


def caller_language(context) -> str:
    """The language the caller reads (its `accept-language` metadata, as a browser sends it), for
    refusal messages; codes are the same in every language."""
    try:
        meta = context.invocation_metadata() or ()
        header = next((v for k, v in meta if k.lower() == "accept-language"), None)
    except (AttributeError, TypeError, ValueError):
        header = None
    return negotiate(header if isinstance(header, str) else None)


def guard(fn):
    """Turn our errors into statuses; an unexpected bug becomes INTERNAL, never a hang."""
    async def wrapper(self, request, context):
        LANG.set(caller_language(context))
        try:
            return await fn(self, request, context)
        except _our_errors() as e:
            await _abort_for(context, e)
    wrapper.__name__ = fn.__name__
    return wrapper


def guard_stream(fn):
    """guard for a streaming handler (an async generator)."""
    async def wrapper(self, request, context):
        LANG.set(caller_language(context))
        try:
            async for item in fn(self, request, context):
                yield item
        except _our_errors() as e:
            await _abort_for(context, e)
    wrapper.__name__ = fn.__name__
    return wrapper


class Referee(pb_grpc.RefereeServicer):
    def __init__(self, tables: Tables, sandbox: Sandbox):
        self.tables = tables
        self.limits = tables.limits
        self.sandbox = sandbox
        self.bots = HouseBots(tables)
        self.clock = TurnClock(tables, self.bots)
        self.jobs_by_address: Counter[str] = Counter()

    def admit(self, context) -> str:
        """The caller's address, if the sandbox would take a job from it now (BUSY otherwise). Asked
        before anything is done with the request, so a refusal costs next to nothing."""
        address = address_of(context.peer())
        if self.jobs_by_address[address] >= self.limits.sandbox_per_address:
            raise RefereeError(codes.BUSY, "your address has as many rule files and records being "
                               "checked as it may: wait for their answers")
        if self.sandbox.full():
            raise _server_busy()
        return address

    async def sandboxed(self, address: str, job: str, *args, seconds: float, too_slow: Code) -> dict:
        """Run a job (smear_referee/server/jobs.py) in the sandbox for a caller `admit` let in, counted
        against its address while it runs."""
        self.jobs_by_address[address] += 1
        try:
            return await self.sandbox.run(job, *args, seconds=seconds)
        except SandboxBusy:
            raise _server_busy() from None
        except SandboxTimeout:
            raise RefereeError(too_slow, f"stopped after {seconds:g} s") from None
        except SandboxFailed:
            raise RefereeError(too_slow, "it needed more memory than the server allows") from None
        finally:
            self.jobs_by_address[address] -= 1
            if not self.jobs_by_address[address]:
                del self.jobs_by_address[address]

    async def checked(self, context, text: str, name: str) -> dict:
        """An uploaded rule file checked in the sandbox: {"info", "seconds"} or {"diagnostics"}."""
        address = self.admit(context)
        done = await self.sandboxed(address, "check_rules", self.limited_text(text), name[:100],
                                    seconds=self.limits.compile_seconds, too_slow=codes.RULES_TOO_COMPLEX)
        if "error" in done:
            raise RefereeError(codes.BAD_RULES, done["error"])
        return done

    async def check_upload(self, context, text: str) -> None:
        """An uploaded rule file that is to seat tables: it must check clean, within table_compile_seconds."""
        done = await self.checked(context, text, "upload.yaml")
        if "diagnostics" in done:
            raise RefereeError(codes.BAD_RULES, _short(diagnostic(done["diagnostics"][0])).format())
        if done["seconds"] > self.limits.table_compile_seconds:
            raise RefereeError(codes.RULES_TOO_COMPLEX,
                               f"a table's rules must check in {self.limits.table_compile_seconds:g} s; these took "
                               f"{done['seconds']:.1f} s")

    def limited_text(self, text: str) -> str:
        n = len(text)  # characters; the UTF-8 size is 1 to 4 bytes each, so encode only when in doubt
        if n > self.limits.rules_bytes or 4 * n > self.limits.rules_bytes and \
                len(text.encode("utf-8", "replace")) > self.limits.rules_bytes:
            raise RefereeError(codes.RULES_TOO_LARGE,
                               f"rule files are limited to {self.limits.rules_bytes:,} bytes")
        return text

    def diagnostics(self, rows: list[tuple]) -> list[pb.Diagnostic]:
        out = []
        for row in rows[:self.limits.diagnostics]:
            d = _short(diagnostic(row))
            out.append(pb.Diagnostic(path=d.path, line=d.line, column=d.col, message=d.message, hint=d.hint or "",
                                     source_line=d.source_line or "", severity=d.severity))
        if len(rows) > self.limits.diagnostics:
            out.append(pb.Diagnostic(path=out[-1].path, line=out[-1].line, column=1,
                                     message=f"... and {len(rows) - self.limits.diagnostics} more problems"))
        return out

    def check_options(self, request) -> dict[str, str]:
        """The options (and seed) of a CreateTable or CreateTournament request, within their limits."""
        lim = self.limits
        options = request.options
        if len(options) > lim.options or any(len(k) > lim.option_chars or len(v) > lim.option_chars
                                             for k, v in options.items()):
            raise RefereeError(codes.BAD_OPTION,
                               f"at most {lim.options} options, each name and value at most {lim.option_chars} characters")
        if request.HasField("seed") and len(request.seed) > lim.seed_chars:
            raise RefereeError(codes.BAD_OPTION, f"a seed is at most {lim.seed_chars} characters")
        return dict(options)

    # ---- rules
    @guard
    async def ListRules(self, request, context):
        out = []
        for name in rule_names():
            try:
                out.append(rule_info(known_spec(name), LANG.get()))
            except RuleError:
                continue
        return pb.ListRulesResponse(rules=out)

    @guard
    async def CheckRules(self, request, context):
        done = await self.checked(context, request.text, request.file_name or "upload.yaml")
        if "diagnostics" in done:
            return pb.CheckRulesResponse(ok=False, diagnostics=self.diagnostics(done["diagnostics"]))
        return pb.CheckRulesResponse(ok=True, rules=pb.RuleInfo.FromString(done["info"]),
                                     diagnostics=self.diagnostics(done.get("warnings", [])))

    @guard
    async def ExplainRules(self, request, context):
        fmt = request.format or "md"
        if fmt not in ("md", "html"):
            raise RefereeError(codes.BAD_FORMAT, "format is md or html")
        lang = request.lang if request.lang in LANGUAGES else LANG.get()
        if request.WhichOneof("source") == "table_id":
            t = await self.tables.table_for(request.table_id, None)
            text = t.sheets.get((fmt, lang))
            if text is None:  # made once per table, format and language: a flood costs nothing more
                text = t.keep_sheet(fmt, lang, await asyncio.to_thread(render, t.spec, fmt, dict(t.rules.options),
                                                                       t.rules.players, lang))
            return pb.ExplainRulesResponse(text=text)
        if request.WhichOneof("source") != "text":
            return pb.ExplainRulesResponse(text=render(known_spec(known_rules(request.name)), fmt, lang=lang))
        address = self.admit(context)
        done = await self.sandboxed(address, "explain_rules", self.limited_text(request.text), fmt, lang,
                                    seconds=self.limits.compile_seconds, too_slow=codes.RULES_TOO_COMPLEX)
        if "text" not in done:
            raise RefereeError(codes.BAD_RULES, done.get("error") or
                               _short(diagnostic(done["diagnostics"][0])).format())
        return pb.ExplainRulesResponse(text=done["text"])

    # ---- tables
    @guard
    async def CreateTable(self, request, context):
        which = request.WhichOneof("rules")
        if which is None:
            raise RefereeError(codes.BAD_RULES, "name the rules (rules_name) or upload them (rules_text)")
        if request.players < 0 or request.players > 8:
            raise RefereeError(codes.BAD_PLAYERS, "players is 2..8 (0: the rules' first count)")
        options = self.check_options(request)
        address = address_of(context.peer())
        key = keyed(idem.CREATE, request.idempotency_key, request, self.limits.key_chars)
        if (done := await prior(self.tables, key)) is not None:  # a retry: the first call's table, not a new one
            t = await self.tables.table_for(done[1]["table_id"], None)
            return pb.CreateTableResponse(table_id=t.id, host_token=key.token(done[0], "host"), table=self.info(t))
        if which == "rules_text":
            self.tables.check_quota(address, True)  # before the compile, which is the costly part
            await self.check_upload(context, request.rules_text)
            text, name = request.rules_text, None
        else:
            text, name = None, known_rules(request.rules_name)
        try:
            table, host = await self.tables.create(name, text, options, request.players,
                                                   request.seed if request.HasField("seed") else None,
                                                   request.duplicate, max(0, request.hand_limit),
                                                   address=address, key=key, turn_seconds=request.turn_seconds)
        except RecursionError:
            raise RefereeError(codes.BAD_RULES, "the rule file nests too deeply") from None
        self.clock.arm(table)
        return pb.CreateTableResponse(table_id=table.id, host_token=host, table=self.info(table))

    @guard
    async def JoinTable(self, request, context):
        seat = request.seat if request.WhichOneof("role") == "seat" else None
        if request.WhichOneof("role") is None:
            raise RefereeError(codes.BAD_SEAT, "ask for a seat or to watch (spectator: true)")
        key = keyed(f"join:{request.table_id}", request.idempotency_key, request, self.limits.key_chars)
        table, token = await self.tables.join(request.table_id, seat, request.name, key)
        if seat is not None:
            self.clock.arm(table)  # the last seat taken starts the clock
        out = pb.JoinTableResponse(token=token, table=self.info(table))
        if seat is not None:
            out.seat = seat
        return out

    def info(self, t: Table) -> pb.TableInfo:
        return seen.info(t, spectators_allowed=t.seal is None and t.spectators < self.limits.spectators_per_table,
                      lang=LANG.get())

    @guard
    async def ListTables(self, request, context):
        limit = min(request.limit or 100, self.limits.list_tables)
        if limit < 0:
            raise RefereeError(codes.BAD_LIMIT, "limit is 0 (the default) or more")
        if self.tables.shards.clustered:  # the tables are spread over the replicas: the store lists them all
            return pb.ListTablesResponse(tables=await stored_lobby(self.tables, request.include_finished, limit,
                                                                   LANG.get()))
        return pb.ListTablesResponse(tables=[self.info(t) for t in self.tables.lobby(request.include_finished, limit)])

    @guard
    async def GetTable(self, request, context):
        t = await self.tables.table_for(request.table_id, None)
        await self.tables.next_table(t)  # a finished table names its rematch, once there is one
        return self.info(t)

    @guard
    async def Chat(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        if who.role not in ("seat", "spectator"):
            raise RefereeError(codes.NOT_A_SEAT, "chat with a seat's token (or a spectator's, when the host allows)")
        speaker = f"seat:{who.seat}" if who.role == "seat" else "spectators"  # spectators share one allowance
        name = t.seat_names[who.seat] if who.seat is not None else ""
        t.chat.say(speaker, who.seat, name, request, self.limits.chat_chars, self.limits.chat_per_minute)
        async with t.changed:
            t.changed.notify_all()
        return pb.ChatResponse()

    @guard
    async def ModerateChat(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        if who.role != "host":
            raise RefereeError(codes.NOT_THE_HOST, "the host moderates the table's chat")
        if any(not 0 <= s < t.rules.players for s in request.muted):
            raise RefereeError(codes.BAD_SEAT, f"seats are 0 to {t.rules.players - 1}")
        t.chat.moderate(set(request.muted), request.spectators_may_chat)
        return pb.ModerateChatResponse()

    @guard
    async def Rematch(self, request, context):
        who = CALLER.get()
        old = await self.tables.table_for(request.table_id, who)
        t, token = await self.tables.rematch(old, who, address_of(context.peer()))
        self.bots.watch(t)
        self.clock.arm(t)
        return pb.RematchResponse(table_id=t.id, token=token, table=self.info(t))

    @guard
    async def AddBots(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        if who.role not in ("host", "seat"):
            raise RefereeError(codes.NOT_THE_HOST, "the host seats bots in the free seats, and a "
                               "seat's token hands that seat to a bot; a spectator does neither")
        key = keyed(f"bots:{t.id}", request.idempotency_key, request, self.limits.key_chars)
        seat = request.seat if request.HasField("seat") else who.seat if who.role == "seat" else None
        seats = await self.tables.add_bots(t, request.kind or "heuristic", seat, key, by=who)
        self.bots.watch(t)
        self.clock.arm(t)
        return pb.AddBotsResponse(table=self.info(t), seats=seats)

    @guard
    async def TakeBackSeat(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        await self.tables.take_back(t, who)
        self.bots.release(t, who.seat)
        self.clock.arm(t)
        return pb.TakeBackSeatResponse(table=self.info(t))

    @guard
    async def GetView(self, request, context):
        who = CALLER.get()
        return (await self.tables.table_for(request.table_id, who)).view(who)

    @guard
    async def SubmitMove(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        replayed, _made = await self.tables.submit(t, who, request.move, request.expected_version,
                                                   request.idempotency_key)
        return pb.SubmitMoveResponse(view=t.view(who), replayed=replayed)

    @guard_stream
    async def WatchTable(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        with self.tables.metrics.streaming("watch_table"):
            async for event in streams.watch(self.tables, t, who, request.after_seq, HEARTBEAT_SECONDS):
                yield event

    @guard_stream
    async def WatchTurns(self, request, context):
        who = CALLER.get()
        t = await self._seat_table(request.table_id, who, "only a seat token has turns to watch")
        after = request.after_version if request.HasField("after_version") else -1
        with self.tables.metrics.streaming("watch_turns"):
            async for view in streams.turns(self.tables, t, who, after):
                yield view

    @guard_stream
    async def Play(self, request_iterator, context):
        who = CALLER.get()
        first = await _first(request_iterator)
        if first is None:
            return
        t = await self._seat_table(first.table_id, who, "only a seat token can play")
        seat = who.seat
        outbox: asyncio.Queue = asyncio.Queue()
        sent = first.after_version if first.HasField("after_version") else -1

        def turn() -> None:
            """Queue this seat's view if it must act at a version not sent yet (called after each move)."""
            nonlocal sent
            if t.moved:
                outbox.put_nowait(MOVED)
            elif t.turn_due(seat, sent):
                sent = t.version
                outbox.put_nowait(pb.PlayEvent(turn=t.view(who)))

        async def answer(req) -> None:
            outbox.put_nowait(pb.PlayEvent(result=await self._play_move(t, who, req)))

        room = asyncio.Event()  # set while the outbox is short: a client that sends without reading
        room.set()              # is not answered further until it reads (memory stays bounded)

        async def read() -> None:
            try:
                if first.HasField("move"):
                    await answer(first)
                async for req in request_iterator:
                    if outbox.qsize() >= PLAY_BACKLOG:
                        room.clear()
                        await room.wait()
                    await answer(req)
            finally:
                outbox.put_nowait(None)  # the client is done sending: end after what is queued

        with t.held(seat, turn, here=seat), self.tables.metrics.streaming("play"):
            turn()
            reader = asyncio.ensure_future(read())
            try:
                while True:
                    event = await outbox.get()
                    if event is None:
                        return
                    if event is MOVED:
                        raise self.tables.gone(t)
                    if outbox.qsize() < PLAY_BACKLOG // 2:
                        room.set()
                    yield event
            finally:
                reader.cancel()

    async def _play_move(self, t: Table, who: Identity, req: pb.PlayRequest) -> pb.MoveResult:
        """A move sent on a Play stream, answered: accepted with the version it made, or refused."""
        try:
            if req.table_id and req.table_id != t.id:
                raise RefereeError(codes.WRONG_TABLE, "this stream plays at another table")
            replayed, made = await self.tables.submit(t, who, req.move, req.expected_version, req.idempotency_key)
            return pb.MoveResult(accepted=True, replayed=replayed, version=made)
        except RefereeError as e:
            return pb.MoveResult(accepted=False, version=t.version, status=e.status, reason=e.reason,
                                 message=e.message_in(LANG.get()))

    async def _seat_table(self, table_id: str, who: Identity, refusal: str):
        """The caller's table, for a call only a seat may make (PERMISSION_DENIED / NOT_A_SEAT otherwise)."""
        t = await self.tables.table_for(table_id, who)
        if who.role != "seat" or who.seat is None:
            raise RefereeError(codes.NOT_A_SEAT, refusal)
        return t

    @guard
    async def GetRecord(self, request, context):
        who = CALLER.get()
        t = await self.tables.table_for(request.table_id, who)
        rec, complete = await self.tables.record(t, who)
        return pb.GetRecordResponse(record_json=json.dumps(rec), complete=complete)

    @guard
    async def VerifyRecord(self, request, context):
        verdict = await self.on_record(context, "verify_record", request.record_json, "verdict")
        return pb.VerifyRecordResponse(verdict_json=json.dumps(verdict), valid=bool(verdict.get("valid")))

    @guard
    async def ReplayRecord(self, request, context):
        if request.WhichOneof("source") == "table_id":
            t = await self.tables.table_for(request.table_id, None)
            if not t.game.finished:
                raise RefereeError(codes.GAME_NOT_OVER, "a table is replayed once its game is over")
            if await self.tables.sealed(t.seal):
                raise RefereeError(codes.ROUND_SEALED,
                                   "this table's duplicate round is still being played")
            record_json = json.dumps((await self.tables.record(t, Identity(t.id, "host", None)))[0])
        else:
            record_json = request.record_json
        done = await self.on_record(context, "replay_record", record_json, "replay")
        return pb.ReplayRecordResponse(replay_json=json.dumps(done), valid=bool(done["verdict"].get("valid")),
                                       record_json=record_json)

    async def on_record(self, context, job: str, record_json: str, key: str) -> dict:
        """A record job (smear_referee/server/jobs.py) in the sandbox, within the record limits."""
        if len(record_json) > self.limits.record_bytes:
            raise RefereeError(codes.RECORD_TOO_LARGE,
                               f"records are limited to {self.limits.record_bytes:,} characters")
        done = await self.sandboxed(self.admit(context), job, record_json, seconds=self.limits.verify_seconds,
                                    too_slow=codes.RECORD_TOO_COMPLEX)
        if "unreadable" in done:
            raise RefereeError(codes.BAD_RECORD, done["unreadable"])
        return done[key]


def _server_busy() -> RefereeError:
    return RefereeError(codes.BUSY, "the server is checking other rule files and records: "
                        "try again shortly")


async def _first(request_iterator):
    """The first message of a client stream, or None if the client sent none."""
    async for req in request_iterator:
        return req
    return None


def known_rules(name: str) -> str:
    """The exact version a request's rule name means (`name`: its latest; `name@1`: that one)."""
    if not is_known(name):
        base, version = split_ref(name)
        have = versions_of(base) if version is not None else []
        raise RefereeError(codes.UNKNOWN_RULES, f"no rule file {clip(name)} on this server" +
                           (f" ({base} has version{'s' if len(have) > 1 else ''} {', '.join(map(str, have))})"
                            if have else ""))
    return latest_ref(name)
