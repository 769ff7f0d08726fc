"""The web port's defences against strangers: limits enforced as bytes arrive, one error per bad request.

Two layers, each doing what the other cannot:
- `guarded_protocol`: uvicorn's own HTTP/1.1 protocol with what it lacks at the connection level:
  TCP_NODELAY (answers are written in several pieces; Nagle would hold them for the delayed ACK),
  a cap on connections per address, and a deadline for a request's headers (a connection that
  trickles them, or sends nothing, is closed).
- `Guard`: an ASGI wrapper around the app: the body cap counted on decompressed bytes while
  decompressing (so a gzip bomb stops at the cap, unread), a body deadline, security headers on
  every answer, and one short log line (bounded per address) instead of a traceback.
uvicorn's own settings cover the rest: `limit_concurrency` (all connections), `timeout_keep_alive`
(idle between requests), `h11_max_incomplete_event_size` (the size of the headers).
"""
from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
import traceback
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from connectrpc.code import Code
from connectrpc.errors import ConnectError

log = logging.getLogger("smear_dsl.web")

# Content types whose body is a sequence of envelopes (flag byte, 4-byte length, message): Connect
# streams and gRPC-Web. Their compression is per message, named by another header.
ENVELOPED = (b"application/connect+", b"application/grpc-web", b"application/grpc")
MESSAGE_ENCODINGS = (b"connect-content-encoding", b"grpc-encoding")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]
HSTS = (b"strict-transport-security", b"max-age=31536000")


@dataclass(frozen=True)
class WebLimits:
    """What one request or connection to the web port may cost (Limits' web_* fields)."""

    body_bytes: int              # a request body, counted after decompression
    header_seconds: float        # from a connection's opening (or its previous answer) to a request's full headers
    body_seconds: float          # to receive a request's whole body
    idle_seconds: float          # a kept-alive connection with no request
    connections: int             # open connections, all addresses
    per_address: int             # open connections from one address
    log_lines: int               # log lines one address may cause a minute (then one summary)


# The address of the web request being answered and the log it counts against (set by Guard).
_CALLER: contextvars.ContextVar[tuple[str, AddressLog] | None] = contextvars.ContextVar("web_caller", default=None)


def note_bad_request(line: str) -> None:
    """One log line for a request that did not read, counted against its address."""
    caller = _CALLER.get()
    if caller is not None:
        caller[1].note(caller[0], line)


class TooLarge(Exception):
    """A body (or a message in it) grew past the cap while it was being read."""


# ---- logs
class AddressLog:
    """One line per event, at most `per_minute` a minute from one address (then one summary line)."""

    ADDRESSES = 10_000  # addresses remembered (the oldest forgotten first)

    def __init__(self, per_minute: int, logger: logging.Logger = log, kind: str = "web"):
        self.per_minute, self.logger, self.kind = per_minute, logger, kind
        self.seen: OrderedDict[str, list] = OrderedDict()  # address -> [window start, lines, suppressed]

    def note(self, address: str, line: str, level: int = logging.WARNING) -> None:
        now = time.monotonic()
        entry = self.seen.get(address)
        if entry is None or now - entry[0] >= 60:
            if entry is not None and entry[2]:
                self.logger.warning("%s %s: %d more lines suppressed in the last minute", self.kind, address, entry[2])
            entry = [now, 0, 0]
            self.seen[address] = entry
        self.seen.move_to_end(address)
        while len(self.seen) > self.ADDRESSES:
            self.seen.popitem(last=False)
        if entry[1] < self.per_minute:
            entry[1] += 1
            self.logger.log(level, "%s %s: %s", self.kind, address, printable(line[:300]))
        else:
            entry[2] += 1


def printable(text: str) -> str:
    """Text for a log line: what a stranger sent may hold no control or format character (a newline
    would forge a line, an escape sequence would drive the operator's terminal)."""
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}"
                   for ch in text)


# ---- bodies
def _decompressor(encoding: bytes) -> Callable[[bytes, int], bytes] | None:
    """A function (chunk, room) -> at most room+1 decompressed bytes, keeping its own state; None if
    the encoding is not one we read."""
    if encoding in (b"", b"identity"):
        return None
    if encoding in (b"gzip", b"x-gzip", b"deflate"):
        d = zlib.decompressobj(zlib.MAX_WBITS | 32)  # gzip or zlib header, detected

        def feed(chunk: bytes, room: int) -> bytes:
            out = d.decompress(chunk, room + 1)  # never more than one byte past the room (0 would mean no limit)
            if len(out) > room:
                raise TooLarge()
            return out
        return feed
    raise ValueError(encoding.decode("latin-1")[:40])


def inflate(data: bytes, encoding: bytes, cap: int) -> bytes:
    """A whole compressed message, decompressed without ever holding more than cap+1 bytes."""
    feed = _decompressor(encoding)
    if feed is None:
        if len(data) > cap:
            raise TooLarge()
        return data
    return feed(data, cap)


class CappedGzip:
    """connectrpc's gzip with a cap: a message in a query string or an envelope never inflates past it."""

    def __init__(self, cap: int):
        self.cap = cap

    def name(self) -> str:
        return "gzip"

    def compress(self, data) -> bytes:
        import gzip
        return gzip.compress(bytes(data), compresslevel=6)

    def decompress(self, data) -> bytes:
        try:
            return inflate(bytes(data), b"gzip", self.cap)
        except TooLarge:
            raise ConnectError(Code.RESOURCE_EXHAUSTED, f"a message may be at most {self.cap:,} bytes") from None
        except zlib.error as e:
            raise ConnectError(Code.INVALID_ARGUMENT, f"the message is not valid gzip: {e}") from None


class SafeCodec:
    """A connectrpc codec whose decode turns any failure to read a request into INVALID_ARGUMENT."""

    def __init__(self, inner: Any):
        self.inner = inner

    def name(self) -> str:
        return self.inner.name()

    def encode(self, message) -> bytes:
        return self.inner.encode(message)

    def decode(self, data, message):
        try:
            return self.inner.decode(data, message)
        except RecursionError:
            why = "the request nests too deeply"
        except Exception as e:  # noqa: BLE001 - protobuf's DecodeError, ParseError, UnicodeDecodeError, ...
            why = f"the request is not a valid {message.DESCRIPTOR.name}: {_first_line(e)}"
        note_bad_request(f"malformed {self.name()} request: {why}")
        raise ConnectError(Code.INVALID_ARGUMENT, why)


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:200]


class Guard:
    """The ASGI wrapper of the web port (see the module docstring)."""

    def __init__(self, app: Any, limits: WebLimits, logs: AddressLog, is_api: Callable[[str], bool]):
        self.app, self.limits, self.logs, self.is_api = app, limits, logs, is_api

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        address = (scope.get("client") or ("unknown",))[0]
        _CALLER.set((address, self.logs))
        started = False
        extra = SECURITY_HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])

        async def send_secured(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message, headers=[*message.get("headers", ()), *extra])
            await send(message)

        try:
            if self.is_api(scope["path"]) and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
                try:
                    scope, receive = await self._read_body(scope, receive)
                except _Refusal as r:
                    self.logs.note(address, f"{scope['method']} {scope['path'][:100]}: {r.status} {r.message}")
                    return await _refuse(send_secured, r)
            return await self.app(scope, receive, send_secured)
        except Exception as e:  # noqa: BLE001 - one line, never a traceback; the caller gets an error, not a hang
            where = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
            self.logs.note(address, f"{scope['method']} {scope['path'][:100]} failed: {type(e).__name__}: "
                           f"{_first_line(e)}" + (f" (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})"
                                                  if where else ""), logging.ERROR)
            if not started:
                await _refuse(send_secured, _Refusal(500, "internal", "the server failed on this request"))

    async def _read_body(self, scope, receive):
        """The whole body read within the deadline and the cap (decompressed as it arrives), and the
        scope and receive the app gets instead: identity encoding, the body handed over at once."""
        headers = scope.get("headers", [])
        get = {k.lower(): v for k, v in headers}
        cap = self.limits.body_bytes
        encoding = get.get(b"content-encoding", b"").strip().lower()
        try:
            feed = _decompressor(encoding)
        except ValueError:
            raise _Refusal(415, "unimplemented", f"content-encoding {encoding.decode('latin-1')[:40]!r} is not "
                           "accepted: gzip or none") from None
        length = get.get(b"content-length")
        if length is not None:
            if not length.strip().isdigit():
                raise _Refusal(400, "invalid_argument", "content-length is not a number")
            if int(length) > cap:
                raise _Refusal(413, "resource_exhausted", f"a request may be at most {cap:,} bytes")
        body = await self._receive_all(receive, feed, encoding)
        kept = [(k, v) for k, v in headers if k.lower() not in (b"content-encoding", b"content-length")]
        if get.get(b"content-type", b"").lower().startswith(ENVELOPED):
            names = [k.lower() for k, _ in headers if k.lower() in MESSAGE_ENCODINGS]
            message_encoding = get.get(names[0], b"identity").strip().lower() if names else b"identity"
            try:
                body = _open_envelopes(body, message_encoding, cap)
            except TooLarge:
                raise _Refusal(413, "resource_exhausted", f"a message may be at most {cap:,} bytes") from None
            except (ValueError, zlib.error) as e:
                raise _Refusal(400, "invalid_argument", f"the request's messages do not read: {_first_line(e)}") \
                    from None
            kept = [(k, b"identity" if k.lower() in MESSAGE_ENCODINGS else v) for k, v in kept]
        kept.append((b"content-length", str(len(body)).encode()))
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only a disconnect can come

        return dict(scope, headers=kept), replay

    async def _receive_all(self, receive, feed, encoding: bytes) -> bytes:
        """The body's chunks as they arrive, decompressed with `feed` (None: as sent), refused at the
        cap (raw or decompressed) or past the body deadline."""
        cap, limit = self.limits.body_bytes, self.limits.body_seconds
        deadline = time.monotonic() + limit
        raw = size = 0
        chunks: list[bytes] = []
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                raise _Refusal(408, "deadline_exceeded", f"the request's body took longer than {limit:g} s to "
                               "arrive") from None
            if message["type"] == "http.disconnect":
                raise _Gone()
            chunk = message.get("body", b"")
            raw += len(chunk)
            if raw > cap:
                raise _Refusal(413, "resource_exhausted", f"a request may be at most {cap:,} bytes")
            if chunk:
                try:
                    out = chunk if feed is None else feed(chunk, cap - size)
                except TooLarge:
                    raise _Refusal(413, "resource_exhausted", f"a request may be at most {cap:,} bytes once "
                                   "decompressed") from None
                except zlib.error as e:
                    raise _Refusal(400, "invalid_argument", f"the body is not valid {encoding.decode()}: {e}") \
                        from None
                size += len(out)
                chunks.append(out)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _open_envelopes(body: bytes, encoding: bytes, cap: int) -> bytes:
    """The envelopes of a stream's body with every compressed message decompressed (within the cap)
    and marked uncompressed."""
    out = bytearray()
    i = 0
    while i < len(body):
        if len(body) - i < 5:
            raise ValueError("a message's envelope is cut short")
        flags = body[i]
        n = int.from_bytes(body[i + 1:i + 5], "big")
        if n > cap:
            raise TooLarge()
        data = body[i + 5:i + 5 + n]
        if len(data) < n:
            raise ValueError("a message is cut short")
        if flags & 1:
            if encoding in (b"", b"identity"):
                raise ValueError("a message is marked compressed but the stream names no compression")
            data = inflate(data, encoding, cap)
            flags &= ~1
        out += bytes([flags]) + len(data).to_bytes(4, "big") + data
        i += 5 + n
    return bytes(out)


class _Refusal(Exception):
    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class _Gone(_Refusal):
    """The client left while sending its body: nobody to answer."""

    def __init__(self):
        super().__init__(499, "canceled", "the client closed the connection")


async def _refuse(send, r: _Refusal) -> None:
    """A Connect error (its JSON body names the code) with the HTTP status; the connection closes
    (what is left of the body is never read)."""
    if isinstance(r, _Gone):
        return
    body = json.dumps({"code": r.code, "message": r.message}).encode()
    await send({"type": "http.response.start", "status": r.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body, "more_body": False})
