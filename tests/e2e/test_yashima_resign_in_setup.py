"""Resigning during a three-master Yashima setup in real browsers (docs/games/yashima.md, "Resigning",
rules decision 23): the awaited master's player clicks Resign, the question says what leaving means in
the game's words, and the setup goes on at once with the next master, live on every page; the page of
the one who left shows their master out of the game and no Resign any more. At 1280 and 390 px."""

import random
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import assert_fits_width, table_shot
from .test_match_flow import create_match, sign_up, wait_live
from .test_yashima_board import SETTLED_JS, STATE_JS, play_one

pytestmark = pytest.mark.e2e

QUESTION = "Resign this match? Your master leaves the game and the other masters play on without you; this cannot be undone."
PANEL_JS = """(seat) => document.querySelector(`#board .ys-player[data-seat="${seat}"]`).textContent"""


def three_masters(new_page):
    """Three people, each in their own browser: seat 1 creates the match, seats 2 and 3 join, seat 1 starts."""
    pages = [new_page() for _ in range(3)]
    names = [f"{who}-{uuid.uuid4().hex[:6]}" for who in ("aoi", "botan", "chika")]
    for page, name in zip(pages, names):
        sign_up(page, name)
    match_id = create_match(pages[0], {}, game="yashima", seats=3)
    for page in pages[1:]:
        page.goto(f"/matches/{match_id}/")
        page.get_by_role("button", name="Join").click()
        wait_live(page)
        expect(page.locator("#status-seat")).to_contain_text("(seat")
    pages[0].get_by_role("button", name="Start").click()
    for page in pages:
        wait_live(page)
    return pages, names


def shots(page, name):
    """The page at 1280 and at 390 px wide (never wider than the screen), then back to 1280."""
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        assert_fits_width(page)
        table_shot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_awaited_master_resigns_during_the_setup_and_it_goes_on_with_the_next(new_page):
    (aoi, botan, chika), names = three_masters(new_page)
    # given seat 1 has picked a master and a kami through the board, and seat 2 (botan) is awaited
    aoi.wait_for_function(SETTLED_JS, timeout=30_000)
    play_one(aoi, aoi.evaluate(STATE_JS), random.Random(3), [])
    botan.wait_for_function(SETTLED_JS, timeout=30_000)
    assert botan.evaluate(STATE_JS)["phase"] == "setup" and botan.evaluate(STATE_JS)["awaiting"] == [1]
    # then botan's page offers Resign during the setup
    expect(botan.get_by_test_id("resign")).to_be_visible()
    shots(botan, "yashima-resign-setup-before")
    # when botan resigns, answering the question that says what it means
    asked = []
    botan.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    botan.get_by_test_id("resign").click()
    # then the setup goes on with seat 3 (chika), live on every page, and nobody waits on botan
    chika.wait_for_function(SETTLED_JS, timeout=30_000)
    assert asked == [QUESTION]
    assert chika.evaluate(STATE_JS)["awaiting"] == [2] and chika.evaluate(STATE_JS)["phase"] == "setup"
    expect(chika.locator("#board [data-master]").first).to_be_visible()  # chika's pick
    # and botan's page shows their master out of the game, with no Resign left to click
    botan.wait_for_function("() => window.KamizaMatch.doc.resignable === false")
    expect(botan.get_by_test_id("resign")).to_be_hidden()
    assert "resigned: out of the game" in botan.evaluate(PANEL_JS, 1)
    assert "Cards are dealt" not in botan.evaluate(PANEL_JS, 1)
    expect(aoi.locator("#log")).to_contain_text(f"{names[1]} resigns and leaves the game")
    shots(botan, "yashima-resign-setup-after-resigner")
    shots(chika, "yashima-resign-setup-after-next")
    # when chika picks, the boards begin with seat 1: botan's turn is passed over
    play_one(chika, chika.evaluate(STATE_JS), random.Random(4), [])
    aoi.wait_for_function(SETTLED_JS, timeout=30_000)
    legal = aoi.evaluate(STATE_JS)["legal"]
    assert legal and {cmd["type"] for cmd in legal} == {"choose_board"}
    shots(aoi, "yashima-resign-setup-after-boards")
    for page in (aoi, botan, chika):
        assert page.console_errors == [], page.console_errors
