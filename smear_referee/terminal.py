"""`smear-dsl play`: one person at a terminal, at a table of the referee (over gRPC).

It shows what the web table shows (hand, trick, bids, trump, scores, each hand's points) and sends
the person's moves; a move the referee refuses is shown with the referee's reason, in words.
The seat token is kept in ~/.config/smear-dsl/seats.json, so `play --table ID` again (after a
dropped connection or a closed terminal) takes the same seat.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

import grpc
from rich.console import Console

from .api import referee_pb2 as pb
from .client import Client, error_info, error_reason

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_ORDER = "SHCD"
RANKS = "23456789TJQKA"


def seats_file() -> Path:
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "smear-dsl" / "seats.json"


def saved_seat(server: str, table_id: str) -> dict | None:
    try:
        return json.loads(seats_file().read_text()).get(f"{server}/{table_id}")
    except (OSError, ValueError):
        return None


def save_seat(server: str, table_id: str, seat: dict) -> None:
    path = seats_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        known = {}
    known[f"{server}/{table_id}"] = seat
    path.write_text(json.dumps(known))
    path.chmod(0o600)  # tokens are the seat's key


def card(name: str, trump: str | None = None) -> str:
    """A card as rich markup: rank and suit symbol, red for hearts and diamonds."""
    rank, suit = name[:-1], name[-1]
    if suit not in SUITS:
        return f"[magenta]{name}[/magenta]"
    text = f"{'10' if rank == 'T' else rank}{SUITS[suit]}"
    colour = "red" if suit in "HD" else "default"
    return f"[bold {colour}]{text}[/bold {colour}]" if suit == trump else f"[{colour}]{text}[/{colour}]"


def sort_hand(cards: list[str], trump: str | None) -> list[str]:
    def key(c: str):
        s = c[-1]
        return (-1 if s == trump else SUIT_ORDER.find(s), -RANKS.find(c[:-1]))
    return sorted(cards, key=key)


def move_text(m: pb.Move) -> str:
    kind = m.WhichOneof("action")
    if kind == "pass":
        return "pass"
    if kind == "bid":
        return f"bid {m.bid}"
    if kind == "trump":
        return f"trump {SUITS.get(m.trump, m.trump)}"
    if kind == "discard":
        return "discard " + (" ".join(card(c) for c in m.discard.cards) or f"{m.discard.count} cards")
    if kind == "choose":
        return CHOICE_WORDS.get(m.choose, m.choose)
    return f"play {card(m.play)}"


# Begging (All Fours): each choice as the table says it; a person types the first word.
CHOICE_WORDS = {"stand": "stand", "beg": "beg", "give": "give a point", "run": "run the cards"}


def parse_move(text: str, legal: list[pb.Move]) -> pb.Move | None:
    """The person's input: a number from the list, or `pass`, `bid N`, `trump S`, `discard AS KH`, a card,
    or when begging `stand`, `beg`, `give`, `run`."""
    words = text.replace(",", " ").split()
    if not words:
        return None
    if words[0].isdigit() and len(words) == 1:
        i = int(words[0]) - 1
        return legal[i] if 0 <= i < len(legal) else None
    w = words[0].lower()
    if w == "pass":
        return pb.Move(**{"pass": True})
    if w in CHOICE_WORDS and len(words) == 1:
        return pb.Move(choose=w)
    if w == "bid" and len(words) == 2 and words[1].isdigit():
        return pb.Move(bid=int(words[1]))
    if w == "trump" and len(words) == 2:
        return pb.Move(trump=words[1].upper()[:1])
    if w == "discard":
        cards = [c.upper() for c in words[1:]]
        return pb.Move(discard=pb.CardList(cards=cards, count=len(cards)))
    if len(words) == 1:
        return pb.Move(play=words[0].upper().replace("10", "T"))
    return None


class TerminalTable:
    """The table as text; `ask` reads a line from the person (input() by default)."""

    def __init__(self, client: Client, table_id: str, console: Console, ask: Callable[[str], str] = input):
        self.client, self.table_id, self.console, self.ask = client, table_id, console, ask
        self.info = client.table(table_id)

    def name(self, seat: int, view: pb.View) -> str:
        n = self.info.seat_names[seat] if seat < len(self.info.seat_names) else ""
        n = f"Bot {seat}" if n.startswith("bot:") else n or f"Seat {seat}"
        return n + (" (you)" if view.HasField("seat") and view.seat == seat else "")

    def narrate(self, ev: pb.TableEvent, view: pb.View) -> str | None:
        kind = ev.WhichOneof("kind")
        if kind == "move":
            return f"{self.name(ev.move.seat, view)}: {move_text(ev.move.move)}"
        if kind == "trick_won":
            return f"  {self.name(ev.trick_won.winner, view)} takes the trick " + \
                " ".join(card(c) for c in ev.trick_won.cards)
        if kind == "hand_scored":
            r = json.loads(ev.hand_scored.result_json)
            points = ", ".join(f"{p} → {'nobody' if s is None else s}" for p, s in (r.get("points") or {}).items())
            return f"[bold]hand {ev.hand_scored.hand + 1} scored[/bold]: {points}; scores {list(ev.hand_scored.scores)}"
        if kind == "hand_started":
            self.info = self.client.table(self.table_id)
            return f"[bold]hand {ev.hand_started.hand + 1}[/bold]: {self.name(ev.hand_started.dealer, view)} deals"
        if kind == "game_over":
            return f"[bold green]game over[/bold green]: scores {list(ev.game_over.scores)}"
        return None

    def show(self, view: pb.View) -> None:
        d = json.loads(view.detail_json)
        c = self.console
        trump = d.get("trump")
        c.rule(f"{self.info.title} · {view.phase}")
        side_names = [self.name(i, view) for i in range(len(d["scores"]))] if len(d["scores"]) == d["players"] else \
            [f"side {i + 1}" + (" (yours)" if d.get("side") == i else "") for i in range(len(d["scores"]))]
        c.print("scores: " + ", ".join(f"{n} {s}" for n, s in zip(side_names, d["scores"])))
        if d.get("bids"):
            c.print("bids: " + ", ".join(f"{self.name(b['seat'], view)} {b['bid'] or 'pass'}" for b in d["bids"]))
        if trump:
            bid = (f"   high bid {d.get('bid')} by {self.name(d['bidder'], view)}" if d.get("bidder") is not None
                   else "")
            c.print(f"trump: {card('A' + trump).replace('A', '', 1)}{bid}")
        for shown in d.get("shown") or ():  # face-up discards
            c.print(f"discarded face up by {self.name(shown['seat'], view)}: " + " ".join(card(x, trump) for x in shown["cards"]))
        stock = d.get("stock")
        if stock:  # a turned-up trump card, and a face-up stock's top card, are for everyone to see
            c.print(f"stock: {stock['size']} cards" + (f"   turned up {card(stock['turned_up'], trump)}" if stock.get("turned_up") else "")
                    + (f"   top card {card(stock['top'], trump)}" if stock.get("top") else "")
                    + ("   set aside " + " ".join(card(x) for x in stock["turned_down"]) if stock.get("turned_down") else ""))
        if d.get("choices"):  # begging: who stood, begged, gave or ran
            c.print("begging: " + ", ".join(f"{self.name(x['seat'], view)} {CHOICE_WORDS.get(x['choice'], x['choice'])}"
                                            for x in d["choices"]))
        if d.get("trick"):
            c.print("trick: " + "  ".join(f"{self.name(t['seat'], view)} {card(t['card'], trump)}" for t in d["trick"]))
        if view.hand:
            c.print("your hand: " + " ".join(card(x, trump) for x in sort_hand(list(view.hand), trump)))
        dd = d.get("discard")
        if dd:  # the discard to make: how many, of which cards (the menu offers one legal discard)
            many = str(dd["min"]) if dd["min"] == dd["max"] else f"{dd['min']} to {dd['max']}"
            c.print(f"discard {many} of: " + " ".join(card(x, trump) for x in sort_hand(dd["cards"], trump))
                    + "   (type e.g. discard AS KH)")

    def prompt(self, view: pb.View) -> None:
        """Ask for a move until the referee takes one."""
        legal = list(view.legal_moves)
        self.show(view)
        self.console.print("your move: " + "  ".join(f"[cyan]{i + 1}[/cyan] {move_text(m)}" for i, m in enumerate(legal)))
        while True:
            try:
                text = self.ask("move> ")
            except EOFError:
                raise SystemExit(0) from None
            move = parse_move(text, legal)
            if move is None:
                self.console.print("type a number from the list, or pass, bid N, trump S, discard AS KH, a card (AS), "
                                   "or stand, beg, give, run")
                continue
            try:
                self.client.submit(self.table_id, move, view.version)
                return
            except grpc.RpcError as e:
                self.console.print(f"[red]refused[/red] ({error_reason(e) or e.code().name}): {e.details()}")
                if error_reason(e) == "STALE_VERSION":
                    return

    def run(self) -> pb.View:
        """Follow the table until the game ends; the person moves whenever their seat must."""
        after, asked = 0, -1
        while True:
            try:
                for ev in self.client.watch(self.table_id, after_seq=after):
                    after = max(after, ev.seq)
                    if ev.WhichOneof("kind") == "heartbeat":
                        continue
                    view = ev.snapshot if ev.WhichOneof("kind") == "snapshot" else self.client.view(self.table_id)
                    line = self.narrate(ev, view)
                    if line:
                        self.console.print(line)
                    if view.finished:
                        self.show(view)
                        return view
                    if view.legal_moves and view.version != asked:
                        asked = view.version
                        self.prompt(view)
            except grpc.RpcError as e:
                if e.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    raise
                self.client.route.follow(e)  # to the table's owner, or past a replica that went away
                if error_info(e)[1].get("owner"):
                    continue
                self.console.print("[yellow]connection lost: reconnecting…[/yellow]")
                import time
                time.sleep(1)
