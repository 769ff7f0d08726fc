"""The web port's connections: uvicorn's HTTP/1.1 protocol with TCP_NODELAY, a cap on open connections
per address and a deadline for a request's headers. Apart from webguard (limits, logs, bodies) because it
imports uvicorn, which a referee without a web port never loads."""
from __future__ import annotations

import asyncio
import socket
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from smear_referee.server.webguard import AddressLog, WebLimits


class _Connections:
    """Open connections per address, shared by every connection of one web port."""

    def __init__(self, per_address: int):
        self.per_address = per_address
        self.open: dict[str, int] = defaultdict(int)

    def admit(self, address: str) -> bool:
        if self.open[address] >= self.per_address:
            return False
        self.open[address] += 1
        return True

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
         b"content-length: 50\r\n\r\ntoo many connections from your address: try again\n")


class GuardedH11(H11Protocol):
    """uvicorn's H11Protocol with TCP_NODELAY, a per-address connection cap and a header deadline
    (`guarded_protocol` makes one per web port, with its limits)."""

    limits: WebLimits
    logs: AddressLog
    counts: _Connections
    _address = ""
    _admitted = False
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:  # pragma: no cover - a socket closed already
                pass
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "unknown"
        if not self.counts.admit(self._address):
            self.logs.note(self._address, "refused a connection: as many open from this address as allowed "
                           f"({self.limits.per_address})")
            transport.write(_BUSY)
            transport.close()
            return
        self._admitted = True
        self._arm()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.limits.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is None or self.cycle.response_complete:  # still waiting for a request's headers
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # a new request begins (on a new or a kept-alive connection)
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before:  # its headers are complete: the app has it now
            self._disarm()

    def connection_lost(self, exc) -> None:
        self._disarm()
        if self._admitted:
            self._admitted = False
            self.counts.release(self._address)
        super().connection_lost(exc)


def guarded_protocol(limits: WebLimits, logs: AddressLog) -> Any:
    """The protocol class for one web port: its limits, its log, its count of connections per address."""
    return type("Guarded", (GuardedH11,), {"limits": limits, "logs": logs, "counts": _Connections(limits.per_address)})
