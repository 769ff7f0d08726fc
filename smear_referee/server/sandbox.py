"""Work a stranger can make expensive runs in worker processes the server can kill.

Compiling an uploaded rule file and verifying a record cost CPU that the caller chooses. Each
such job runs in a child process (`python -m smear_referee.server.sandbox`) under a wall-clock limit and a
memory cap: when the limit passes, the worker is killed and replaced, so the work stops, not
only the wait, and the server's own process (its event loop, its moves) never runs it. A
semaphore admits as many jobs as there are workers; a short, bounded queue waits behind them
and anything past it is refused at once (`SandboxBusy`).

Jobs are module-level functions of `smear_referee.server.jobs`, named by string; arguments and results are
plain data (pickled over the worker's stdin/stdout, 4-byte length prefix).
"""
from __future__ import annotations

import asyncio
import os
import pickle
import struct
import subprocess
import sys
import threading
from typing import Any


class SandboxBusy(Exception):
    """Every worker is busy and the queue behind them is full."""


class SandboxTimeout(Exception):
    """The job ran past its limit; its worker was killed."""


class SandboxFailed(Exception):
    """The worker died or ran out of memory (the job's own fault: a hostile input)."""


def _send(stream, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def _recv(stream) -> Any:
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError("the worker closed its pipe")
    (n,) = struct.unpack(">I", head)
    data = stream.read(n)
    if len(data) < n:
        raise EOFError("the worker closed its pipe")
    return pickle.loads(data)


class _Worker:
    """One child process; it answers one job at a time."""

    def __init__(self, memory_bytes: int):
        env = dict(os.environ, SMEAR_SANDBOX_MEMORY=str(memory_bytes), PYTHONDONTWRITEBYTECODE="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "smear_referee.server.sandbox"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        _recv(self.proc.stdout)  # "ready": the imports are done

    def call(self, job: str, args: tuple) -> Any:
        _send(self.proc.stdin, (job, args))
        return _recv(self.proc.stdout)

    def kill(self) -> None:
        try:
            self.proc.kill()
        except ProcessLookupError:  # pragma: no cover - already gone
            pass
        self.proc.wait()
        for s in (self.proc.stdin, self.proc.stdout):
            try:
                if s is not None:
                    s.close()
            except OSError:  # pragma: no cover - a broken pipe on close
                pass


class Sandbox:
    """A few worker processes, a bounded queue, and a kill at the deadline."""

    def __init__(self, workers: int = 1, queue: int = 8, memory_bytes: int = 1 << 30):
        self.size, self.queue_limit, self.memory_bytes = workers, queue, memory_bytes
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._running: set[asyncio.Future] = set()
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)  # a worker was given back or a start ended
        self._starting = 0  # workers being started in the background
        self._slots: asyncio.Semaphore | None = None
        self._waiting = 0
        self.kills = 0
        self.runs = 0  # jobs a worker answered
        self.closed = False

    def _take(self) -> _Worker:
        with self._lock:
            while True:
                while self._idle:
                    w = self._idle.pop()
                    if w.proc.poll() is None:
                        self._busy.add(w)
                        return w
                if not self._starting or self.closed:
                    break
                self._ready.wait()  # one is being started: take it rather than start another
        w = _Worker(self.memory_bytes)
        with self._lock:
            self._busy.add(w)
        return w

    def _give(self, w: _Worker) -> None:
        with self._lock:
            self._busy.discard(w)
            # Kept unless closed, dead, or one too many (a job that found none ready started its own).
            if not self.closed and w.proc.poll() is None and len(self._idle) + len(self._busy) < self.size:
                self._idle.append(w)
                self._ready.notify()
                return
        w.kill()

    def _replace(self) -> None:
        """Start a worker in place of a killed one, off the caller's path (a job waits for it rather than start another)."""
        def start() -> None:
            try:
                self._give(_Worker(self.memory_bytes))
            except (OSError, EOFError):  # pragma: no cover - the next job starts one itself
                pass
            finally:
                with self._lock:
                    self._starting -= 1
                    self._ready.notify_all()
        with self._lock:
            self._starting += 1
        threading.Thread(target=start, name="smear-sandbox-start", daemon=True).start()

    @property
    def running(self) -> int:
        """Jobs a worker is on now."""
        return len(self._running)

    def full(self) -> bool:
        """Whether a job sent now would be refused (every worker busy, the queue full)."""
        return self._slots is not None and self._slots.locked() and self._waiting >= self.queue_limit

    async def run(self, job: str, *args: Any, seconds: float) -> Any:
        """The result of `smear_referee.server.jobs.<job>(*args)`, computed in a worker within `seconds`."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        if self.full():
            raise SandboxBusy()
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        # The blocking pipe work runs in a thread of its own and keeps its slot until it ends: a
        # caller that gives up does not free a worker that is still busy (or more would start).
        slots = self._slots
        work = asyncio.ensure_future(asyncio.to_thread(self._run_blocking, job, args, seconds))
        self._running.add(work)

        def done(w: asyncio.Future) -> None:
            slots.release()
            self._running.discard(w)
            if not w.cancelled():
                w.exception()  # read, so an error is not reported as never retrieved
        work.add_done_callback(done)
        return await asyncio.shield(work)

    def _run_blocking(self, job: str, args: tuple, seconds: float) -> Any:
        w = self._take()
        done, expired = threading.Event(), threading.Event()

        def expire() -> None:
            if not done.is_set():
                expired.set()
                w.kill()
        timer = threading.Timer(seconds, expire)
        timer.start()
        try:
            tag, value = w.call(job, args)
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):  # ValueError: its pipe was closed by a kill
            done.set()
            timer.cancel()
            self._give(w)  # dead or dying: given back only to be killed
            if not self.closed:
                self._replace()
            if expired.is_set():
                self.kills += 1
                raise SandboxTimeout() from None
            raise SandboxFailed() from None
        done.set()
        timer.cancel()
        self._give(w)
        if tag == "memory":
            raise SandboxFailed()
        self.runs += 1
        return value

    def close(self) -> None:
        """Kill every worker, busy or idle (a job still running ends as SandboxFailed)."""
        with self._lock:
            self.closed = True
            workers, self._idle = [*self._idle, *self._busy], []
            self._ready.notify_all()
        for w in workers:
            w.kill()

    async def aclose(self) -> None:
        """close(), then wait for the jobs that were running to end (so none is left pending)."""
        self.close()
        if self._running:
            await asyncio.wait(set(self._running), timeout=5)


def _main() -> None:  # pragma: no cover - runs in the worker process
    """The worker: cap memory, import the jobs, then answer (job, args) messages until EOF."""
    import resource
    limit = int(os.environ.get("SMEAR_SANDBOX_MEMORY", "0"))
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.nice(10)  # a stranger's compile yields the CPU to the server's own event loop
    from smear_referee.server import jobs
    jobs.warm()  # before "ready": what a job's first call would import is not charged to its deadline
    out, inp = sys.stdout.buffer, sys.stdin.buffer
    sys.stdout = sys.stderr  # nothing a job prints may corrupt the pipe
    _send(out, "ready")
    while True:
        try:
            job, args = _recv(inp)
        except EOFError:
            return
        try:
            answer = ("ok", getattr(jobs, job)(*args))
        except MemoryError:
            answer = ("memory", None)
        _send(out, answer)


if __name__ == "__main__":  # pragma: no cover
    _main()
