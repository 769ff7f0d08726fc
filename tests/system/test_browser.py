"""The web client in a real headless Chromium (Debian's `chromium`, driven by Playwright) against a
real referee on 127.0.0.1. `make test` installs the browser where it can (apt); where it cannot,
these tests skip and say why, unless SMEAR_REQUIRE_BROWSER=1 (CI) makes that a failure."""
from __future__ import annotations

import base64
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import time

import pytest
from conftest import ROOT
from referee_harness import ServerThread

from smear_referee.clients.client import source_rules
from smear_referee.limits import Limits

CHROMIUM = os.environ.get("SMEAR_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        if os.environ.get("SMEAR_REQUIRE_BROWSER") == "1":
            pytest.fail("no chromium: `make test` installs Debian's chromium (apt-get install chromium)")
        pytest.skip("no chromium on this machine (`apt-get install chromium`, or set SMEAR_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    srv = ServerThread(str(tmp_path / "referee.sqlite3"), limits=Limits(bot_seconds=0.02), web=0)
    yield srv
    srv.stop()


def my_turn_or_over(page) -> str:
    """Wait until this seat must act or the game is over; which of the two."""
    page.wait_for_selector("main[data-my-turn='true'], #game-over", timeout=60_000)
    return "over" if page.query_selector("#game-over") else page.get_attribute("main", "data-phase")


def act(page, rng: random.Random) -> None:
    """One legal move by clicking, as a person would."""
    version = page.get_attribute("main", "data-version")
    phase = page.get_attribute("main", "data-phase")
    # An earlier refusal may still be on the page: only a new one may end the wait below early.
    refused_before = page.query_selector("#message.refusal") is not None

    def pick(selector: str):
        found = page.locator(selector)
        return found.nth(rng.randrange(found.count()))
    if phase == "bidding":
        pick("#actions button.bid").click()
    elif phase == "trump":
        pick("#actions button.trump").click()
    elif phase == "begging":
        pick("#actions button.choose").click()
    elif phase == "discard":  # the cards of the legal discard the table offers as an example
        for card in (page.get_attribute("#discard", "data-example") or "").split():
            page.click(f"#hand .card[data-card='{card}']")
        page.click("#discard")
    else:
        pick("#hand .card:not(.unavailable)").click()
    page.wait_for_function("([v, before]) => document.querySelector('main').dataset.version !== v || "
                           "(!before && document.querySelector('#message.refusal'))", arg=[version, refused_before],
                           timeout=30_000)


def act_by_keys(page, rng: random.Random) -> None:
    """One legal move by keys only, as a keyboard user would: a digit plays that card or presses that
    button; a discard picks its cards by digits, then Tab reaches the Discard button and Enter presses it."""
    version = page.get_attribute("main", "data-version")
    phase = page.get_attribute("main", "data-phase")
    if phase == "discard":
        hand = page.evaluate("() => [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card)")
        for card in (page.get_attribute("#discard", "data-example") or "").split():
            page.keyboard.press(str(hand.index(card) + 1))
        page.wait_for_function("(n) => document.querySelectorAll('#hand .card.selected').length === n",
                               arg=len((page.get_attribute("#discard", "data-example") or "").split()), timeout=5_000)
        for _ in range(40):  # Tab until the Discard button has the focus
            if page.evaluate("() => document.activeElement?.id") == "discard":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    elif phase == "play":
        legal = page.evaluate("() => [...document.querySelectorAll('#hand .card')].map(c => !c.classList.contains('unavailable'))")
        page.keyboard.press(str(rng.choice([i for i, ok in enumerate(legal) if ok]) + 1))
    else:
        buttons = page.locator("#actions button:not(:disabled)").count()
        page.keyboard.press(str(rng.randrange(min(buttons, 9)) + 1))
    page.wait_for_function("([v]) => document.querySelector('main').dataset.version !== v || document.querySelector('#game-over')",
                           arg=[version], timeout=30_000)


def sit_with_bots(browser, server, rules: str, fill: dict | None = None, players: str | None = None,
                  select: dict | None = None, page=None, name: str = "Ann"):
    """A page (a new one, or `page` of a context a test set up) that opened a table of `rules` in the
    lobby (`fill` typed and `select` chosen in its form), sat `name` at seat 0 and filled the rest with bots."""
    page = page or browser.new_context(accept_downloads=True).new_page()
    page.blocked = []  # what the server's Content-Security-Policy stopped (nothing, if the client keeps to it)
    page.on("console", lambda m: "Content Security Policy" in m.text and page.blocked.append(m.text))
    page.goto(server.url)
    page.select_option("#rules", rules)
    if players:
        page.select_option("#players", players)
    for selector, value in (fill or {}).items():
        page.fill(selector, value)
    for selector, value in (select or {}).items():
        page.select_option(selector, value)
    page.click("#create")
    page.fill("#name", name)
    page.click("button.seat[data-seat='0']")
    page.wait_for_selector("#hand")  # seated first, or the bots could take this seat
    page.click("#bots")
    return page


def test_one_person_plays_a_whole_game_against_bots_in_the_browser(browser, server, tmp_path):
    page = sit_with_bots(browser, server, "four_point_ne_wisconsin", {"#opt-widow": "2"})
    table_url = page.url
    assert "/t/" in table_url

    # The lobby's table has a random deal: a bot may bid the top bid before this seat speaks, so
    # the seat's first bidding turn may come in a later hand (it speaks first once every 4 hands).
    rng, reloaded, refused_card, refused_bid = random.Random(7), False, False, False
    while (state := my_turn_or_over(page)) != "over":
        if state == "bidding" and not refused_bid:
            page.click("#hand .card")  # a refusal in words: a card while the hand waits for bids
            refusal = page.wait_for_selector("#message.refusal")
            assert refusal.get_attribute("data-reason") == "WRONG_PHASE"
            assert "waiting for a bid or a pass, not a play" in refusal.inner_text()
            refused_bid = True
            continue
        if state == "play" and not refused_card and page.query_selector("#hand .card.unavailable"):
            page.click("#hand .card.unavailable")  # not following suit: the referee says why
            assert "Refused" in page.wait_for_selector("#message.refusal").inner_text()
            refused_card = True
            continue
        if state == "play" and not reloaded:
            hand = page.inner_text("#hand")
            page.reload()
            my_turn_or_over(page)
            assert page.inner_text("#hand") == hand and "Ann (you)" in page.inner_text(".seats-row")
            reloaded = True
        act(page, rng)
    assert reloaded and refused_bid
    assert "Winner:" in page.inner_text("#game-over")
    assert page.blocked == []  # the whole game under the CSP (no inline script or style) without a violation

    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["rules"] == "four_point_ne_wisconsin@1" and record["seed"]
    out = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", str(path)], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_all_fours_begging_by_buttons_to_the_end_of_a_game(browser, server, tmp_path):
    """The eldest hand's buttons are Stand and Beg, the dealer's Give a point and Run the cards;
    what each player chose and the cards a run sets aside are on the table for everyone."""
    page = sit_with_bots(browser, server, "all_fours", players="2")
    rng, begged, buttons = random.Random(3), False, set()
    while (state := my_turn_or_over(page)) != "over":
        if state == "begging":
            labels = tuple(sorted(b.inner_text() for b in page.query_selector_all("#actions button.choose")))
            buttons.add(labels)
            assert labels in {("Beg", "Stand"), ("Give a point", "Run the cards"), ("Run the cards",)}, labels
            if labels == ("Beg", "Stand") and not begged:
                version = page.get_attribute("main", "data-version")
                page.click("#actions button.choose[data-move='begs']")
                page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)
                page.wait_for_function("() => /Ann \\(you\\) begs · Bot 2 (gives a point|runs the cards)/"
                                       ".test(document.querySelector('#choices')?.innerText || '') || "
                                       "document.querySelector('#game-over')", timeout=30_000)
                begged = True
                continue
        act(page, rng)
    assert begged and ("Beg", "Stand") in buttons
    assert "Winner:" in page.inner_text("#game-over")
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    moves = [m for h in json.loads(path.read_text())["hands"] for m in h["moves"]]
    assert {"seat": 0, "action": "choose", "choice": "beg"} in moves
    out = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", str(path)], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_house_rules_show_located_errors_then_play(browser, server, tmp_path):
    page = browser.new_page()
    page.goto(server.url)
    page.select_option("#rules", "")
    page.fill("#house", "extends: four_point_ne_wisconsin\nname: Our house\nwinning_score: eleven\n")
    diag = page.wait_for_selector(".diagnostic")  # checked as it is typed, before any table exists
    assert "house.yaml:3:1" in diag.inner_text() and "unknown key `winning_score`" in diag.inner_text()
    assert "winning_score: eleven\n^" in diag.inner_text() and "hint:" in diag.inner_text()
    page.click("#create")
    page.wait_for_selector(".diagnostic")
    assert server.client().list_tables() == []
    fixed = tmp_path / "house.yaml"
    fixed.write_text("extends: four_point_ne_wisconsin\nname: Our house\n")
    page.set_input_files("#house-file", str(fixed))  # or uploaded from a file
    page.wait_for_selector("p.ok")
    page.click("#create")
    page.wait_for_selector("button.seat")
    assert "/t/" in page.url
    page.click("button.seat[data-seat='1']")
    page.wait_for_selector("#hand")  # seated first, or the bots could take this seat
    page.click("#bots")
    assert my_turn_or_over(page) in ("bidding", "play", "discard", "trump")
    info = server.client().list_tables()[0]
    assert info.house_rules and info.title == "Our house"


class Received:
    """Every response body a page received from the referee, read off Chromium's network layer
    (CDP), streams included chunk by chunk: what the page got, whatever its code did with it."""

    def __init__(self, context, page):
        self.cdp = context.new_cdp_session(page)
        self.bodies: dict[str, bytearray] = {}
        self.urls: dict[str, str] = {}
        self.unary: list[str] = []
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.dataReceived", self._data)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def _response(self, ev) -> None:
        url = ev["response"]["url"]
        if "/smear.referee.v1." not in url:
            return
        rid = ev["requestId"]
        self.urls[rid] = url
        self.bodies[rid] = bytearray()
        if ev["response"]["mimeType"].startswith("application/connect"):  # a stream: have its bytes as they come
            got = self.cdp.send("Network.streamResourceContent", {"requestId": rid})
            self.bodies[rid] += base64.b64decode(got.get("bufferedData", ""))

    def _data(self, ev) -> None:
        if ev["requestId"] in self.bodies and ev.get("data"):
            self.bodies[ev["requestId"]] += base64.b64decode(ev["data"])

    def _finished(self, ev) -> None:
        rid = ev["requestId"]
        if rid in self.urls and not self.bodies[rid]:
            try:
                body = self.cdp.send("Network.getResponseBody", {"requestId": rid})
            except Exception:  # a stream's body is not kept: it came through dataReceived
                return
            self.bodies[rid] += base64.b64decode(body["body"]) if body["base64Encoded"] else body["body"].encode()

    def messages(self) -> list[dict]:
        """Every message: unary JSON bodies, and each JSON envelope of the streams."""
        out = []
        for _rid, raw in self.bodies.items():
            if not raw:
                continue
            if raw[:1] in (b"{", b"["):
                out.append(json.loads(raw))
                continue
            i = 0
            while i + 5 <= len(raw):
                flags, n = struct.unpack(">BI", bytes(raw[i:i + 5]))
                out.append(json.loads(bytes(raw[i + 5:i + 5 + n]) or b"{}"))
                i += 5 + n
        return out


def cards_in(value, names: frozenset[str]) -> set[str]:
    """Every card of the deck (`names`) named anywhere in a message (the last hand's JSON parsed too). Exact names,
    not a pattern: a token or an id may begin like a joker's name ('BJ...')."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "lastHandJson":
                v = json.loads(v)
            found |= cards_in(v, names)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v, names)
    elif isinstance(value, str) and value in names:
        found.add(value)
    return found


def test_four_people_play_while_a_spectator_sees_only_public_cards(browser, server):
    """Four people (two by keys alone, two by clicks) play a whole game while a spectator watches and
    receives no card before it is played, in the stream or in the views it fetches."""
    made = server.client().create_table("four_point_ne_wisconsin", {"widow": 2}, seed="four-browsers",
                                        hand_limit=2)
    url = f"{server.url}t/{made.table_id}"
    players = []
    for seat in range(4):
        page = browser.new_context().new_page()
        page.goto(url)
        page.fill("#name", f"P{seat}")
        page.click(f"button.seat[data-seat='{seat}']")
        players.append(page)
    context = browser.new_context()
    watcher = context.new_page()
    received = Received(context, watcher)
    watcher.goto(url)
    watcher.click("#watch")
    watcher.wait_for_selector("#spectating")
    for seat, page in enumerate(players):  # table talk and reactions travel on the same stream
        page.fill("#chat-text", f"good luck from P{seat}")
        page.press("#chat-text", "Enter")
        page.press("#chat-text", "Escape")  # the chat box keeps the focus until Esc: then the digits play cards
        assert page.evaluate("() => document.activeElement === document.body")
    players[0].click("button.reaction[data-reaction='thumbs_up']")

    rng, by_keys = random.Random(4), set()
    end = time.monotonic() + 300
    while not watcher.query_selector("#game-over") and time.monotonic() < end:
        for seat, page in enumerate(players):  # P0 and P2 play by keys only, P1 and P3 by clicks
            if page.get_attribute("main", "data-my-turn") == "true" and not page.query_selector("#game-over"):
                if seat % 2 == 0:
                    by_keys.add(page.get_attribute("main", "data-phase"))
                    act_by_keys(page, rng)
                else:
                    act(page, rng)
        time.sleep(0.05)
    watcher.wait_for_selector("#game-over")
    assert "P0" in watcher.inner_text(".seats-row") and {"bidding", "play"} <= by_keys, by_keys

    record, complete = server.client(made.host_token).record(made.table_id)
    assert complete and len(record["hands"]) == 2
    # The cards played publicly by each version of the table (a version counts every move).
    played_by: list[set[str]] = [set()]
    for hand in record["hands"]:
        for m in hand["moves"]:
            played_by.append(played_by[-1] | ({m["card"]} if m["action"] == "play" else set()))
    public = played_by[-1]
    messages = received.messages()
    deck = frozenset(source_rules("four_point_ne_wisconsin", 4, (("widow", "2"),)).deck.name_of.values())
    assert len(messages) > 50  # the stream's events and the views fetched after them
    assert any("snapshot" in m for m in messages) and sum("move" in m for m in messages) >= 40  # the stream itself
    assert sum("chat" in m for m in messages) >= 5 and any("seats" in m for m in messages)  # talk and seats too
    for m in messages:
        view = m.get("snapshot") or (m if "tableId" in m and "phase" in m else None)
        version = int(view.get("version", 0)) if view else int(m["move"]["version"]) if "move" in m else None
        known = played_by[version] if version is not None else public
        assert cards_in(m, deck) <= known, \
            f"the spectator received {sorted(cards_in(m, deck) - known)} before they were played"
        current = view.get("current", {}) if view else {}
        assert "discarded" not in current and "discard" not in (view or {}) and "legalMoves" not in (view or {})
        assert not m.get("hand") and not m.get("handStarted", {}).get("yourCards")


def test_the_replay_viewer_steps_through_a_finished_game_face_up(browser, server, tmp_path):
    made = server.client().create_table("four_point_ne_wisconsin", {"widow": 2}, seed="replay", hand_limit=2)
    me = server.client().join(made.table_id, 0)
    server.client(made.host_token).add_bots(made.table_id)
    from referee_harness import play_against_bots
    play_against_bots(server, made.table_id, me.token, random.Random(9))
    record, _ = server.client(made.host_token).record(made.table_id)
    first = record["hands"][0]

    page = browser.new_page()
    page.goto(server.url)
    page.click(f"tr[data-table='{made.table_id}'] a")  # a finished table's lobby line opens its replay
    page.wait_for_selector("#where")
    assert "hand 1 of 2" in page.inner_text("#where") and "the deal" in page.inner_text("#where")
    for seat, dealt in enumerate(first["deal"]["hands"]):  # every seat's cards, face up
        shown = page.locator(f".seat[data-seat='{seat}'] .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        assert sorted(shown) == sorted(dealt)
    page.click("#next")
    m0 = first["moves"][0]
    named = server.client().table(made.table_id).seat_names[m0["seat"]]
    assert (f"Bot {m0['seat'] + 1}" if named.startswith("bot:") else named or f"Seat {m0['seat'] + 1}") in page.inner_text("#last")
    page.click("#next-hand")
    assert "hand 2 of 2" in page.inner_text("#where")
    page.keyboard.press("ArrowLeft")
    assert "hand 1 of 2" in page.inner_text("#where")
    page.wait_for_selector("#hand-result")

    # A record file opened from disk replays too.
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.goto(server.url + "replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#where")
    assert "Verdict: valid" in page.inner_text("main")


def test_a_director_runs_a_tournament_round_with_a_person_and_stand_in_bots(browser, server):
    director = browser.new_context().new_page()
    director.goto(server.url)
    director.click("text=run a tournament")
    director.fill("#t-name", "Thursday club")
    assert director.eval_on_selector("#t-rules", "s => s.value") == "four_point_ne_wisconsin"  # the seed variant first
    # The club's house rules, pasted and checked as they are typed, as in the lobby.
    director.select_option("#t-rules", "")
    director.fill("#t-house", "extends: four_point_ne_wisconsin\nname: Thursday house\nwinning_score: eleven\n")
    diag = director.wait_for_selector(".diagnostic")
    assert "house.yaml:3:1" in diag.inner_text() and "unknown key `winning_score`" in diag.inner_text()
    director.fill("#t-house", "extends: four_point_ne_wisconsin\nname: Thursday house\n")
    director.wait_for_selector("p.ok")
    director.select_option("#t-clock", "60")
    director.fill("#t-entrants", "Ann\nBea\nCal\nDee")
    director.fill("#t-rounds", "1")
    director.fill("#t-hands", "1")
    director.click("#t-create")
    director.wait_for_selector("#start-round")
    assert "Thursday club" in director.inner_text("h1")
    director.click("#start-round")
    slip = director.wait_for_selector(".slip")
    names = slip.inner_text()
    assert all(n in names for n in ("Ann", "Bea", "Cal", "Dee")) and "playing" in names

    # Ann opens her seat slip's link; bots stand in for the three others.
    rows = director.locator(".slip li")
    ann = next(i for i in range(rows.count()) if rows.nth(i).inner_text().startswith("Ann"))
    link = rows.nth(ann).locator("a.seat-link").get_attribute("href")
    for i in range(rows.count()):
        if i != ann:
            rows.nth(i).locator("button.stand-in").click()
            director.wait_for_selector("#t-message")
    player = browser.new_context().new_page()
    player.goto(link)
    assert "#seat=" not in player.url  # the token left the address bar for the browser's storage
    # The table names its seats after the entrants: Ann reads her own name, not "Seat 1 (you)".
    player.wait_for_function("() => /Ann \\(you\\)/.test(document.querySelector('.seats-row')?.innerText)")
    assert "Thursday house" in player.inner_text("h1")  # the house rules, at the entrants' table
    assert my_turn_or_over(player) != "over" and player.wait_for_selector(".seat.me #clock")  # the tournament's clock
    rng = random.Random(1)
    while my_turn_or_over(player) != "over":
        act(player, rng)
    director.wait_for_selector(".slip .tag:text('finished')", timeout=30_000)
    director.wait_for_selector("#standings td:text('Ann')")
    assert "1 of 1 tables finished" in director.inner_text(".round")


def test_a_dropped_connection_comes_back_to_the_same_seat(browser, tmp_path):
    """The referee goes away mid-hand and comes back on the same ports: the page says it is
    reconnecting, then shows the same seat and hand, and play goes on."""
    import socket
    ports = []
    for _ in range(2):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
    db = str(tmp_path / "referee.sqlite3")
    srv = ServerThread(db, port=ports[0], limits=Limits(bot_seconds=0.02), web=ports[1])
    made = srv.client().create_table("four_point_ne_wisconsin", {"widow": 0}, seed="dropped")
    page = browser.new_page()
    page.goto(f"{srv.url}t/{made.table_id}")
    page.fill("#name", "Ann")
    page.click("button.seat[data-seat='0']")
    page.wait_for_selector("#hand")  # seated: else the bots, added from here, could take seat 0 first
    srv.client(made.host_token).add_bots(made.table_id)
    my_turn_or_over(page)
    hand = page.inner_text("#hand")
    srv.stop()
    page.wait_for_selector("#message.refusal:has-text('reconnecting')", timeout=30_000)
    srv = ServerThread(db, port=ports[0], limits=Limits(bot_seconds=0.02), web=ports[1])
    try:
        page.wait_for_selector("#message:not(.refusal)", state="attached", timeout=30_000)
        my_turn_or_over(page)
        assert page.inner_text("#hand") == hand and "Ann (you)" in page.inner_text(".seats-row")
        act(page, random.Random(1))
    finally:
        srv.stop()


def test_the_client_works_against_the_referee_make_demo_starts(browser, tmp_path):
    """`make demo` at a terminal: the demo prints the web client's URL and keeps serving; its
    finished games are in the lobby and replay, and a new table can be opened and played."""
    import signal
    proc = subprocess.Popen([sys.executable, "-m", "smear_dsl", "demo", "--game", "cutthroat_canadian@3",
                             "--web", "0", "--serve", "--out", str(tmp_path / "demo")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, COLUMNS="200", PYTHONUNBUFFERED="1"))
    try:
        url = None
        for line in proc.stdout:
            if line.startswith("web client: "):
                url = line.split()[2]
            if "keeps serving" in line:
                break
        assert url and url.startswith("http://127.0.0.1:")
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("#tables tr[data-table]")
        page.click("#tables tr[data-table] a:text('replay')")
        page.wait_for_selector("#where")
        assert "Verdict: valid" in page.inner_text("main")
        page.goto(url)
        page.select_option("#rules", "cutthroat_canadian")
        page.click("#create")
        page.click("button.seat[data-seat='0']")
        page.wait_for_selector("#hand")  # seated first, or the bots could take this seat
        page.click("#bots")
        assert my_turn_or_over(page) in ("bidding", "play", "discard", "trump")
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0


def test_a_hand_played_with_the_table_in_french(browser, server):
    """A browser that prefers French gets the lobby and the table in French, the referee's refusal
    in French (its code unchanged), and the rules sheet of the table in French; a hand is played
    to its score that way."""
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.goto(server.url)
    assert page.inner_text("h1") == "Tables de Smear" and page.get_attribute("html", "lang") == "fr"
    assert page.input_value("#lang") == "fr"
    page.select_option("#rules", "four_point_ne_wisconsin")
    assert "Smear à quatre points" in page.inner_text("#rules")  # the rule file's own French name
    page.click("#create")
    page.wait_for_selector("#name")
    assert page.inner_text("h2") == "Prendre place" and page.get_attribute("#name", "placeholder") == "votre nom"
    page.fill("#name", "Anne")
    page.click("button.seat[data-seat='0']")
    page.wait_for_selector("#hand")
    page.click("#bots")
    rng, refused = random.Random(11), False
    while not page.query_selector(".results li"):  # until the first hand is scored
        state = my_turn_or_over(page)
        if state == "over":
            break
        if state == "bidding" and not refused:
            page.click("#hand .card")  # a card while the hand waits for a bid
            refusal = page.wait_for_selector("#message.refusal")
            assert refusal.get_attribute("data-reason") == "WRONG_PHASE"
            assert refusal.inner_text() == "Refusé : la donne attend une enchère ou un passe, pas une carte jouée"
            assert "Phase : enchères" in page.inner_text("#phase")
            assert {b.inner_text() for b in page.query_selector_all("#actions button.bid")} <= \
                {"passe", "enchère 2", "enchère 3", "enchère 4"}
            # The cards read as the French sheet writes them: R, D, V for king, queen, jack.
            faces = {(c.get_attribute("data-card")[:-1], c.query_selector(".rank").inner_text())
                     for c in page.query_selector_all("#hand .card")}
            letters = {"A": "A", "K": "R", "Q": "D", "J": "V", "T": "10"}
            assert all(shown == letters.get(code, code) for code, shown in faces), faces
            refused = True
            continue
        act(page, rng)
    assert refused
    scored = page.inner_text(".results li")
    assert "enchère" in scored and "scores" in scored and any(p in scored for p in ("Atout fort", "Atout faible", "Valet", "Jeu"))
    page.click("details.rules summary")
    sheet = page.frame_locator("iframe.rules-frame")
    assert sheet.locator("h1").inner_text() == "Smear à quatre points du nord-est du Wisconsin, version 1"
    assert "Le preneur entame le premier pli." in sheet.locator("body").inner_text()
    # Back to English from the picker: the same table, now in English.
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.querySelector('h1')?.innerText === 'Four Point Northeastern Wisconsin Smear, version 1'")
    assert "Play so far" in page.inner_text("main")
    context.close()


def test_names_reach_every_page_as_people_sit(browser, server):
    """Names live: Bob sitting down shows on Ann's page and a spectator's at once (no reload, no move
    played); the host's bots show on every page as they take the other seats, and the host's "fill
    with bots" button goes once the table is full."""
    ann = browser.new_context().new_page()
    ann.goto(server.url)
    ann.select_option("#rules", "four_point_ne_wisconsin")
    ann.click("#create")
    ann.fill("#name", "Ann")
    ann.click("button.seat[data-seat='0']")
    ann.wait_for_selector("#hand")
    table_url = ann.url
    watcher = browser.new_context().new_page()
    watcher.goto(table_url)
    watcher.click("#watch")
    watcher.wait_for_selector("#spectating")
    assert "Bob" not in ann.inner_text(".seats-row")
    bob = browser.new_context().new_page()
    bob.goto(table_url)
    bob.fill("#name", "Bob")
    bob.click("button.seat[data-seat='1']")
    bob.wait_for_selector("#hand")
    for page in (ann, watcher):
        page.wait_for_function("() => document.querySelector('.seats-row')?.innerText.includes('Bob')", timeout=5_000)
    assert "Ann" in bob.inner_text(".seats-row") and ann.query_selector("#bots")
    ann.click("#bots")
    for page in (bob, watcher):  # people count seats from 1: the bots sit in seats 3 and 4
        page.wait_for_function("() => /Bot 3/.test(document.querySelector('.seats-row')?.innerText) && "
                               "/Bot 4/.test(document.querySelector('.seats-row')?.innerText)", timeout=5_000)
    ann.wait_for_selector("#bots", state="detached", timeout=5_000)
    # Bob leaves (his page closes): within a heartbeat every page marks his seat away, and Ann may
    # hand it to a bot so the table does not stall.
    bob.context.close()
    ann.wait_for_function("() => document.querySelector(\".seat[data-seat='1']\")?.innerText.includes('away')", timeout=20_000)
    ann.click("button.hand-seat[data-hand-seat='1']")
    watcher.wait_for_function("() => document.querySelector(\".seat[data-seat='1']\")?.innerText.includes('a bot plays for now')",
                              timeout=5_000)


SHOTS = ROOT / "build" / "screenshots"  # the test's output folder: look at these after a run (git ignores build/)


def _overlap(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


@pytest.mark.parametrize("rules,players,phone", [("cutthroat_canadian", "2", False), ("cutthroat_canadian", "3", False),
                                                 ("four_point_ne_wisconsin", None, False), ("four_point_ne_wisconsin", None, True),
                                                 ("st_paul_schmier", None, False)])
def test_the_table_seats_everyone_around_the_felt(browser, server, rules, players, phone):
    """You sit at the bottom, the next seat on your left (play goes clockwise), a partner across; no
    seat hides another or leaves the felt, on a desktop or a phone; the scoreboard names the partners.
    The screenshots go to build/screenshots for a person to look at."""
    page = sit_with_bots(browser, server, rules, players=players)
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.querySelectorAll('.felt .seat').length > 1 && "
                           "![...document.querySelectorAll('.felt .seat b')].some(b => /^Seat /.test(b.innerText))")
    # One reading of the page (it is drawn again at every event): the felt, each seat's box, name and side.
    seen = page.evaluate("""() => {
        const rect = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; };
        return {felt: rect(document.querySelector('.felt')), board: document.querySelector('#scoreboard').innerText,
                seats: [...document.querySelectorAll('.felt .seat')].map((el) => ({seat: Number(el.dataset.seat), box: rect(el),
                  name: el.querySelector('b').innerText.replace(' (you)', ''), side: el.className.match(/side-(\\d+)/)[1]}))};
    }""")
    felt, board = seen["felt"], seen["board"]
    boxes = {x["seat"]: x["box"] for x in seen["seats"]}
    names = {x["seat"]: x["name"] for x in seen["seats"]}
    sides = {x["seat"]: x["side"] for x in seen["seats"]}
    n = len(boxes)
    mid = lambda b: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)  # noqa: E731
    cx = felt["x"] + felt["width"] / 2
    assert mid(boxes[0])[1] == max(mid(b)[1] for b in boxes.values()) and abs(mid(boxes[0])[0] - cx) < 5  # you: bottom
    if n > 2:
        assert mid(boxes[1])[0] < cx and mid(boxes[n - 1])[0] > cx  # the next seat on your left, the last on your right
    if n % 2 == 0:
        assert mid(boxes[n // 2])[1] == min(mid(b)[1] for b in boxes.values())  # across the table
    for s, b in boxes.items():
        assert felt["x"] <= b["x"] and b["x"] + b["width"] <= felt["x"] + felt["width"], f"seat {s} leaves the felt"
        assert not any(_overlap(b, o) for t, o in boxes.items() if t != s), f"seat {s} hides another"
    for s in range(n):  # partners share a colour and a place on the scoreboard: "Ann & Bot 3 0 — Bot 2 & Bot 4 0"
        mates = [names[t] for t in range(n) if sides[t] == sides[s]]
        assert " & ".join(mates) in board, (board, mates)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"table-{n}-seats{'-phone' if phone else ''}.png", full_page=True)


AXE = ROOT / "clients" / "web" / "node_modules" / "axe-core" / "axe.min.js"


def test_a_whole_game_by_keys_with_a_screen_reader_told(browser, server):
    """No mouse: digits bid and play (the Nth card of the hand, the Nth button), ← → move between
    cards, Enter plays the one in focus; the live region says whose turn it is, each card and each
    trick, and a refusal is an alert."""
    page = sit_with_bots(browser, server, "cutthroat_canadian", players="3")
    page.evaluate("""() => { window.said = []; const box = document.querySelector('#announce');
        new MutationObserver(() => window.said.push(box.textContent)).observe(box, {childList: true, characterData:
        true, subtree: true}); }""")
    rng, refused, arrows = random.Random(3), False, False
    while (state := my_turn_or_over(page)) != "over":
        version = page.get_attribute("main", "data-version")
        if state == "play":
            legal = page.evaluate("() => [...document.querySelectorAll('#hand .card')].map(c => !c.classList.contains('unavailable'))")
            if not refused and not all(legal):  # a card that may not be played: the referee's reason, as an alert
                page.keyboard.press(str(legal.index(False) + 1))
                assert page.wait_for_selector("#message[role='alert']").inner_text().startswith("Refused")
                refused = True
                continue
            pick = rng.choice([i for i, ok in enumerate(legal) if ok])
            if not arrows:  # by arrows and Enter, once: focus the first card, move right to the chosen one
                page.keyboard.press("ArrowRight")
                for _ in range(pick):
                    page.keyboard.press("ArrowRight")
                assert page.evaluate("() => document.activeElement.dataset.card") == \
                    page.locator("#hand .card").nth(pick).get_attribute("data-card")
                page.keyboard.press("Enter")
                arrows = True
            else:
                page.keyboard.press(str(pick + 1))
        else:
            buttons = page.locator("#actions button:not(:disabled)").count()
            page.keyboard.press(str(rng.randrange(min(buttons, 9)) + 1))
        page.wait_for_function("([v]) => document.querySelector('main').dataset.version !== v || document.querySelector('#game-over')",
                               arg=[version], timeout=30_000)
    said = " | ".join(page.evaluate("() => window.said"))
    assert refused and arrows
    assert "Your turn" in said and "takes the trick" in said and " plays " in said, said[:2000]


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)""")
    return found


def test_the_pages_pass_an_accessibility_check(browser, server):
    """axe-core (run in the page) finds nothing serious or critical on the lobby, a table in play with
    its rules open, the tournament form, a tournament's page, a club's form and page and a replay."""
    if not AXE.is_file():
        if os.environ.get("SMEAR_REQUIRE_BROWSER") == "1":
            pytest.fail("axe-core is not installed: `make test` installs it with the web client's npm packages")
        pytest.skip("axe-core is not installed (make installs it with the web client's npm packages)")
    page = browser.new_context(bypass_csp=True).new_page()  # to inject axe; the pages themselves keep to the CSP
    page.goto(server.url)
    page.wait_for_selector("#create")
    assert axe_violations(page) == []
    page.click("#create")
    page.fill("#name", "Ann")
    page.click("button.seat[data-seat='0']")
    page.wait_for_selector("#hand")
    page.click("#bots")
    my_turn_or_over(page)
    page.click("details.rules summary")
    page.wait_for_selector("iframe.rules-frame")
    assert axe_violations(page) == []
    page.goto(server.url + "tournament")
    page.wait_for_selector("#t-create")
    assert axe_violations(page) == []
    page.fill("#t-name", "Thursday club")
    page.fill("#t-entrants", "Ann\nBea\nCal\nDee")
    page.click("#t-create")
    page.wait_for_selector("#start-round")
    page.click("#start-round")
    page.wait_for_selector(".slip")
    assert axe_violations(page) == []
    page.goto(server.url + "club")  # a club: its form, then its page with a member added
    page.wait_for_selector("#c-create")
    assert axe_violations(page) == []
    page.fill("#c-name", "Thursday club")
    page.click("#c-create")
    page.fill("#c-member-name", "Ann")
    page.click("#c-add-member")
    page.wait_for_selector("a.member-link")
    page.click("#c-tournament summary")  # the director's club tournament form, open
    page.wait_for_selector("#c-t-create")
    assert axe_violations(page) == []
    lobby = server.client()
    made = lobby.create_table("cutthroat_canadian", players=2, seed="axe-replay", hand_limit=1)
    server.client(made.host_token).add_bots(made.table_id)
    deadline = time.monotonic() + 60
    while not lobby.table(made.table_id).finished and time.monotonic() < deadline:
        time.sleep(0.1)
    page.goto(f"{server.url}replay/{made.table_id}")
    page.wait_for_selector("#slider")
    assert axe_violations(page) == []


def test_play_again_seats_the_same_people_at_a_new_table(browser, server):
    """At the game's end Ann asks to play again: a new table with the same rules and options, Ann in her
    seat and the server's bot back in its own; Bob's page offers the same, and his click seats him at
    that table (not another), under his name. A spectator may watch the next game, not take a seat."""
    lobby = server.client()
    made = lobby.create_table("cutthroat_canadian", {}, 3, seed="play-again", hand_limit=1)
    links = [f"{server.url}t/{made.table_id}#seat={lobby.join(made.table_id, s, name=n).token}"
             for s, n in ((0, "Ann"), (1, "Bob"))]
    server.client(made.host_token).add_bots(made.table_id, "random")
    pages = []
    for link in links:
        page = browser.new_context().new_page()
        page.goto(link)
        page.wait_for_selector("#hand")
        pages.append(page)
    rng = random.Random(5)
    while not all(p.query_selector("#game-over") for p in pages):
        for p in pages:
            if p.query_selector("main[data-my-turn='true']") and not p.query_selector("#game-over"):
                act(p, rng)
        time.sleep(0.05)
    ann, bob = pages
    ann.click("#play-again")
    ann.wait_for_function(f"() => !location.pathname.includes('{made.table_id}') && document.querySelector('#hand')")
    new_id = ann.url.rsplit("/", 1)[1]
    bob.wait_for_selector("#next-open", timeout=10_000)  # Bob's page learns that a new game is open
    bob.click("#play-again")
    bob.wait_for_function(f"() => location.pathname.endsWith('{new_id}') && document.querySelector('#hand')")
    info = lobby.table(new_id)
    assert list(info.seat_names) == ["Ann", "Bob", "bot:random"] and info.rules == "cutthroat_canadian@1"
    assert dict(info.options) == dict(lobby.table(made.table_id).options) and not info.finished
    for page in (ann, bob):
        page.wait_for_function("() => /Ann/.test(document.querySelector('.seats-row')?.innerText) && "
                               "/Bob/.test(document.querySelector('.seats-row')?.innerText)")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.url}t/{made.table_id}")
    watcher.click("#watch")
    watcher.click("#watch-next")
    watcher.wait_for_function(f"() => location.pathname.endsWith('{new_id}')")


COUNT_MOTION = """
    window.moved = 0; window.sounds = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...a) { if (this.closest('.felt')) window.moved++; return animate.apply(this, a); };
    const Audio = window.AudioContext;
    window.AudioContext = function (...a) { window.sounds++; return new Audio(...a); };
"""


@pytest.mark.parametrize("reduced", [False, True])
def test_cards_move_unless_asked_not_to_and_sound_is_off_until_turned_on(browser, server, reduced):
    """Played cards travel from their seat (the Web Animations API); with prefers-reduced-motion nothing
    moves. Sound is off by default (no audio is even opened); turned on, it plays and the choice stays."""
    context = browser.new_context(reduced_motion="reduce" if reduced else "no-preference")
    context.add_init_script(COUNT_MOTION)
    page = sit_with_bots(browser, server, "cutthroat_canadian", page=context.new_page())
    assert page.inner_text("#sound") == "Sound: off"
    rng = random.Random(2)
    while my_turn_or_over(page) != "play":
        act(page, rng)
    for _ in range(3):  # a few tricks' worth of cards
        if my_turn_or_over(page) == "over":
            break
        act(page, rng)
    moved, sounds = page.evaluate("() => [window.moved, window.sounds]")
    assert sounds == 0
    assert moved == 0 if reduced else moved > 0, moved
    page.click("#sound")
    assert page.inner_text("#sound") == "Sound: on"
    if my_turn_or_over(page) != "over":
        act(page, rng)
        page.wait_for_function("() => window.sounds > 0", timeout=10_000)
    page.reload()
    page.wait_for_selector("#sound")
    assert page.inner_text("#sound") == "Sound: on"  # kept in this browser


def test_table_talk_is_text_rate_limited_moderated_and_not_in_the_record(browser, server):
    """Chat at a table: what Ann types reaches Bob's page as text (markup shown, never run), a reaction
    shows as a face and words; a spectator reads but speaks only when the host allows; the host can
    mute a seat; a seat saying too much is told to wait; nothing said is in the game's record."""
    import grpc

    ann = sit_with_bots(browser, server, "cutthroat_canadian", players="3")  # Ann hosts and sits; bots fill the rest
    table_id = ann.url.rsplit("/", 1)[1]
    spectator = browser.new_context().new_page()
    spectator.goto(f"{server.url}t/{table_id}")
    spectator.click("#watch")
    spectator.wait_for_selector("#chat-text")
    ann.fill("#chat-text", "<img src=x onerror=\"document.title='pwned'\"> hi all")
    ann.press("#chat-text", "Enter")
    spectator.wait_for_function("() => document.querySelector('#chat')?.innerText.includes('<img src=x')")
    assert spectator.locator("#chat img").count() == 0 and spectator.title() != "pwned"
    assert "Ann" in spectator.inner_text("#chat")
    ann.click("button.reaction[data-reaction='good_game']")
    spectator.wait_for_function("() => document.querySelector('#chat')?.innerText.includes('🤝 good game')")
    # Ann is half way through a line when the table redraws (a second spectator comes in): she keeps the
    # focus and her caret, and the rest of what she types joins the line.
    ann.evaluate("() => { window.redraws = 0; new MutationObserver(() => window.redraws++)"
                 ".observe(document.querySelector('main'), { childList: true, subtree: true, characterData: true }); }")
    ann.click("#chat-text")
    ann.keyboard.type("half a line")
    late = browser.new_context().new_page()
    late.goto(f"{server.url}t/{table_id}")
    late.click("#watch")
    ann.wait_for_function("() => window.redraws > 0")
    assert ann.evaluate("() => [document.activeElement.id, document.activeElement.selectionStart]") == ["chat-text", 11]
    ann.keyboard.type(" and the rest")
    ann.keyboard.press("Enter")
    spectator.wait_for_function("() => document.querySelector('#chat')?.innerText.includes('half a line and the rest')")
    spectator.fill("#chat-text", "may I?")
    spectator.press("#chat-text", "Enter")
    assert "spectators read the chat" in spectator.wait_for_selector("#message.refusal").inner_text()
    ann.check("#spectators-chat")
    ann.wait_for_timeout(300)
    spectator.fill("#chat-text", "thanks, host")
    spectator.press("#chat-text", "Enter")
    ann.wait_for_function("() => document.querySelector('#chat')?.innerText.includes('a spectator: thanks, host')")
    ann.check("#mute-0")  # the host mutes a seat (here her own): its lines are refused
    ann.wait_for_timeout(300)
    ann.fill("#chat-text", "still there?")
    ann.press("#chat-text", "Enter")
    assert ann.wait_for_selector("#message.refusal[data-reason='MUTED']")
    ann.uncheck("#mute-0")
    ann.wait_for_timeout(300)
    token = ann.evaluate(f"() => JSON.parse(localStorage.getItem('smear:table:{table_id}')).seat")
    me = server.client(token)  # the same seat through the API: at most Limits.chat_per_minute lines a minute
    with pytest.raises(grpc.RpcError) as e:
        for i in range(20):
            me.chat(table_id, f"line {i}")
    assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    record, _complete = me.record(table_id)
    assert "hi all" not in json.dumps(record) and "thanks, host" not in json.dumps(record)


def test_a_turn_clock_runs_out_and_the_house_bot_moves_then_a_bot_stands_in_and_is_sent_away(browser, server):
    """The turn clock, chosen in the lobby: the seat to act shows its time counting down; when Ann's
    runs out the house bot moves for her (the log says so, and the record annotates the move); she
    lets a bot play for her (every page shows it beside her name) and takes her seat back."""
    ann = sit_with_bots(browser, server, "four_point_ne_wisconsin", select={"#clock": "15"})
    watcher = browser.new_context().new_page()
    watcher.goto(ann.url)
    watcher.click("#watch")
    watcher.wait_for_selector("#spectating")
    assert my_turn_or_over(ann) != "over"
    clock = ann.wait_for_selector(".seat.me #clock", timeout=5_000)
    first = clock.inner_text()
    assert re.fullmatch(r"0:(1[0-5]|0\d)", first), first
    ann.wait_for_function("(was) => document.querySelector('#clock')?.innerText !== was", arg=first, timeout=5_000)
    assert watcher.wait_for_selector(".seat[data-seat='0'] #clock", timeout=5_000)  # a spectator sees whose time runs
    version = int(ann.get_attribute("main", "data-version"))
    ann.wait_for_function("() => /Ann \\(you\\)'s time ran out: the house bot/.test(document.querySelector('#log')?.innerText)",
                          timeout=25_000)
    assert int(ann.get_attribute("main", "data-version")) > version
    # Ann steps away: a bot plays for her, and every page says so beside her name.
    ann.click("#hand-over")
    ann.wait_for_selector("#take-back", timeout=5_000)
    watcher.wait_for_function("() => document.querySelector(\".seat[data-seat='0']\")?.innerText.includes('a bot plays for now')"
                              " && document.querySelector(\".seat[data-seat='0'] b\")?.innerText === 'Ann'", timeout=5_000)
    moved = int(ann.get_attribute("main", "data-version"))
    button = ann.query_selector("#take-back")
    ann.wait_for_function("(v) => Number(document.querySelector('main').dataset.version) > v + 8", arg=moved, timeout=30_000)
    # The page redraws at every move; the button she reaches for stays the same element (a button
    # swapped mid-click takes no click, and a bot plays fast).
    assert button.evaluate("(b) => b.isConnected"), "the take-back button was drawn anew while the bot played"
    ann.click("#take-back")
    ann.wait_for_selector("#hand-over", timeout=5_000)
    watcher.wait_for_function("() => !document.querySelector(\".seat[data-seat='0']\")?.innerText.includes('a bot plays')",
                              timeout=5_000)
    record = json.loads(ann.evaluate("""async () => {
        const id = location.pathname.split('/').pop();
        const token = JSON.parse(localStorage.getItem('smear:table:' + id)).seat;
        const r = await fetch('/smear.referee.v1.Referee/GetRecord', {method: 'POST',
          headers: {'content-type': 'application/json', authorization: 'Bearer ' + token},
          body: JSON.stringify({tableId: id})});
        return (await r.json()).recordJson;
    }"""))
    assert record["turn_seconds"] == 15
    assert [a["seat"] for a in record["annotations"] if a["by"] == "clock"] == [0]
    assert {a["seat"] for a in record["annotations"] if a["by"] == "bot"} >= {0, 1, 2, 3}  # the stand-in's moves too


def test_a_hand_of_cinch_in_slovak_names_the_rule_files_own_points(browser, server):
    """In Slovak: the cards show the Slovak sheet's rank letters, a refusal comes in Slovak, and the
    scored hand names Cinch's own points as its rule file translates them (Pravé pedro, Ľavé pedro)."""
    page = sit_with_bots(browser, server, "cinch", page=browser.new_context(locale="sk-SK").new_page(), name="Jana")
    assert page.input_value("#lang") == "sk"  # the language the browser asked for
    letters = {"A": "E", "K": "K", "Q": "D", "J": "J", "T": "10"}  # the Slovak sheet's (i18n rank letters)
    rng, refused = random.Random(5), False
    while not page.query_selector(".results li"):  # until the first hand is scored
        state = my_turn_or_over(page)
        if state == "over":
            break
        faces = {(c.get_attribute("data-card")[:-1], c.query_selector(".rank").inner_text())
                 for c in page.query_selector_all("#hand .card")}
        assert all(shown == letters.get(code, code) for code, shown in faces), faces
        if state == "bidding" and not refused:
            page.click("#hand .card")  # a card while the hand waits for a bid
            refusal = page.wait_for_selector("#message.refusal")
            assert refusal.get_attribute("data-reason") == "WRONG_PHASE"
            assert refusal.inner_text().startswith("Odmietnuté: ") and "bid" not in refusal.inner_text()
            refused = True
            continue
        act(page, rng)
    assert refused
    scored = page.inner_text(".results li")
    assert "Pravé pedro" in scored and "Ľavé pedro" in scored, scored
    assert "right pedro" not in scored and "left pedro" not in scored


def test_a_director_runs_a_club_whose_ladder_follows_every_game(browser, server):
    """Done means of issue 37: a director creates a club, invites four members by their links, they play three
    games at club tables (one with a guest, which counts in the season but rates nobody: issue 59), and the
    ladder page shows after each game what openskill computes from the club's export."""
    import threading

    import grpc

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.clients.client import Client, play_seat
    from smear_referee.club.export import verify_export
    from smear_referee.club.ratings import ordinal

    director = browser.new_context().new_page()
    director.goto(server.url)
    director.click("text=start a club")
    director.fill("#c-name", "Friday [i]club[/i] <b>")
    director.fill("#c-provisional", "2")  # a rating is provisional below two games
    director.click("#c-create")
    director.wait_for_selector("#c-add-member")
    assert director.inner_text("h1") == "Friday [i]club[/i] <b>"  # a name is data, never markup
    club_id = director.url.rstrip("/").rsplit("/", 1)[1]
    token = director.evaluate(f"() => JSON.parse(localStorage.getItem('smear:club:{club_id}')).director")
    names = ["Ann", "Bo", "Cy", "Di"]
    for i, name in enumerate(names):
        director.fill("#c-member-name", name)
        director.click("#c-add-member")
        director.wait_for_function(f"() => document.querySelectorAll('a.member-link').length === {i + 1}")
    links = [a.get_attribute("href") for a in director.query_selector_all("a.member-link")]
    assert all("#member=" in link for link in links)
    again = browser.new_context().new_page()  # the director's link opens the page as the director elsewhere
    again.goto(director.get_attribute("#c-director-link", "href"))
    again.wait_for_selector("#c-add-member")
    assert "#director=" not in again.url
    again.context.close()
    members = []
    for name, link in zip(names, links):
        page = browser.new_context().new_page()
        page.goto(link)
        page.wait_for_selector(f"header:has-text('you are {name}')")
        assert "#member=" not in page.url  # the token left the address bar for this browser's storage
        members.append(page)

    clubs = pb_grpc.ClubStub(grpc.insecure_channel(server.target))
    referee = pb_grpc.RefereeStub(grpc.insecure_channel(server.target))

    def game(n: int, seated: list[int], guest: bool) -> None:
        opener = members[seated[0]]
        opener.click("#c-open-table")
        opener.wait_for_selector(f"#c-tables li.club-table >> nth={0}")
        table_id = opener.get_attribute("#c-tables li.club-table", "data-table")
        tokens = {}
        for seat, m in enumerate(seated):
            page = members[m]
            page.wait_for_selector(f"li.club-table[data-table='{table_id}'] button.sit[data-seat='{seat}']")
            page.click(f"li.club-table[data-table='{table_id}'] button.sit[data-seat='{seat}']")
            page.wait_for_url(f"**/t/{table_id}")
            tokens[seat] = page.evaluate(f"() => JSON.parse(localStorage.getItem('smear:table:{table_id}')).seat")
        if guest:  # a guest sits at the club table as at any table: unrated
            tokens[len(seated)] = referee.JoinTable(pb.JoinTableRequest(table_id=table_id, seat=len(seated),
                                                                        name="Guest")).token
        players = [threading.Thread(target=play_seat, args=(Client(server.target, tok), table_id, "heuristic", n * 10 + s))
                   for s, tok in tokens.items()]
        for th in players:
            th.start()
        for th in players:
            th.join(300)
        for m in seated:  # back to the club's page
            members[m].goto(f"{server.url}club/{club_id}")

        # The ladder on the director's page is what openskill computes from the club's export, from scratch.
        exported = clubs.ExportClub(pb.ExportClubRequest(club_id=club_id), metadata=[("authorization", f"Bearer {token}")])
        seasons = []
        assert verify_export([json.loads(x) for x in exported.export_jsonl.splitlines()], ratings_out=seasons) == []
        want = {m: (ordinal(s), s.games) for m, s in seasons[-1]["four_point_ne_wisconsin"].items()}
        director.wait_for_function("(n) => document.querySelectorAll(\"section.ladder tr[data-member]\").length >= n",
                                   arg=len(want), timeout=15_000)
        director.wait_for_function(
            "(want) => Object.entries(want).every(([m, [rating, games]]) => { const r = document.querySelector("
            "`section.ladder tr[data-member='${m}']`); return r && Math.abs(parseFloat(r.children[2].innerText) - rating) < 0.051 && "
            "r.children[4].innerText === String(games); })", arg=want, timeout=15_000)

    before = None
    for n, (seated, guest) in enumerate([([0, 1, 2, 3], False), ([1, 2, 3], True), ([3, 0, 1, 2], False)]):
        game(n, seated, guest)
        director.wait_for_function(f"() => /games: {n + 1}/.test(document.querySelector('#c-seasons')?.innerText)",
                                   timeout=15_000)
        now = director.inner_text("section.ladder")
        assert (now == before) == guest  # the ladder moves with every game of members alone, not with the guest's
        before = now
    rows = director.query_selector_all("section.ladder tr[data-member]")
    games = {r.get_attribute("data-member"): int(r.query_selector_all("td")[4].inner_text()) for r in rows}
    assert games == {"m0001": 2, "m0002": 2, "m0003": 2, "m0004": 2}  # the game with a guest rated nobody
    assert "Guest" not in director.inner_text("section.ladder")
    assert "provisional" not in director.inner_text("section.ladder")  # everyone has two games or more
    director.click("section.ladder tr[data-member='m0002'] button")  # Bo's chart: one point per rated game
    director.wait_for_selector("#c-chart svg circle")
    assert len(director.query_selector_all("#c-chart svg circle")) == 2
    assert "games: 3" in director.inner_text("#c-seasons")


def test_a_club_tournament_from_the_club_page_rates_its_members(browser, server):
    """A director creates a club with house rules and a rating model of their choosing, opens a club tournament
    from the club's page with four members and a guest ticked or named, starts its round on the tournament's
    page; the game played at its table counts on the club's ladder for the house rules, under that model."""
    import threading

    import grpc

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.clients.client import Client, play_seat

    director = browser.new_context().new_page()
    director.goto(server.url + "club")
    director.fill("#c-name", "Saturday club")
    director.click("#c-rating summary")
    director.select_option("#c-model", "BradleyTerryFull")
    director.fill("#c-mu", "30")
    director.click("#c-house summary")
    director.fill("#c-house-name", "our_house")
    director.fill("#c-house-text", "extends: four_point_ne_wisconsin@1\nname: Saturday house\n")
    director.click("#c-create")
    director.wait_for_selector("#c-add-member")
    club_id = director.url.rstrip("/").rsplit("/", 1)[1]
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed"]):
        director.fill("#c-member-name", name)
        director.click("#c-add-member")
        director.wait_for_function(f"() => document.querySelectorAll('a.member-link').length === {i + 1}")
    assert director.input_value("#c-member-name") == ""  # emptied for the next name
    links = [a.get_attribute("href") for a in director.query_selector_all("a.member-link")]
    director.click("#c-tournament summary")
    director.fill("#c-t-name", "Saturday cup")
    director.select_option("#c-t-rules", "our_house")
    director.uncheck("#c-tournament input[data-member='m0005']")  # Ed sits this one out; a guest plays
    director.fill("#c-guests", "Gus")
    director.fill("#c-t-rounds", "1")
    director.fill("#c-t-hands", "1")
    time.sleep(3.5)  # the club page refreshes every 3 s: what was typed and ticked stays
    assert director.input_value("#c-guests") == "Gus"
    assert not director.is_checked("#c-tournament input[data-member='m0005']")
    director.click("#c-t-create")
    director.wait_for_selector("#start-round")
    assert "Saturday house" in director.inner_text("header")
    tid = director.url.rstrip("/").rsplit("/", 1)[1]
    director.click("#start-round")
    director.wait_for_selector(".slip")
    slips = director.evaluate(f"() => JSON.parse(localStorage.getItem('smear:tournament:{tid}')).slips[0]")
    assert len(slips) == 1 and len(slips[0]["tokens"]) == 4  # five entrants, four seats: one sits out
    table_id = slips[0]["tableId"]
    tokens = list(slips[0]["tokens"])
    # A member takes the seat the tournament kept for them from the club's page, by their own link (entrants
    # 0 to 3 are the members ticked, in order; 4 the guest).
    seat, entrant = next((x, e) for x, e in enumerate(slips[0]["seats"]) if e < 4)
    member = browser.new_context().new_page()
    member.goto(links[entrant])
    member.click(f"li.club-table[data-table='{table_id}'] button.own-seat[data-seat='{seat}']")
    member.wait_for_url(f"**/t/{table_id}")
    tokens[seat] = member.evaluate(f"() => JSON.parse(localStorage.getItem('smear:table:{table_id}')).seat")
    players = [threading.Thread(target=play_seat, args=(Client(server.target, tok), table_id, "heuristic", s))
               for s, tok in enumerate(tokens)]
    for th in players:
        th.start()
    for th in players:
        th.join(300)
    director.click("#t-club")  # back to the club, where the game now counts
    director.wait_for_function("() => /games: 1/.test(document.querySelector('#c-seasons')?.innerText)",
                               timeout=15_000)
    rows = director.query_selector_all("section.ladder[data-rules='our_house'] tr[data-member]")
    seated = {r.get_attribute("data-member") for r in rows}
    if 4 in slips[0]["seats"]:  # Gus, a guest, played: the game counts in the season but rates nobody
        assert seated == set()
    else:  # four members played it themselves: each is rated
        assert seated == {"m0001", "m0002", "m0003", "m0004"}
        assert all(r.query_selector_all("td")[4].inner_text() == "1" for r in rows)
    assert "Gus" not in director.inner_text("section.ladder")
    assert director.inner_text("#c-tournaments") == "Saturday cup"
    got = pb_grpc.ClubStub(grpc.insecure_channel(server.target)).GetClub(pb.GetClubRequest(club_id=club_id))
    assert (got.settings.model, got.settings.mu) == ("BradleyTerryFull", 30)  # what the form set is the club's
    assert [f.house_rules for f in got.rule_files] == [False, True]
