"""Turn a checked expression into a closure over the compiled rule tables."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .check import Checked


@dataclass(frozen=True)
class Tables:
    """What card attributes need at run time, indexed by trump + 1 (0 = no trump yet)."""

    eff_suit: tuple[tuple[int, ...], ...]
    trump_mask: tuple[int, ...]
    order_key: tuple[tuple[int, ...], ...]
    value: tuple[int, ...]
    static: dict[str, Any]
    suit_masks: tuple[tuple[int, ...], ...] = ()  # [trump + 1][suit + 1]: cards of that effective suit (-1: none)


def emit(checked: Checked, tables: Tables) -> Callable[[dict], Any]:
    """The closure `f(env)` for a checked expression."""
    return checked.make(tables)
