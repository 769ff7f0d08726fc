"""The referee for browsers: the same services over the Connect protocol, and the web client's files.

Every Connect call runs the very servicer method a gRPC call runs (`Referee`, `TournamentService`),
with the same token check (`caller_of`) and the same statuses: a `ConnectError` carrying the
google.rpc.ErrorInfo a gRPC client gets. There is no second API to disagree with the first.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from pathlib import Path
from typing import Any

import uvicorn
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.protobuf import descriptor as _descriptor
from google.rpc import code_pb2, error_details_pb2, status_pb2
from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles

from smear_referee.api import referee_connect as rc
from smear_referee.api import referee_pb2 as pb
from smear_referee.errors import RefereeError
from smear_referee.server.h11guard import guarded_protocol
from smear_referee.server.service import CALLER, NEEDS_TOKEN, caller_of
from smear_referee.server.webguard import AddressLog, CappedGzip, Guard, SafeCodec, WebLimits
from smear_referee.tables.registry import Tables

STATIC = Path(__file__).parent.parent / "static"  # built from clients/web by its `npm run build`
_CONNECT_CODES = {code_pb2.CANCELLED: Code.CANCELED} | {
    getattr(code_pb2, c.name): c for c in Code if hasattr(code_pb2, c.name)}


class _Context:
    """What the servicers ask of a gRPC context, answered for a Connect call."""

    def __init__(self, ctx: Any):
        self._ctx = ctx

    def peer(self) -> str:
        address = self._ctx.client_address() or ""
        host = address.rsplit(":", 1)[0]
        return f"ipv6:[{host}]:0" if ":" in host else f"ipv4:{address}" if address else "unknown"

    def invocation_metadata(self) -> tuple:
        return tuple(self._ctx.request_headers().items())

    async def abort_with_status(self, status: Any) -> None:
        """The gRPC rich status as a ConnectError with the same code, message and ErrorInfo."""
        raw = dict(status.trailing_metadata or ()).get("grpc-status-details-bin")
        details = []
        if raw:
            st = status_pb2.Status.FromString(raw)
            for d in st.details:
                info = error_details_pb2.ErrorInfo()
                if d.Unpack(info):
                    details.append(info)
        code = _CONNECT_CODES.get(status.code.value[0], Code.UNKNOWN)
        raise ConnectError(code, status.details or "", details=details)


def _bridge(servicer: Any, service: _descriptor.ServiceDescriptor, tables: Tables) -> Any:
    """An object with the Connect protocol's snake_case methods, each calling the servicer's method."""
    methods = {}
    for m in service.methods:
        needs_token = f"/{service.full_name}/{m.name}" in NEEDS_TOKEN
        fn = getattr(servicer, m.name)
        snake = "".join("_" + c.lower() if c.isupper() else c for c in m.name).lstrip("_")
        methods[snake] = _stream(fn, needs_token, tables) if m.server_streaming else _unary(fn, needs_token, tables)
    return type(f"{service.name}Connect", (), methods)()


async def _authorize(ctx: Any, needs_token: bool, tables: Tables) -> None:
    if needs_token:
        try:
            CALLER.set(await caller_of(tables, ctx.request_headers().get("authorization", "")))
        except RefereeError as e:
            raise ConnectError(Code.UNAVAILABLE if e.status == "UNAVAILABLE" else Code.UNAUTHENTICATED, e.message,
                               details=[error_details_pb2.ErrorInfo(reason=e.reason, domain="smear-dsl")]) from None


def _unary(fn, needs_token: bool, tables: Tables):
    async def call(self, request, ctx):
        await _authorize(ctx, needs_token, tables)
        return await fn(request, _Context(ctx))
    return call


def _stream(fn, needs_token: bool, tables: Tables):
    async def call(self, request, ctx):
        await _authorize(ctx, needs_token, tables)
        async for item in fn(request, _Context(ctx)):
            yield item
    return call


async def _until_gone(app: Any, scope: dict, receive: Any, send: Any) -> None:
    """A Connect call, ended as soon as its browser goes away. A server stream's client that closes is heard
    (connectrpc watches for it) but only acted on at the stream's next message, a heartbeat up to ten seconds
    later; until then the stream and all it holds stay. So the call is cancelled when the disconnect comes."""
    me = asyncio.current_task()
    assert me is not None  # called inside the request's task
    gone = False

    async def heard():
        nonlocal gone
        message = await receive()
        if message["type"] == "http.disconnect" and not gone:
            gone = True
            me.cancel()
        return message

    try:
        return await app(scope, heard, send)
    except ConnectError as e:  # a stream cut by the server's shutdown: nothing to report
        if e.code != Code.CANCELED:
            raise
        return None
    except asyncio.CancelledError:
        if not gone or me.uncancel() > 0:  # cancelled for another reason too (the server stopping): go on
            raise
        return None


class _App:
    """Connect calls by path; everything else is the web client's files."""

    def __init__(self, referee: Any, tournament: Any, club: Any, tables: Tables, read_max_bytes: int):
        svc = pb.DESCRIPTOR.services_by_name
        gzip = [CappedGzip(read_max_bytes)]  # a message in a query string or an envelope inflates only so far
        self.routes = {
            f"/{svc['Referee'].full_name}/": rc.RefereeASGIApplication(
                _bridge(referee, svc["Referee"], tables), read_max_bytes=read_max_bytes, compressions=gzip),
            f"/{svc['Tournament'].full_name}/": rc.TournamentASGIApplication(
                _bridge(tournament, svc["Tournament"], tables), read_max_bytes=read_max_bytes, compressions=gzip),
            f"/{svc['Club'].full_name}/": rc.ClubASGIApplication(
                _bridge(club, svc["Club"], tables), read_max_bytes=read_max_bytes, compressions=gzip),
        }
        for app in self.routes.values():
            # A request that does not decode is INVALID_ARGUMENT, not an unexpected error. The generated
            # applications take no codecs, so their (connectrpc <0.11) table of them is replaced;
            # test_web_hardening checks that malformed requests get invalid_argument.
            app._codecs = {name: SafeCodec(codec) for name, codec in app._codecs.items()}
        self.files = StaticFiles(directory=STATIC, html=True, check_dir=False)

    def is_api(self, path: str) -> bool:
        return path.startswith(tuple(self.routes))

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            path = scope["path"]
            for prefix, app in self.routes.items():
                if path.startswith(prefix):
                    return await _until_gone(app, scope, receive, send)
            if path.startswith(("/t/", "/replay", "/tournament", "/club")):  # the client's own routes: its page
                scope = dict(scope, path="/")
        try:
            return await self.files(scope, receive, send)
        except HTTPException as e:
            return await PlainTextResponse(e.detail, e.status_code)(scope, receive, send)


class WebServer:
    """The web port: uvicorn on the referee's event loop (so a browser's call and a gRPC call meet
    the same tables under the same locks)."""

    def __init__(self, app: _App, sock: socket.socket, tls: tuple[str, str] | None, limits: WebLimits):
        kw: dict[str, Any] = {"ssl_certfile": tls[0], "ssl_keyfile": tls[1]} if tls else {}
        logs = AddressLog(limits.log_lines)
        config = uvicorn.Config(Guard(app, limits, logs, app.is_api), lifespan="off", log_level="warning",
                                access_log=False, timeout_graceful_shutdown=1, ws="none",
                                http=(protocol := guarded_protocol(limits, logs)), limit_concurrency=limits.connections,
                                timeout_keep_alive=limits.idle_seconds,  # type: ignore[arg-type]  # a float works
                                h11_max_incomplete_event_size=64 * 1024, **kw)
        config.load()
        self.server = uvicorn.Server(config)
        self.server.lifespan = config.lifespan_class(config)
        self.sock = sock
        self.port = sock.getsockname()[1]
        self.counts = protocol.counts  # open connections per address (the metrics read their sum)

    async def start(self) -> None:
        await self.server.startup(sockets=[self.sock])

    async def stop(self) -> None:
        """Close the port; open streams (a browser watching) are cut, and their clients reconnect elsewhere."""
        quiet = logging.getLogger("uvicorn.error")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)  # "Cancel N running task(s)": the cut streams, expected here
        try:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.shutdown(sockets=[self.sock]), 5)
        finally:
            quiet.setLevel(level)


def listen(host: str, port: int) -> socket.socket:
    """A listening socket for the web port (OSError if taken). Made as TCP explicitly: asyncio sets
    TCP_NODELAY on accepted sockets only when `proto` says TCP (a socket made with 0 does not)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def web_server(referee: Any, tournament: Any, club: Any, tables: Tables, host: str, port: int, read_max_bytes: int,
               tls: tuple[str, str] | None = None) -> WebServer:
    lim = tables.limits
    limits = WebLimits(min(read_max_bytes, lim.web_body_bytes), lim.web_header_seconds, lim.web_body_seconds,
                       lim.web_idle_seconds, lim.web_connections, lim.web_connections_per_address, lim.web_log_lines)
    return WebServer(_App(referee, tournament, club, tables, limits.body_bytes), listen(host, port), tls, limits)
