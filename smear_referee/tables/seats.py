"""New tables and their seats: creation within the budgets, joining (a seat or to watch), and the
server's bots taking seats. Each may carry an idempotency key (idem.py): a retry gets the first
call's answer, the same token included, from the same transaction that did the work.
"""
from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable

from smear_dsl.compile.duplicate import first_dealer
from smear_dsl.errors import clip
from smear_dsl.language.pins import table_rules_name, upload_pins
from smear_dsl.players.botspec import check_bot as parse_bot
from smear_dsl.players.botspec import parse_budget
from smear_referee import codes
from smear_referee.errors import RefereeError
from smear_referee.limits import Limits
from smear_referee.names import clean as clean_name
from smear_referee.storage.store import Store, StoredTable
from smear_referee.tables import idem
from smear_referee.tables.desk import Desk
from smear_referee.tables.ledger import KeyConflict
from smear_referee.tables.restore import table_for
from smear_referee.tables.rulesets import compiled, rules_spec, upload_spec
from smear_referee.tables.table import Identity, Table, option_text
from smear_referee.tables.tokens import token_hash


async def prior(desk: Desk, k: idem.Keyed | None) -> tuple[str, dict] | None:
    """(salt, answer) of an earlier call with this key, if any (IDEMPOTENCY_KEY_REUSED if it asked otherwise)."""
    if k is None:
        return None
    return idem.answer_of(k, await desk.store.off_loop(desk.store.find_request, k.scope, k.key_hash))


async def create(desk: Desk, rules_name: str | None, rules_text: str | None, options: dict[str, str],
                 players: int, seed: str | None, duplicate: bool, hand_limit: int, seal: str | None,
                 address: str | None, k: idem.Keyed | None = None, turn_seconds: int = 0,
                 also: Callable[[str], list[tuple[str, tuple]]] | None = None) -> tuple[Table, str]:
    """A new table and its host token (Tables.create says what each argument means); `also`: the statements
    committed with it (a club's row for its table), made from the new table's id."""
    if k is not None and (done := await prior(desk, k)) is not None:
        return await table_for(desk, done[1]["table_id"], None), k.token(done[0], "host")
    check_clock(desk.limits, turn_seconds)
    desk.index.check_quota(address, rules_text is not None)
    if rules_text is not None:
        # Its `extends:` at the latest versions, or (`rules_name` as a table stores it) at those it names.
        rules_text, spec = await asyncio.to_thread(upload_spec, rules_text, upload_pins(rules_name) if rules_name else None)
    else:
        spec = rules_spec(rules_name, None)
    rules = await asyncio.to_thread(compiled, spec, players or None, options)  # a compile stays off the loop
    seed = seed if seed else secrets.token_hex(16)
    first = first_dealer(seed, rules.players)
    table_id = desk.shards.new_id()
    if table_id is None:
        raise RefereeError(codes.NOT_OWNER, "this replica holds no shard yet: ask another, or again "
                           "shortly", {"owner": ""})
    cap = desk.limits.hands_per_game
    hand_limit = min(hand_limit, cap) if hand_limit > 0 else cap
    t = Table(table_id, table_rules_name(spec, rules_text is not None), rules_text, spec, rules, dict(rules.options), seed,
              first, time.time(), duplicate, hand_limit, seal, turn_seconds=turn_seconds)
    salt = idem.new_salt()
    host = k.token(salt, "host") if k is not None else _token()
    stored = StoredTable(table_id, t.rules_name, rules_text, rules.players, t.options, seed, first, t.created,
                         [(token_hash(host), "host", None, "")], [], duplicate, hand_limit, seal,
                         turn_seconds=turn_seconds)
    rows = Store.create_table(stored) + (idem.statements(k, salt, {"table_id": table_id}, t.created) if k else [])
    rows += also(table_id) if also is not None else []
    try:
        await desk.ledger.write(None, table_id, rows, keyed=k is not None)
    except KeyConflict:  # the same key, committed meanwhile by a concurrent call: its answer is ours
        return await create(desk, rules_name, rules_text, options, players, seed, duplicate, hand_limit, seal,
                            address, k)
    desk.index.opened_table(t, address, rules_text is not None)
    desk.index.hold_token(t, token_hash(host), Identity(table_id, "host", None))
    return t, host


async def join(desk: Desk, table_id: str, seat: int | None, name: str = "",
               k: idem.Keyed | None = None, also: list[tuple[str, tuple]] | None = None,
               own: bool = False) -> tuple[Table, str]:
    """A seat's token (or a spectator's when `seat` is None) at the table; `also`: statements committed
    with it (a club member's seat); `own`: the seat is the caller's already (a club member's), and this is
    another token for it (on another device, or for a seat a club tournament kept for them)."""
    t = await table_for(desk, table_id, None)
    name = clean_name(name, desk.limits.player_name_chars, "a player's name")
    async with t.lock:
        if k is not None and (done := await prior(desk, k)) is not None:
            return t, k.token(done[0], _purpose(done[1]["seat"]))
        if seat is not None and own:
            _check_index(t, seat)
            if await desk.store.off_loop(desk.store.seat_tokens, table_id, seat) >= desk.limits.tokens_per_seat:
                raise RefereeError(codes.TOO_MANY_TOKENS, f"seat {seat + 1} has "
                                   f"{desk.limits.tokens_per_seat} tokens already: play on one of them")
        elif seat is not None:
            _check_free(t, seat)
        else:
            if await desk.ledger.sealed(t.seal):
                raise RefereeError(codes.ROUND_SEALED,
                                   "this table plays a duplicate round: it can be watched once the round is over")
            if t.spectators >= desk.limits.spectators_per_table:
                raise RefereeError(codes.TOO_MANY_SPECTATORS,
                                   f"this table has {t.spectators} spectators already")
        role = "seat" if seat is not None else "spectator"
        salt = idem.new_salt()
        token = k.token(salt, _purpose(seat)) if k is not None else _token()
        rows = Store.add_token(table_id, token_hash(token), role, seat, name)
        if k is not None:
            rows += idem.statements(k, salt, {"seat": seat}, time.time())
        await desk.ledger.write(t, table_id, rows + list(also or ()))
        t.take_seat(role, seat, name)
        if role == "seat" and seat is not None:
            t.present(seat)  # sitting down is being present
        desk.index.hold_token(t, token_hash(token), Identity(table_id, role, seat))
    await _tell_watchers(t)
    return t, token


def check_clock(lim: Limits, turn_seconds: int) -> None:
    """INVALID_ARGUMENT / BAD_CLOCK unless `turn_seconds` is 0 (no clock) or within the limits."""
    if turn_seconds and not lim.turn_seconds_min <= turn_seconds <= lim.turn_seconds_max:
        raise RefereeError(codes.BAD_CLOCK, f"a turn clock here is {lim.turn_seconds_min} to "
                           f"{lim.turn_seconds_max} seconds a move (0: none), not {turn_seconds}")


def _check_index(t: Table, seat: int) -> None:
    if not 0 <= seat < t.rules.players:
        raise RefereeError(codes.BAD_SEAT,
                           f"seat index {seat} is not one of this table's 0 to {t.rules.players - 1} (seats 1 to {t.rules.players})")


def _check_free(t: Table, seat: int) -> None:
    _check_index(t, seat)
    if t.seats_taken[seat]:  # said to a person: seats count from 1 (the API's index is seat - 1)
        raise RefereeError(codes.SEAT_TAKEN, f"seat {seat + 1} is taken")


def check_bot(desk: Desk, kind: str) -> None:
    """INVALID_ARGUMENT / BAD_BOT unless `kind` names a bot (botspec) whose budget is within the limits."""
    try:
        budget = parse_budget(parse_bot(kind))  # None for the simple bots
    except ValueError as e:
        raise RefereeError(codes.BAD_BOT, clip(str(e), 200)) from None
    lim = desk.limits
    if budget is not None and ((budget.ms or 0) > lim.bot_search_ms or (budget.playouts or 0) > lim.bot_search_playouts):
        raise RefereeError(codes.BAD_BOT, f"a search bot here thinks at most {lim.bot_search_ms:g}ms "
                           f"or {lim.bot_search_playouts} playouts a move, not {clip(kind)}")


async def add_bots(desk: Desk, t: Table, kind: str, seat: int | None = None,
                   k: idem.Keyed | None = None, by: Identity | None = None) -> list[int]:
    """Seat a bot the server plays (house_bots.py) in every free seat, or in `seat` (a bot stands in
    for its player until the seat's token takes it back); their tokens are stored (the bots play on
    after a restart), never shown. `by`: who asks (None: the server, for a seat whose time ran out)."""
    check_bot(desk, kind)
    async with t.lock:
        if (done := await prior(desk, k)) is not None:
            return list(done[1]["seats"])
        if t.game.finished:
            raise RefereeError(codes.GAME_OVER, "the game is over")
        if seat is not None and by is not None:
            _may_hand_over(t, seat, by, desk.limits.present_seconds)
            if not (by.role == "seat" and by.seat == seat) and await _rated(desk, t):
                _away_at_a_rated_table(t, seat, kind)
        free = [s for s, taken in enumerate(t.seats_taken) if not taken] if seat is None else \
            [] if seat in t.bots else [seat]
        tokens = [(token_hash(_token()), s) for s in free]
        rows = [row for h, s in tokens for row in Store.add_token(t.id, h, "bot", s, f"bot:{kind}")]
        if k is not None:
            rows += idem.statements(k, idem.new_salt(), {"seats": free}, time.time())
        await desk.ledger.write(t, t.id, rows)
        for h, s in tokens:
            t.take_seat("bot", s, f"bot:{kind}", h)
            desk.index.hold_token(t, h, Identity(t.id, "seat", s))
    await _tell_watchers(t)
    return free


def _may_hand_over(t: Table, seat: int, by: Identity, present_seconds: float) -> None:
    """Who may hand a taken seat to a bot: its own token, always; the host or another seat, only a seat whose
    player is away: no stream of that seat open and, for a player who plays by calls alone (never a stream),
    no move of theirs (nor their sitting down) in the last `present_seconds`. A present player is never
    benched by someone else, the host included."""
    _check_index(t, seat)
    if not t.seats_taken[seat]:
        raise RefereeError(codes.SEAT_FREE, f"seat {seat + 1} is free: the host fills free seats")
    if by.role == "seat" and by.seat == seat:
        return
    if by.role not in ("host", "seat"):
        raise RefereeError(codes.NOT_THE_HOST, "a spectator does not hand seats to bots")
    if t.people[seat] and (t.here[seat] > 0 or not t.streamed[seat] and time.monotonic() - t.acted[seat] < present_seconds):
        raise RefereeError(codes.PLAYER_HERE, f"seat {seat + 1}'s player is at the table: nobody "
                           "else hands a present player's seat to a bot (they may, with their own token)")


async def _rated(desk: Desk, t: Table) -> bool:
    """Whether `t` is a club's table, whose games may move its members' ratings."""
    from smear_referee.storage.clubs import club_of_table
    return await desk.store.off_loop(club_of_table, desk.store, t.id) is not None


HOUSE_BOT = "heuristic"  # what plays an away member's seat at a rated table (the turn clock's own bot)


def _away_at_a_rated_table(t: Table, seat: int, kind: str) -> None:
    """At a club's table someone else hands a member's seat to a bot only once the turn clock has found them
    away (their time ran out), and only to the house bot: never a weaker one the caller picks."""
    if t.people[seat] and t.misses[seat] < 1:
        raise RefereeError(codes.PLAYER_HERE, f"seat {seat + 1} is a member's at a rated table: "
                           "someone else hands it to a bot only once its turn clock has run out")
    if kind != HOUSE_BOT:
        raise RefereeError(codes.BAD_BOT, f"at a rated table an away member's seat is played by the "
                           f"house bot ({HOUSE_BOT}), not {clip(kind)}")


async def take_back(desk: Desk, t: Table, who: Identity) -> None:
    """The seat's own token takes the seat back from the bot standing in (its token is dropped)."""
    if who.role != "seat" or who.seat is None:
        raise RefereeError(codes.NOT_A_SEAT, "a seat's player takes it back, with the seat's token")
    async with t.lock:
        seat = who.seat
        if seat not in t.bots:
            raise RefereeError(codes.NO_BOT, f"no bot plays seat {seat + 1}: it is yours already")
        if not t.people[seat]:
            raise RefereeError(codes.NOT_A_SEAT, "this seat is the server's bot's")
        h = t.bot_tokens.get(seat, "")
        await desk.ledger.write(t, t.id, Store.drop_token(h))
        t.bot_leaves(seat)
        desk.index.forget_token(h)
    await _tell_watchers(t)


async def renamed(desk: Desk, table_id: str, seat: int, name: str) -> None:
    """A seat's name changed in the store (a club member who left is shown by their member id): the table
    this server holds in memory shows it too, and its watchers are told."""
    t = desk.index.tables.get(table_id)
    if t is not None and 0 <= seat < len(t.seat_names):
        t.rename_seat(seat, name)
        await _tell_watchers(t)


async def _tell_watchers(t: Table) -> None:
    """Wake the table's watch streams: the seats changed (they send the table's Seats)."""
    await t.notify_changed()


def _purpose(seat: int | None) -> str:
    return "spectator" if seat is None else f"seat:{seat}"


def _token() -> str:
    return secrets.token_urlsafe(32)


REMATCH = "rematch"  # the idempotency scope that links a finished table to its rematch (not a caller's)


def _rematch_key(old_id: str) -> idem.Keyed:
    """The key under which the store remembers `old_id`'s rematch: only the server writes this scope."""
    return idem.Keyed(REMATCH, hashlib.sha256(f"{REMATCH}\x1f{old_id}".encode()).hexdigest(), old_id, "")


async def next_table(desk: Desk, old: Table) -> str | None:
    """The table a rematch of `old` opened, if anyone asked for one (remembered in the store)."""
    if old.next_id is None and old.game.finished:
        done = await prior(desk, _rematch_key(old.id))
        if done is not None:
            old.rematched(done[1]["table_id"])
    return old.next_id


async def rematch(desk: Desk, old: Table, who: Identity, address: str | None) -> tuple[Table, str]:
    """Play again: the table after `old` (made by the first seat to ask: the same rules, options, seat
    count and hand limit, a new seed), and the caller's seat there. Every seat a person held at `old` is
    kept for that person (nobody else can take it) and claimed with their old token: each seat's token at
    the new table is derived from its token at the old one, so a retried Rematch, or the seat's player on
    another device, gets the same token; the old table's own bots are seated again (a bot that stood in for
    a person is not: the person's seat waits for them)."""
    if who.role != "seat" or who.seat is None or not old.people[who.seat]:
        raise RefereeError(codes.NOT_A_SEAT, "a player of the table asks to play again, with their seat's token")
    if not old.game.finished:
        raise RefereeError(codes.GAME_NOT_OVER, "the game is not over yet")
    if old.seal is not None or old.duplicate:
        raise RefereeError(codes.TOURNAMENT_TABLE, "a tournament's table: its director starts the next round")
    async with old.lock:  # one rematch per table, whoever asks first
        roots = await desk.store.off_loop(_seat_roots, desk.store, old.id)
        nid = await next_table(desk, old)
        if nid is None:
            opts = {k: option_text(v) for k, v in old.options.items()}
            kept = [(s, old.seat_names[s]) for s in range(old.rules.players) if old.people[s] and s in roots]
            new, _host = await create(desk, old.rules_name, old.rules_text, opts, old.rules.players, None, False,
                                      old.hand_limit, None, address, turn_seconds=old.turn_seconds,
                                      also=lambda tid: [row for s, name in kept for row in Store.add_token(
                                          tid, token_hash(_next_token(roots[s], tid)), "seat", s, name)])
            for s, name in kept:
                h = token_hash(_next_token(roots[s], new.id))
                new.take_seat("seat", s, name, h)
                new.present(s)
                desk.index.hold_token(new, h, Identity(new.id, "seat", s))
            k = _rematch_key(old.id)
            try:
                await desk.ledger.write(None, old.id, idem.statements(k, idem.new_salt(), {"table_id": new.id}, time.time()),
                                   keyed=True)
            except KeyConflict:  # another replica linked one first: that is the rematch
                linked = await prior(desk, k)
                assert linked is not None  # the key's row is what conflicted
                new = await table_for(desk, linked[1]["table_id"], None)
            old.rematched(new.id)
            nid = new.id
            for seat, kind in sorted(old.bots.items()):
                if not old.people[seat] and not new.seats_taken[seat]:
                    await add_bots(desk, new, kind, seat)
    if who.seat not in roots:
        raise RefereeError(codes.NOT_A_SEAT, "this seat's token is not one the table knows")
    return await table_for(desk, nid, None), _next_token(roots[who.seat], nid)


def _seat_roots(store: Store, table_id: str) -> dict[int, str]:
    """Each person's seat of a table -> the first of its tokens' hashes (what its next table's token comes from)."""
    out: dict[int, str] = {}
    for h, role, seat, _name in store.tokens_of(table_id):
        if role == "seat" and seat is not None and (seat not in out or h < out[seat]):
            out[seat] = h
    return out


def _next_token(root: str, next_id: str) -> str:
    """A seat's token at the rematch `next_id`, from the hash of its token at the old table: the server keeps
    that hash and never shows it, so only the server (asked with the old token) can make the new one."""
    return hashlib.sha256(f"smear-rematch/1\x1f{root}\x1f{next_id}".encode()).hexdigest()[:32]
