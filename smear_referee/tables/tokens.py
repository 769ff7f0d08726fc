"""Tokens: 256-bit random strings handed out once; the server keeps only their SHA-256."""
from __future__ import annotations

import hashlib
import secrets

from smear_referee.api import referee_pb2 as pb


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def move_digest(move: pb.Move) -> str:
    """What an idempotency key is stored with: the same key must come back with the same move."""
    return hashlib.sha256(move.SerializeToString(deterministic=True)).hexdigest()[:32]
