"""The metrics port: `GET /metrics` in Prometheus' text format, beside the health port.

The health port speaks gRPC only and Prometheus scrapes over HTTP, so `serve --metrics-port` adds a
small HTTP server of prometheus-client's own (its WSGI app) on threads of its own: a scrape never
waits behind moves on the event loop. Each connection has a thread of its own, at most CONNECTIONS at
once (one more is closed at once), and is closed SECONDS after it opened whatever it sends (a
connection left idle, or fed a byte at a time): so idle connections never hold an honest scrape
back, and what anyone who reaches the port can make it do is bounded (an operator's port: keep it on
a private network).
"""
from __future__ import annotations

import socket
import socketserver
import threading
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CollectorRegistry, make_wsgi_app

SECONDS = 5.0  # a connection is closed this long after it opened
CONNECTIONS = 32  # connections served at once


class _Handler(WSGIRequestHandler):
    timeout = SECONDS  # applied to the connection by StreamRequestHandler.setup

    def setup(self) -> None:
        super().setup()
        self._deadline = threading.Timer(SECONDS, self._cut)  # the whole connection's, not each read's
        self._deadline.daemon = True
        self._deadline.start()

    def _cut(self) -> None:
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed

    def finish(self) -> None:
        self._deadline.cancel()
        try:
            super().finish()
        except OSError:
            pass  # cut at its deadline

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # scrapes every few seconds: not worth a log line each


class _Server(socketserver.ThreadingMixIn, WSGIServer):
    allow_reuse_address = False  # a port another process listens on is an error, as for the other ports
    daemon_threads = True
    block_on_close = False

    def __init__(self, *args, **kwargs) -> None:
        self._room = threading.BoundedSemaphore(CONNECTIONS)
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address) -> None:
        if not self._room.acquire(blocking=False):  # as many connections as it serves at once: this one waits not
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._room.release()

    def handle_error(self, request, client_address) -> None:
        pass  # a scraper that hung up or timed out: nothing to report


class MetricsPort:
    """The metrics port: started with the referee, stopped with it."""

    def __init__(self, host: str, port: int, registry: CollectorRegistry):
        app = make_wsgi_app(registry)

        def only_metrics(environ, start_response):
            if environ.get("PATH_INFO", "/") not in ("/metrics", "/"):
                start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
                return [b"not found: the metrics are at /metrics\n"]
            return app(environ, start_response)

        kind = type("Server", (_Server,), {"address_family": socket.AF_INET6}) if ":" in host else _Server
        self.server: Any = make_server(host.strip("[]"), port, only_metrics, kind, handler_class=_Handler)
        self.port: int = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="smear-metrics", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
