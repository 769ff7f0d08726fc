"""A real referee server for tests: in a thread of this process on 127.0.0.1 port 0, or as a
separate process (for kill -9), always on a real SQLite file."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time

from server.app import start
from server.client import Client

from conftest import ROOT


class ServerThread:
    """The server on its own event loop in a background thread."""

    def __init__(self, db: str):
        self.db = db
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(20):
            raise RuntimeError("the server did not start")

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.running = self.loop.run_until_complete(start("127.0.0.1", 0, self.db))
        self.port = self.running.port
        self.ready.set()
        self.loop.run_forever()

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self, token: str | None = None) -> Client:
        return Client(self.target, token)

    def stop(self) -> None:
        fut = asyncio.run_coroutine_threadsafe(self.running.stop(0.5), self.loop)
        fut.result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class ServerProcess:
    """`smear-dsl serve` as a child process; it prints the port it bound."""

    def __init__(self, db: str):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", db],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            raise RuntimeError(f"server did not start: {line!r} {self.proc.stderr.read() if self.proc.poll() else ''}")
        self.port = int(line.strip().rsplit(":", 1)[1])
        self.target = f"127.0.0.1:{self.port}"

    def client(self, token: str | None = None) -> Client:
        return Client(self.target, token)

    def kill9(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        time.sleep(0.05)
