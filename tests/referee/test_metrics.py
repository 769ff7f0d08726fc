"""`serve --metrics-port`: Prometheus metrics of a live referee (and of a replica), scraped over HTTP
while bots play, read with prometheus-client's own parser: the move counter, the latency histogram,
refusals by code, streams and the open-table gauge follow the game."""
from __future__ import annotations

import threading
import time
import urllib.request

import pytest
from cluster_harness import drop_database, new_database, pg_reachable
from prometheus_client.parser import text_string_to_metric_families
from referee_harness import ServerProcess, bearer

from smear_referee.api import referee_pb2 as pb
from smear_referee.clients.client import error_reason

FAST = ("--limit", "bot_seconds=0.01")


def _metrics_url(srv: ServerProcess) -> str:
    line = srv.proc.stdout.readline()
    assert line.startswith("metrics: http://127.0.0.1:"), line
    return line.split()[-1]


def scrape(url: str) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of one scrape."""
    with urllib.request.urlopen(url, timeout=10) as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain")
        text = r.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def until(url: str, test, seconds: float = 60.0) -> dict:
    """The first scrape for which `test` holds (asked every 50 ms), failing after `seconds`."""
    end = time.monotonic() + seconds
    while True:
        got = scrape(url)
        if test(got):
            return got
        assert time.monotonic() < end, f"the metrics never got there: {sorted(got.items())[:40]}"
        time.sleep(0.05)


def moves(m: dict, by: str) -> float:
    return m[("smear_moves_total", (("by", by),))]


def latency_count(m: dict) -> float:
    return m[("smear_move_duration_seconds_count", ())]


def test_metrics_follow_a_game_played_by_bots(tmp_path):
    srv = ServerProcess(str(tmp_path / "db.sqlite3"), "--metrics-port", "0", *FAST)
    try:
        url = _metrics_url(srv)
        first = scrape(url)
        assert moves(first, "bot") == 0 and moves(first, "player") == 0 and latency_count(first) == 0
        assert first[("smear_tables_open", ())] == 0

        host = srv.client()
        made = host.create_table("four_point_ne_wisconsin", hand_limit=2, seed="metrics")
        seat = host.join(made.table_id, 0, "Ann")
        m = scrape(url)
        assert m[("smear_tables_open", ())] == 1 and m[("smear_tables_parked", ())] == 0

        # A stream open is counted while it is open.
        stream = host.stub.WatchTable(pb.WatchTableRequest(table_id=made.table_id),
                                      metadata=bearer(seat.token))
        next(stream)
        until(url, lambda m: m[("smear_streams_open", (("kind", "watch_table"),))] == 1)

        # A refused move is counted by its code, and its time is in the histogram.
        ann = srv.client(seat.token)
        with pytest.raises(Exception) as refused:
            ann.submit(made.table_id, pb.Move(), 999)
        assert error_reason(refused.value) == "STALE_VERSION"
        m = scrape(url)
        assert m[("smear_move_refusals_total", (("code", "STALE_VERSION"),))] == 1
        assert latency_count(m) == 1

        # Ann's first move is a player's move (she is eldest or not: one of the seats' moves is hers
        # when her turn comes); then bots play every seat to the end.
        host.with_token(made.host_token).add_bots(made.table_id, "heuristic")
        view = ann.view(made.table_id)
        while not view.finished and view.turn != 0:
            time.sleep(0.02)
            view = ann.view(made.table_id)
        ann.submit(made.table_id, view.legal_moves[0], view.version, key="ann-1")
        m = scrape(url)
        assert moves(m, "player") == 1
        ann.add_bots(made.table_id, "heuristic")  # a bot stands in for Ann from here on

        middle = until(url, lambda m: moves(m, "bot") >= 5)
        later = until(url, lambda m: moves(m, "bot") > moves(middle, "bot") + 5)
        assert latency_count(later) > latency_count(middle)
        assert later[("smear_store_commit_duration_seconds_count", ())] > \
            middle[("smear_store_commit_duration_seconds_count", ())]
        assert later[("smear_move_duration_seconds_bucket", (("le", "+Inf"),))] == latency_count(later)
        assert later[("smear_bots_seated", ())] == 4

        done = until(url, lambda m: m[("smear_tables_open", ())] == 0, 120)
        final = ann.view(made.table_id)
        assert final.finished
        # Every accepted move was counted once, by who made it: the table's version is their sum.
        assert sum(moves(done, by) for by in ("player", "bot", "clock")) == final.version
        assert latency_count(done) == final.version + 1  # and the one refusal
        stream.cancel()
        until(url, lambda m: m[("smear_streams_open", (("kind", "watch_table"),))] == 0)
        # No label names a table, a token or a player.
        for (_name, labels) in done:
            for _k, v in labels:
                assert made.table_id not in v and "Ann" not in v
    finally:
        srv.stop()


def test_the_metrics_port_answers_only_metrics(tmp_path):
    srv = ServerProcess(str(tmp_path / "db.sqlite3"), "--metrics-port", "0")
    try:
        url = _metrics_url(srv)
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url.replace("/metrics", "/tables"), timeout=10)
        assert e.value.code == 404
        # A scraper that connects and says nothing does not hold the port: the next scrape answers.
        import socket
        host, port = url.split("/")[2].split(":")
        silent = socket.create_connection((host, int(port)))
        try:
            got: list = []
            t = threading.Thread(target=lambda: got.append(scrape(url)))
            t.start()
            t.join(30)
            assert got and ("smear_tables_open", ()) in got[0]
        finally:
            silent.close()
    finally:
        srv.stop()


def _open(sock) -> bool:
    """Whether the server still holds this connection open (nothing to read yet, no end of stream)."""
    import socket
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_idle_connections_never_hold_back_a_scrape_and_are_closed_at_their_deadline(tmp_path):
    """Eight connections that say nothing, and one fed a byte at a time: an honest scrape is answered while the
    server still holds all of them open (so it did not wait for them), and each is then closed by the
    server at its deadline, the slow one too, however long it would go on."""
    import socket
    srv = ServerProcess(str(tmp_path / "db.sqlite3"), "--metrics-port", "0")
    try:
        url = _metrics_url(srv)
        host, port = url.split("/")[2].split(":")
        idle = [socket.create_connection((host, int(port))) for _ in range(8)]
        slow = socket.create_connection((host, int(port)))
        slow.sendall(b"GET /metrics HTTP/1.1\r\n")
        try:
            assert ("smear_tables_open", ()) in scrape(url)
            assert all(_open(s) for s in idle + [slow])
            cut = False
            for _ in range(600):  # a header byte every 0.1 s for up to 60 s: the deadline ends it first
                try:
                    slow.sendall(b"X")
                except OSError:
                    cut = True
                    break
                if not _open(slow):
                    cut = True
                    break
                time.sleep(0.1)
            assert cut, "a connection fed a byte at a time was never closed"
            for s in idle:
                s.settimeout(30)
                assert s.recv(1) == b""  # closed by the server
        finally:
            for s in idle + [slow]:
                s.close()
    finally:
        srv.stop()


@pytest.mark.skipif(pg_reachable() is not None, reason="PostgreSQL is not reachable at 127.0.0.1:5432")
def test_a_replicas_metrics_show_its_shards_and_moves(tmp_path):
    url_db = new_database("metrics")
    srv = None
    try:
        srv = ServerProcess(url_db, "--advertise", "127.0.0.1", "--metrics-port", "0", *FAST,
                            log=str(tmp_path / "replica.log"))
        url = _metrics_url(srv)
        m = until(url, lambda m: m.get(("smear_replica_shards", (("holder", "self"),)), 0) > 0)
        assert m[("smear_replica_shards", (("holder", "any"),))] >= m[("smear_replica_shards", (("holder", "self"),))]
        host = srv.client()
        made = host.create_table("setback", hand_limit=1, seed="replica")
        host.with_token(made.host_token).add_bots(made.table_id, "random")
        playing = until(url, lambda m: moves(m, "bot") > 0 and m[("smear_tables_open", ())] == 1)
        later = until(url, lambda m: moves(m, "bot") > moves(playing, "bot") + 3)
        assert latency_count(later) > latency_count(playing)
        until(url, lambda m: m[("smear_tables_open", ())] == 0, 120)
    finally:
        if srv is not None:
            srv.stop()
        drop_database(url_db)
