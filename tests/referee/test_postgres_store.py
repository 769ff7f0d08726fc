"""The referee's store on PostgreSQL (`--db postgresql://...`): one server per database, clear
refusals, passwords kept out of messages. The referee's own behaviour on PostgreSQL (restarts,
snapshots, kill -9) is tested by the tests taking the `db` fixture, on both databases."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT, fresh_pg_database

from smear_referee.storage import backends
from smear_referee.storage.backends import StoreInUse, _redacted
from smear_referee.storage.store import Store


def test_a_second_server_cannot_use_the_same_database_until_the_first_closes(monkeypatch):
    monkeypatch.setattr(backends, "LOCK_WAIT", 0.3)
    url, drop = fresh_pg_database("lock")
    try:
        first = Store(url)
        with pytest.raises(StoreInUse) as e:
            Store(url)
        assert "in use by another running server" in str(e.value)
        first.close()
        Store(url).close()  # free again at once
    finally:
        drop()


def test_replicas_share_a_database_and_a_lone_server_keeps_them_out(monkeypatch):
    monkeypatch.setattr(backends, "LOCK_WAIT", 0.3)
    url, drop = fresh_pg_database("share")
    try:
        a, b = Store(url, shared=True), Store(url, shared=True)  # replicas (--advertise) share it
        with pytest.raises(StoreInUse) as e:
            Store(url)
        assert "in use by another running server" in str(e.value)
        a.close()
        b.close()
        lone = Store(url)
        with pytest.raises(StoreInUse) as e:
            Store(url, shared=True)
        assert "not a replica" in str(e.value)
        lone.close()
    finally:
        drop()


def test_advertise_needs_a_postgresql_database(tmp_path):
    done = subprocess.run([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", str(tmp_path / "x.db"),
                           "--advertise", "127.0.0.1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "--advertise runs a replica" in done.stderr


def test_serve_refuses_an_unreachable_database_in_one_line():
    done = subprocess.run([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db",
                           "postgresql://nobody:secret@127.0.0.1:1/none"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot reach the database postgresql://nobody:***@127.0.0.1:1/none" in done.stderr
    assert "secret" not in done.stderr


def test_a_password_never_reaches_a_message():
    assert _redacted("postgresql://smear:hunter2@db.example:5432/club") == "postgresql://smear:***@db.example:5432/club"
    assert _redacted("postgresql://127.0.0.1:5432/club") == "postgresql://127.0.0.1:5432/club"
