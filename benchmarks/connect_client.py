"""A small asyncio client of the referee's web port, for benchmarks: Connect unary calls (JSON) on one
kept-alive HTTP/1.1 connection, and Connect server streams, as a browser makes them."""
from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import AsyncIterator
from typing import Any


class Connect:
    """One kept-alive connection to the web port at host:port (reopened if the server closed it)."""

    def __init__(self, host: str, port: int, token: str | None = None, source: str | None = None):
        self.host, self.port, self.token, self.source = host, port, token, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        local = (self.source, 0) if self.source else None
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=local)

    async def call(self, method: str, body: dict[str, Any], service: str = "Referee") -> tuple[int, dict]:
        payload = json.dumps(body).encode()
        head = (f"POST /smear.referee.v1.{service}/{method} HTTP/1.1\r\nhost: {self.host}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(payload)}\r\n"
                + (f"authorization: Bearer {self.token}\r\n" if self.token else "") + "\r\n").encode()
        for attempt in (0, 1):
            if self.writer is None:
                await self._open()
            try:
                self.writer.write(head)  # headers, then the body: two writes, as browsers and http.client send
                await self.writer.drain()
                self.writer.write(payload)
                await self.writer.drain()
                status, headers, data = await read_answer(self.reader)
                if headers.get("connection") == "close":
                    self.close()
                return status, json.loads(data or b"{}")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 answer: its status, headers and whole body (content-length or chunked)."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    headers = await _headers(reader)
    if headers.get("transfer-encoding") == "chunked":
        body = b""
        while True:
            size = int((await reader.readline()).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                return status, headers, body
            body += chunk[:-2]
    return status, headers, await reader.readexactly(int(headers.get("content-length", "0")))


async def _headers(reader: asyncio.StreamReader) -> dict[str, str]:
    out = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return out
        k, _, v = line.decode("latin-1").partition(":")
        out[k.strip().lower()] = v.strip()


async def stream(host: str, port: int, method: str, body: dict[str, Any], token: str | None = None
                 ) -> AsyncIterator[dict]:
    """A Connect server stream's messages as they arrive (JSON envelopes over a chunked answer)."""
    reader, writer = await asyncio.open_connection(host, port)
    payload = json.dumps(body).encode()
    env = struct.pack(">BI", 0, len(payload)) + payload
    writer.write((f"POST /smear.referee.v1.Referee/{method} HTTP/1.1\r\nhost: {host}\r\n"
                  f"content-type: application/connect+json\r\ncontent-length: {len(env)}\r\n"
                  + (f"authorization: Bearer {token}\r\n" if token else "") + "\r\n").encode() + env)
    await writer.drain()
    try:
        await reader.readline()
        await _headers(reader)
        buf = b""
        while True:
            size = int((await reader.readline()).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                return
            buf += chunk[:-2]
            while len(buf) >= 5:
                flags, n = struct.unpack(">BI", buf[:5])
                if len(buf) < 5 + n:
                    break
                msg, buf = json.loads(buf[5:5 + n] or b"{}"), buf[5 + n:]
                if flags & 2:
                    return
                yield msg
    finally:
        writer.close()
