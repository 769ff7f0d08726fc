"""Snapshots and bounded tables: a game rebuilt between hands plays on exactly like the game it
came from; the referee keeps only recent hands in memory, restarts from snapshots, reads the
rest back from the store, parks idle tables and ends abandoned ones (docs/referee.md)."""
from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest
from referee_harness import ServerThread

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.compile.duplicate import boards
from smear_dsl.engine import Game
from smear_dsl.engine.snapshot import between_hands, restore
from smear_dsl.language.load import load_spec
from smear_dsl.language.paths import rule_names
from smear_referee.api import referee_pb2 as pb
from smear_referee.errors import RefereeError
from smear_referee.limits import Limits
from smear_referee.storage.store import Store
from smear_referee.tables.convert import move_to_proto
from smear_referee.tables.registry import Identity, Tables

# ---------------------------------------------------------------- the engine: a game rebuilt between hands


def _views(g: Game) -> list:
    return [g.view(s) for s in range(g.n)] + [g.view(None), g.legal_moves()]


@pytest.mark.parametrize("name", rule_names())
def test_a_game_rebuilt_at_any_hand_boundary_plays_on_identically(name):
    """Two games get the same random moves: one plays straight through, the other is rebuilt from
    its snapshot at every boundary. Every seat's view and every legal move stay equal (the deals
    too, since the views show each seat its hand), including duplicate boards and hand limits."""
    rules = compile_rules(load_spec(name), None, {})
    for k in range(6):
        kwargs = {"seed": f"snap-{k}", "first_dealer": k % rules.players,
                  "deal_source": boards(rules, f"snap-{k}") if k % 3 == 2 else None, "hand_limit": 4 if k == 1 else None}
        straight, rebuilt = Game(rules, **kwargs), Game(rules, **kwargs)
        rebuilt.keep_boundary = True
        rng = random.Random(k)
        boundaries = 0
        while not straight.finished and len(straight.results) < 40:
            code = straight.random_move(rng)
            n = len(rebuilt.results)
            straight.apply(straight.turn, code)
            rebuilt.apply(rebuilt.turn, code)
            if len(rebuilt.results) > n:
                state = between_hands(rebuilt) if rebuilt.finished else rebuilt.boundary
                rebuilt = restore(Game, rules, state, **kwargs)
                assert rebuilt.record_hands[0] is None or len(rebuilt.record_hands) == 1  # the history is gone
                boundaries += 1
            assert _views(rebuilt) == _views(straight)
        assert boundaries >= 1 and rebuilt.scores == straight.scores and rebuilt.winner == straight.winner


# ---------------------------------------------------------------- the referee's tables

async def _seated(tables: Tables, seed: str, rules: str = "four_point_ne_wisconsin"):
    t, _host = await tables.create(rules, None, {}, 0, seed)
    tokens = [(await tables.join(t.id, s))[1] for s in range(t.rules.players)]
    return t, tokens


async def _play(tables: Tables, t, moves: int, rng: random.Random, key: str = "") -> list[tuple[int, str]]:
    """Play random legal moves through Tables.submit; returns (version, key) of each keyed move."""
    keyed = []
    for _ in range(moves):
        if t.game.finished:
            break
        g = t.game
        seat = g.turn
        k = f"{key}{t.version}" if key else ""
        await tables.submit(t, Identity(t.id, "seat", seat), move_to_proto(t.rules, g.random_move(rng)), t.version, k)
        if k:
            keyed.append((t.version, k))
    return keyed


def _all_views(t) -> list:
    return [t.view(Identity(t.id, "seat", s)) for s in range(t.rules.players)] + \
        [t.view(Identity(t.id, "spectator", None))]


def test_memory_holds_recent_hands_and_a_restart_replays_only_the_hand_in_progress(db):
    async def run():
        tables = Tables(Store(db))
        t, _tokens = await _seated(tables, "mem")
        rng = random.Random(1)
        while len(t.game.results) < 6 and not t.game.finished:
            await _play(tables, t, 1, rng, key="k")
            hand = len(t.game.results)
            # at most the hand before last and this one: moves, events and keys stay bounded
            assert len(t.log) <= 60 and len(t.events) <= 150 and len(t.idem) <= 120
            assert all(h is None for h in t.game.record_hands[:max(0, hand - 1)])
        assert t.snapshot is not None and t.base_version > 0 and t.base_seq > 0
        views, version, seq = _all_views(t), t.version, t.last_seq
        tables.store.close()

        again = Tables(Store(db))
        stored = (await again.store.off_loop(again.store.load, [t.id]))[0]
        assert stored.snapshot["version"] == t.snapshot["version"] and len(stored.moves) == version - t.base_version
        await asyncio.to_thread(again.load)
        t2 = again.tables[t.id]
        assert _all_views(t2) == views and t2.version == version and t2.last_seq == seq
        await _play(again, t2, 40, random.Random(2))  # and it plays on
        assert t2.version > version
        again.store.close()
    asyncio.run(run())


def test_finished_tables_stay_in_the_store_and_answer_from_it(db):
    async def run():
        limits = Limits(hands_per_game=2)
        tables = Tables(Store(db), limits)
        t, tokens = await _seated(tables, "fin", "cutthroat_canadian")
        await _play(tables, t, 10_000, random.Random(3))
        assert t.game.finished and len(t.game.results) == 2  # the server's cap on hands ended it
        rec, complete = await tables.record(t, Identity(t.id, "host", None))
        final = _all_views(t)
        tables.store.close()

        again = Tables(Store(db), limits)
        await asyncio.to_thread(again.load)
        assert t.id not in again.tables and t.id not in again.open_ids  # not read back at start-up
        assert await again.outcome(t.id) == (True, list(t.game.scores), t.game.winner)
        who = await again.identify(tokens[0])  # its tokens are found in the store
        assert who == Identity(t.id, "seat", 0)
        t2 = await again.table_for(t.id, who)
        assert _all_views(t2) == final
        rec2, complete2 = await again.record(t2, Identity(t.id, "host", None))
        assert complete and complete2 and rec2 == rec and len(rec["hands"]) == 2
        with pytest.raises(RefereeError) as e:
            await again.submit(t2, who, pb.Move(**{"pass": True}), t2.version, "")
        assert e.value.reason == "GAME_OVER"
        again.store.close()
    asyncio.run(run())


def test_an_idempotency_key_of_an_earlier_hand_is_found_in_the_store(db):
    async def run():
        tables = Tables(Store(db))
        t, _tokens = await _seated(tables, "keys")
        rng = random.Random(4)
        first = t.game.turn
        move = move_to_proto(t.rules, t.game.legal_moves()[0])
        assert await tables.submit(t, Identity(t.id, "seat", first), move, 0, "early") == (False, 1)
        while len(t.game.results) < 4:
            await _play(tables, t, 1, rng)
        assert "early" not in t.idem  # it has left memory
        me = Identity(t.id, "seat", first)
        assert await tables.submit(t, me, move, 0, "early") == (True, 1)  # a late retry: replayed, nothing applied
        with pytest.raises(RefereeError) as e:
            await tables.submit(t, me, pb.Move(play="ZZ"), 0, "early")
        assert e.value.reason == "IDEMPOTENCY_KEY_REUSED"
        version = t.version
        turn = Identity(t.id, "seat", t.game.turn)
        now = move_to_proto(t.rules, t.game.legal_moves()[0])  # legal now: held back by the store's unique key
        if turn.seat == first and now == move:
            assert await tables.submit(t, turn, now, version, "early") == (True, 1)
        else:
            with pytest.raises(RefereeError) as e:
                await tables.submit(t, turn, now, version, "early")
            assert e.value.reason == "IDEMPOTENCY_KEY_REUSED"
        assert t.version == version  # nothing was applied
        tables.store.close()
    asyncio.run(run())


def test_idle_tables_are_parked_and_woken_and_abandoned_ones_end_by_rule(db):
    async def run():
        limits = Limits(idle_seconds=60, abandon_seconds=3600)
        tables = Tables(Store(db), limits)
        t, tokens = await _seated(tables, "idle")
        waiting, _ = await _seated(tables, "unstarted")
        await _play(tables, t, 30, random.Random(5))
        views = _all_views(t)
        now = t.touched
        await tables.sweep(now + 30)
        assert t.id in tables.tables  # not idle long enough
        await tables.sweep(now + 61)
        assert t.id not in tables.tables and t.id in tables.open_ids  # parked
        assert waiting.id in tables.tables  # a table nobody has played yet stays listed for its players
        who = await tables.identify(tokens[1])
        woken = await tables.table_for(t.id, who)
        assert woken is not t and _all_views(woken) == views
        await _play(tables, woken, 3, random.Random(6))

        await tables.sweep(woken.touched + 3601)
        assert woken.game.finished and woken.game.winner is None and woken.ended["reason"] == "abandoned"
        assert woken.events[-1][1] == "game_over" and t.id not in tables.open_ids
        assert waiting.game.finished  # never started, and abandoned too
        rec, complete = await tables.record(woken, Identity(t.id, "host", None))
        assert complete and rec["ended"]["reason"] == "abandoned"
        scores = list(woken.game.scores)
        tables.store.close()

        again = Tables(Store(db), limits)
        await asyncio.to_thread(again.load)
        assert not again.open_ids and await again.outcome(t.id) == (True, scores, None)
        fresh, _ = await _seated(again, "after")
        played, _ = await _seated(again, "played")
        await _play(again, played, 5, random.Random(12))
        again.store.close()

        later = Tables(Store(db), Limits(idle_seconds=0.001))  # a restart long after: idle ones stay parked
        await asyncio.sleep(0.01)
        await asyncio.to_thread(later.load)
        assert later.open_ids == {fresh.id, played.id}
        assert fresh.id in later.tables and played.id not in later.tables  # the lobby still lists the unplayed one
        later.store.close()
        again = Tables(Store(db), limits)
        back = await again.table_for(t.id, None)
        assert back.ended["reason"] == "abandoned" and back.game.finished
        again.store.close()
    asyncio.run(run())


def test_a_store_written_before_snapshots_is_read_whole_once_then_from_snapshots(tmp_path):
    async def run():
        db = str(tmp_path / "old.sqlite3")
        tables = Tables(Store(db))
        live, _ = await _seated(tables, "old-live")
        done, _ = await _seated(tables, "old-done", "cutthroat_canadian")
        await _play(tables, live, 150, random.Random(7))
        await _play(tables, done, 100_000, random.Random(8))
        views = _all_views(live)
        tables.store.close()
        conn = sqlite3.connect(db)  # make it the older schema: no snapshots, no finished marks
        conn.execute("DROP TABLE snapshots")
        conn.execute("DROP INDEX IF EXISTS tables_open")
        conn.execute("DROP INDEX IF EXISTS tables_shard")
        for column in ("finished", "outcome_json", "record_json", "ended", "updated", "shard"):
            conn.execute(f"ALTER TABLE tables DROP COLUMN {column}")
        conn.commit()
        conn.close()

        again = Tables(Store(db))
        assert again.store.upgraded
        await asyncio.to_thread(again.load)
        assert _all_views(again.tables[live.id]) == views and again.open_ids == {live.id}
        again.store.close()
        third = Tables(Store(db))
        assert not third.store.upgraded
        await asyncio.to_thread(third.load)
        assert set(third.tables) == {live.id} and _all_views(third.tables[live.id]) == views
        assert len((await third.store.off_loop(third.store.load, [live.id]))[0].moves) < 60  # from its snapshot now
        third.store.close()
    asyncio.run(run())


def test_a_stream_resuming_from_far_back_gets_the_events_memory_no_longer_holds(db):
    """WatchTable from seq 0 after several hands sends the same events, in order, as a stream
    that watched from the start: the old ones remade from the store."""
    srv = ServerThread(db)
    try:
        host = srv.client()
        made = host.create_table("cutthroat_canadian", seed="resume")
        seats = [srv.client(host.join(made.table_id, seat=s).token) for s in range(made.table.players)]
        live = srv.client(host.join(made.table_id).token)  # a spectator
        stream = live.watch(made.table_id, timeout=60)
        assert next(stream).HasField("snapshot") and next(stream).HasField("seats")
        rng = random.Random(9)
        rules = compile_rules(load_spec("cutthroat_canadian"), None, {})
        t = srv.running.tables.tables[made.table_id]
        while len(t.game.results) < 3:
            view = seats[0].view(made.table_id)
            code = t.game.random_move(rng)
            seats[t.game.turn].submit(made.table_id, move_to_proto(rules, code), view.version, "")
        assert t.base_seq > 0  # the first hands' events have left memory
        want = [next(stream) for _ in range(t.last_seq)]
        stream.cancel()
        late = live.watch(made.table_id, after_seq=0, timeout=60)
        assert next(late).HasField("snapshot") and next(late).HasField("seats")
        got = [next(late) for _ in range(len(want))]
        late.cancel()
        assert got == want and [e.seq for e in got] == list(range(1, len(want) + 1))
    finally:
        srv.stop()


def test_a_parked_table_with_bots_plays_on_when_its_player_comes_back(tmp_path):
    """The host's bots wait for the one person at the table; parked meanwhile, the table is read
    back by that person's next call and the bots answer again."""
    from smear_referee.server.house_bots import HouseBots

    async def run():
        limits = Limits(idle_seconds=60, bot_seconds=0.001)
        tables = Tables(Store(str(tmp_path / "db.sqlite3")), limits)
        bots = HouseBots(tables)
        t, _host = await tables.create("cutthroat_canadian", None, {}, 3, "bots")
        me = Identity(t.id, "seat", 0)
        _t, token = await tables.join(t.id, 0)
        await tables.add_bots(t, "heuristic")
        bots.watch(t)
        rng = random.Random(10)
        for _ in range(200):  # until the person must act twice in a row with the bots gone quiet
            if t.game.turn == 0:
                await tables.submit(t, me, move_to_proto(t.rules, t.game.random_move(rng)), t.version, "")
            await asyncio.sleep(0.01)
            if t.game.turn == 0 and t.version > 5:
                break
        for _ in range(200):  # a bot's last move may still be settling (its task ends after the write)
            if not bots.pending:
                break
            await asyncio.sleep(0.01)
        assert t.game.turn == 0 and not bots.pending
        await tables.sweep(t.touched + 61)
        assert t.id not in tables.tables and not any(k[0] == t.id for k in bots.players)
        back = await tables.table_for(t.id, await tables.identify(token))
        version = back.version

        def bot_moved() -> bool:
            return any(ev[1] == "move" and ev[2] != 0 and ev[4] > version for ev in back.events)
        for _ in range(500):  # play on whenever it is the person's turn, until a bot has moved
            if back.game.turn == 0:
                await tables.submit(back, me, move_to_proto(back.rules, back.game.random_move(rng)), back.version, "")
            await asyncio.sleep(0.01)
            if bot_moved():
                break
        assert bot_moved()  # a bot answered at the table read back
        tables.store.close()
    asyncio.run(run())
