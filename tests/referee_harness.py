"""A real referee server for tests: in a thread of this process on 127.0.0.1 port 0, or as a
separate process (for kill -9), always on a real SQLite file."""
from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import grpc
import pytest
from conftest import ROOT

from smear_referee.api import referee_pb2 as pb
from smear_referee.app import ServerThread as _ServerThread
from smear_referee.clients.client import Client, bearer, error_reason  # noqa: F401 (bearer: for the tests)
from smear_referee.limits import Limits

# An uploaded rule file seats a table only if its check took at most Limits.table_compile_seconds (1 s): a
# verdict a loaded machine could change. Test servers allow 30 s unless a test gives limits of its own
# (tests/referee/test_security.py tests the limit).
TEST_COMPILE_SECONDS = 30.0


class ServerThread(_ServerThread):
    """The library's in-process server, with a client factory for tests (and a compile limit no load reaches)."""

    def __init__(self, db: str, *args, limits: Limits | None = None, **kwargs):
        super().__init__(db, *args, limits=limits or Limits(table_compile_seconds=TEST_COMPILE_SECONDS), **kwargs)

    def client(self, token: str | None = None) -> Client:
        return Client(self.target, token)


class ServerProcess:
    """`smear-dsl serve` as a child process; it prints the port it bound."""

    def __init__(self, db: str, *args: str, log: str | None = None, site: str | None = None):
        """`log`: a file for the server's stderr (a pipe nobody reads would stop a server that logs a lot);
        `site`: a folder whose `smear_dsl` the server runs instead of the checkout's (an upgraded package)."""
        env = dict(os.environ, PYTHONUNBUFFERED="1", **({"PYTHONPATH": site} if site else {}))
        self.log = log
        err = open(log, "w") if log else subprocess.PIPE
        if "--limit" not in args:
            args = (*args, "--limit", f"table_compile_seconds={TEST_COMPILE_SECONDS:g}")
        self.proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db, *args],
                                     cwd=site or ROOT, stdout=subprocess.PIPE, stderr=err, text=True, env=env)
        if log:
            err.close()
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            why = (open(log).read() if log else self.proc.stderr.read()) if self.proc.poll() is not None else ""
            raise RuntimeError(f"server did not start: {line!r} {why}")
        self.port = int(line.strip().rsplit(":", 1)[1])
        self.target = f"127.0.0.1:{self.port}"
        self.url = self.proc.stdout.readline().split()[-1] if "--web" in args else None  # "web client: URL"

    def client(self, token: str | None = None) -> Client:
        return Client(self.target, token)

    def rss(self) -> tuple[int, int]:
        """(resident, peak resident) bytes of the server's process, from /proc."""
        fields = dict(line.split(":", 1) for line in open(f"/proc/{self.proc.pid}/status"))
        return tuple(int(fields[k].split()[0]) * 1024 for k in ("VmRSS", "VmHWM"))

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        time.sleep(0.05)


def fails(call, status, reason):
    """The call fails with this gRPC status and ErrorInfo reason; returns the error."""
    with pytest.raises(grpc.RpcError) as e:
        call()
    assert e.value.code() == status, (e.value.code(), e.value.details())
    assert error_reason(e.value) == reason, (error_reason(e.value), e.value.details())
    return e.value


def connect_call(base: str, method: str, body: dict, token: str | None = None, service: str = "Referee",
                 timeout: float = 30) -> tuple[int, dict]:
    """A unary Connect-protocol call (JSON) as a browser makes it: (HTTP status, JSON body)."""
    import json
    import urllib.error
    import urllib.request
    headers = {"content-type": "application/json", **({"authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(f"{base}/smear.referee.v1.{service}/{method}", data=json.dumps(body).encode(),
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:  # not a Connect error: the HTTP server's own (a 503 past the connection limit)
            return e.code, {"text": raw.decode(errors="replace")}


def connect_stream(base: str, method: str, body: dict, token: str | None = None, stop=lambda msg: False,
                   timeout: float = 60) -> list[dict]:
    """A server-streaming Connect call (JSON envelopes): every message until `stop(message)` is true or
    the stream ends; the end-of-stream message's error, if any, is returned as {"error": ...}."""
    import http.client
    import json
    import struct
    from urllib.parse import urlsplit
    u = urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    payload = json.dumps(body).encode()
    headers = {"content-type": "application/connect+json", "connect-protocol-version": "1",
               **({"authorization": f"Bearer {token}"} if token else {})}
    conn.request("POST", f"/smear.referee.v1.Referee/{method}", body=struct.pack(">BI", 0, len(payload)) + payload,
                 headers=headers)
    resp = conn.getresponse()
    out: list[dict] = []
    try:
        while True:
            head = resp.read(5)
            if len(head) < 5:
                break
            flags, n = struct.unpack(">BI", head)
            msg = json.loads(resp.read(n) or b"{}")
            if flags & 2:  # end of stream
                if "error" in msg:
                    out.append({"error": msg["error"]})
                break
            out.append(msg)
            if stop(msg):
                break
    finally:
        conn.close()
    return out


def wait_for(pred, seconds=30.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("timed out")


def play_against_bots(srv, table_id: str, token: str, rng: random.Random, stop_at: int | None = None) -> pb.View:
    """Play seat `token`'s legal moves (chosen by `rng`) whenever it must act, until the game ends
    (or the table reaches version `stop_at`)."""
    me = srv.client(token)
    while True:
        view = wait_for(lambda: (lambda v: v if v.finished or v.legal_moves or
                                 (stop_at is not None and v.version >= stop_at) else None)(me.view(table_id)))
        if view.finished or (stop_at is not None and view.version >= stop_at):
            return view
        me.submit(table_id, rng.choice(list(view.legal_moves)), view.version)
