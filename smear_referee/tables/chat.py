"""A table's chat: short lines and preset reactions from its seats (and its spectators when the host
allows), for its watchers only. Kept in memory (the last few lines), never stored, never in the record:
what is said at a table is not part of the game. Every line is plain text, cleaned like a name."""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.errors import RefereeError
from smear_referee.names import clean

REACTIONS = ("thumbs_up", "laugh", "wow", "oops", "good_game", "well_played")
KEEP = 30  # lines a watcher who arrives late is shown


@dataclass
class Chat:
    """One table's chat: its recent lines, who may speak, and each speaker's recent lines (rate limit)."""

    lines: deque = field(default_factory=lambda: deque(maxlen=KEEP))
    said: int = 0  # lines said since the table came into memory: a watcher's cursor
    muted: set[int] = field(default_factory=set)
    spectators_may_chat: bool = False
    recent: dict[str, deque] = field(default_factory=dict)  # speaker -> times of its last lines

    def moderate(self, muted: set[int], spectators_may_chat: bool) -> None:
        """The host's choice: these seats may not speak; spectators may (or not)."""
        self.muted = set(muted)
        self.spectators_may_chat = spectators_may_chat

    def say(self, speaker: str, seat: int | None, name: str, request: pb.ChatRequest, chars: int, per_minute: int,
            now: float | None = None) -> pb.ChatLine:
        """The line `speaker` says, checked (who may speak, how often, what); PERMISSION_DENIED,
        RESOURCE_EXHAUSTED or INVALID_ARGUMENT otherwise."""
        now = time.time() if now is None else now
        if seat is None and not self.spectators_may_chat:
            raise RefereeError(codes.CHAT_CLOSED, "spectators read the chat; the host may let them speak")
        if seat is not None and seat in self.muted:
            raise RefereeError(codes.MUTED, "the host has muted this seat's chat")
        times = self.recent.setdefault(speaker, deque())
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= per_minute:
            raise RefereeError(codes.CHAT_TOO_FAST, f"at most {per_minute} lines a minute: wait a moment")
        which = request.WhichOneof("say")
        if which == "reaction":
            if request.reaction not in REACTIONS:
                raise RefereeError(codes.BAD_REACTION, f"a reaction is one of {', '.join(REACTIONS)}")
            line = pb.ChatLine(seat=-1 if seat is None else seat, name=name, reaction=request.reaction, at=now)
        else:
            text = clean(request.text, chars, "a chat line", empty=False)
            line = pb.ChatLine(seat=-1 if seat is None else seat, name=name, text=text, at=now)
        times.append(now)
        if len(self.recent) > 200:  # forget speakers who went quiet
            self.recent = {k: v for k, v in self.recent.items() if v and now - v[-1] <= 60}
        self.lines.append(line)
        self.said += 1
        return line

    def since(self, cursor: int) -> list[pb.ChatLine]:
        """The lines said after `cursor` that are still kept."""
        return list(self.lines)[max(0, len(self.lines) - (self.said - cursor)):]
