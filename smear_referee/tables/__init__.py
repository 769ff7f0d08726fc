"""The tables a referee holds: the registry, one table, its seats, history, upkeep, restoring and takeovers."""
