"""Leaving and cancelling an open campaign in two real browsers (Debian's Chromium, the e2e suite's
live server): A creates, B joins from the open list, B's Leave asks first (declined: nothing
happens; accepted: B is back on the list, told so), A's page shows the free seat by itself; B joins
again, A cancels (asked first), and B's page says by whom without a reload, B's "You have joined"
no longer standing beside it. (docs/campaigns.md, "Leaving and cancelling")"""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS
from .test_match_flow import sign_up

pytestmark = pytest.mark.e2e

FAST_REFRESH = "window.KamizaCampaignRefreshMs = 600"  # the open campaign's self-refresh, for the test


def _player(new_page, prefix):
    page = new_page()
    page.context.add_init_script(FAST_REFRESH)
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
    expect(a.get_by_test_id("campaign-standing")).to_have_text("Gathering the party: 1 of 2 players have joined.")
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
    assert not a.console_errors and not b.console_errors, (a.console_errors, b.console_errors)
