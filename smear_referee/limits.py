"""Every limit the referee puts on what a caller can make it do, in one place.

Each has a default sized for a club server on a small machine; docs/security.md gives the
reason for each, and `smear-dsl serve --limit NAME=VALUE` changes one.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from smear_dsl.language.yamlsrc import MAX_BYTES


@dataclass(frozen=True)
class Limits:
    """What one caller (or one address) may cost the server."""

    rules_bytes: int = MAX_BYTES          # an uploaded rule file (CheckRules, ExplainRules, CreateTable): the compiler's own limit
    record_bytes: int = 4_000_000         # a record sent to VerifyRecord
    compile_seconds: float = 5.0          # checking an uploaded rule file, every setup (then the worker is killed)
    table_compile_seconds: float = 1.0    # an upload seats a table only if its check took at most this
    verify_seconds: float = 10.0          # verifying one record
    sandbox_workers: int = 1              # worker processes for compiles and verifications
    sandbox_queue: int = 8                # jobs that may wait for a worker; past that: BUSY
    sandbox_per_address: int = 2          # jobs one address may have running or waiting
    sandbox_memory_bytes: int = 1 << 30   # address space of a worker process
    max_tables: int = 100_000             # unfinished tables this server holds (playing or parked)
    hands_per_game: int = 1_000           # a served game ends after this many hands, won by the highest score
    idle_seconds: float = 600.0           # a started table with no move this long leaves memory (parked) until called
    abandon_seconds: float = 604_800.0    # an unfinished table with no move this long (a week) ends as abandoned
    tables_per_address: int = 1_000       # unfinished tables created from one address
    upload_tables_per_address: int = 20   # of those, tables playing an uploaded rule file
    spectators_per_table: int = 100       # spectator tokens handed out for one table
    tokens_per_seat: int = 8              # tokens for one seat (a club member taking their seat on another device)
    max_tournaments: int = 10_000         # tournaments this server holds
    tournaments_per_address: int = 20     # tournaments created from one address
    entrants: int = 1_000                 # entrants of one tournament
    name_chars: int = 100                 # an entrant's or a tournament's name
    max_clubs: int = 10_000               # clubs this server holds
    clubs_per_address: int = 20           # clubs created from one address
    club_members: int = 1_000             # members one club may have had (those who left count)
    club_rule_files: int = 20             # rule files of one club
    club_open_tables: int = 200           # club tables of one club not yet finished and counted
    player_name_chars: int = 40           # the name a player gives when taking a seat
    chat_chars: int = 200                 # a line of a table's chat
    chat_per_minute: int = 10             # lines (and reactions) one token may say in a minute
    turn_seconds_min: int = 5             # the shortest turn clock a table may set (CreateTable's turn_seconds)
    turn_seconds_max: int = 600           # the longest
    clock_misses: int = 3                 # turns in a row a seat's time runs out before a bot stands in for it
    present_seconds: float = 60.0         # a seat whose player acted (or sat down) this recently is present: nobody else benches it
    list_tables: int = 200                # tables one ListTables answer lists
    bot_seconds: float = 0.6              # a bot the server plays waits this long before each move, so people can follow
    bot_search_ms: float = 1_000.0        # the most a search bot the server plays may think per move (`search:MS`)
    bot_search_playouts: int = 2_000      # the most playouts a search bot the server plays may ask per move (about a second)
    bot_searches: int = 1                 # search bots thinking at once, each in a worker process (a core); the rest wait
    bot_search_memory_bytes: int = 1 << 30  # address space of a search bot's worker process
    web_connections: int = 2_000          # open connections on the web port, the one being answered included
    web_connections_per_address: int = 128  # of those, open from one address (a club behind one router: ~6 a browser)
    web_body_bytes: int = 4 * 1024 * 1024  # a request's body on the web port, counted once decompressed
    web_header_seconds: float = 10.0      # a web connection's next request must have sent all its headers within this
    web_body_seconds: float = 30.0        # a web request's body must have arrived within this
    web_idle_seconds: float = 5.0         # a kept-alive web connection with no request in flight is closed after this
    web_log_lines: int = 20               # log lines one address can cause a minute (then one summary line)
    options: int = 50                     # options given to a table or tournament
    option_chars: int = 100               # an option's name or value
    seed_chars: int = 200                 # a seed a caller chooses
    key_chars: int = 200                  # an idempotency key
    diagnostics: int = 100                # diagnostics returned for one rule file
    message_chars: int = 1_000            # an error message (values inside it are clipped far shorter)
    # a replica's lease on its shards: it renews every quarter of this; a replica gone this long has its
    # tables taken over
    lease_seconds: float = 5.0

    @classmethod
    def parse(cls, items: list[str]) -> Limits:
        """Defaults with `NAME=VALUE` overrides (the `serve --limit` flag); ValueError names a bad one."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        given: dict[str, Any] = {}
        for item in items:
            name, sep, value = item.partition("=")
            f = fields.get(name.strip().replace("-", "_"))
            if not sep or f is None:
                raise ValueError(f"--limit takes NAME=VALUE with NAME one of {', '.join(fields)}; not {item[:60]!r}")
            try:
                number = float(value) if f.type == "float" else int(value)
            except ValueError:
                raise ValueError(f"--limit {f.name} takes a number, not {value[:40]!r}") from None
            if number <= 0:
                raise ValueError(f"--limit {f.name} must be positive")
            given[f.name] = number
        return cls(**given)


def address_of(peer: str) -> str:
    """The host part of a gRPC peer string (`ipv4:1.2.3.4:5678`, `ipv6:[::1]:5678`, `unix:...`)."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1:rest.find("]")] if "]" in rest else rest
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    return peer or "unknown"
