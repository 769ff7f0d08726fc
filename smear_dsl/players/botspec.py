"""Bot names as people type them (`heuristic`, `search:200ms`, `search:1000`), checked without loading
the engine, so a command line can say what is wrong at once."""
from __future__ import annotations

import re
from dataclasses import dataclass

from smear_dsl.choices import BOT_HELP, SIMPLE


@dataclass(frozen=True)
class Budget:
    """How long the bot thinks per move: `playouts` (candidate moves played out, counted over all
    candidates; reproducible) or `ms` of wall clock (at least one world is always tried)."""

    playouts: int | None = None
    ms: float | None = None

    def __str__(self) -> str:
        return f"{self.ms:g}ms" if self.ms is not None else str(self.playouts)


DEFAULT = Budget(ms=200)
SPEC = re.compile(r"^search(?::(\d+(?:\.\d+)?)(ms|s)?)?$")
MAX_PLAYOUTS = 1_000_000
MAX_MS = 60_000


def parse_budget(spec: str) -> Budget | None:
    """`search` (200 ms), `search:500ms`, `search:1.5s` or `search:1000` (playouts); None if not a search spec."""
    m = SPEC.match(spec.strip())
    if not m:
        return None
    if m.group(1) is None:
        return DEFAULT
    value, unit = float(m.group(1)), m.group(2)
    if unit is None:
        return Budget(playouts=max(1, min(MAX_PLAYOUTS, int(value))))
    return Budget(ms=max(1.0, min(MAX_MS, value * (1000 if unit == "s" else 1))))


def check_bot(kind: str) -> str:
    """`kind` if it names a bot (see BOT_HELP), else ValueError saying what does."""
    if kind in SIMPLE or parse_budget(kind) is not None:
        return kind
    raise ValueError(f"{kind[:40]!r} is not a bot: bots are {BOT_HELP}")
