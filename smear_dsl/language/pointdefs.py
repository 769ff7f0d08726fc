"""The `points:` section checked: each point's card, who gets it (a word or a condition), a point per
card or per trick, the Game point and the gift; a part of the semantic pass (load.py's _Semantics)."""
from __future__ import annotations

from typing import Any

from smear_dsl.language.semanticpart import SemanticPart, needed
from smear_dsl.language.spec import DealSpec, PointSpec
from smear_dsl.language.yamlsrc import Node

TO_WORDS = ("player", "winner", "holder", "dealer_if_turned")  # a point's `to:` as one word: scoring's fast path


class PointChecks(SemanticPart):
    """A part of the semantic pass: its `err`, `loc` and `expr` report, locate and check."""

    def points(self, raw: dict[str, Any], deal: DealSpec | None) -> tuple[PointSpec, ...]:
        out = []
        if not raw:
            return ()
        for name, (p, kn) in raw.items():
            node: Node = p["__node__"]
            to_src = p["to"]
            to_word = to_src.text.strip() if to_src is not None else None
            to = to_word if to_word in TO_WORDS else ("expr" if to_src is not None else None)
            if p["most"] or p["gift"] or p["per_trick"]:
                kind = "`most`" if p["most"] else "gift" if p["gift"] else "`per_trick`"
                if p["card"] is not None or to_src is not None or p["each"] is not None:
                    self.err(node, f"point `{name}`: {kind} points take no `card`, `each` or `to`",
                             "a `per_trick` point goes to each trick's winner" if p["per_trick"] else None)
                if sum(map(bool, (p["most"], p["gift"], p["per_trick"]))) > 1:
                    self.err(node, f"point `{name}` is one of the Game point (`most`), a gift or a point per trick, "
                             "not several")
            elif p["each"] is not None:
                if p["card"] is not None:
                    self.err(node.value["card"], f"point `{name}` scores every card `each` holds for, so it names "
                             "no single `card`", "keep `each` or `card`, not both")
                if to_src is None:
                    self.err(node, f"point `{name}` needs `to`: who gets each card's point",
                             "e.g. `to: winner` (the side that wins the trick with the card)")
                elif to == "dealer_if_turned":
                    self.err(node.value["to"], f"point `{name}` scores many cards, and only one is turned up",
                             "write `to: winner`, `player` or `holder`")
            elif p["card"] is None or to_src is None:
                self.err(node, f"point `{name}` needs `card` and `to` (or `most: true` for a Game point)")
            if p["tie"] not in (None, "none") and not p["most"]:
                self.err(node.value["tie"], f"point `{name}`: `tie` is for the Game point (`most: true`)")
            if to == "dealer_if_turned" and deal is not None and not deal.turn_up:
                self.err(node.value["to"], f"point `{name}` goes to the dealer for a turned-up card, but no card is "
                         "turned up", "add `turn_up: true` to deal")
            to_expr = self.expr(to_src) if to == "expr" else None
            out.append(PointSpec(name, needed(self.expr(p["value"])), self.expr(p["card"]),
                                 to, bool(p["most"]), p["tie"] or "none", self.loc(kn), bool(p["gift"]),
                                 to_expr, self.expr(p["each"]), bool(p["per_trick"])))
        return tuple(out)
