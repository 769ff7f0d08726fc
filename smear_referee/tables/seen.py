"""What a caller may know of a table, as functions of it (a player view as a function, like
boardgame.io's playerView): the lobby's line, who sits where, each event cut down to what one caller
may see (a seat sees its own cards and discards, a spectator only public play), and the record as a
caller may have it. Nothing here changes the table."""
from __future__ import annotations

from typing import Any

from smear_dsl.i18n import rules_title, tr_for
from smear_dsl.language.spec import RuleSpec
from smear_dsl.language.versions import record_rules
from smear_referee.api import referee_pb2 as pb
from smear_referee.tables.convert import move_to_proto
from smear_referee.tables.table import Event, Identity, Table, option_text


def rule_names(spec: RuleSpec, lang: str) -> dict[str, str]:
    """The rule file's points and jokers in `lang`: what a table shows in their place (English: none needed)."""
    if lang == "en":
        return {}
    words = spec.words(lang)
    tr = tr_for(lang, words.names if words else None)
    return {name: tr.label(name) for name in (*(p.name for p in spec.points), *spec.deck.jokers)}


def info(t: Table, spectators_allowed: bool = True, lang: str = "en") -> pb.TableInfo:
    """What anyone may know of the table (a lobby's line): nothing hidden; its title in `lang`."""
    return pb.TableInfo(table_id=t.id, rules=t.spec.ref, title=rules_title(t.spec, lang), players=t.rules.players,
                        options={k: option_text(v) for k, v in t.rules.options.items()},
                        seat_taken=t.seats_taken, finished=t.game.finished, seat_names=t.seat_names,
                        started=t.version > 0, spectators=t.spectators,
                        spectators_allowed=spectators_allowed, house_rules=t.rules_text is not None,
                        created=t.created, version=t.version, scores=t.game.scores,
                        rules_sha256=t.spec.sha256, next_table_id=t.next_id or "",
                        turn_seconds=t.turn_seconds, seat_bots=t.seat_bots(),
                        seat_here=[n > 0 for n in t.here], names=rule_names(t.spec, lang))


def seats(t: Table) -> pb.Seats:
    """Who sits where, as every watcher is told of it (nothing hidden: the lobby shows the same)."""
    return pb.Seats(seat_taken=t.seats_taken, seat_names=t.seat_names, spectators=t.spectators,
                    seat_bots=t.seat_bots(), seat_here=[n > 0 for n in t.here])


def render(t: Table, ev: Event, who: Identity, sealed: bool = False) -> pb.TableEvent:
    """One event as `who` may see it (a sealed table's seed is not shown)."""
    seq, kind = ev[0], ev[1]
    r = t.rules
    if kind == "move":
        _s, _k, seat, code, version, by = ev
        visible = who.role == "seat" and who.seat == seat
        return pb.TableEvent(seq=seq, move=pb.MovePlayed(seat=seat, version=version,
                                                           move=move_to_proto(r, code, visible), by=by))
    if kind == "trick_won":
        _s, _k, leader, winner, cards = ev
        return pb.TableEvent(seq=seq, trick_won=pb.TrickWon(winner=winner, leader=leader,
                                                              cards=[r.card_name(c) for c in cards]))
    if kind == "hand_scored":
        _s, _k, hand, result_json, scores = ev
        return pb.TableEvent(seq=seq, hand_scored=pb.HandScored(hand=hand, result_json=result_json, scores=scores))
    if kind == "hand_started":
        _s, _k, hand, dealer, hands = ev
        mine = [r.card_name(c) for c in hands[who.seat]] if who.role == "seat" else []
        return pb.TableEvent(seq=seq, hand_started=pb.HandStarted(hand=hand, dealer=dealer, your_cards=mine))
    _s, _k, winner, scores = ev
    over = pb.GameOver(scores=scores, seed="" if sealed else t.seed)
    if winner is not None:
        over.winner = winner
    return pb.TableEvent(seq=seq, game_over=over)


def redact(t: Table, rec: dict[str, Any], who: Identity, sealed: bool) -> tuple[dict[str, Any], bool]:
    """The record as `who` may have it: while the game runs (or its round is sealed), other
    seats' cards, the stock and their discards are left out. An uploaded rule file travels in
    `rules_text` (Game.to_record puts it there; a record kept before records carried it, and its
    hand limit, gets them here)."""
    if t.rules_text is not None and "rules_text" not in rec:
        rec.update(record_rules(t.spec))
    if t.hand_limit and "hand_limit" not in rec:
        rec["hand_limit"] = t.hand_limit
    if t.ended is not None:
        rec["ended"] = t.ended
    if t.game.finished and not sealed:
        rec["seed"] = t.seed
        return rec, True
    mine = who.seat if who.role == "seat" else None
    for hand in rec["hands"]:
        hand["deal"]["hands"] = [h if i == mine else [] for i, h in enumerate(hand["deal"]["hands"])]
        hand["deal"]["stock"] = []
        for m in hand["moves"]:
            if m["action"] == "discard" and m["seat"] != mine:
                m["cards"] = []
    rec["redacted"] = True
    if sealed:
        rec["sealed"] = True
    return rec, False
