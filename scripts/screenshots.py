"""Take the README's screenshots of the web client (docs/img/*.png) in headless Chromium.

Usage: python scripts/screenshots.py [--chromium /usr/bin/chromium] [--only club]
A referee is started on a temporary SQLite file; a few tables are opened and played by the
server's bots so the lobby, a table mid-hand, a refusal and the replay viewer have something to show.
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from smear_referee.app import ServerThread
from smear_referee.clients.client import Client
from smear_referee.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def finished_table(srv: ServerThread) -> str:
    """A short game played to its end by bots (for the replay viewer and the lobby)."""
    lobby = Client(srv.target)
    made = lobby.create_table("cutthroat_canadian", players=3, seed="screenshot-replay", hand_limit=2)
    Client(srv.target, made.host_token).add_bots(made.table_id)
    while not lobby.table(made.table_id).finished:
        time.sleep(0.05)
    return made.table_id


def sheets_side_by_side(browser) -> None:
    """The English and the French rules sheet of the seed variant, side by side (docs/img/rules_en_fr.png)."""
    import html as _html

    from smear_dsl.language.load import load_spec
    from smear_dsl.sheets.explain import render
    spec = load_spec("four_point_ne_wisconsin")
    frames = "".join(f'<iframe srcdoc="{_html.escape(render(spec, "html", lang=lang))}"></iframe>' for lang in ("en", "fr"))
    page = browser.new_context(viewport={"width": 1500, "height": 1250}).new_page()
    page.set_content("<style>body{margin:0;display:flex;gap:8px;background:#ccc}iframe{flex:1;height:1250px;"
                     "border:0;background:#fff}</style>" + frames)
    page.wait_for_timeout(300)
    page.screenshot(path=OUT / "rules_en_fr.png")


def three_seats(browser, srv: ServerThread) -> None:
    """A table for three (each for themselves) in the play, a few tricks in (docs/img/table3.png)."""
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(srv.url)
    page.select_option("#rules", "cutthroat_canadian")
    page.select_option("#players", "3")
    page.click("#create")
    page.fill("#name", "Ann")
    page.click("button.seat[data-seat='0']")
    page.wait_for_selector("#hand")
    page.click("#bots")
    for _ in range(60):  # bid, then play until a trick is on the felt at this seat's turn
        wait_for_turn(page)
        if page.get_attribute("main", "data-phase") == "play" and page.locator(".felt .played:not(.old)").count() \
                and page.locator("#log li").count() > 8:
            break
        version = page.get_attribute("main", "data-version")
        target = page.locator("#actions button").last if page.get_attribute("main", "data-phase") != "play" \
            else page.locator("#hand .card:not(.unavailable)").first
        target.click()
        page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)
    page.locator("section.board").screenshot(path=OUT / "table3.png")


def director(browser, srv: ServerThread) -> None:
    """A tournament director's page after starting a round: standings, seat slips (docs/img/director.png)."""
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(f"{srv.url}tournament")
    page.fill("#t-name", "Thursday club")
    page.fill("#t-entrants", "Ann\nBea\nCal\nDee\nEd\nFay\nGus\nHal")
    page.fill("#t-rounds", "3")
    page.click("#t-create")
    page.click("#start-round")
    page.wait_for_selector(".slip")
    page.screenshot(path=OUT / "director.png", full_page=True)


def club(browser, srv: ServerThread) -> None:
    """A club's page after two games of its members: the ladder and a member's chart (docs/img/club.png)."""
    import threading

    import grpc

    from smear_referee.api import referee_pb2 as pb
    from smear_referee.api import referee_pb2_grpc as pb_grpc
    from smear_referee.clients.client import play_seat
    page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    page.goto(f"{srv.url}club")
    page.fill("#c-name", "Friday club")
    page.click("#c-create")
    for i, name in enumerate(["Ann", "Bea", "Cal", "Dee", "Ed"]):
        page.fill("#c-member-name", name)
        page.click("#c-add-member")
        page.wait_for_function(f"() => document.querySelectorAll('a.member-link').length === {i + 1}")
    tokens = [a.get_attribute("href").split("#member=")[1] for a in page.query_selector_all("a.member-link")]
    club_id = page.url.rstrip("/").rsplit("/", 1)[1]
    clubs = pb_grpc.ClubStub(grpc.insecure_channel(srv.target))
    for g, seated in enumerate([[0, 1, 2, 3], [4, 0, 1, 2], [3, 4, 0, 1]]):
        opened = clubs.OpenClubTable(pb.OpenClubTableRequest(club_id=club_id, rules="four_point_ne_wisconsin",
                                                             hand_limit=3, seed=f"club-shot-{g}"),
                                     metadata=[("authorization", f"Bearer {tokens[seated[0]]}")])
        seats = [clubs.JoinClubTable(pb.JoinClubTableRequest(table_id=opened.table_id, seat=s),
                                     metadata=[("authorization", f"Bearer {tokens[m]}")]).token
                 for s, m in enumerate(seated)]
        players = [threading.Thread(target=play_seat, args=(Client(srv.target, tok), opened.table_id, "heuristic", s))
                   for s, tok in enumerate(seats)]
        for th in players:
            th.start()
        for th in players:
            th.join(300)
    page.reload()
    page.wait_for_selector("section.ladder tr[data-member='m0001'] button")
    page.click("section.ladder tr[data-member='m0001'] button")
    page.wait_for_selector("#c-chart svg circle")
    page.screenshot(path=OUT / "club.png", full_page=True)


def clock_and_stand_in(browser, srv: ServerThread) -> None:
    """A table with a turn clock running at your seat, and a bot standing in for Bob, who stepped
    away (docs/img/clock.png)."""
    page = browser.new_context(viewport={"width": 1100, "height": 940}).new_page()
    page.goto(srv.url)
    page.select_option("#rules", "four_point_ne_wisconsin")
    page.select_option("#clock", "30")
    page.click("#create")
    page.fill("#name", "Ann")
    page.click("button.seat[data-seat='0']")
    page.wait_for_selector("#hand")
    bob = browser.new_context().new_page()
    bob.goto(page.url)
    bob.fill("#name", "Bob")
    bob.click("button.seat[data-seat='1']")
    bob.click("#hand-over")  # Bob steps away: a bot plays his seat until he takes it back
    bob.wait_for_selector("#take-back")
    page.click("#bots")
    wait_for_turn(page)
    page.wait_for_selector(".seat.me #clock")
    page.wait_for_function("() => document.querySelector(\".seat[data-seat='1']\")?.innerText.includes('a bot plays')")
    time.sleep(3)  # the clock has counted down a little
    page.screenshot(path=OUT / "clock.png")


def wait_for_turn(page) -> None:
    page.wait_for_selector("main[data-my-turn='true']", timeout=60_000)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--only", choices=["club"], default=None, help="take only this screenshot")
    args = ap.parse_args()
    if args.only:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            srv = ServerThread(str(Path(tmp) / "referee.sqlite3"), limits=Limits(bot_seconds=0.05), web=0)
            try:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                {"club": club}[args.only](browser, srv)
                browser.close()
            finally:
                srv.stop()
        return
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerThread(str(Path(tmp) / "referee.sqlite3"), limits=Limits(bot_seconds=0.05), web=0)
        try:
            replayed = finished_table(srv)
            lobby = Client(srv.target)
            waiting = lobby.create_table("auction_pitch", players=4)
            lobby.join(waiting.table_id, 1, name="Marie")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
                page.goto(srv.url)
                page.select_option("#rules", "four_point_ne_wisconsin")
                page.fill("#opt-widow", "2")
                page.screenshot(path=OUT / "lobby.png", full_page=True)
                page.click("#create")
                page.fill("#name", "Ann")
                page.click("button.seat[data-seat='0']")
                page.click("#bots")
                wait_for_turn(page)
                while page.get_attribute("main", "data-phase") != "play":  # bid and discard through to play
                    phase = page.get_attribute("main", "data-phase")
                    version = page.get_attribute("main", "data-version")
                    if phase == "bidding":
                        bids = page.locator("#actions button.bid")
                        bids.nth(bids.count() - 1).click()
                    elif phase == "discard":
                        need = int(page.inner_text("#discard").split()[1])
                        for i in range(need):
                            page.locator("#hand .card").nth(i).click()
                        page.click("#discard")
                    else:
                        page.locator("#actions button").first.click()
                    page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)
                    wait_for_turn(page)
                # Play on until this seat must follow suit and cannot play everything (a card to refuse).
                for _ in range(40):
                    if page.locator("#hand .card.unavailable").count() and page.locator(".felt .played:not(.old) .card").count():
                        break
                    version = page.get_attribute("main", "data-version")
                    page.locator("#hand .card:not(.unavailable)").first.click()
                    page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)
                    wait_for_turn(page)
                page.screenshot(path=OUT / "table.png", full_page=True)
                page.locator("#hand .card.unavailable").first.click()
                page.wait_for_selector("#message.refusal")
                page.locator("#message").screenshot(path=OUT / "refusal.png")
                phone = page.context.new_page()  # the same browser profile: it holds the seat's token
                phone.set_viewport_size({"width": 390, "height": 844})
                phone.goto(page.url)
                phone.wait_for_selector("#hand .card")
                phone.screenshot(path=OUT / "phone.png", full_page=False)
                page.goto(f"{srv.url}replay/{replayed}")
                page.wait_for_selector("#where")
                for _ in range(9):
                    page.click("#next")
                page.screenshot(path=OUT / "replay.png", full_page=True)
                three_seats(browser, srv)
                director(browser, srv)
                club(browser, srv)
                clock_and_stand_in(browser, srv)
                sheets_side_by_side(browser)
                french = browser.new_context(viewport={"width": 1100, "height": 700}, locale="fr-FR").new_page()
                french.goto(f"{srv.url}t/{replayed}")
                french.wait_for_selector("h2")
                french.goto(srv.url)
                french.wait_for_selector("#tables")
                french.screenshot(path=OUT / "lobby_fr.png")
                browser.close()
        finally:
            srv.stop()
    print(f"screenshots written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
