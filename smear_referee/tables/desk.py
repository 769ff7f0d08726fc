"""What the helpers of tables/ (restore, seats, moves, history, upkeep) work with: the tables in
memory (index.py), the one way to the store (ledger.py) and the server's limits. Tables
(registry.py) puts these together; the helpers depend on them, never on the registry."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from smear_referee.limits import Limits
from smear_referee.metrics import Metrics
from smear_referee.storage.store import Store
from smear_referee.tables.index import TableIndex
from smear_referee.tables.ledger import Ledger


@dataclass(frozen=True)
class Desk:
    """The index, the ledger and the limits, handed to each helper in one piece."""

    index: TableIndex
    ledger: Ledger
    limits: Limits

    @property
    def store(self) -> Store:
        return self.ledger.store

    @property
    def shards(self) -> Any:
        return self.ledger.shards

    @property
    def metrics(self) -> Metrics:
        return self.ledger.metrics
