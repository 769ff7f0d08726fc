"""Between the engine (int moves, bitsets, dicts) and the wire (proto messages)."""
from __future__ import annotations

import json
from typing import Any

from smear_dsl import moves as M
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.engine import Game
from smear_dsl.engine.view import seat_view
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


# A view's detail_json without json.dumps' spaces (a view is sent on every turn: a seventh less to encode and
# to send; every reader parses it alike). Still ASCII: a lone surrogate from a rule file stays an escape.
_DETAIL = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def view_to_proto(table_id: str, game: Game, seat: int | None, version: int) -> pb.View:
    """The caller's view (smear_dsl.engine.view decides what it holds) with typed essentials."""
    v = seat_view(game, seat)
    legal = [move_proto(d) for d in v.get("legal", ())] if not game.finished else []
    out = pb.View(table_id=table_id, version=version, phase=v["phase"], hand=v.get("hand", []), legal_moves=legal,
                  scores=list(game.scores), finished=game.finished, detail_json=_DETAIL.encode(v))
    if seat is not None:
        out.seat = seat
    if v.get("turn") is not None:
        out.turn = v["turn"]
    if game.winner is not None:
        out.winner = game.winner
    return out


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
