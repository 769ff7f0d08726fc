"""`smear-dsl play`: one person at a terminal, at a table of the referee (over gRPC).

It shows what the web table shows (hand, trick, bids, trump, scores, each hand's points) and sends
the person's moves; a move the referee refuses is shown with the referee's reason, in words.
The seat token is kept in ~/.config/smear-dsl/seats.json, so `play --table ID` again (after a
dropped connection or a closed terminal) takes the same seat.
"""
from __future__ import annotations

import json
import os
import queue
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import grpc
from rich.console import Console
from rich.markup import escape

from smear_dsl import moves as M
from smear_dsl.i18n import ENGLISH, Tr, signed
from smear_referee import codes
from smear_referee.api import referee_pb2 as pb
from smear_referee.clients.client import Client, error_info, error_reason
from smear_referee.names import shown as plain
from smear_referee.tables.convert import move_dict, pass_move

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


def card(name: str, trump: str | None = None, tr: Tr = ENGLISH) -> str:
    """A card as rich markup: the rank as the language abbreviates it (the rules sheet's letters: R, D,
    V in French) and the suit symbol, red for hearts and diamonds."""
    rank, suit = name[:-1], name[-1]
    if suit not in SUITS:
        return f"[magenta]{name}[/magenta]"
    letter = "10" if rank == "T" else tr.tp("rank letter", rank) if rank in "AKQJ" and not tr.english else rank
    text = f"{letter}{SUITS[suit]}"
    colour = "red" if suit in "HD" else "default"
    return f"[bold {colour}]{text}[/bold {colour}]" if suit == trump else f"[{colour}]{text}[/{colour}]"


def sort_hand(cards: list[str], trump: str | None) -> list[str]:
    def key(c: str):
        s = c[-1]
        return (-1 if s == trump else SUIT_ORDER.find(s), -RANKS.find(c[:-1]))
    return sorted(cards, key=key)


def move_text(m: pb.Move, tr: Tr = ENGLISH, told: bool = False) -> str:
    """A move as the table says it (smear_dsl/moves.py's words), in the person's language: as offered
    to the seat to act, or (`told`) of the seat that made it."""
    return M.said(move_dict(0, m), tr, card=lambda c: card(c, tr=tr), suit=lambda s: SUITS.get(s, s), told=told)


def in_hand_order(legal: list[pb.Move], trump: str | None) -> list[pb.Move]:
    """The legal moves as the person sees them: bids, choices and trumps first, then the cards in the
    order of the hand as shown (sort_hand), so the numbers to type read left to right."""
    plays = [m for m in legal if m.WhichOneof("action") == "play"]
    at = {c: i for i, c in enumerate(sort_hand([m.play for m in plays], trump))}
    return [m for m in legal if m.WhichOneof("action") != "play"] + sorted(plays, key=lambda m: at[m.play])


CARD_CODE = re.compile(r"[2-9TJQKA][SHDC]")  # a suited card as the rules write it (a joker: as the hand lists it)
CHOICE_WORDS = M.CHOICE_WORDS  # begging (All Fours): each choice as the table says it; a person types the first word


MARKUP = re.compile(r"\[/?[a-z ]+\]")  # the colour tags move_text and card put around a card


def _plain(label: str) -> str:
    """A move's words as typed: no colour markup, one space, any case."""
    return " ".join(MARKUP.sub("", label).split()).casefold()


def said_move(text: str, legal: list[pb.Move], tr: Tr) -> pb.Move | None:
    """The move whose words, in the person's language, are what they typed ("passe", "enchère 3",
    "mendier"): a legal one as the menu shows it, or a pass, a bid or a choice (which the referee judges)."""
    typed = _plain(text)
    last = typed.rsplit(" ", 1)[-1]
    offered = [*legal, pass_move(), *(pb.Move(choose=c) for c in CHOICE_WORDS),
               *([pb.Move(bid=int(last))] if last.isdigit() and len(last) < 4 else [])]
    found = next((m for m in offered if _plain(move_text(m, tr)) == typed), None)
    # A card as the table shows it ("D♠"), alone: that card played.
    return found or next((m for m in legal if m.WhichOneof("action") == "play"
                          and _plain(card(m.play, tr=tr)) == typed), None)


def parse_move(text: str, legal: list[pb.Move], tr: Tr = ENGLISH) -> pb.Move | None:
    """The person's input: a number from the list, or `pass`, `bid N`, `trump S`, `discard AS KH`, a card,
    or when begging `stand`, `beg`, `give`, `run` (smear_dsl.choices.TYPED says them to the person); or the
    same words in the table's language, as its menu shows them (`passe`, `enchère 3`)."""
    words = text.replace(",", " ").split()
    if not words:
        return None
    if not tr.english and (move := said_move(text, legal, tr)) is not None:
        return move
    if words[0].isdigit() and len(words) == 1:
        i = int(words[0]) - 1
        return legal[i] if 0 <= i < len(legal) else None
    w = words[0].lower()
    if w == "pass":
        return pass_move()
    if w in CHOICE_WORDS and len(words) == 1:
        return pb.Move(choose=w)
    if w == "bid" and len(words) == 2 and words[1].isdigit():
        return pb.Move(bid=int(words[1]))
    if w == "trump" and len(words) == 2:
        return pb.Move(trump=words[1].upper()[:1])
    if w == "discard":
        cards = [c.upper().replace("10", "T") for c in words[1:]]
        return pb.Move(discard=pb.CardList(cards=cards, count=len(cards)))
    if len(words) == 1:  # a card by its code: the referee says why if it may not be played
        code = words[0].upper().replace("10", "T")
        plays = {m.play for m in legal if m.WhichOneof("action") == "play"}
        return pb.Move(play=code) if code in plays or CARD_CODE.fullmatch(code) else None
    return None


class TerminalTable:
    """The table as text; `ask` reads a line from the person (input() by default)."""

    def __init__(self, client: Client, table_id: str, console: Console, ask: Callable[[str], str] = input,
                 tr: Tr = ENGLISH):
        self.client, self.table_id, self.console, self.ask, self.tr = client, table_id, console, ask, tr
        self.info = client.table(table_id)

    def name(self, seat: int, view: pb.View) -> str:
        t = self.tr.t
        n = self.info.seat_names[seat] if seat < len(self.info.seat_names) else ""
        # A name is what a stranger typed: printed as text, never as markup or terminal control.
        # People count seats from 1 (the API from 0).
        n = t("Bot {seat}", seat=seat + 1) if n.startswith("bot:") else escape(plain(n)) or t("Seat {seat}", seat=seat + 1)
        return t("{name} (you)", name=n) if view.HasField("seat") and view.seat == seat else n

    def seated(self, seats: pb.Seats) -> None:
        """Names live: who sits where, as it changes (nothing in the game changed)."""
        self.info.ClearField("seat_names")
        self.info.seat_names.extend(seats.seat_names)

    def narrate(self, ev: pb.TableEvent, view: pb.View) -> str | None:
        t = self.tr.t
        kind = ev.WhichOneof("kind")
        if kind == "move":
            told = move_text(ev.move.move, self.tr, told=True)
            if ev.move.by == "clock":  # the seat's time ran out: the house bot moved for it
                return t("{who}'s time ran out: the house bot {move}", who=self.name(ev.move.seat, view), move=told)
            return f"{self.name(ev.move.seat, view)} {told}"
        if kind == "trick_won":
            return "  " + t("{who} takes the trick ({cards})", who=self.name(ev.trick_won.winner, view),
                            cards=" ".join(card(c, tr=self.tr) for c in ev.trick_won.cards))
        if kind == "hand_scored":
            r = json.loads(ev.hand_scored.result_json)
            points = ", ".join(f"{escape(plain(self.tr.label(p)))} → {self.point_sides(s, view)}"
                               for p, s in (r.get("points") or {}).items())
            scored = t("Hand {n} scored", n=ev.hand_scored.hand + 1)
            return f"[bold]{scored}[/bold]: {points}; " + t("scores {list}", list=self.scores(list(ev.hand_scored.scores), view))
        if kind == "hand_started":
            self.info = self.client.table(self.table_id)
            deals = t("hand {n}: {who} deals", n=ev.hand_started.hand + 1, who=self.name(ev.hand_started.dealer, view))
            return f"[bold]{deals}[/bold]"
        if kind == "game_over":
            over = ev.game_over
            return "[bold green]" + t("Game over") + "[/bold green]: " + self.outcome(over, list(over.scores), view)
        return None

    def outcome(self, over, scores: list[int], view: pb.View) -> str:
        """`Winner: Ann · scores …`, or `No winner · scores …` (its own sentence: "nobody" fits no slot)."""
        if not over.HasField("winner"):
            return self.tr.t("No winner · scores {list}", list=self.scores(scores, view))
        return self.tr.t("Winner: {who} · scores {list}", who=self.side_name(over.winner, view),
                         list=self.scores(scores, view))

    def point_sides(self, got, view: pb.View) -> str:
        """Who won a point: a side, or for a point scored per card or per trick each side's total."""
        if not isinstance(got, list):
            return self.side_name(got, view)
        parts = [f"{self.side_name(side, view)} {v}" for side, v in enumerate(got) if v]
        return " / ".join(parts) if parts else self.side_name(None, view)

    def side_name(self, side: int | None, view: pb.View) -> str:
        """A side as a person names it: the player when each plays alone, else `Side N` (from 1)."""
        if side is None:
            return self.tr.t("nobody")
        if len(view.scores) == view.players:
            return self.name(side, view)
        side_name = self.tr.t("Side {n}", n=side + 1)
        return self.tr.t("{name} (yours)", name=side_name) if view.HasField("side") and view.side == side else side_name

    def scores(self, scores: list[int], view: pb.View) -> str:
        """Each side's score after its name: `Side 1 (yours) 7, Side 2 −2`."""
        return ", ".join(f"{self.side_name(i, view)} {signed(s)}" for i, s in enumerate(scores))

    def show(self, view: pb.View) -> None:
        d = view.current  # the hand being played (empty between hands)
        c, t = self.console, self.tr.t
        trump = d.trump or None
        phase = self.tr.tp("phase", view.phase)  # the phases' words are the web table's (clients/web/src/i18n.js)
        c.rule(f"{escape(plain(self.info.title))} · {phase}")
        c.print(t("scores: {list}", list=self.scores(list(view.scores), view)))
        if d.HasField("pegged"):  # points pegged as their tricks fall: this hand's running totals
            c.print(t("this hand so far: {list}", list=self.scores(list(d.pegged.totals), view)))
        if d.bids:
            passed = t("pass")
            c.print(t("bids: {list}", list=", ".join(f"{self.name(b.seat, view)} {b.bid or passed}" for b in d.bids)))
        if trump:
            bid = ("   " + t("high bid {n} by {who}", n=d.bid if d.HasField("bid") else None, who=self.name(d.bidder, view))
                   if d.HasField("bidder") else "")
            c.print(t("trump: {suit}", suit=card("A" + trump).replace("A", "", 1)) + bid)
        for shown in d.shown:  # face-up discards
            c.print(t("discarded face up by {who}: {cards}", who=self.name(shown.seat, view),
                      cards=" ".join(card(x, trump, self.tr) for x in shown.cards)))
        if d.HasField("stock"):  # a turned-up trump card, and a face-up stock's top card, are for everyone to see
            stock = d.stock
            c.print(t("stock: {n} cards", n=stock.size)
                    + ("   " + t("turned up {card}", card=card(stock.turned_up, trump, self.tr)) if stock.turned_up else "")
                    + ("   " + t("top card {card}", card=card(stock.top, trump, self.tr)) if stock.top else "")
                    + ("   " + t("set aside {cards}", cards=" ".join(card(x, tr=self.tr) for x in stock.turned_down))
                       if stock.turned_down else ""))
        if d.choices:  # begging: who stood, begged, gave or ran
            c.print(t("begging: {list}", list=", ".join(
                f"{self.name(x.seat, view)} {t(CHOICE_WORDS[x.choice]) if x.choice in CHOICE_WORDS else x.choice}"
                for x in d.choices)))
        if d.trick:
            c.print(t("trick: {cards}", cards="  ".join(f"{self.name(x.seat, view)} {card(x.card, trump, self.tr)}"
                                                         for x in d.trick)))
        if view.hand:
            c.print(t("your hand: {cards}", cards=" ".join(card(x, trump, self.tr) for x in sort_hand(list(view.hand), trump))))
        if view.HasField("discard"):  # the discard to make: how many, of which cards (the menu offers one legal discard)
            dd = view.discard
            many = str(dd.min) if dd.min == dd.max else t("{lo} to {hi}", lo=dd.min, hi=dd.max)
            c.print(t("discard {n} of: {cards}   (type e.g. discard AS KH)", n=many,
                      cards=" ".join(card(x, trump, self.tr) for x in sort_hand(list(dd.cards), trump))))

    def prompt(self, view: pb.View) -> None:
        """Ask for a move until the referee takes one."""
        legal = in_hand_order(list(view.legal_moves), view.current.trump or None)
        self.show(view)
        self.console.print(self.tr.t("your move: {list}", list="  ".join(f"[cyan]{i + 1}[/cyan] {move_text(m, self.tr)}"
                                                                         for i, m in enumerate(legal))))
        while True:
            try:
                text = self.ask(self.tr.t("move") + "> ")  # the prompt in the table's language
            except EOFError:
                raise SystemExit(0) from None
            move = parse_move(text, legal, self.tr)
            if move is None:
                self.console.print(self.typing_help(legal))
                continue
            try:
                self.client.submit(self.table_id, move, view.version)
                return
            except grpc.RpcError as e:
                said = self.tr.t("refused ({code}): {message}", code=error_reason(e) or e.code().name, message=e.details())
                self.console.print(f"[red]{escape(said)}[/red]")
                if error_reason(e) == codes.STALE_VERSION.name:
                    return

    def typing_help(self, legal: list[pb.Move]) -> str:
        """What may be typed, in the table's language: the menu's numbers, its words (the first two
        moves offered, as examples), a card as shown or by its code; English words always work too."""
        if self.tr.english:
            return ("type a number from the list, or pass, bid N, trump S, discard AS KH, a card (AS), "
                    "or stand, beg, give, run")

        def shown(markup: str) -> str:  # as printed, without the colours
            return " ".join(MARKUP.sub("", markup).split())
        examples = ", ".join(shown(move_text(m, self.tr)) for m in legal[:2])
        plays = [m.play for m in legal if m.WhichOneof("action") == "play"]
        code = plays[0] if plays else "AS"
        return self.tr.t("type a number from the list, or a move as the list writes it ({examples}), or a card "
                         "as it is shown ({card}) or by its code ({code})", examples=escape(examples),
                         card=shown(card(code, tr=self.tr)), code=code)

    def run(self) -> pb.View:
        """Follow the table until the game ends; the person moves whenever their seat must. The stream
        is read on a thread of its own, so every event already sent (the trick's winner, the hand's
        score) is told before the person is asked for a move."""
        events: queue.Queue = queue.Queue()
        after, asked, due = 0, -1, None
        self._read(events, after)
        while True:
            try:
                ev = events.get(timeout=None if due is None else 0.2)
            except queue.Empty:  # nothing more for now: ask
                assert due is not None  # the only wait with a timeout
                view, due = due, None
                if view.version != asked:
                    asked = view.version
                    self.prompt(view)
                continue
            if isinstance(ev, grpc.RpcError):
                self._lost(ev)
                self._read(events, after)
                continue
            after = max(after, ev.seq)
            if ev.WhichOneof("kind") == "heartbeat":
                continue
            if ev.WhichOneof("kind") == "seats":
                self.seated(ev.seats)
                continue
            view = ev.snapshot if ev.WhichOneof("kind") == "snapshot" else self.client.view(self.table_id)
            line = self.narrate(ev, view)
            if line:
                self.console.print(line)
            if view.finished:
                self.show(view)
                return view
            due = view if view.legal_moves else None

    def _read(self, events: queue.Queue, after: int) -> None:
        """A thread putting the table's events (and the error that ends the stream) on `events`."""
        def pump() -> None:
            try:
                for ev in self.client.watch(self.table_id, after_seq=after):
                    events.put(ev)
            except grpc.RpcError as e:
                events.put(e)
        threading.Thread(target=pump, daemon=True).start()

    def _lost(self, e: grpc.RpcError) -> None:
        """The stream broke: follow the table to its owner, or wait a moment; anything else is raised."""
        if e.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            raise e
        self.client.route.follow(e)  # to the table's owner, or past a replica that went away
        if error_info(e)[1].get("owner"):
            return
        self.console.print("[yellow]" + self.tr.t("connection lost: reconnecting…") + "[/yellow]")
        time.sleep(1)
