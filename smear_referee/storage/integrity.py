"""Hashes that prove a stored table intact: a chain over its moves, rooted in its settings.

A table's root (`genesis`) hashes the settings its game is played under (rules, seats, options,
seed, first dealer, duplicate, hand limit, seal) as stored. Each move's hash covers the one before
it and the move itself, so changing, dropping or reordering any stored move breaks every hash
after it. A snapshot, an outcome and a kept record each carry a digest binding them to the chain
head where they were made. Reading any of these checks them; a broken one is refused as damaged
(DATA_LOSS) and never served. These guard against a changed or corrupted file, not against
someone who rewrites the hashes as well (who could rewrite the server too).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

N = 32  # hex digits kept of each SHA-256 (128 bits: no accidental collision in any store)


def _h(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:N]


def genesis(table_id: str, rules_name: str, rules_text: str | None, players: int, options_json: str, seed: str,
            first_dealer: int, duplicate: bool, hand_limit: int, seal: str | None) -> str:
    """The root of a table's chain: its settings as the store keeps them (options as stored text)."""
    text = "" if rules_text is None else hashlib.sha256(rules_text.encode("utf-8", "surrogatepass")).hexdigest()
    return _h("smear-table/1", table_id, rules_name, text, str(players), options_json, seed, str(first_dealer),
              str(int(bool(duplicate))), str(hand_limit), seal or "")


def link(prev: str, version: int, seat: int, code: int | str) -> str:
    """The hash of move `version` (seat, code) after the chain head `prev`."""
    return _h(prev, str(version), str(seat), str(code))


def snapshot_digest(chain: str, version: int, seq: int, state_json: str) -> str:
    return _h("snapshot", chain, str(version), str(seq), state_json)


def end_digest(chain: str, outcome_json: str, ended_json: str | None) -> str:
    return _h("end", chain, outcome_json, ended_json or "")


def record_digest(chain: str, record_json: str) -> str:
    return _h("record", chain, record_json)


class Broken(Exception):
    """A stored row that its hashes do not prove: the version where it shows (0: the settings), and what."""

    def __init__(self, version: int, what: str):
        super().__init__(what)
        self.version, self.what = version, what


def walk(root: str, moves: list[tuple[int, int, str, str | None]], start: int = 0) -> str:
    """The chain head after `moves` (version, seat, code, stored hash), checked link by link from
    `root` at version `start`; Broken at the first move out of order or whose hash does not follow."""
    head, expect = root, start + 1
    for version, seat, code, stored in moves:
        if version != expect:
            raise Broken(version, f"the log jumps from version {expect - 1} to {version}")
        head = link(head, version, seat, code)
        if stored != head:
            raise Broken(version, f"move {version} was changed in the store (its hash does not follow from "
                         "the moves before it)")
        expect += 1
    return head


def options_json(options: dict[str, Any]) -> str:
    """Options as the store writes them (the text the root hashes)."""
    return json.dumps(options)


def tournament_proof(tid: str, config_json: str, created: float) -> str:
    """What proves a tournament's row: its id, its settings as stored and when it was made."""
    return _h("tournament", tid, config_json, repr(created))


def round_proof(tid: str, number: int, seed: str, tables_json: str) -> str:
    """What proves a round's row: the round, its revealed seed and its tables as stored."""
    return _h("round", tid, str(number), seed, tables_json)


def audit_proof(tid: str, seq: int, entry_json: str) -> str:
    """What proves one of a director's audited acts as stored."""
    return _h("audit", tid, str(seq), entry_json)


def tip_proof(tid: str, kind: str, n: int) -> str:
    """What proves how many rounds (or audited acts) a tournament has: a deleted one shows."""
    return _h("tip", tid, kind, str(n))
