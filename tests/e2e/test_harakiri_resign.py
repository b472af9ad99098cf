"""Resigning from a two-player Harakiri match in two real browsers (docs/games/harakiri.md,
"Resigning"): A's Resign asks first, naming who takes A's characters; A leaves, and B's page shows
by itself that B now plays the whole party and awaits B, while A's page says A left. Both pages
are shot at 1280 and 390 px wide."""

import os
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, server_side
from .test_match_flow import create_match, sign_up, wait_live

pytestmark = pytest.mark.e2e

MORE_SHOTS = Path(os.environ.get("HARAKIRI_RESIGN_SHOTS", SHOTS))


def _shoot(page, name):
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for folder in {SHOTS, MORE_SHOTS}:
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(folder / f"harakiri-resign-{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def _two_players_started(new_page):
    """Two signed-up players in their own browsers, seated at a started two-seat Harakiri match:
    (page A, page B, A's name, B's name, the match id)."""
    a, b = new_page(), new_page()
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    sign_up(a, alice)
    sign_up(b, bob)
    match_id = create_match(a, game="harakiri", seats=2)
    b.goto(f"/matches/{match_id}/")
    b.get_by_role("button", name=re.compile("^Join")).first.click()
    wait_live(b)
    a.reload()
    a.get_by_role("button", name="Start").click()
    wait_live(a)
    return a, b, alice, bob, match_id


def test_a_player_resigns_and_the_other_plays_on_with_the_whole_party(new_page):
    a, b, alice, bob, match_id = _two_players_started(new_page)
    expect(a.locator("#status-match")).to_have_text("active")
    b.reload()
    wait_live(b)
    # when A resigns: the question names who takes A's characters (declined first: nothing happens)
    asked = []
    a.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    a.get_by_test_id("resign").click()
    expect(a.locator("#status-match")).to_have_text("active")
    assert asked == [f"Resign this match? Your characters pass to {bob}; the party plays on without you. "
                     "This cannot be undone."]
    a.once("dialog", lambda d: d.accept())
    a.get_by_test_id("resign").click()
    wait_live(a)
    # then A is out and the match goes on; B's page says so by itself and B plays every character
    expect(a.get_by_test_id("resign")).to_be_hidden()
    expect(a.locator("#turn-alerts")).to_be_hidden()  # no "Notify me when it is my turn" for a player who left
    expect(b.locator("#turn-alerts")).to_be_visible()
    expect(b.locator('#log li[data-type="PlayerLeftParty"]')).to_have_count(1)
    expect(b.locator('#log li[data-type="PlayerLeftParty"]')).to_contain_text(f"pass to {bob}")
    expect(b.locator("#status-match")).to_have_text("active")
    expect(b.locator("#status-awaiting")).to_contain_text(bob)
    expect(b.get_by_test_id("resign")).to_be_visible()
    assert b.locator("#resign-form").get_attribute("data-confirm").startswith(
        "Resign this match? You are the last player at the table")
    _shoot(a, "leaver")
    _shoot(b, "heir")
    assert not [e for e in a.console_errors + b.console_errors if "favicon" not in e]


BACKDATE_PY = """import sys, datetime
import django
django.setup()
from games.eventstore.models import MatchEvent
from games.application import decisions
rows = MatchEvent.objects.filter(match_id=sys.argv[1])
rows.update(at=rows.order_by("-seq").values_list("at", flat=True).first()
            - datetime.timedelta(seconds=decisions.IDLE_TAKE_OVER_SECONDS + 60))
"""


def test_a_player_takes_over_an_absent_players_characters_after_a_day(new_page, live_server_env):
    a, b, alice, bob, match_id = _two_players_started(new_page)
    # the game waits on A (the party leader); B is offered nothing yet
    b.reload()
    wait_live(b)
    expect(b.locator("#status-awaiting")).to_contain_text(alice)
    expect(b.get_by_test_id("take-over")).to_have_count(0)
    # when nobody has moved for a day, B's page offers to take A's characters over, asking first
    server_side(live_server_env, BACKDATE_PY, match_id)
    b.reload()
    wait_live(b)
    expect(b.get_by_test_id("take-over-0")).to_have_text(f"Take over {alice}'s characters")
    _shoot(b, "take-over-offered")
    asked = []
    b.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    b.get_by_test_id("take-over-0").click()
    wait_live(b)
    assert asked[0].startswith(f"Take over {alice}'s characters? The game has waited on {alice} for over a day")
    expect(b.locator("#status-awaiting")).to_contain_text(bob)
    expect(b.locator('#log li[data-type="SeatConceded"]')).to_contain_text(f"{bob} takes over from {alice}")
    expect(b.get_by_test_id("take-over")).to_have_count(0)
    expect(a.locator("#status-seat")).to_contain_text("another player took over your characters")
    expect(a.locator("#seats .badge.resigned")).to_have_text("taken over")
    expect(a.get_by_test_id("last-move")).to_contain_text(f"Last move: {bob}", ignore_case=True)
    _shoot(a, "taken-over")
    _shoot(b, "took-over")
