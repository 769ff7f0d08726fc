"""The web port against strangers (issue 29): bombs, big and slow bodies, slow and many connections,
malformed requests, security headers and TCP_NODELAY, each tried over real sockets against a real
`smear-dsl serve` (its own process, so its memory can be read) on 127.0.0.1."""
from __future__ import annotations

import gzip
import json
import socket
import struct
import time
import urllib.request
import zlib

import pytest
from referee_harness import ServerProcess, ServerThread, connect_call

from smear_referee.limits import Limits

CAP = 4 * 1024 * 1024
MB = 1024 * 1024
QUICK = ["--limit", "web_header_seconds=1", "--limit", "web_body_seconds=1.5", "--limit", "web_idle_seconds=1",
         "--limit", "web_connections_per_address=20", "--limit", "web_log_lines=10"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("hardening")
    srv = ServerProcess(str(d / "r.sqlite3"), "--web", "0", *QUICK, log=str(d / "server.log"))
    srv.web_port = int(srv.url.rstrip("/").rsplit(":", 1)[1])
    yield srv
    srv.stop()


def request(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
            length: int | None = None) -> bytes:
    head = [f"{method} {path} HTTP/1.1", "host: 127.0.0.1"]
    for k, v in (headers or {}).items():
        head.append(f"{k}: {v}")
    head.append(f"content-length: {len(body) if length is None else length}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def dial(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(20)
    s.connect(("127.0.0.1", port))
    return s


def answer(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP answer: (status, headers, body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {data[:200]!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        while not body.endswith(b"0\r\n\r\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
        out, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size, 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        return int(lines[0].split()[1]), headers, out
    n = int(headers.get("content-length", "0"))
    while len(body) < n:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def closed_within(s: socket.socket, seconds: float) -> bool:
    """Whether the server closes this connection within `seconds` (reading whatever it sends)."""
    s.settimeout(seconds)
    try:
        while s.recv(65536):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def api(server, method: str) -> str:
    return f"/smear.referee.v1.Referee/{method}"


def honest(server) -> int:
    status, _body = connect_call(server.url.rstrip("/"), "ListTables", {}, timeout=10)
    return status


def log_of(server) -> str:
    return open(server.log).read()


def test_a_gzip_bomb_stops_at_the_cap_unread_and_costs_no_memory(server):
    bomb = gzip.compress(b"\0" * (256 * MB), compresslevel=9)
    assert len(bomb) < 300_000
    _rss, peak_before = server.rss()
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "CreateTable"), bomb, {"content-type": "application/json",
                                                                   "content-encoding": "gzip"}))
    status, headers, body = answer(s)
    assert status == 413 and json.loads(body)["code"] == "resource_exhausted"
    assert headers["connection"] == "close"
    # A stream's own compression (Connect's per-message gzip) is capped the same way.
    envelope = struct.pack(">BI", 1, len(bomb)) + bomb
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "WatchTable"), envelope, {"content-type": "application/connect+json",
                                                                    "connect-content-encoding": "gzip"}))
    status, _h, body = answer(s)
    assert status == 413 and json.loads(body)["code"] == "resource_exhausted"
    _rss, peak_after = server.rss()
    assert peak_after - peak_before < 50 * MB, (peak_before, peak_after)
    assert honest(server) == 200


def test_a_body_past_the_cap_is_refused_before_it_is_read(server):
    """A 100 MB body: refused on its content-length, while the client has sent almost none of it."""
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "CheckRules"), b"{", {"content-type": "application/json"},
                      length=100 * MB))
    status, headers, body = answer(s)
    assert status == 413 and json.loads(body)["code"] == "resource_exhausted"
    # Without a length (chunked), the server stops at the cap: it answers while the client still sends.
    s = dial(server.web_port)
    s.sendall(b"POST " + api(server, "CheckRules").encode() + b" HTTP/1.1\r\nhost: x\r\ncontent-type: "
              b"application/json\r\ntransfer-encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n" % MB + b" " * MB + b"\r\n"
    sent = 0
    s.settimeout(5)
    try:
        for _ in range(100):
            s.sendall(chunk)
            sent += MB
    except (BrokenPipeError, ConnectionResetError, TimeoutError):
        pass
    assert sent < 100 * MB  # the server stopped reading (and closed) long before the end
    s.settimeout(10)
    try:
        status, _h, body = answer(s)
        assert status == 413
    except (ConnectionError, OSError):
        pass  # the answer can be lost in the reset of a connection closed with unread data
    assert honest(server) == 200


def test_slow_and_many_connections_from_one_address_leave_room_for_everyone_else(server):
    """Slow headers, a slow body, idle connections: closed at their deadlines; past the per-address
    cap, more connections from one address are turned away at once; other addresses are served."""
    trickling = []
    for _ in range(20):  # the cap: a request line and one header each, then nothing
        s = dial(server.web_port, "127.0.0.2")
        s.sendall(b"POST /smear.referee.v1.Referee/ListTables HTTP/1.1\r\nhost: x\r\n")
        trickling.append(s)
    late = dial(server.web_port, "127.0.0.2")
    status, _h, body = answer(late)
    assert status == 503 and b"too many connections from your address" in body
    assert honest(server) == 200  # 127.0.0.1 is another address
    t0 = time.monotonic()
    assert all(closed_within(s, 5) for s in trickling)  # the header deadline (1 s here)
    assert time.monotonic() - t0 < 5
    idle = dial(server.web_port, "127.0.0.3")  # connects and says nothing
    assert closed_within(idle, 5)
    slow_body = dial(server.web_port, "127.0.0.3")
    slow_body.sendall(request("POST", api(server, "ListTables"), b"{", {"content-type": "application/json"},
                              length=100))
    status, _h, body = answer(slow_body)
    assert status == 408 and json.loads(body)["code"] == "deadline_exceeded"
    kept = dial(server.web_port, "127.0.0.3")  # a kept-alive connection, idle after its answer
    kept.sendall(request("POST", api(server, "ListTables"), b"{}", {"content-type": "application/json"}))
    assert answer(kept)[0] == 200
    assert closed_within(kept, 5)
    again = dial(server.web_port, "127.0.0.2")  # the address's slots are free again
    again.sendall(request("POST", api(server, "ListTables"), b"{}", {"content-type": "application/json"}))
    assert answer(again)[0] == 200


MALFORMED = [
    ("application/json", b"{not json"),
    ("application/json", b"[" * 100_000 + b"]" * 100_000),
    ("application/json", b'{"limit": "many"}'),
    ("application/json", b'{"limit": 1000000000000}'),
    ("application/json", b'{"include_finished": "\xff\xfe"}'),
    ("application/json", b'{"no_such_field": 1}'),
    ("application/proto", bytes(range(256)) * 4),
    ("application/proto", b"\x10" + b"\xff" * 20),
]


def test_malformed_requests_get_invalid_argument_one_line_each_and_no_traceback(server):
    before = log_of(server)
    for ctype, body in MALFORMED:
        s = dial(server.web_port, "127.0.0.4")
        s.sendall(request("POST", api(server, "ListTables"), body, {"content-type": ctype}))
        status, headers, raw = answer(s)
        assert status == 400, (body[:40], status, raw[:200])
        assert json.loads(raw)["code"] == "invalid_argument", (body[:40], raw[:200])
        s.close()
    # A malformed stream request: the error in the end-of-stream message, as Connect streams carry it.
    s = dial(server.web_port, "127.0.0.4")
    s.sendall(request("POST", api(server, "WatchTable"), struct.pack(">BI", 0, 5) + b"{bad}",
                      {"content-type": "application/connect+json"}))
    status, _h, raw = answer(s)
    assert status == 200 and b'"invalid_argument"' in raw
    time.sleep(0.3)
    added = log_of(server)[len(before):]
    assert "Traceback" not in added and "Exception in ASGI" not in added
    # Many more from one address: its lines stop at web_log_lines a minute (10 here), with a summary later.
    for _ in range(40):
        s = dial(server.web_port, "127.0.0.5")
        s.sendall(request("POST", api(server, "ListTables"), b"{bad", {"content-type": "application/json"}))
        assert answer(s)[0] == 400
        s.close()
    time.sleep(0.3)
    lines = [line for line in log_of(server).splitlines() if "127.0.0.5" in line]
    assert 1 <= len(lines) <= 10, lines
    assert honest(server) == 200


def test_every_page_and_answer_carries_the_security_headers(server):
    base = server.url.rstrip("/")
    for path in ("/", "/app.js", "/style.css", "/t/abc", "/no-such-file"):
        try:
            with urllib.request.urlopen(base + path, timeout=10) as r:
                headers = r.headers
        except urllib.error.HTTPError as e:
            headers = e.headers
        csp = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert "strict-transport-security" not in headers  # plain HTTP: HSTS only under TLS
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "ListTables"), b"{}", {"content-type": "application/json"}))
    status, headers, _b = answer(s)
    assert status == 200 and headers["x-content-type-options"] == "nosniff"
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "ListTables"), b"{", {"content-type": "application/json"}, length=CAP + 1))
    status, headers, _b = answer(s)
    assert status == 413 and "frame-ancestors 'none'" in headers["content-security-policy"]


def test_web_connections_have_no_delayed_ack(tmp_path):
    """Every accepted web connection has TCP_NODELAY (asyncio sets it only for sockets made as TCP)."""
    srv = ServerThread(str(tmp_path / "r.sqlite3"), limits=Limits(), web=0)
    try:
        s = dial(srv.running.web_port)
        s.sendall(request("POST", "/smear.referee.v1.Referee/ListTables", b"{}", {"content-type": "application/json"}))
        assert answer(s)[0] == 200
        conns = list(srv.running.web.server.server_state.connections)
        assert conns
        for proto in conns:
            sock = proto.transport.get_extra_info("socket")
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        s.close()
    finally:
        srv.stop()


def test_deflate_bombs_and_bad_encodings(server):
    bomb = zlib.compress(b"\0" * (64 * MB), 9)
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "ListTables"), bomb, {"content-type": "application/json",
                                                                  "content-encoding": "deflate"}))
    assert answer(s)[0] == 413
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "ListTables"), b"\x1f\x8bnot gzip", {"content-type": "application/json",
                                                                               "content-encoding": "gzip"}))
    status, _h, raw = answer(s)
    assert status == 400 and json.loads(raw)["code"] == "invalid_argument"
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "ListTables"), b"{}", {"content-type": "application/json",
                                                                "content-encoding": "br"}))
    status, _h, raw = answer(s)
    assert status == 415 and json.loads(raw)["code"] == "unimplemented"
    # An honest compressed request is read.
    s = dial(server.web_port)
    s.sendall(request("POST", api(server, "ListTables"), gzip.compress(b"{}"), {"content-type": "application/json",
                                                                               "content-encoding": "gzip"}))
    assert answer(s)[0] == 200
