"""Any language can play: the Node.js client (clients/node, @grpc/grpc-js + @grpc/proto-loader) takes
a seat against a Python bot and the game plays to the end; its record verifies."""
from __future__ import annotations

import json
import shutil
import subprocess
import threading

import pytest
from conftest import ROOT
from referee_harness import ServerThread

from smear_referee.clients.client import play_seat

NODE_DIR = ROOT / "clients" / "node"


def test_node_client_plays_a_whole_game(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed")
    assert (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").is_dir(), \
        "run `npm ci --prefix clients/node` (make test does)"
    srv = ServerThread(str(tmp_path / "db.sqlite3"))
    try:
        c = srv.client()
        t = c.create_table("cutthroat_canadian", players=2, seed="node")
        python_seat = srv.client(c.join(t.table_id, 0).token)
        bot = threading.Thread(target=play_seat, args=(python_seat, t.table_id, "heuristic", 1))
        bot.start()
        out = subprocess.run(["node", str(NODE_DIR / "play.js"), "--server", srv.target, "--table", t.table_id,
                              "--seat", "1"], capture_output=True, text=True, timeout=120)
        bot.join(60)
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout.strip().splitlines()[-1])
        assert summary["finished"] and summary["moves"] > 5
        record, complete = srv.client(t.host_token).record(t.table_id)
        verdict = c.verify(record)
        assert complete and verdict["valid"] and verdict["finished"] and verdict["scores"] == summary["scores"]
    finally:
        srv.stop()
