"""A stream leaves nothing behind when it closes: after bursts of spectators' WatchTable streams, over gRPC
and over the web port's Connect protocol as a browser opens them, no kind of object in the referee grows
with the number of streams. (What a burst's memory leaves is a high-water mark, not a leak: docs/referee.md.)"""
from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections import Counter

import grpc
from conftest import ROOT
from referee_harness import ServerThread

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as rpc
from smear_referee.limits import Limits

sys.path.insert(0, str(ROOT / "benchmarks"))
from connect_client import stream  # noqa: E402  (the benchmarks' browser-like Connect client)

STREAMS = 300  # of each kind per burst
BURSTS = 6  # measured, after one that warms up


async def _grpc_streams(target: str, spectators: list[tuple[str, str]]) -> None:
    """STREAMS WatchTable calls, each reading its first event, then all cancelled and the channel closed."""
    async with grpc.aio.insecure_channel(target) as ch:
        stub = rpc.RefereeStub(ch)
        calls = [stub.WatchTable(pb.WatchTableRequest(table_id=t), metadata=[("authorization", f"Bearer {tok}")])
                 for t, tok in (spectators[i % len(spectators)] for i in range(STREAMS))]
        await asyncio.gather(*(call.read() for call in calls))
        for call in calls:
            call.cancel()


async def _web_streams(port: int, spectators: list[tuple[str, str]]) -> None:
    """STREAMS browsers' WatchTable streams (Connect over HTTP/1.1, a connection each), each having read its
    table's snapshot, then all their connections closed."""
    calls = [stream("127.0.0.1", port, "WatchTable", {"tableId": t}, tok)
             for t, tok in (spectators[i % len(spectators)] for i in range(STREAMS))]
    firsts = await asyncio.gather(*(anext(call) for call in calls))
    assert [m["snapshot"]["tableId"] for m in firsts] == [spectators[i % len(spectators)][0] for i in range(STREAMS)]
    for call in calls:
        await call.aclose()


def _burst(srv: ServerThread, runner: asyncio.Runner, spectators: list[tuple[str, str]]) -> None:
    """Both kinds of streams opened and closed (the test's side on one loop throughout, as gRPC's asyncio
    client wants); back once the server has seen every one of them end."""
    closed = srv.running.tables.metrics.streams_closed
    runner.run(_grpc_streams(srv.target, spectators))
    runner.run(_web_streams(srv.running.web_port, spectators))
    end = time.monotonic() + 30
    while srv.running.tables.metrics.streams_closed < closed + 2 * STREAMS:
        assert time.monotonic() < end, "the server did not see the streams close"
        time.sleep(0.05)


def _objects() -> tuple[Counter, int]:
    """The live objects of this process (the server's and the test's) by type, after a full collection, and
    the blocks Python has allocated (which counts the objects a collection does not track too: strings,
    numbers, plain objects). The cache of attribute lookups, which holds on to names looked up through
    strings made on the spot, is emptied first."""
    sys._clear_type_cache()
    gc.collect()
    return Counter(type(o).__qualname__ for o in gc.get_objects()), sys.getallocatedblocks()


def test_streams_that_close_leave_no_object_behind(tmp_path):
    srv = ServerThread(str(tmp_path / "leaks.db"), web=0,  # one address opens them all
                       limits=Limits(web_connections_per_address=2 * STREAMS))
    runner = asyncio.Runner()
    try:
        spectators = []
        for i in range(5):
            made = srv.client().stub.CreateTable(pb.CreateTableRequest(rules_name="four_point_ne_wisconsin",
                                                                       seed=f"leaks-{i}"))
            seen = srv.client().stub.JoinTable(pb.JoinTableRequest(table_id=made.table_id, spectator=True))
            spectators.append((made.table_id, seen.token))
        _burst(srv, runner, spectators)  # the first burst warms caches up (compiled code paths, pools, interned names)
        before, blocks = _objects()
        for _ in range(BURSTS):
            _burst(srv, runner, spectators)
        after, blocks_after = _objects()
        # 3,600 streams closed in between, 1,800 of each kind: a leak of one object a stream of either kind
        # shows as 1,800 more of its type, or of Python's blocks. Bounded caches and free lists move these
        # figures by up to 500 either way (sqlite3 keeps up to 200 dead cursor weakrefs before pruning them).
        bound = STREAMS * BURSTS // 2
        grown = {kind: n - before[kind] for kind, n in after.items() if n - before[kind] >= bound}
        assert not grown, f"objects left behind by closed streams: {grown}"
        assert blocks_after - blocks < bound, f"{blocks_after - blocks} blocks more after {BURSTS} bursts"
        assert sum(srv.running.tables.metrics.streams.values()) == 0
    finally:
        runner.close()
        srv.stop()
