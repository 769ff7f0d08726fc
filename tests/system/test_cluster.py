"""Referee replicas on one PostgreSQL database (issue 17): routing, fencing, and a chaos run.

Every test makes its own database on the PostgreSQL at 127.0.0.1:5432 and drops it afterwards;
where none answers, the tests skip in one line.
"""
from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import grpc
import psycopg
import pytest
from cluster_harness import (
    AsyncRoute,
    Ledger,
    Replicas,
    check_ledger,
    drop_database,
    new_database,
    new_table,
    pg_reachable,
    play,
    watch,
)
from google.protobuf.json_format import MessageToDict
from pgcluster import OwnCluster, pg_bindir
from typed import ladders

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc
from smear_referee.clients.client import Client, error_info, play_seat
from smear_referee.storage.cluster import shard_of

pytestmark = pytest.mark.skipif(bool(_why := pg_reachable()), reason=f"no PostgreSQL at 127.0.0.1:5432: {_why}")


@pytest.fixture
def database():
    url = new_database("cluster")
    try:
        yield url
    finally:
        drop_database(url)


def _lease(url: str, table_id: str) -> tuple[str, int]:
    """(owner address, epoch) of a table's shard, as the database has it."""
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT address, epoch FROM leases WHERE shard = %s", (shard_of(table_id),)).fetchone()


def _refusal(call) -> tuple[grpc.StatusCode, str | None, dict]:
    with pytest.raises(grpc.RpcError) as e:
        call()
    return (e.value.code(), *error_info(e.value))


def _line(info: pb.TableInfo) -> dict:
    """A lobby line as a dict, but for spectators_allowed (a replica's own limit)."""
    line = MessageToDict(info, preserving_proto_field_name=True)
    line.pop("spectators_allowed", None)
    return line


def test_calls_go_to_the_owner_and_any_replica_lists_every_table(database, tmp_path):
    reps = Replicas(database, 3, 3.0, tmp_path)
    try:
        reps.spread()  # the shards spread as replicas join
        makers = [Client(r.address) for r in reps.live]  # each makes its tables in shards of its own
        made = [makers[i % 3].create_table("four_point_ne_wisconsin", seed=f"s{i}", hand_limit=1) for i in range(12)]
        owners = {m.table_id: _lease(database, m.table_id)[0] for m in made}
        assert len(set(owners.values())) >= 2, owners  # CreateTable picks shards of the replica asked
        tid = made[0].table_id
        other = next(r.address for r in reps.live if r.address != owners[tid])
        stub = pb_grpc.RefereeStub(grpc.insecure_channel(other))
        code, reason, meta = _refusal(lambda: stub.GetTable(pb.GetTableRequest(table_id=tid)))
        assert (code, reason, meta) == (grpc.StatusCode.UNAVAILABLE, "NOT_OWNER", {"owner": owners[tid]})

        there = Client(other)  # given the wrong replica only: it follows NOT_OWNER
        assert there.table(tid).table_id == tid and there.route.current == owners[tid]
        seats = [Client(other, there.join(tid, s).token) for s in range(4)]
        spectator = Client(other, there.join(tid).token)  # asks the wrong replica first, then follows
        seen: list[pb.TableEvent] = []
        finals = [None] * 4

        def seat(s: int) -> None:
            finals[s] = play_seat(seats[s], tid, "heuristic", s)
        import threading
        threads = [threading.Thread(target=seat, args=(s,)) for s in range(4)]
        threads.append(threading.Thread(target=lambda: seen.extend(spectator.follow(tid))))
        for th in threads:
            th.start()
        for th in threads:
            th.join(120)
        assert all(f is not None and f.finished for f in finals)
        assert [ev.seq for ev in seen] == list(range(1, len(seen) + 1)) and seen[-1].WhichOneof("kind") == "game_over"
        record, complete = Client(other, made[0].host_token).record(tid)
        assert complete and there.verify(record)["valid"]

        live = {m.table_id: _line(Client(owners[m.table_id]).table(m.table_id)) for m in made}
        for r in reps.live:  # every replica lists every table, each line as its owner gives it
            listed = {i.table_id: _line(i) for i in Client(r.address).list_tables(include_finished=True)}
            assert listed == live
            unfinished = [i.table_id for i in Client(r.address).list_tables()]
            assert tid not in unfinished and len(unfinished) == 11
    finally:
        reps.close()


def test_a_replica_whose_shard_was_taken_has_its_write_refused_by_the_database(database, tmp_path):
    reps = Replicas(database, 1, 20.0, tmp_path)  # a long lease: renewed every 5 s, so the write comes first
    try:
        replica = reps.live[0]
        c = Client(replica.address)
        for attempt in range(3):
            made = c.create_table("four_point_ne_wisconsin", seed=f"fence-{attempt}")
            tid = made.table_id
            seats = {s: c.with_token(c.join(tid, s).token) for s in range(4)}
            view = seats[0].view(tid)
            mover = seats[view.turn]
            with psycopg.connect(database, autocommit=True) as conn:  # another replica takes the shard over
                conn.execute("UPDATE leases SET owner = 'intruder', address = '127.0.0.1:9', epoch = epoch + 1, "
                             "expires = clock_timestamp() + interval '60 seconds' WHERE shard = %s", (shard_of(tid),))
            stub = pb_grpc.RefereeStub(grpc.insecure_channel(replica.address))
            code, reason, meta = _refusal(lambda: stub.SubmitMove(pb.SubmitMoveRequest(
                table_id=tid, move=view.legal_moves[0], expected_version=view.version, idempotency_key="k"),
                metadata=[("authorization", f"Bearer {mover.token}")]))
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "NOT_OWNER")
            with psycopg.connect(database) as conn:
                assert conn.execute("SELECT count(*) FROM moves WHERE table_id = %s", (tid,)).fetchone()[0] == 0
            if f"fenced: a move at table {tid} was refused" in replica.log.read_text():
                break  # refused by the database's fence (not by a renewal that noticed first)
        else:
            pytest.fail("the renewal noticed first three times running")
        deadline = time.monotonic() + 10
        while f"lost shard {shard_of(tid)}" not in replica.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        code, reason, meta = _refusal(lambda: stub.GetTable(pb.GetTableRequest(table_id=tid)))
        assert (reason, meta) == ("NOT_OWNER", {"owner": "127.0.0.1:9"})  # sent to the new owner
    finally:
        reps.close()


# make test runs 80 tables and 12 kills (about half a minute); SMEAR_CHAOS_TABLES=300 SMEAR_CHAOS_KILLS=20 for the
# longer run (pytest -m alone)
CHAOS_TABLES = int(os.environ.get("SMEAR_CHAOS_TABLES", "80"))
CHAOS_KILLS = int(os.environ.get("SMEAR_CHAOS_KILLS", "12"))
LEASE = 2.0


@pytest.fixture
def own_database():
    """A database on a PostgreSQL cluster of the test's own (pgcluster.py), which it may kill: the machine's
    shared one serves the other tests meanwhile. None where this machine has no initdb."""
    if pg_bindir() is None:
        yield None
        return
    cluster = OwnCluster()
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.mark.alone
def test_chaos_kill_nine_stale_owner_and_a_database_restart_lose_no_acknowledged_move(own_database, database,
                                                                                      tmp_path):
    """CHAOS_TABLES tables of bots on Play streams and a spectator each over three replicas; meanwhile
    replicas are killed (-9) CHAOS_KILLS times, a second one while it takes over, one is stopped past its
    lease and resumed, and PostgreSQL itself is killed and restarted (a cluster of the test's own, never
    the shared one). Then every acknowledgement and every event is checked against the
    final database (cluster_harness.check_ledger)."""
    pg = own_database  # None: this machine cannot make a cluster to kill; the rest of the run still happens
    if pg is not None:
        database = pg.url
    reps = Replicas(database, 3, LEASE, tmp_path)
    ledger = Ledger()
    chaos: dict = {"kills": 0, "second": 0}
    try:
        made = asyncio.run(_run(reps, ledger, chaos, pg))
        for r in reps.live:
            r.proc.send_signal(signal.SIGTERM)
            r.proc.wait(20)
        counts = check_ledger(database, ledger, {tid: host for tid, host in made})
    finally:
        reps.close()
    stale = chaos["stale"].log.read_text()
    print(f"\nchaos: {counts}, {chaos['kills']} kills, reconnects {ledger.reconnects}, stale owner: "
          f"{stale.count('lost shard')} shards lost, {stale.count('fenced:')} writes fenced")
    if pg is None:
        print("PostgreSQL was not restarted: this machine has no initdb to make a cluster of the test's own")
    assert chaos["kills"] >= CHAOS_KILLS and chaos["second"] == 1 and chaos.get("pg", 0) == (pg is not None)
    assert counts["records"] == len(made) and len(ledger.finished) == len(made)
    late = [a for a in ledger.acks if a[4] == chaos["stale"].address and chaos["expired"] < a[5] < chaos["resumed"]]
    assert not late  # nothing acknowledged by the stopped owner between its lease's end and its waking


async def _run(reps: Replicas, ledger: Ledger, chaos: dict, pg: OwnCluster | None) -> list[tuple[str, str]]:
    route = AsyncRoute(reps.targets)
    made = []
    for i in range(0, CHAOS_TABLES, 50):
        made += await asyncio.gather(*(new_table(route, j, 2) for j in range(i, min(CHAOS_TABLES, i + 50))))
    tasks = []
    for i, (tid, _host, seats, spectator) in enumerate(made):
        rng = random.Random(i)
        tasks += [asyncio.ensure_future(play(AsyncRoute(reps.targets), s, ledger, rng)) for s in seats]
        tasks.append(asyncio.ensure_future(watch(AsyncRoute(reps.targets), tid, spectator, ledger)))
    await _chaos(reps, chaos, pg)
    done, pending = await asyncio.wait(tasks, timeout=240)
    for t in done:
        t.result()  # a bot that met a refusal it should not have raises here
    assert not pending, f"{len(pending)} seats or watchers never finished"
    await AsyncRoute.close_all()
    return [(tid, host) for tid, host, _s, _w in made]


async def _chaos(reps: Replicas, chaos: dict, pg: OwnCluster | None) -> None:
    rng = random.Random(17)
    for k in range(CHAOS_KILLS):
        await asyncio.sleep(rng.uniform(0.3, 1.5))
        held = await asyncio.to_thread(reps.held)
        victim = reps.live[rng.choice([i for i, shards in held.items() if shards] or list(held))]  # an owner
        before = held.get(reps.live.index(victim), set())
        owners = await asyncio.to_thread(reps.owners)
        await asyncio.to_thread(reps.replace, victim)
        chaos["kills"] += 1
        if k >= CHAOS_KILLS // 3 and not chaos["second"]:  # kill a second replica while it takes over the
            # first one's shards (tried again at the next kill if no taker showed in time on a loaded machine)
            deadline = time.monotonic() + 20 * LEASE
            gone = {s for s, _e in owners.get(victim.address, [])} | before
            while time.monotonic() < deadline:
                now = await asyncio.to_thread(reps.held)
                taker = next((reps.live[i] for i, shards in now.items() if shards & before), None)
                if taker is None:  # by address: a replica that has just come up may not have named itself yet
                    by_address = await asyncio.to_thread(reps.owners)
                    taker = next((r for r in reps.live if r is not reps.live[-1] and
                                  {s for s, _e in by_address.get(r.address, [])} & gone), None)
                if taker is not None:
                    await asyncio.to_thread(reps.replace, taker)
                    chaos["second"] += 1
                    chaos["kills"] += 1
                    break
                await asyncio.sleep(0.02)
        if k == CHAOS_KILLS // 2:  # a stale owner: stopped past its lease, then resumed
            held = await asyncio.to_thread(reps.held)
            stale = chaos["stale"] = reps.live[max(held, key=lambda i: len(held[i]))]  # the one holding most
            stale.proc.send_signal(signal.SIGSTOP)
            chaos["expired"] = time.time() + LEASE
            await asyncio.sleep(2.5 * LEASE)
            chaos["resumed"] = time.time()
            stale.proc.send_signal(signal.SIGCONT)
            deadline = time.monotonic() + 10  # it notices at its next renewal, and lets its tables go
            while "lost shard" not in stale.log.read_text() and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
        if k == 2 * CHAOS_KILLS // 3 and pg is not None:  # PostgreSQL itself, killed and started again
            await asyncio.to_thread(pg.kill)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(pg.start)
            chaos["pg"] = 1
            while not await asyncio.to_thread(pg.reachable):
                await asyncio.sleep(0.2)


def test_a_tournament_fails_over_with_its_shard_when_its_replica_is_killed_mid_round(database, tmp_path):
    """A tournament lives in the store, served by whichever replica holds its shard: its replica is
    killed (-9) mid-round, the director's calls follow to the new owner, the round finishes (its tables'
    bots play on where their shards went), the next round starts there, and the archive verifies."""
    import json

    from smear_referee.tournament.archive import verify_archive
    # The bots think 0.1 s a move, so a round lasts seconds: long enough to be caught mid-round on a loaded machine.
    reps = Replicas(database, 3, 1.5, tmp_path, limits=("bot_seconds=0.1",))
    try:
        reps.spread()
        director = Client(reps.targets)
        made = director.tournament("CreateTournament", pb.CreateTournamentRequest(
            rules_name="cutthroat_canadian", players=3, entrants=[f"p{i}" for i in range(6)], pairing="swiss",
            rounds=2, hands_per_round=2, seed="failover"), token=False)
        boss = director.with_token(made.director_token)

        def round_with_bots(r: int) -> list[str]:
            started = boss.tournament("StartRound", pb.StartRoundRequest(tournament_id=made.tournament_id), safe=False)
            assert started.round == r
            for tab in started.tables:  # every seat handed to the referee's bots
                for token in tab.seat_tokens:
                    Client(reps.targets, token).add_bots(tab.table_id)
            return [tab.table_id for tab in started.tables]

        def finished() -> list[bool]:
            got = director.tournament("GetStandings", pb.GetStandingsRequest(tournament_id=made.tournament_id),
                                      token=False)
            return [st.finished for rs in got.rounds for st in rs.table_states]

        round_with_bots(0)
        assert not any(finished())  # the round is being played
        owner = _lease(database, made.tournament_id)[0]
        victim = next(r for r in reps.live if r.address == owner)
        reps.kill(victim)  # mid-round: its tables and the tournament itself lose their replica
        deadline = time.monotonic() + 90
        while not all(finished()):
            assert time.monotonic() < deadline, finished()
            time.sleep(0.2)
        # Another replica takes the tournament's shard once the dead one's lease runs out: the round's tables
        # may all be on other shards and finish before it does.
        while _lease(database, made.tournament_id)[0] == owner:
            assert time.monotonic() < deadline, "the killed replica still holds the tournament's shard"
            time.sleep(0.2)
        round_with_bots(1)
        deadline = time.monotonic() + 90
        while not (all(done := finished()) and len(done) == 4):
            assert time.monotonic() < deadline, done
            time.sleep(0.2)
        archive = json.loads(boss.tournament("ExportTournament", pb.ExportTournamentRequest(
            tournament_id=made.tournament_id)).archive_json)
        assert len(archive["rounds"]) == 2 and not archive["pending_rounds"]
        assert verify_archive(archive) == []
    finally:
        reps.close()


def test_a_club_counts_its_games_on_whichever_replica_holds_it_after_its_replica_is_killed(database, tmp_path):
    """A club on three replicas: its calls that change it follow its shard's owner; a club table opened on
    another replica seats its members there; the club's replica is killed (-9) mid-game; the replica that
    takes the club's shard counts the game once, though the club is read first at the table's replica (which
    does not hold it, and `all` stops there until it shows the game), and the export verifies."""
    import json

    from smear_referee.club.export import verify_export
    reps = Replicas(database, 3, 1.5, tmp_path, limits=("bot_seconds=0.01",))
    try:
        reps.spread()
        anyone = Client(reps.targets)
        made = anyone.club("CreateClub", pb.CreateClubRequest(name="Replicated", rule_files=[
            pb.ClubRuleFile(rules_name="four_point_ne_wisconsin")]), token=False, safe=False)
        cid = made.club_id
        director = anyone.with_token(made.director_token)
        members = [director.club("AddMember", pb.AddMemberRequest(club_id=cid, name=n), safe=False).member_token
                   for n in ("Ann", "Bo", "Cy", "Di")]
        owner = _lease(database, cid)[0]
        elsewhere = next(r.address for r in reps.live if r.address != owner)
        opened = Client(elsewhere, made.director_token).club("OpenClubTable", pb.OpenClubTableRequest(
            club_id=cid, rules="four_point_ne_wisconsin", hand_limit=2, seed="replicas"), safe=False)
        assert _lease(database, opened.table_id)[0] == elsewhere != owner  # the table is not on the club's replica
        seats = [Client(reps.targets, token).club("JoinClubTable", pb.JoinClubTableRequest(
            table_id=opened.table_id, seat=seat), safe=False).token for seat, token in enumerate(members)]
        for token in seats[:3]:  # bots play three members' seats; the fourth waits, so the game is still on
            Client(reps.targets, token).add_bots(opened.table_id)
        before = Client(owner).club("GetClub", pb.GetClubRequest(club_id=cid), token=False)
        assert [t.table_id for t in before.tables] == [opened.table_id] and before.seasons[0].games == 0
        assert not Client(reps.targets).table(opened.table_id).finished
        reps.kill(next(r for r in reps.live if r.address == owner))  # the club's replica, mid-game
        Client(reps.targets, seats[3]).add_bots(opened.table_id)

        def read(target: str) -> pb.GetClubResponse:
            return Client(target).club("GetClub", pb.GetClubRequest(club_id=cid), token=False)
        deadline = time.monotonic() + 90
        while not all(read(r.address).seasons[0].games >= 1 for r in reps.live):
            assert time.monotonic() < deadline, [read(r.address).seasons[0].games for r in reps.live]
            time.sleep(0.3)
        assert _lease(database, cid)[0] != owner  # another replica holds the club's shard now, and counted
        assert [read(r.address).seasons[0].games for r in reps.live] == [1, 1]  # once, whoever reads
        # The server's bots played every member's seat: the game counts, and rates nobody (members_only).
        assert all(ladders(read(r.address))["four_point_ne_wisconsin"] == [] for r in reps.live)
        got = read(reps.live[0].address)
        assert [m.name for m in got.members] == ["Ann", "Bo", "Cy", "Di"] and not got.tables
        exported = Client(reps.targets, members[0]).club("ExportClub", pb.ExportClubRequest(club_id=cid))
        lines = [json.loads(x) for x in exported.export_jsonl.splitlines()]
        assert verify_export(lines, {1: got.seasons[0].head}) == []
        assert lines[1]["seats"] == ["m0001", "m0002", "m0003", "m0004"]
    finally:
        reps.close()
