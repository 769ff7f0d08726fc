"""Idempotent seats and tables: a CreateTable, JoinTable or AddBots retried with the same key gets
the first call's answer, the same token included; the same key with another request is refused.

The store keeps, per (scope, SHA-256 of the key), a digest of the request, its answer and a random
salt. A token handed out under a key is derived from the key and that salt (HMAC-SHA256), so a
retry can be given the same token while the store still holds only the token's hash: whoever
reads the store learns no token, since the key is not stored (only its hash).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

from smear_referee import codes
from smear_referee.errors import RefereeError

CREATE = "create"  # CreateTable's scope: a key names one table, whichever table it made


@dataclass(frozen=True)
class Keyed:
    """A call made with an idempotency key: where it is looked up, and what it asked."""

    scope: str
    key_hash: str
    key: str
    digest: str

    def token(self, salt: str, purpose: str) -> str:
        """The token this call hands out for `purpose` (host, seat:N, spectator): the same on every retry."""
        mac = hmac.new(self.key.encode("utf-8", "surrogatepass"), f"{salt}|{self.scope}|{purpose}".encode(),
                       hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def keyed(scope: str, key: str, request: Any, limit: int) -> Keyed | None:
    """The call's Keyed (None without a key); INVALID_ARGUMENT past `limit` characters. The digest
    covers the request without its key."""
    if not key:
        return None
    if len(key) > limit:
        raise RefereeError(codes.BAD_RECORD, f"the idempotency key is longer than {limit} characters")
    copy = type(request)()
    copy.CopyFrom(request)
    copy.ClearField("idempotency_key")
    digest = hashlib.sha256(copy.SerializeToString(deterministic=True)).hexdigest()[:32]
    key_hash = hashlib.sha256(f"{scope}\x1f{key}".encode("utf-8", "surrogatepass")).hexdigest()
    return Keyed(scope, key_hash, key, digest)


def new_salt() -> str:
    return secrets.token_hex(16)


def answer_of(k: Keyed, row: tuple[str, str, str] | None) -> tuple[str, dict[str, Any]] | None:
    """(salt, answer) of an earlier call with this key, if there was one; IDEMPOTENCY_KEY_REUSED if
    that call asked something else."""
    if row is None:
        return None
    digest, salt, answer = row
    if digest != k.digest:
        raise RefereeError(codes.IDEMPOTENCY_KEY_REUSED,
                           "this idempotency key was used for a different request")
    return salt, json.loads(answer)


def statements(k: Keyed, salt: str, answer: dict[str, Any], now: float) -> list[tuple[str, tuple]]:
    """The row that remembers the call (written in the transaction that does what it asked)."""
    from smear_referee.storage.store import Store
    return Store.add_request(k.scope, k.key_hash, k.digest, salt, json.dumps(answer), now)
