"""Build and run the referee server: grpc.aio, health checking, reflection, limits, graceful stop."""
from __future__ import annotations

import asyncio
import gc
import logging
import signal
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, overload

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from smear_dsl.errors import SmearError
from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.club.service import Clubs, ClubService
from smear_referee.limits import Limits
from smear_referee.server.grpcguard import ReadableRequests
from smear_referee.server.health import SideHealth
from smear_referee.server.house_bots import HouseBots
from smear_referee.server.memory import give_back
from smear_referee.server.metrics_port import MetricsPort
from smear_referee.server.sandbox import Sandbox
from smear_referee.server.service import CLUB, SERVICE, TOURNAMENT, AuthInterceptor, Referee
from smear_referee.server.webguard import AddressLog
from smear_referee.storage.backends import is_postgres
from smear_referee.storage.cluster import Leases
from smear_referee.storage.store import Store
from smear_referee.tables import replica
from smear_referee.tables.registry import Tables
from smear_referee.tournament.service import Tournaments, TournamentService

if TYPE_CHECKING:  # the web port's server is imported when a web port is asked for (uvicorn: 45 ms of a start)
    from smear_referee.server.web import WebServer

MAX_MESSAGE_BYTES = 4 * 1024 * 1024


class PortInUse(SmearError):
    """The server cannot bind its port."""


class BadTls(SmearError):
    """The TLS certificate or key given to the server does not load."""


def check_tls(cert: str, key: str) -> None:
    """BadTls saying, in one line, what is wrong with a (certificate chain, private key) pair of PEM
    files: before anything binds, so the operator is not told that a port is in use."""
    import ssl
    texts = {}
    for what, path in (("certificate", cert), ("key", key)):
        try:
            with open(path, "rb") as f:
                texts[what] = f.read(1 << 20)
        except OSError as e:
            raise BadTls(f"cannot read the TLS {what} {path}: {e.strerror or e}") from None
    if b"-----BEGIN CERTIFICATE-----" not in texts["certificate"]:
        raise BadTls(f"{cert} is not a PEM certificate (it has no BEGIN CERTIFICATE block)")
    if b"PRIVATE KEY-----" not in texts["key"]:
        raise BadTls(f"{key} is not a PEM private key (it has no BEGIN ... PRIVATE KEY block)")
    if b"ENCRYPTED" in texts["key"]:
        raise BadTls(f"the key {key} is encrypted with a passphrase: give the server an unencrypted key")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)

    def no_passphrase() -> str:
        raise BadTls(f"the key {key} is encrypted with a passphrase: give the server an unencrypted key")
    try:
        ctx.load_cert_chain(cert, key, password=no_passphrase)
    except ssl.SSLError as e:
        reason = getattr(e, "reason", None) or ""
        if reason == "KEY_VALUES_MISMATCH":
            raise BadTls(f"the key {key} is not the key of the certificate {cert} (they are of different pairs)") \
                from None
        raise BadTls(f"the certificate {cert} or the key {key} does not load: {reason or str(e)[:200]}") from None
    try:  # CPython's own PEM decoder: the certificate's dates
        info = ssl._ssl._test_decode_cert(cert)  # type: ignore[attr-defined]  # no public API reads a file's dates
    except (AttributeError, ssl.SSLError, OSError):
        return
    import time
    ends = info.get("notAfter")
    if ends and ssl.cert_time_to_seconds(ends) < time.time():
        raise BadTls(f"the certificate {cert} expired on {ends}: renew it")


def _can_bind(host: str, port: int) -> bool:
    """Whether (host, port) is free: asked before gRPC binds, so a busy port gives our one-line
    message and not gRPC's own log line as well."""
    import socket
    if port == 0:
        return True
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        return False
    for family, kind, proto, _name, addr in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does: only a listener blocks it
            try:
                s.bind(addr)
            except OSError:
                return False
    return True


@dataclass(frozen=True)
class Listen:
    """Where the referee listens: gRPC on `port`, browsers on `web` (None: no web port), with TLS
    on both when a certificate and key are given."""

    host: str = "127.0.0.1"
    port: int = 0
    web: int | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    health: int | None = None  # a port of its own for health checks (smear_referee/server/health.py); None: none
    advertise: str | None = None  # a replica (cluster.py): the HOST[:PORT] clients are sent to; None: a lone server
    metrics: int | None = None  # a port for Prometheus' scrapes (smear_referee/server/metrics_port.py); None: none

    @property
    def tls(self) -> tuple[str, str] | None:
        return (self.tls_cert, self.tls_key) if self.tls_cert and self.tls_key else None


@dataclass
class Running:
    server: grpc.aio.Server
    port: int
    tables: Tables
    store: Store
    sandbox: Sandbox
    web: WebServer | None = None
    upkeep: asyncio.Task | None = None
    health: SideHealth | None = None
    beat: asyncio.Task | None = None
    leases: replica.LeaseKeeper | None = None  # a replica's lease renewal (replica.py)
    checking: asyncio.Future | None = None  # the start-up integrity check (it runs in the background)
    bots: HouseBots | None = None  # the bots the server plays (their search workers are stopped with it)
    metrics: MetricsPort | None = None
    trimming: asyncio.Task | None = None  # memory.give_back: the heaps trimmed after many streams close
    counting: asyncio.Task | None = None  # _count_club_games: finished club tables counted without a reader

    @property
    def metrics_port(self) -> int | None:
        return self.metrics.port if self.metrics else None

    @property
    def web_port(self) -> int | None:
        return self.web.port if self.web else None

    @property
    def health_port(self) -> int | None:
        return self.health.port if self.health else None

    async def stop(self, grace: float = 2.0) -> None:
        for task in (self.upkeep, self.beat, self.checking, self.trimming, self.counting):
            if task is not None:
                task.cancel()
        if self.leases is not None:  # hand the shards back now: no one waits for them to expire
            await asyncio.to_thread(self.leases.stop)
            await asyncio.to_thread(self.tables.shards.leave)
        if self.health is not None:
            await asyncio.to_thread(self.health.stop)
        if self.metrics is not None:
            await asyncio.to_thread(self.metrics.stop)
        if self.bots is not None:  # first, so no bot's move begins while the rest stops
            await self.bots.aclose()
        if self.web:
            await self.web.stop()
        await self.server.stop(grace)
        if self.tables.submitting:  # moves applied but not yet durable: the store closes after them
            await asyncio.wait(list(self.tables.submitting), timeout=grace)
        await self.sandbox.aclose()
        self.store.close()


async def start(where: Listen = Listen(), db: str = "smear-referee.sqlite3", limits: Limits | None = None) -> Running:
    """Open the store, read back the tables played lately (each from its snapshot), and start
    serving; port 0 picks a free port."""
    host, port = where.host, where.port
    limits = limits or Limits()
    if where.tls:
        check_tls(*where.tls)
    # Reading the store back is blocking work: done in a thread, as every store read is.
    store, tables, leases = await asyncio.to_thread(_open, db, limits, where.advertise)
    # Its workers start when a stranger's text first needs one (most servers only play shipped rules).
    sandbox = Sandbox(limits.sandbox_workers, limits.sandbox_queue, limits.sandbox_memory_bytes)
    tournaments = Tournaments(tables)
    await asyncio.to_thread(tournaments.load)
    server, referee, tournament, club, health_servicer, names = _grpc_server(tables, sandbox, tournaments, limits)
    bound, web, side, scrapes = _bind(server, referee, tournament, club, tables, where, names)
    if not bound:
        if side is not None:
            side.server.stop(0)  # its port was bound, never served
        sandbox.close()
        store.close()
        raise PortInUse(f"cannot listen on {host}:{port}" + (f" and {where.web}" if where.web is not None else "") +
                        (f" and {where.health}" if where.health is not None else "") +
                        (f" and {where.metrics}" if where.metrics is not None else "") +
                        ": a port is in use (is another `smear-dsl serve` running?) or the address is not this machine's")
    renewing = None
    if leases is not None:
        try:
            renewing = await _join(tables, leases, _advertised(where.advertise, host, bound))
        except Exception as e:
            await server.stop(0)
            if scrapes is not None:
                scrapes.server.server_close()
            sandbox.close()
            store.close()
            raise SmearError(f"cannot take part as a replica: {str(e).strip().splitlines()[0][:200]}") from None
    await server.start()
    tables.metrics.watch_bots(referee.bots)
    if web is not None:
        await web.start()
        tables.metrics.watch_web(web.counts)
    if scrapes is not None:
        scrapes.start()
    referee.bots.start_all()
    referee.clock.start_all()
    await health_servicer.set(SERVICE, health_pb2.HealthCheckResponse.SERVING)
    await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    beat = side.start() if side is not None else None
    running = Running(server, bound, tables, store, sandbox, web, asyncio.ensure_future(_upkeep(tables)), side, beat,
                      renewing)
    running.checking = asyncio.ensure_future(_integrity(store))
    running.trimming = asyncio.ensure_future(give_back(tables.metrics))
    running.counting = asyncio.ensure_future(_count_club_games(club.c))
    running.bots = referee.bots
    running.metrics = scrapes
    return running


def _bind(server: grpc.aio.Server, referee: Referee, tournament: TournamentService, club: ClubService, tables: Tables,
          where: Listen, names: tuple[str, ...]) -> tuple[int, WebServer | None, SideHealth | None, MetricsPort | None]:
    """Bind the ports `where` asks for: (the gRPC port, 0 if any port could not be bound; the web
    port's server; the health port; the metrics port), none serving yet."""
    host, port = where.host, where.port
    web = side = scrapes = None
    try:
        bound = _add_port(server, host, port, where.tls) if _can_bind(host, port) else 0
        if where.web is not None:
            from smear_referee.server.web import web_server
            web = web_server(referee, tournament, club, tables, host, where.web, MAX_MESSAGE_BYTES, where.tls)
        if bound and where.health is not None:
            side = SideHealth(host, where.health, names[:2], where.tls and server_credentials(where.tls)) \
                if _can_bind(host, where.health) else None
            bound = bound if side is not None and side.port else 0
        if bound and where.metrics is not None:
            scrapes = MetricsPort(host, where.metrics, tables.metrics.registry) if _can_bind(host, where.metrics) \
                else None
            bound = bound if scrapes is not None else 0
    except (RuntimeError, OSError):
        bound = 0
    return bound, web, side, scrapes


INTEGRITY_TABLES, INTEGRITY_SECONDS = 500, 2.0  # the start-up check's budget (docs/security.md, "The store")


async def _integrity(store: Store) -> None:
    """At start-up, in a reading thread: prove the most recent tables of the store by their hashes,
    within a budget, and say so in the log (the tables read back were proven as they were read)."""
    from smear_referee.storage.store import _reading
    from smear_referee.storetools import scan
    log = logging.getLogger("smear_dsl.referee")
    try:
        report = await store.off_loop(lambda: _reading(store, lambda conn: scan(
            conn, limit=INTEGRITY_TABLES, seconds=INTEGRITY_SECONDS, recent_first=True)))
    except Exception as e:  # noqa: BLE001 - a check that cannot run is reported, it does not stop the server
        log.warning("integrity: the start-up check did not run: %s", str(e).splitlines()[0][:200] if str(e) else e)
        return
    scope = "" if report.complete else f" (the {report.tables:,} most recent; `smear-dsl store check` checks all)"
    log.info("integrity: %s%s", report.summary(), scope)
    for tid, version, what, *_kind in report.damaged[:20]:
        log.error("integrity: table %s damaged at version %d: %s", tid, version, what)


def _grpc_server(tables: Tables, sandbox: Sandbox, tournaments: Tournaments, limits: Limits):
    """The gRPC server with the referee's services, health checking and reflection (not bound yet)."""
    server = grpc.aio.server(
        interceptors=[ReadableRequests((SERVICE, TOURNAMENT, CLUB), AddressLog(limits.web_log_lines, logging.getLogger(
            "smear_dsl.referee"), "grpc")), AuthInterceptor(tables)],
        options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                 ("grpc.max_send_message_length", 32 * MAX_MESSAGE_BYTES),
                 ("grpc.max_concurrent_streams", 1000),
                 ("grpc.so_reuseport", 0)])  # a port another process listens on is an error, not shared
    referee = Referee(tables, sandbox)
    pb_grpc.add_RefereeServicer_to_server(referee, server)
    clubs = Clubs(tables)
    pb_grpc.add_TournamentServicer_to_server(tournament := TournamentService(tournaments, referee, clubs), server)
    pb_grpc.add_ClubServicer_to_server(club := ClubService(clubs, referee), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (pb.DESCRIPTOR.services_by_name["Referee"].full_name, pb.DESCRIPTOR.services_by_name["Tournament"].full_name,
             health.SERVICE_NAME, reflection.SERVICE_NAME, pb.DESCRIPTOR.services_by_name["Club"].full_name)
    reflection.enable_server_reflection(names, server)
    return server, referee, tournament, club, health_servicer, names


def _open(db: str, limits: Limits, advertise: str | None) -> tuple[Store, Tables, Leases | None]:
    """The store and the tables read back from it; a replica's leases (it reads back its tables
    once it holds shards)."""
    if advertise is not None and not is_postgres(db):
        raise SmearError("--advertise runs a replica, whose tables are in a shared PostgreSQL database: "
                         "give --db postgresql://...")
    store = Store(db, shared=advertise is not None)
    leases = Leases(db, advertise, limits.lease_seconds) if advertise is not None else None
    tables = Tables(store, limits, leases)
    tables.load()
    return store, tables, leases


async def _join(tables: Tables, leases: Leases, address: str) -> replica.LeaseKeeper:
    """A replica's start: its lease rows and its first shards, before its first call; then the
    thread that renews them."""
    leases.address = address
    await asyncio.to_thread(leases.prepare)
    await asyncio.to_thread(tables.store.fill_shards)
    await replica.renew(tables, leases)
    keeper = replica.LeaseKeeper(tables, leases, asyncio.get_running_loop())
    keeper.start()
    return keeper


def _advertised(advertise: str | None, host: str, port: int) -> str:
    """HOST:PORT clients are sent to: --advertise as given, with the bound port when it names none."""
    advertise = advertise or host
    if advertise.startswith("[") and "]:" in advertise or advertise.count(":") == 1:
        return advertise
    return f"{advertise}:{port}"


async def _upkeep(tables: Tables) -> None:
    """Every so often: end abandoned tables, park idle ones (Tables.sweep)."""
    lim = tables.limits
    every = max(0.2, min(60.0, lim.idle_seconds / 2, lim.abandon_seconds / 2))
    while True:
        await asyncio.sleep(every)
        try:
            await tables.sweep()
        except Exception:  # a sweep that fails is logged and tried again; it never stops the server
            logging.getLogger("smear_dsl.referee").exception("table upkeep failed")


async def _count_club_games(clubs: Clubs, every: float = 1.0) -> None:
    """Every second: the finished tables of the clubs whose shards this replica holds counted as their games
    (Clubs.sweep), so a club's ladder moves after a game whichever replica anyone reads it at."""
    while True:
        await asyncio.sleep(every)
        try:
            await clubs.sweep()
        except Exception:  # logged and tried again; it never stops the server
            logging.getLogger("smear_dsl.referee").exception("counting club games failed")


def _add_port(server: grpc.aio.Server, host: str, port: int, tls: tuple[str, str] | None) -> int:
    if tls is None:
        return server.add_insecure_port(f"{host}:{port}")
    return server.add_secure_port(f"{host}:{port}", server_credentials(tls))


def server_credentials(tls: tuple[str, str]) -> grpc.ServerCredentials:
    """gRPC's credentials for a (certificate chain, private key) pair of PEM files."""
    from pathlib import Path
    cert, key = Path(tls[0]).read_bytes(), Path(tls[1]).read_bytes()
    return grpc.ssl_server_credentials([(key, cert)])


async def serve(where: Listen, db: str, ready=None, limits: Limits | None = None) -> None:
    """Run until SIGINT/SIGTERM, then stop gracefully (in-flight calls get a moment to finish)."""
    running = await start(where, db, limits)
    # What start-up built (modules, rules, restored tables) stays for the process's life: keep it
    # out of the full collections (gc.freeze's purpose). The live calls' coroutines, tasks and
    # futures make up most of what is left, so a full collection (~40 ms at 100 busy tables) is
    # made ten times rarer than by default; younger generations still run as usual.
    gc.collect()
    gc.freeze()
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, 100)
    if ready is not None:
        ready(running)
    stop = asyncio.Event()
    stop_on_signals(asyncio.get_running_loop(), stop)
    await stop.wait()
    await running.stop()


def stop_on_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Set `stop` on SIGINT/SIGTERM, even when the loop's wake-up pipe is full.

    asyncio's add_signal_handler passes the signal through the loop's self-pipe: under a burst of
    thread completions (to_thread, gRPC callbacks) that pipe fills and the signal is dropped ("Exception
    ignored when trying to write to the signal wakeup fd"), so a replica ignored SIGTERM. A plain
    handler runs in the main thread whatever the pipe holds and queues the stop before waking the loop.
    """

    def on_signal(_sig: int, _frame: object) -> None:
        loop.call_soon_threadsafe(stop.set)

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, on_signal)
        except ValueError:  # pragma: no cover - not the main thread: whoever runs us handles signals
            pass


class ServerThread:
    """The server on its own event loop in a background thread (demos, tests, tournaments)."""

    def __init__(self, db: str, host: str = "127.0.0.1", port: int = 0, limits: Limits | None = None,
                 web: int | None = None):
        self.db, self.host, self.limits, self.web = db, host, limits, web
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(port,), name="smear-referee", daemon=True)
        self.thread.start()
        if not self._ready.wait(30) or self._error:
            if isinstance(self._error, SmearError):  # a busy port, a store in use: the caller's to report
                raise self._error
            raise RuntimeError(f"the referee did not start: {self._error}")

    def _run(self, port: int) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.running = self.loop.run_until_complete(start(Listen(self.host, port, self.web), self.db, self.limits))
        except BaseException as e:  # reported to the starting thread
            self._error = e
            self._ready.set()
            return
        self.port = self.running.port
        self._ready.set()
        self.loop.run_forever()

    @property
    def target(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """The web client's address (a server started with `web`)."""
        return f"http://{self.host}:{self.running.web_port}/"

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.running.stop(0.5), self.loop).result(15)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(15)


@overload
def fresh_server(directory: str, limits: Limits | None = None, web: int | None = None,
                 own_process: Literal[False] = False) -> ServerThread: ...
@overload
def fresh_server(directory: str, limits: Limits | None = None, web: int | None = None,
                 own_process: bool = False) -> ServerThread | ServerProcess: ...
def fresh_server(directory: str, limits: Limits | None = None, web: int | None = None,
                 own_process: bool = False) -> ServerThread | ServerProcess:
    """A referee on a new SQLite file `referee.sqlite3` in `directory` (an old one is removed); in a
    process of its own with `own_process` (`limits` then travel as its `--limit` flags)."""
    from pathlib import Path
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "referee.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    if own_process:
        import dataclasses
        given = limits or Limits(table_compile_seconds=60.0)
        return ServerProcess(str(db), [f"{f.name}={getattr(given, f.name)}" for f in dataclasses.fields(given)
                                       if getattr(given, f.name) != f.default])
    return ServerThread(str(db), limits=limits, web=web)


class ServerProcess:
    """The server as a `smear-dsl serve` child process on a free port of 127.0.0.1: a second core
    for the referee while this process runs its clients (the tournament runner with --jobs)."""

    def __init__(self, db: str, limits: tuple[str, ...] | list[str] = ()):
        import subprocess
        import sys
        cmd = [sys.executable, "-m", "smear_dsl", "serve", "--host", "127.0.0.1", "--port", "0", "--db", db]
        for item in limits:
            cmd += ["--limit", item]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None  # stdout=PIPE
        line = self.proc.stdout.readline()  # "smear-dsl referee listening on 127.0.0.1:PORT"
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"the referee did not start: {line.strip() or 'no output'}")
        self.target = line.split()[-1]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except Exception:  # noqa: BLE001 - a stuck server is killed
            self.proc.kill()
            self.proc.wait(5)
