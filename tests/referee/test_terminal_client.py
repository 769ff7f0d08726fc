"""`smear-dsl play`, the terminal client, driven as a person would: a real process whose prompts are
answered on its standard input, against a real referee and the server's bots."""
from __future__ import annotations

import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT
from referee_harness import ServerThread

from smear_dsl.records.verify import verify
from smear_referee.limits import Limits


class Person:
    """The client process; `read_until` collects its output up to a pattern."""

    def __init__(self, args: list[str], home: str):
        # The terminal speaks the language of LANG/LANGUAGE unless --lang says: these tests read English.
        env = dict(os.environ, XDG_CONFIG_HOME=home, PYTHONUNBUFFERED="1", COLUMNS="100", LANG="C.UTF-8", LANGUAGE="")
        self.proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "play", *args], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, bufsize=0)
        self.out: queue.Queue[str] = queue.Queue()
        self.seen = ""
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        while ch := self.proc.stdout.read(1):
            self.out.put(ch)
        self.out.put("")

    def read_until(self, *patterns: str, seconds: float = 60) -> str:
        """Output up to the first of `patterns`; which one matched."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for p in patterns:
                if re.search(p, self.seen):
                    return p
            try:
                ch = self.out.get(timeout=0.5)
            except queue.Empty:
                continue
            if ch == "":
                for p in patterns:
                    if re.search(p, self.seen):
                        return p
                raise AssertionError(f"the client exited:\n{self.seen[-2000:]}")
            self.seen += ch
        raise AssertionError(f"timed out waiting for {patterns}:\n{self.seen[-2000:]}")

    def say(self, line: str) -> None:
        self.seen = ""
        self.proc.stdin.write(line + "\n")


@pytest.fixture
def server(tmp_path):
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(bot_seconds=0.01))
    yield srv
    srv.stop()


def test_a_person_plays_a_whole_game_at_the_terminal(server, tmp_path):
    record = tmp_path / "record.json"
    person = Person(["--server", server.target, "--create", "cutthroat_canadian", "--players", "3", "--bots",
                     "--name", "Ann", "--record", str(record)], str(tmp_path))
    rng, refused, moves = random.Random(11), False, 0
    while person.read_until(r"move> $", r"record written to") == r"move> $":
        menu = re.findall(r"(\d+) (pass|bid \d+|trump \S|discard[^\n]*?|play \S+)(?=\s{2}|\n|$)",
                          person.seen.rsplit("your move:", 1)[1])
        assert menu, person.seen
        if not refused and "play" in menu[0][1]:
            person.say("bid 9")  # not a play: the referee says why, in words, and asks again
            assert person.read_until(r"refused \(WRONG_PHASE\): the hand is waiting for playing a card, not a bid")
            assert person.read_until(r"move> $")
            refused = True
        person.say(str(rng.randrange(len(menu)) + 1))
        moves += 1
    person.read_until(r"Winner: ")
    assert person.proc.wait(30) == 0
    assert refused and moves > 5
    verdict = verify(json.loads(record.read_text()))
    assert verdict["valid"] and verdict["finished"], verdict


def test_the_terminal_client_takes_its_seat_back(server, tmp_path):
    made = server.client().create_table("four_point_ne_wisconsin", {"widow": 0}, seed="terminal-seat")
    first = server.client(made.host_token).view(made.table_id).turn
    person = Person(["--server", server.target, "--table", made.table_id, "--seat", str(first + 1)], str(tmp_path))  # from 1
    person.read_until(r"move> $")
    person.proc.kill()  # the terminal is closed mid-game
    person.proc.wait(10)
    again = Person(["--server", server.target, "--table", made.table_id], str(tmp_path))
    again.read_until(r"move> $")
    assert f"you are seat {first + 1}" in again.seen or "your hand" in again.seen
    again.say("pass")
    assert again.read_until(r"\(you\) passes", r"refused") == r"\(you\) passes"
    again.proc.kill()
    assert list(server.client().table(made.table_id).seat_taken).count(True) == 1
    saved = json.loads((tmp_path / "smear-dsl" / "seats.json").read_text())
    assert oct((tmp_path / "smear-dsl" / "seats.json").stat().st_mode & 0o777) == "0o600" and len(saved) == 1


def test_california_jack_at_the_terminal_shows_the_turned_trump_and_the_stock_top(server, tmp_path):
    """No bidding: the person's first move is a card; the face-up stock's top card is shown, and
    after each trick the stock shrinks by one card per player."""
    person = Person(["--server", server.target, "--create", "california_jack", "--players", "2", "--bots", "search:10",
                     "--name", "Ann"], str(tmp_path))  # `--bots BOT`: here the server's search bot
    sizes, table_id = [], None
    for _ in range(4):
        assert person.read_until(r"move> $") == r"move> $"
        table_id = table_id or re.search(r"table (\w+) opened", person.seen).group(1)  # `say` clears what was seen
        stock = re.findall(r"stock: (\d+) cards\s+turned up \S+\s+top card (\S+)", person.seen)
        assert stock, person.seen
        sizes.append(int(stock[-1][0]))
        assert "bids:" not in person.seen and "bid " not in person.seen.rsplit("your move:", 1)[1]
        person.say("1")
    assert sizes[0] <= 40 and sizes[-1] < sizes[0] and all(s % 2 == 0 for s in sizes)
    assert "bot:search:10" in server.client().table(table_id).seat_names
    person.proc.kill()


def test_don_at_the_terminal_shows_the_points_pegged_so_far(server, tmp_path):
    """Don pegs its cards as their tricks are won: every view of the play shows each side's running
    total for the hand, which only grows, and never past the 80 a hand holds."""
    person = Person(["--server", server.target, "--create", "don", "--bots", "heuristic", "--name", "Ann"],
                    str(tmp_path))
    totals = []
    for _ in range(5):
        assert person.read_until(r"move> $") == r"move> $"
        lines = re.findall(r"this hand so far: Side 1(?: \(yours\))? (\d+), Side 2(?: \(yours\))? (\d+)", person.seen)
        assert lines, person.seen
        totals.append(sum(map(int, lines[-1])))
        person.say("1")
    assert totals == sorted(totals) and totals[-1] <= 80
    person.proc.kill()


def test_all_fours_at_the_terminal_begs_and_runs_the_cards(server, tmp_path):
    """Begging from the keyboard: the eldest's menu is stand or beg, the dealer's give or run (the
    gift only while it cannot win); what was chosen, and the cards set aside by a run, are shown.
    The person always begs; whether the bot begs to the person's deal depends on the deal, so
    games are played until both have happened (a few at most)."""
    begged = ran = False
    for game in range(8):
        record = tmp_path / f"record{game}.json"
        person = Person(["--server", server.target, "--create", "all_fours", "--players", "2", "--bots",
                         "--name", "Ann", "--record", str(record)], str(tmp_path))
        b, r = _beg_through_a_game(person)
        begged, ran = begged or b, ran or r
        assert person.proc.wait(30) == 0
        verdict = verify(json.loads(record.read_text()))
        assert verdict["valid"] and verdict["finished"], verdict
        moves = [m for h in json.loads(record.read_text())["hands"] for m in h["moves"]]
        assert b <= ("beg" in {m.get("choice") for m in moves}) and r <= ("run" in {m.get("choice") for m in moves})
        if begged and ran:
            break
    assert begged and ran


def _beg_through_a_game(person: Person) -> tuple[bool, bool]:
    """Play a game at the terminal, begging whenever the person may and running the cards whenever
    the bot begs; (begged and saw the dealer's answer, ran the cards and saw the card set aside)."""
    begged = ran = False
    while person.read_until(r"move> $", r"record written to") == r"move> $":
        menu = person.seen.rsplit("your move:", 1)[1]
        if "1 stand  2 beg" in menu:
            person.say("beg")
            if person.read_until(r"move> $", r"record written to") == r"record written to":
                break  # the dealer's gift won the game
            assert re.search(r"begging: Ann \(you\) beg, Bot 2 (give a point|run the cards)", person.seen), person.seen
            begged = True
            person.say("1")
        elif "run the cards" in menu:
            assert re.search(r"begging: Bot \d beg", person.seen), person.seen
            person.say("run")
            if person.read_until(r"move> $", r"record written to") == r"record written to":
                break
            assert re.search(r"set aside \S+", person.seen), person.seen  # the turned card, seen by all
            ran = True
            person.say("1")
        else:
            assert "stand" not in menu and "give a point" not in menu, menu
            person.say("1")
    return begged, ran


def test_the_terminal_table_in_french(server, tmp_path):
    """`play --lang fr`: the table, its menu and the referee's refusal in French; the code and the
    typed moves are the same as in English."""
    person = Person(["--server", server.target, "--create", "four_point_ne_wisconsin", "--bots", "--name", "Anne",
                     "--lang", "fr"], str(tmp_path))
    person.read_until(r"coup> $")  # every line follows the language, the prompt too
    assert "Smear à quatre points du nord-est du Wisconsin" in person.seen and "votre main : " in person.seen
    assert re.search(r"table \w+ ouverte : ", person.seen)
    hand = person.seen.rsplit("votre main : ", 1)[1].split("\n", 1)[0]
    assert re.findall(r"(?:10|[2-9ARDV])[♠♥♦♣]", hand) and not re.search(r"[KQJ][♠♥♦♣]", hand), hand  # the French letters
    assert "scores : " in person.seen and "votre coup : " in person.seen
    menu = person.seen.rsplit("votre coup :", 1)[1]
    person.say("xyz")  # not a move: what may be typed, in French, with examples from this menu
    assert person.read_until(r"tapez un numéro de la liste, ou un coup comme la liste l'écrit \(")
    person.read_until(r"coup> $")
    person.seen += "votre coup :" + menu  # the menu as it was, for what follows
    if "passe" in person.seen.rsplit("votre coup :", 1)[1]:  # bidding: a card now is refused, in French
        person.say("AS")
        assert person.read_until(r"refusé \(WRONG_PHASE\) : la donne attend une enchère ou un passe, pas une carte jouée")
        person.say("Passe")  # moves typed in the table's language, as its menu says them
        assert person.read_until(r"Anne \(vous\) passe")
    else:
        person.say("bid 9")
        assert person.read_until(r"refusé \((WRONG_PHASE|WRONG_TURN)\) : ")
    person.proc.kill()


def test_names_are_text_at_the_terminal_never_markup_or_escapes(tmp_path):
    """A player named like rich markup is shown as typed; a name holding terminal escapes (refused
    now, but a store written before may hold one) reaches no watcher's screen as an escape."""
    import sqlite3

    import grpc
    from referee_harness import fails

    db = str(tmp_path / "referee.sqlite3")
    srv = ServerThread(db, limits=Limits(bot_seconds=0.01))
    c = srv.client()
    made = c.create_table("cutthroat_canadian", players=3, seed="names")
    for bad in ("\x1b[2JEve", "Eve\u202e", "E\u200bve", "Eve\x07", "Eve\u2066x"):
        fails(lambda: c.join(made.table_id, 1, name=bad), grpc.StatusCode.INVALID_ARGUMENT, "BAD_NAME")
    zoe = c.join(made.table_id, 2, name="Zoe\u0301")
    assert zoe.table.seat_names[2] == "Zo\u00e9"  # NFC
    me = c.join(made.table_id, 0, name="[/bogus] hi")
    srv.stop()
    with sqlite3.connect(db) as conn:  # as a server from before the checks stored it
        conn.execute("UPDATE tokens SET name = ? WHERE table_id = ? AND seat = 2", ("\x1b]0;owned\x07\x1b[2JZoe",
                                                                                     made.table_id))
    srv = ServerThread(db, limits=Limits(bot_seconds=0.01))
    try:
        srv.client(made.host_token).add_bots(made.table_id)
        watcher = Person(["--server", srv.target, "--table", made.table_id, "--watch"], str(tmp_path))
        players = [srv.client(me.token), srv.client(zoe.token)]
        stop = threading.Event()

        def play() -> None:  # seats 0 and 2 play their first legal move whenever they must
            while not stop.is_set():
                for player in players:
                    try:
                        v = player.view(made.table_id)
                        if v.finished:
                            return
                        if v.legal_moves:
                            player.submit(made.table_id, v.legal_moves[0], v.version)
                    except grpc.RpcError:
                        pass
                time.sleep(0.02)
        threading.Thread(target=play, daemon=True).start()
        watcher.read_until(r"\[/bogus\] hi (plays|passes|bids|discards)", seconds=60)
        watcher.read_until(r"\ufffd\]0;owned\ufffd\ufffd\[2JZoe (plays|passes|bids|discards)", seconds=60)
        assert "\x1b" not in watcher.seen and watcher.proc.poll() is None
        stop.set()
        watcher.proc.kill()
    finally:
        srv.stop()


def test_the_terminal_tells_each_trick_and_hand_before_it_asks_for_a_move(server, tmp_path):
    """In a real terminal (a pty, so the client sees a TTY and colours its output), every time the person
    is asked for a move, the tricks already taken in this hand and the last hand's score have been told:
    the person who wins a trick and must lead again reads who took it first, not after typing."""
    import pty

    made = server.client().create_table("cutthroat_canadian", {}, 2, seed="pty-narration")
    host = server.client(made.host_token)
    master, slave = pty.openpty()
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path), PYTHONUNBUFFERED="1", COLUMNS="120", LANG="C.UTF-8",
               LANGUAGE="", TERM="xterm-256color")
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "play", "--server", server.target, "--table",
                             made.table_id, "--seat", "1", "--name", "Ann"], cwd=ROOT, env=env,
                            stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    ansi = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
    seen, prompts, bots = "", 0, False
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and prompts < 40:
            try:
                chunk = os.read(master, 4096).decode("utf-8", "replace")
            except OSError:
                break
            seen += ansi.sub("", chunk)
            if not bots and "you are seat 1" in seen:  # seated: the bots take the other seat
                host.add_bots(made.table_id, "random")
                bots = True
            if not seen.endswith("move> "):
                continue
            # Asked for a move: the referee's game is waiting for this seat, so its state is still.
            taken = len(host.view(made.table_id).current.tricks)
            hand_text = seen.rsplit("deals", 1)[-1]
            told = hand_text.count("takes the trick")
            assert told == taken, f"{taken} tricks taken, {told} told:\n{seen[-1500:]}"
            hand = seen.count("deals")
            assert seen.count("scored") >= hand - 1, f"hand {hand}: a scored hand was not told:\n{seen[-1500:]}"
            prompts += 1
            os.write(master, b"1\n")
        assert prompts >= 10, seen[-2000:]
    finally:
        proc.kill()
        proc.wait(10)
        os.close(master)
