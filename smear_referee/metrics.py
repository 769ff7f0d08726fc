"""What an operator watches on a running referee, in Prometheus' exposition format.

Each server has a registry of its own (tests run several servers in one process). Counters and
histograms are updated where the thing happens (a move in Tables.submit, a write in Tables.write,
a stream in the service's handlers); what is a count of something held (open tables, parked tables,
streams, the search-bot queue, shards) is read when scraped, so it costs nothing between scrapes.
Labels are bounded sets: never a table id, a token or a name.
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector


class HeldTables(Protocol):
    """What the table gauges read of a server's tables (tables/index.py's TableIndex has it)."""

    tables: dict[str, Any]  # in memory, by id
    open_ids: set[str]  # unfinished, in memory or parked
    damaged: dict[str, Any]  # could not be rebuilt


disable_created_metrics()  # no *_created series: a scrape's size is the metrics themselves

MOVERS = ("player", "bot", "clock")
STREAMS = ("watch_table", "watch_turns", "play")
MAX_CODES = 64  # refusal codes are the referee's own (docs/referee.md); anything past these is OTHER
# A move is a lock, a rules check and one store commit: from well under a millisecond to a slow disk.
MOVE_BUCKETS = (.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1.0, 2.5, 5.0)
COMMIT_BUCKETS = (.0002, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1.0, 2.5)


class Metrics:
    """The referee's counters and histograms, and the collector that reads its gauges at scrape time."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("smear_moves", "Moves accepted, by who made them (a seat's player, a house bot "
                             "standing in, or the turn clock)", ["by"], registry=self.registry)
        self.refusals = Counter("smear_move_refusals", "Moves refused, by the refusal's code (docs/referee.md)",
                                ["code"], registry=self.registry)
        self.move_seconds = Histogram("smear_move_duration_seconds", "Time from a move's arrival at the table "
                                      "to its answer (lock, check, store commit, publish)",
                                      buckets=MOVE_BUCKETS, registry=self.registry)
        self.commit_seconds = Histogram("smear_store_commit_duration_seconds", "Time the store took to make one "
                                        "table change durable (a move, a seat, a table)",
                                        buckets=COMMIT_BUCKETS, registry=self.registry)
        self.store_failures = Counter("smear_store_failures", "Writes the store refused or lost (the caller got "
                                      "UNAVAILABLE), and writes fenced off because a replica lost the shard",
                                      ["kind"], registry=self.registry)
        # Every series exists from the start, at 0 (a rate() has something to read); each move counts on
        # its series directly (labels() is a locked lookup: a third of a move's metrics).
        self._moved = {by: self.moves.labels(by) for by in MOVERS}
        self._refused: dict[str, Any] = {}
        for kind in ("failed", "fenced"):
            self.store_failures.labels(kind)
        self.streams = dict.fromkeys(STREAMS, 0)
        self.streams_closed = 0  # since the start (memory.give_back trims the heaps after many)
        self._readings: list[Callable[[], Iterable[GaugeMetricFamily]]] = []
        self.registry.register(_Gauges(self))
        ProcessCollector(registry=self.registry)  # process_resident_memory_bytes, _cpu_seconds_total, _open_fds

    def moved(self, by: str, seconds: float) -> None:
        """An accepted move, made `by` one of MOVERS."""
        self._moved[by].inc()
        self.move_seconds.observe(seconds)

    def refused(self, code: str, seconds: float) -> None:
        """A refused move, counted by its code (a bounded set: codes past MAX_CODES are OTHER)."""
        series = self._refused.get(code)
        if series is None:
            if len(self._refused) >= MAX_CODES:
                code = "OTHER"
            series = self._refused[code] = self.refusals.labels(code)
        series.inc()
        self.move_seconds.observe(seconds)

    @contextlib.contextmanager
    def streaming(self, kind: str) -> Iterator[None]:
        """Count a stream of `kind` (STREAMS) while it is open."""
        self.streams[kind] += 1
        try:
            yield
        finally:
            self.streams[kind] -= 1
            self.streams_closed += 1

    def reading(self, read: Callable[[], Iterable[GaugeMetricFamily]]) -> None:
        """Add gauges read at scrape time (the server's parts register theirs as they start)."""
        self._readings.append(read)

    def watch_tables(self, tables: HeldTables, shards: Any) -> None:
        """The gauges of a server's tables (its index) and, on a replica, of its shards."""
        def read() -> Iterator[GaugeMetricFamily]:
            in_memory = set(tables.tables)
            open_ids = set(tables.open_ids)
            yield _gauge("smear_tables_open", "Unfinished tables this server holds (in memory or parked)",
                         len(open_ids))
            yield _gauge("smear_tables_parked", "Unfinished tables idle long enough to be let go from memory "
                         "(read back from the store when next named)", len(open_ids - in_memory))
            yield _gauge("smear_tables_in_memory", "Tables in memory, finished ones kept for a while included",
                         len(in_memory))
            yield _gauge("smear_tables_damaged", "Stored tables that could not be rebuilt (see the log)",
                         len(tables.damaged))
            if shards.clustered:
                now = time.monotonic()
                held = sum(1 for _e, until in dict(shards.held).values() if now < until)
                g = GaugeMetricFamily("smear_replica_shards", "Shards whose lease this replica holds, and shards "
                                      "held by any replica as of its last renewal round", labels=["holder"])
                g.add_metric(["self"], held)
                g.add_metric(["any"], len(dict(shards.owners)))
                yield g
                yield _gauge("smear_replica_lease_seconds", "How long each lease lasts before it must be renewed",
                             shards.seconds)
        self.reading(read)

    def watch_bots(self, bots: Any) -> None:
        """The gauges of the house bots (smear_referee/server/house_bots.py)."""
        def read() -> Iterator[Any]:
            yield _gauge("smear_bots_seated", "Seats the server's own bots play now", len(bots.players))
            yield _gauge("smear_search_bot_queue", "Search bots whose turn it is, waiting for a worker",
                         bots.waiting)
            yield _gauge("smear_search_bot_thinking", "Search bots thinking now (one worker each)",
                         bots.thinkers.running)
            yield CounterMetricFamily("smear_search_bot_fallbacks", "Searches that failed or overran, replaced "
                                      "by the heuristic bot's move", value=bots.fallbacks)
        self.reading(read)

    def watch_web(self, counts: Any) -> None:
        """The web port's open connections (smear_referee/server/webguard.py's per-address counts)."""
        self.reading(lambda: [_gauge("smear_web_connections_open", "Open connections on the web port "
                                     "(browsers)", sum(dict(counts.open).values()))])


class _Gauges(Collector):
    """What is held now, read at each scrape."""

    def __init__(self, metrics: Metrics):
        self.metrics = metrics

    def describe(self) -> list:
        return []  # read at scrape time only: nothing to check at registration

    def collect(self) -> Iterator[GaugeMetricFamily]:
        g = GaugeMetricFamily("smear_streams_open", "Open streams, by kind (browsers' included)", labels=["kind"])
        for kind, n in self.metrics.streams.items():
            g.add_metric([kind], n)
        yield g
        for read in list(self.metrics._readings):
            yield from read()


def _gauge(name: str, doc: str, value: Any) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)
