"""`serve --health-port`: grpc.health.v1 answered by threads of its own, so a check does not wait
behind moves, and still NOT_SERVING when the referee's event loop has stopped beating."""
from __future__ import annotations

import asyncio
import threading
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from referee_harness import ServerProcess

from smear_referee.server import health as side_health
from smear_referee.server.health import SideHealth


def _check(port: int, service: str = "") -> int:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        return health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=service), timeout=10).status


def test_serve_answers_health_on_its_own_port(tmp_path):
    srv = ServerProcess(str(tmp_path / "db.sqlite3"), "--health-port", "0")
    try:
        line = srv.proc.stdout.readline()
        assert line.startswith("health checks: 127.0.0.1:")
        port = int(line.strip().rsplit(":", 1)[1])
        assert port != srv.port
        serving = health_pb2.HealthCheckResponse.SERVING
        assert _check(port) == serving and _check(port, "smear.referee.v1.Referee") == serving
        made = srv.client().create_table("setback")  # the referee itself answers as usual
        assert made.table_id
    finally:
        srv.stop()


def test_watchers_and_idle_connections_never_hold_back_a_check(tmp_path):
    """Four health Watch streams held open and eight TCP connections that never speak: a Check is still
    answered, and the silent connections are closed by the server (the handshake's deadline)."""
    import socket
    srv = ServerProcess(str(tmp_path / "db.sqlite3"), "--health-port", "0")
    channels = []
    idle = []
    try:
        port = int(srv.proc.stdout.readline().strip().rsplit(":", 1)[1])
        watches = []
        for _ in range(4):
            ch = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
            channels.append(ch)
            stream = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(service=""))
            assert next(stream).status == health_pb2.HealthCheckResponse.SERVING  # being served: it holds a thread
            watches.append(stream)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]
        assert _check(port) == health_pb2.HealthCheckResponse.SERVING
        assert all(w.is_active() for w in watches)
        for s in idle:  # and a connection that never speaks gRPC is closed at the handshake's deadline
            s.settimeout(60)
            try:
                while s.recv(4096):  # the server's own greeting (its HTTP/2 settings), then the end
                    pass
            except ConnectionResetError:
                pass
    finally:
        for s in idle:
            s.close()
        for ch in channels:
            ch.close()
        srv.stop()


def _until(port: int, status: int, seconds: float = 5.0) -> bool:
    """Whether the health port reports `status` within `seconds` (asked every 50 ms)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if _check(port) == status:
            return True
        time.sleep(0.05)
    return False


def test_a_stalled_event_loop_reads_not_serving(monkeypatch):
    monkeypatch.setattr(side_health, "STALL", 0.5)
    monkeypatch.setattr(side_health, "HEARTBEAT", 0.1)
    serving, not_serving = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING

    async def run():
        side = SideHealth("127.0.0.1", 0, ("smear.referee.v1.Referee",))
        beat = side.start()
        try:
            assert await asyncio.to_thread(_until, side.port, serving)
            seen = []
            probe = threading.Thread(target=lambda: seen.append(_until(side.port, not_serving, 2.5)))
            probe.start()
            time.sleep(3.0)  # the event loop is stuck: no beat, while the probe asks
            probe.join()
            assert seen == [True]
            assert await asyncio.to_thread(_until, side.port, serving)  # beating again
        finally:
            beat.cancel()
            await asyncio.to_thread(side.stop)
    asyncio.run(run())
