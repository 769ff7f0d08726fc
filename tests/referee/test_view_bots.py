"""The view-only bots a client plays (tournament personas, `smear-dsl bot --style`) read the table's
rules when this installation has them: Cinch bids to the hand's worth, not by trump length."""
from __future__ import annotations

import threading

import pytest
from referee_harness import ServerThread

from smear_dsl.records.verify import verify
from smear_referee.clients.client import play_seat, table_rules


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    s = ServerThread(str(tmp_path_factory.mktemp("referee") / "referee.sqlite3"))
    yield s
    s.stop()


def winning_bids(srv, style: str, seed: str) -> list[int]:
    """The winning bids of a Cinch game (at most 8 hands) four view bots of `style` play on a real referee."""
    c = srv.client()
    t = c.create_table("cinch", {}, 4, seed, hand_limit=8)
    clients = [srv.client(c.join(t.table_id, s).token) for s in range(4)]
    threads = [threading.Thread(target=play_seat, args=(clients[i], t.table_id, style, f"{seed}/{i}")) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    record, complete = srv.client(t.host_token).record(t.table_id)
    assert complete
    last = []
    verdict = verify(record, observe=lambda game, hand, move: last.__setitem__(slice(None), [game]))
    assert verdict["valid"], verdict
    return [r.bid for r in last[0].results if r.bid]


def test_view_bots_bid_cinch_by_the_hand_worth(srv):
    worth = [b for k in range(2) for b in winning_bids(srv, "heuristic", f"w{k}")]
    length = [b for k in range(2) for b in winning_bids(srv, "heuristic@1", f"w{k}")]
    mean = sum(worth) / len(worth)
    assert mean >= 6 and mean >= sum(length) / len(length) + 1.5, (worth, length)  # Cinch bids run to 14


def test_house_rules_leave_the_view_bot_on_trump_length(srv):
    """Uploaded rules are not this installation's to compile from a name: the bot keeps to the view."""
    c = srv.client()
    text = "extends: four_point_ne_wisconsin\nname: Uploaded\n"
    t = c.create_table(rules_text=text, players=4, seed="h")
    assert table_rules(c, t.table_id) is None
    shipped = c.create_table("four_point_ne_wisconsin", {"widow": 2}, 4, "c")
    rules = table_rules(c, shipped.table_id)
    assert rules is not None and rules.ref.startswith("four_point_ne_wisconsin@") and rules.options["widow"] == 2


def test_a_house_rules_tournament_bids_by_worth_too(tmp_path):
    """A tournament's bots compile its house file themselves (a seat cannot ask the referee for it)."""
    from smear_referee.clients.tournament import run_tournament
    house = tmp_path / "house_cinch.yaml"
    house.write_text("extends: cinch\nname: House Cinch\n")
    archive = run_tournament(str(house), 4, 1, seed="hc", out=str(tmp_path / "out"), progress=False)
    bids = []
    for table in archive["rounds"][0]["tables"]:
        last = []
        assert verify(table["record"], observe=lambda game, hand, move: last.__setitem__(slice(None), [game]))["valid"]
        bids += [r.bid for r in last[0].results if r.bid]
    assert bids and sum(bids) / len(bids) >= 6, bids
