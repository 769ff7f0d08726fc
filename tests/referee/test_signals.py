"""The referee stops on SIGTERM even when its event loop's wake-up pipe is full.

A chaos run once saw a replica ignore SIGTERM: asyncio's add_signal_handler carries the signal
through the loop's self-pipe, which a burst of thread completions had filled. The child below fills
that pipe for real (many call_soon_threadsafe from a thread while the loop is busy), then signals
itself; the stop must still arrive.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import asyncio, os, signal, sys, threading
    from smear_referee.app import stop_on_signals

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        if sys.argv[1] == "asyncio":
            loop.add_signal_handler(signal.SIGTERM, stop.set)
        else:
            stop_on_signals(loop, stop)

        def flood() -> None:
            for _ in range(20_000):
                loop.call_soon_threadsafe(lambda: None)

        def busy_then_signalled() -> None:
            t = threading.Thread(target=flood)
            t.start()
            t.join()
            os.kill(os.getpid(), signal.SIGTERM)

        loop.call_soon(busy_then_signalled)
        try:
            await asyncio.wait_for(stop.wait(), float(sys.argv[2]))
        except asyncio.TimeoutError:
            print("missed")
            return
        print("stopped")

    asyncio.run(main())
    """
)


def _run(how: str, wait: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, how, wait], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT
    )
    return done.stdout.strip()


def test_sigterm_stops_the_server_when_the_wakeup_pipe_is_full() -> None:
    assert _run("referee", "60") == "stopped"


def test_the_reproducer_does_fill_the_pipe() -> None:
    """The same child with asyncio's own handler loses the signal (for good: 1 s is ample), so the test above tests something."""
    assert _run("asyncio", "1") == "missed"
