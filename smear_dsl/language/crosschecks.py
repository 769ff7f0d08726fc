"""Checks between sections of a rule file, which no one section can make alone: what `bidding: none`,
a turned-up trump, draws from the stock and begging each need from the rest of the file."""
from __future__ import annotations

from typing import Any

from smear_dsl.language.semanticpart import SemanticPart
from smear_dsl.language.spec import BegSpec, BiddingSpec, DealSpec, DeckSpec, PhaseSpec, PlaySpec, PointSpec
from smear_dsl.language.yamlsrc import Node

# The way out for a file that names trump but has no bidding (never "write `who: bidder`", which
# `bidding: none` refuses in turn).
NO_NAMER = ("without bidding no bidder names trump: name it in turn with `name_trump: {who: each, may_pass: true}`, "
            "leave the phase out (the first card led fixes trump) or turn it up with `deal: {turn_up: true, rest: stock}`")


class CrossChecks(SemanticPart):
    """A part of the semantic pass (language.py's _Semantics): its `err` and `loc` report and locate."""

    def no_bidding(self, root: Node, phases: tuple[PhaseSpec, ...], play: PlaySpec | None) -> None:
        """With `bidding: none` nothing may refer to a bidder."""
        for p in phases:
            if p.who in ("bidder", "non_bidders"):
                self.err(p.loc, f"`who: {p.who}` needs a bidder, but `bidding: none` has none",
                         NO_NAMER if p.kind == "name_trump" else "use dealer, each or non_dealers")
        if play is not None and play.leader == "bidder":
            node = root.value.get("play")
            self.err(node.value.get("leader", node) if node is not None and node.kind == "map" else root.value["bidding"],
                     "the bidder leads first, but `bidding: none` has no bidder",
                     "write `play: {leader: left_of_dealer}`")

    def naming(self, node: Node, raw: dict[str, Any], no_bids: bool) -> None:
        """A `name_trump` phase: the bidder names (with bidding); without bidding the dealer names, or each
        player in turn from the dealer's left names or passes (`may_pass`)."""
        who, may_pass = raw["who"], bool(raw.get("may_pass"))
        if not no_bids:
            if who != "bidder":
                self.err(node.value["who"], "trump is named by the bidder", "write `who: bidder`")
            elif may_pass:
                self.err(node.value["may_pass"], "the bidder names trump and may not pass", "leave `may_pass` out")
            return
        if who in ("bidder", "non_bidders"):
            return  # no_bidding() says it: there is no bidder
        if who == "each" and not may_pass:
            self.err(node.value["who"], "each player would name trump in turn, but the first one always does",
                     "write `may_pass: true`: each names trump or passes, the dealer last")
        elif who == "dealer" and may_pass:
            self.err(node.value["may_pass"], "the dealer alone names trump, so no one may pass", "leave `may_pass` out")
        elif who == "non_dealers":
            self.err(node.value["who"], "trump is named in turn by every player, the dealer last, or by the dealer",
                     "write `who: each` with `may_pass: true`, or `who: dealer`")
        if "all_pass" in node.value and not may_pass:
            self.err(node.value["all_pass"], "`all_pass` says what happens when everyone passes, but no one may pass",
                     "add `may_pass: true`, or leave `all_pass` out")

    def leader_named(self, root: Node, play: PlaySpec | None, named: int) -> None:
        """`leader: namer` needs a phase that names trump."""
        if play is not None and play.leader == "namer" and not named:
            node = root.value.get("play")
            self.err(node.value.get("leader", node) if node is not None and node.kind == "map" else root,
                     "the player who named trump leads first, but no phase names trump",
                     "add `- name_trump: {who: each, may_pass: true}` to phases, or write `leader: left_of_dealer`")

    def stock_use(self, root: Node, deal: DealSpec, play: PlaySpec, deck: DeckSpec, named: int) -> None:
        """A turned-up trump and draws during play need a stock; a turned-up trump decides trump alone."""
        dnode = root.value["deal"]
        if deal.turn_up:
            if deal.rest != "stock":
                self.err(dnode.value["turn_up"], "`turn_up` turns the top card of the stock: it needs `rest: stock`")
            if deck.jokers:
                self.err(dnode.value["turn_up"], "a turned-up joker has no suit to make trump",
                         "play without jokers, or name trump with a `name_trump` phase")
            if named:
                self.err(dnode.value["turn_up"], "trump is turned up, so a `name_trump` phase cannot name it")
        if play.draw != "none" and deal.rest != "stock":
            self.err(root.value["play"].value["draw"], "draws during the play need `deal.rest: stock`")

    def beg(self, raw: dict[str, Any] | None, root: Node, deal: DealSpec | None, bidding: BiddingSpec | None,
            points: tuple[PointSpec, ...] | None) -> BegSpec | None:
        """Begging needs a turned-up trump to beg against, no bidding, and exactly one gift point."""
        gifts = [p for p in points or () if p.gift]
        if raw is None:
            for p in gifts:
                self.err(p.loc, f"point `{p.name}` is a gift, but there is no begging", "add a `beg:` section")
            return None
        node: Node = raw["__node__"]
        if deal is not None and not deal.turn_up:
            self.err(node, "begging is against a turned-up trump: it needs `deal.turn_up: true`")
        if bidding is not None and bidding.min is not None:
            self.err(node, "begging takes the place of the bidding: it needs `bidding: none`")
        if points is not None and len(gifts) != 1:
            self.err(node, "begging needs one point with `gift: true`, the point the dealer gives" if not gifts else
                     f"only one point can be the gift, not {', '.join(p.name for p in gifts)}",
                     None if gifts else "add e.g. `gift: {gift: true}` to points")
        return BegSpec(raw["run"], bool(raw["gift_may_win"]), self.loc(node))
