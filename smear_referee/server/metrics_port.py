"""The metrics port: `GET /metrics` in Prometheus' text format, beside the health port.

The health port speaks gRPC only and Prometheus scrapes over HTTP, so `serve --metrics-port` adds a
small HTTP server of prometheus-client's own (its WSGI app) on a thread of its own: a scrape never
waits behind moves on the event loop. One request at a time, each with a deadline, so what anyone
who reaches the port can make it do is bounded (an operator's port: keep it on a private network).
"""
from __future__ import annotations

import socket
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CollectorRegistry, make_wsgi_app

SECONDS = 5.0  # a scrape's connection is closed after this long


class _Handler(WSGIRequestHandler):
    timeout = SECONDS  # applied to the connection by StreamRequestHandler.setup

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass  # scrapes every few seconds: not worth a log line each


class _Server(WSGIServer):
    allow_reuse_address = False  # a port another process listens on is an error, as for the other ports

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
        self.server = make_server(host.strip("[]"), port, only_metrics, kind, handler_class=_Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="smear-metrics", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
