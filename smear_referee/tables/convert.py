"""Between the engine (int moves, bitsets, dicts) and the wire (proto messages)."""
from __future__ import annotations

import json
from typing import Any

from smear_dsl import moves as M
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.engine import Game
from smear_dsl.engine.view import SeatView, seat_view
from smear_dsl.errors import MoveError
from smear_dsl.i18n import rules_title
from smear_dsl.language.paths import split_ref
from smear_dsl.language.spec import RuleSpec
from smear_dsl.language.versions import versions_of
from smear_referee.api import referee_pb2 as pb


def move_to_proto(rules: CompiledRules, code: int, visible: bool = True) -> pb.Move:
    """A move code as a proto; a discard's cards only when `visible` (else just their number)."""
    d = M.to_dict(code, 0, rules.card_name)
    if d["action"] == "discard" and not visible:
        return pb.Move(discard=pb.CardList(cards=[], count=len(d["cards"])))
    return move_proto(d)


def move_dict(seat: int, move: pb.Move) -> dict[str, Any]:
    """A proto move in its record form (smear_dsl/moves.py's codec): a discard others may not see
    has its `count` and no cards; MoveError BAD_RECORD if it names no action."""
    kind = move.WhichOneof("action")
    if kind is None:
        raise MoveError("BAD_RECORD", "the move names no action (pass, bid, trump, discard, play or choose)")
    if kind == "pass":
        return {"seat": seat, "action": "pass"}
    if kind == "bid":
        return {"seat": seat, "action": "bid", "value": move.bid}
    if kind == "trump":
        return {"seat": seat, "action": "trump", "suit": move.trump}
    if kind == "discard":
        return {"seat": seat, "action": "discard", "cards": list(move.discard.cards), "count": move.discard.count}
    if kind == "choose":
        return {"seat": seat, "action": "choose", "choice": move.choose}
    return {"seat": seat, "action": "play", "card": move.play}


def pass_move() -> pb.Move:
    """A pass (the field is named `pass`, a Python keyword, so it is set by name)."""
    return pb.Move(**{"pass": True})  # type: ignore[arg-type]


def move_from_proto(rules: CompiledRules, seat: int, move: pb.Move) -> tuple[str, Any]:
    """(action, payload) as Game.apply_action takes it; MoveError BAD_RECORD if malformed."""
    _seat, action, payload = M.from_dict(rules, move_dict(seat, move))
    return action, payload


def move_proto(d: dict[str, Any]) -> pb.Move:
    """A move in its record form as a proto."""
    a = d["action"]
    if a == "pass":
        return pass_move()
    if a == "bid":
        return pb.Move(bid=d["value"])
    if a == "trump":
        return pb.Move(trump=d["suit"])
    if a == "discard":
        return pb.Move(discard=pb.CardList(cards=d["cards"], count=len(d["cards"])))
    if a == "choose":
        return pb.Move(choose=d["choice"])
    return pb.Move(play=d["card"])


# The last hand's entry without json.dumps' spaces (a view is sent on every turn). Still ASCII: a lone
# surrogate from a rule file stays an escape.
_COMPACT = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def view_to_proto(table_id: str, game: Game, seat: int | None, version: int) -> pb.View:
    """The caller's view, field by field from the engine's (smear_dsl.engine.view decides what it holds).
    Built in one constructor call (None leaves a field unset): a view is made for every turn."""
    v = seat_view(game, seat)
    d = v.get("discard")
    return pb.View(
        table_id=table_id, version=version, seat=seat, phase=v["phase"], turn=v["turn"], hand=v.get("hand", []),
        legal_moves=[move_proto(m) for m in v.get("legal", ())] if not game.finished else [],
        scores=v["scores"], finished=v["finished"], winner=v["winner"], rules=v["rules"], players=v["players"],
        side=v["side"], sides=v["sides"], dealer=v["dealer"], hands_played=v["hands_played"],
        current=_hand_in_play(v) if "bids" in v else None,
        discard=None if d is None else pb.Discarding(min=d["min"], max=d["max"], cards=d["cards"],
                                                     example=d["example"] or ()),
        last_hand_json=_COMPACT.encode(v["last_hand"]) if "last_hand" in v else "")


def _hand_in_play(v: SeatView) -> pb.HandInPlay:
    """The hand being played, as the view holds it (only while a hand is played)."""
    s = v.get("stock")
    return pb.HandInPlay(
        bids=[pb.SeatBid(seat=b["seat"], bid=b["bid"] or 0) for b in v.get("bids", ())],
        bidder=v.get("bidder"), bid=v.get("bid"),
        trump=v.get("trump") or "", trick=[pb.SeatCard(seat=c["seat"], card=c["card"]) for c in v.get("trick", ())],
        tricks=[pb.TrickTaken(leader=x["leader"], winner=x["winner"], cards=x["cards"]) for x in v.get("tricks", ())],
        hand_sizes=v.get("hand_sizes", ()), shown=[pb.SeatCards(seat=x["seat"], cards=x["cards"]) for x in v.get("shown", ())],
        pegged=pb.Pegged(won=[_point_fell(p) for p in v.get("points_won", ())], totals=v["hand_points"])
        if "hand_points" in v else None,
        stock=None if s is None else pb.Stock(
            size=s["size"], turned_up=s["turned_up"] or "", top=s["top"] or "",
            draws=[pb.SeatCard(seat=x["seat"], card=x["card"]) for x in s.get("draws", ())],
            turned_down=s.get("turned_down", ())),
        trump_calls=[pb.TrumpCall(seat=c["seat"], suit=c["suit"] or "") for c in v.get("trump_calls", ())],
        choices=[pb.SeatChoice(seat=c["seat"], choice=c["choice"]) for c in v.get("choices", ())],
        discarded=v.get("discarded", ()))


def _point_fell(p: dict[str, Any]) -> pb.PointFell:
    """One pegged award (smear_dsl.engine.scoring.fell_json's form)."""
    return pb.PointFell(point=p["point"], side=p["side"], value=p["value"], card=p["card"] or "", at=p["at"],
                        trick=p["trick"])


def rule_info(spec: RuleSpec, lang: str = "en") -> pb.RuleInfo:
    """A rule file as the lobby lists it: its name, description and options' words in `lang` where it gives them."""
    opts = []
    for o in spec.options:
        oi = pb.OptionInfo(name=o.name, type=o.type, default_value=str(o.default).lower() if isinstance(o.default, bool)
                           else str(o.default), description=spec.option_text(o.name, lang), choices=list(o.choices))
        if o.min is not None:
            oi.min = o.min
        if o.max is not None:
            oi.max = o.max
        opts.append(oi)
    name = split_ref(spec.stem)[0]
    return pb.RuleInfo(name=name, title=rules_title(spec, lang), description=spec.about(lang), players=list(spec.players),
                       options=opts, version=spec.version or 0, versions=versions_of(name) if spec.version else [],
                       rules_sha256=spec.sha256)
