"""Leaving and cancelling an open campaign in two real browsers (Debian's Chromium, the e2e suite's
live server): A creates, B joins from the open list, B's Leave asks first (declined: nothing
happens; accepted: B is back on the list, told so), A's page shows the free seat by itself; B joins
again, A cancels (asked first), and B's page says by whom without a reload, B's "You have joined"
no longer standing beside it. Then a running campaign: A starts a new one with B, B leaves during its
phase, at once (asked first, naming who takes B's characters: B resigns from the phase match), A's
page says so by itself (who left and when, the header's player count, the start's notice retired), A abandons it, and B's page says by whom. The self-refresh is slowed to ten minutes: every change reaches the other
page through the campaign's socket. Both pages are shot at 1280 and 390 px wide.
(docs/campaigns.md, "Leaving and cancelling", "Leaving a running campaign", "Pages")"""

import os
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS
from .test_match_flow import sign_up

pytestmark = pytest.mark.e2e

# The page's fallback self-refresh, slowed to ten minutes: what reaches the other page comes by the socket.
SLOW_REFRESH = "window.KamizaCampaignRefreshMs = 600000"
MORE_SHOTS = Path(os.environ.get("CAMPAIGN_SHOTS", SHOTS))  # where the 1280 / 390 px shots go too


def _player(new_page, prefix):
    page = new_page()
    page.context.add_init_script(SLOW_REFRESH)
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    sign_up(page, name)
    return page, name


def _answer(page, accept: bool, asked: list):
    page.once("dialog", lambda d: (asked.append(d.message), d.accept() if accept else d.dismiss()))


def test_a_player_leaves_and_the_creator_cancels_in_two_browsers(new_page):
    (a, alice), (b, bob) = _player(new_page, "lc-a-"), _player(new_page, "lc-b-")
    asked = []
    # A creates a campaign for two; B joins it from the open list
    a.goto("/campaigns/")
    a.get_by_test_id("campaign-form").get_by_role("button", name="Create the campaign").click()
    a.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    campaign_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    expect(a.get_by_test_id("campaign-leave")).to_have_count(0)
    b.goto("/campaigns/")
    b.locator(f'[data-testid=open-campaigns] tr[data-campaign-id="{campaign_id}"]').get_by_role("button", name="Join").click()
    b.wait_for_url(f"**/campaigns/{campaign_id}/")
    expect(b.get_by_test_id("campaign-cancel")).to_have_count(0)
    expect(a.get_by_test_id("campaign-standing")).to_have_text("Everyone has joined: waiting for the campaign to start.")

    # B's Leave asks first: declined, nothing happens
    _answer(b, False, asked)
    b.get_by_test_id("campaign-leave").click()
    expect(b.get_by_test_id("campaign-leave")).to_be_visible()
    assert b.url.endswith(f"/campaigns/{campaign_id}/") and asked[-1].startswith("Leave this campaign?")
    # accepted: B is back on the list, told so, and the campaign is open to B again
    _answer(b, True, asked)
    b.get_by_test_id("campaign-leave").click()
    b.wait_for_url("**/campaigns/")
    expect(b.locator(".messages")).to_contain_text("You have left the campaign")
    expect(b.locator(f'[data-testid=open-campaigns] tr[data-campaign-id="{campaign_id}"]')).to_be_visible()
    # and A's page shows the free seat by itself
    expect(a.get_by_test_id("campaign-standing")).to_have_text("Gathering the party: 1 of 2 players has joined.")
    expect(a.get_by_test_id("campaign-players")).to_contain_text("a free seat")
    expect(a.get_by_test_id("campaign-players")).not_to_contain_text(bob)

    # B joins again; A cancels, asked first
    b.locator(f'[data-testid=open-campaigns] tr[data-campaign-id="{campaign_id}"]').get_by_role("button", name="Join").click()
    b.wait_for_url(f"**/campaigns/{campaign_id}/")
    expect(b.locator(".messages")).to_contain_text("You have joined the campaign.")
    expect(a.get_by_test_id("campaign-cancel")).to_be_visible()
    _answer(a, True, asked)
    a.get_by_test_id("campaign-cancel").click()
    expect(a.locator(".messages")).to_contain_text("The campaign is cancelled.")
    assert asked[-1].startswith("Cancel this campaign?")
    # then B's page says it was cancelled, by whom, without a reload, and B's old message is gone
    expect(b.get_by_test_id("campaign-standing")).to_contain_text(f"Cancelled by {alice} on ")
    expect(b.locator(".messages")).to_have_count(0)
    expect(b.get_by_test_id("campaign-leave")).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    b.screenshot(path=str(SHOTS / "campaign-cancelled.png"), full_page=True)

    # a running campaign: A creates another, B joins, A starts it (chapter 1's Adventure Phase opens)
    a.goto("/campaigns/")
    a.get_by_test_id("campaign-form").get_by_role("button", name="Create the campaign").click()
    a.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    running_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    b.goto(f"/campaigns/{running_id}/")
    b.get_by_test_id("campaign-join").click()
    expect(a.get_by_test_id("campaign-start")).to_be_visible()  # B's join reached A's page by itself
    a.get_by_test_id("campaign-start").click()
    expect(a.get_by_test_id("campaign-continue")).to_be_visible()
    expect(a.locator(".messages")).to_contain_text("The campaign has begun")
    expect(a.get_by_test_id("campaign-subtitle")).to_have_text(re.compile(r"· 2 players$"))
    expect(b.get_by_test_id("campaign-continue")).to_be_visible()
    expect(a.get_by_test_id("campaign-leave")).to_have_text("Leave the campaign")
    # B leaves during the phase, at once: asked first, told they resign from the phase and who takes
    # the characters; declined, nothing happens
    _answer(b, False, asked)
    b.get_by_test_id("campaign-leave").click()
    assert asked[-1].startswith("Leave this campaign now? You resign from the phase being played")
    assert f"{alice} plays your characters from now on, in this phase and the next ones" in asked[-1]
    expect(b.get_by_test_id("campaign-leave")).to_be_visible()
    _answer(b, True, asked)
    b.get_by_test_id("campaign-leave").click()
    b.wait_for_url(re.compile(r"/campaigns/$"))
    expect(b.locator(".messages")).to_contain_text("You have left the campaign and resigned from the phase being played")
    # A's page says it by itself: A plays the whole party now
    expect(a.get_by_test_id("campaign-players")).to_contain_text(f"{alice} (you): Akira, Hattori, Hikaru, Tomoe")
    expect(a.get_by_test_id("campaign-players")).not_to_contain_text(bob)
    # and says who left, when and where, in the standing card and under the party; the header counts one
    # player now (it is outside the live fragment) and the start's "The campaign has begun…" is retired
    notice = a.get_by_test_id("campaign-left-notice")
    expect(notice).to_contain_text(f"{bob} left the campaign on ")
    expect(notice).to_contain_text("UTC, in chapter 1's Adventure Phase: you play their characters now.")
    expect(a.get_by_test_id("campaign-departures")).to_contain_text(f"{bob} left · chapter 1's Adventure Phase · ")
    expect(a.get_by_test_id("campaign-departures")).not_to_contain_text("left the campaign on")
    expect(a.get_by_test_id("campaign-subtitle")).to_have_text(re.compile(r"· 1 player$"))
    expect(a.get_by_text("The campaign has begun")).to_have_count(0)
    _shots([(a, "campaign-running-left-creator"), (b, "campaign-running-left-leaver")])
    b.goto(f"/campaigns/{running_id}/")
    # A abandons it, asked first; B's page says by whom, by itself
    _answer(a, True, asked)
    a.get_by_test_id("campaign-abandon").click()
    assert asked[-1].startswith("Abandon this campaign?")
    expect(a.locator(".messages")).to_contain_text("The campaign is abandoned.")
    expect(b.get_by_test_id("campaign-standing")).to_contain_text(f"Abandoned by {alice} on ")
    expect(b.get_by_test_id("campaign-standing")).to_contain_text("in chapter 1: it will not be played further.")
    expect(b.get_by_test_id("campaign-abandoned")).to_be_visible()
    expect(b.get_by_test_id("campaign-leave")).to_have_count(0)
    _shots([(b, "campaign-running-abandoned")])
    assert not a.console_errors and not b.console_errors, (a.console_errors, b.console_errors)


def _shots(pages):
    """Each page at 1280 and at 390 px wide (a phone), the whole page; back to 1280 after."""
    for where in {SHOTS, MORE_SHOTS}:
        where.mkdir(parents=True, exist_ok=True)
    for page, name in pages:
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            width_ok = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
            assert width_ok, f"{name} is wider than {width} px"
            for where in {SHOTS, MORE_SHOTS}:
                page.screenshot(path=str(where / f"{name}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
