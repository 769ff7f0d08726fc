"""Health checks that do not queue behind moves: grpc.health.v1 on a port of its own.

The main port's health service answers on the event loop, after whatever moves are queued there
(at 1000 saturated tables that is hundreds of milliseconds). `serve --health-port` adds a small
synchronous gRPC server whose own threads answer at once. It still tells the truth about the
referee: a task on the event loop beats every HEARTBEAT seconds, and a watchdog thread reports
NOT_SERVING once no beat has come for STALL seconds (the loop is stuck), SERVING again after.
"""
from __future__ import annotations

import asyncio
import sys
import threading
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

HEARTBEAT = 0.5
STALL = 10.0
SWITCH_INTERVAL = 0.001
HANDSHAKE = 5.0  # seconds a new connection has to speak gRPC
IDLE = 60.0  # seconds a connection with no call in progress is kept


class SideHealth:
    """The health port: started with the referee, stopped with it."""

    def __init__(self, host: str, port: int, services: tuple[str, ...],
                 credentials: grpc.ServerCredentials | None = None):
        self.services = ("", *services)
        self.servicer = health.HealthServicer()
        # A connection that never speaks gRPC is closed after HANDSHAKE seconds, one idle after IDLE.
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="smear-health"),
                                  options=[("grpc.so_reuseport", 0),
                                           ("grpc.server_handshake_timeout_ms", int(HANDSHAKE * 1000)),
                                           ("grpc.max_connection_idle_ms", int(IDLE * 1000))])
        health_pb2_grpc.add_HealthServicer_to_server(self.servicer, self.server)
        address = f"{host}:{port}"
        self.port = self.server.add_insecure_port(address) if credentials is None else \
            self.server.add_secure_port(address, credentials)
        self.last_beat = time.monotonic()
        self._stop = threading.Event()
        self._status: int | None = None
        self._watchdog = threading.Thread(target=self._watch, name="smear-health-watchdog", daemon=True)

    def start(self) -> asyncio.Task:
        """Start serving; returns the event loop's heartbeat task (cancel it to stop beating)."""
        # A check needs the GIL a few times; the event loop's thread, busy with moves, hands it over
        # when asked only every switch interval (5 ms by default): 1 ms keeps a check's wait short.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self.server.start()
        self._report(health_pb2.HealthCheckResponse.SERVING)
        self._watchdog.start()
        return asyncio.ensure_future(self._beat())

    async def _beat(self) -> None:
        while True:
            self.last_beat = time.monotonic()
            await asyncio.sleep(HEARTBEAT)

    def _watch(self) -> None:
        while not self._stop.wait(HEARTBEAT):
            stalled = time.monotonic() - self.last_beat > STALL
            self._report(health_pb2.HealthCheckResponse.NOT_SERVING if stalled else
                         health_pb2.HealthCheckResponse.SERVING)

    def _report(self, status: int) -> None:
        if status != self._status:
            self._status = status
            for name in self.services:
                self.servicer.set(name, status)

    def stop(self) -> None:
        self._stop.set()
        self.servicer.enter_graceful_shutdown()
        self.server.stop(0.5).wait(2)
