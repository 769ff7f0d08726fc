"""The web client in a real headless Chromium (Debian's `chromium`, driven by Playwright) against a
real referee on 127.0.0.1. `make test` installs the browser where it can (apt); where it cannot,
these tests skip and say why, unless SMEAR_REQUIRE_BROWSER=1 (CI) makes that a failure."""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from smear_referee.limits import Limits

from conftest import ROOT
from referee_harness import ServerThread

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
    def pick(selector: str):
        found = page.locator(selector)
        return found.nth(rng.randrange(found.count()))
    if phase == "bidding":
        pick("#actions button.bid").click()
    elif phase == "trump":
        pick("#actions button.trump").click()
    elif phase == "discard":
        need = int(page.inner_text("#discard").split()[1])
        for i in range(need):
            page.locator("#hand .card").nth(i).click()
        page.click("#discard")
    else:
        pick("#hand .card:not(.unavailable)").click()
    page.wait_for_function("v => document.querySelector('main').dataset.version !== v || "
                           "document.querySelector('#message.refusal')", arg=version, timeout=30_000)


def test_one_person_plays_a_whole_game_against_bots_in_the_browser(browser, server, tmp_path):
    page = browser.new_context(accept_downloads=True).new_page()
    page.goto(server.url)
    page.select_option("#rules", "four_point_ne_wisconsin")
    page.fill("#opt-widow", "2")
    page.click("#create")
    page.fill("#name", "Ann")
    page.click("button.seat[data-seat='0']")
    page.click("#bots")
    table_url = page.url
    assert "/t/" in table_url

    # A refusal in words: a card clicked while the hand waits for bids.
    assert my_turn_or_over(page) == "bidding"
    page.click("#hand .card")
    refusal = page.wait_for_selector("#message.refusal")
    assert refusal.get_attribute("data-reason") == "WRONG_PHASE"
    assert "waiting for a bid or a pass, not a play" in refusal.inner_text()

    rng, reloaded, refused_card = random.Random(7), False, False
    while (state := my_turn_or_over(page)) != "over":
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
    assert reloaded
    assert "Winner:" in page.inner_text("#game-over")

    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["rules"] == "four_point_ne_wisconsin" and record["seed"]
    out = subprocess.run([sys.executable, "-m", "smear_dsl", "verify", str(path)], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_house_rules_show_located_errors_then_play(browser, server):
    page = browser.new_page()
    page.goto(server.url)
    page.select_option("#rules", "")
    page.fill("#house", "extends: four_point_ne_wisconsin\nname: Our house\nwinning_score: eleven\n")
    page.click("#create")
    diag = page.wait_for_selector(".diagnostic")
    assert "house.yaml:3:" in diag.inner_text()
    page.fill("#house", "extends: four_point_ne_wisconsin\nname: Our house\n")
    page.click("#create")
    page.wait_for_selector("button.seat")
    assert "/t/" in page.url
    page.click("button.seat[data-seat='1']")
    page.click("#bots")
    assert my_turn_or_over(page) in ("bidding", "play", "discard", "trump")
    info = server.client().list_tables()[0]
    assert info.house_rules and info.title == "Our house"
