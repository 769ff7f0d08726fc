"""A PostgreSQL cluster of a test's own, for a test that kills and restarts its database: made with the
machine's initdb in a fresh folder, on a free port of 127.0.0.1, trust auth, and removed afterwards. The
machine's shared PostgreSQL (127.0.0.1:5432) is left alone, so such a test runs beside the others."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def pg_bindir() -> Path | None:
    """Where initdb and pg_ctl are (pg_config's bindir, or the newest /usr/lib/postgresql/N/bin)."""
    found = shutil.which("pg_config")
    if found:
        out = subprocess.run([found, "--bindir"], capture_output=True, text=True).stdout.strip()
        if out and (Path(out) / "initdb").is_file():
            return Path(out)
    lib = Path("/usr/lib/postgresql")
    versions = sorted((p for p in lib.glob("*/bin") if (p / "initdb").is_file()), key=lambda p: p.parent.name)
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OwnCluster:
    """initdb, start, kill (-m immediate) and start again, then remove. As root, the server runs as the
    `postgres` user (PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        bindir = pg_bindir()
        if bindir is None:
            raise RuntimeError("no initdb on this machine")
        self.bin = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="smear-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            self.dir.chmod(0o700)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"port = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.dir}'\n"
                       "max_connections = 200\n")
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True, cwd="/")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60", "start")

    def kill(self) -> None:
        """Stop at once, as a crash would (no checkpoint: the next start replays the WAL)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def reachable(self) -> bool:
        import psycopg
        try:
            psycopg.connect(self.url, connect_timeout=3).close()
            return True
        except psycopg.Error:
            return False

    def close(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except subprocess.CalledProcessError:
            pass  # not running
        for _ in range(20):
            shutil.rmtree(self.dir, ignore_errors=True)
            if not self.dir.exists():
                return
            time.sleep(0.1)
