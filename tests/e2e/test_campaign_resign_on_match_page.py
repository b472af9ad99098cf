"""A player who resigns on a campaign's phase match page (not through the campaign) leaves the
campaign at once, in two real browsers: A and B play a campaign; B opens the Adventure Phase's match
and resigns there; A's campaign page, open all along, says by itself that B resigned and left, when
and where, that A plays B's characters now, and counts one player; A's own Leave then asks as the
last player's. The self-refresh is slowed to ten minutes: the change comes by the sockets. Both pages
are shot at 1280 and 390 px wide (docs/campaigns.md, "Leaving a running campaign")."""

import re

import pytest
from playwright.sync_api import expect

from .test_campaign_leave_cancel import _answer, _player, _shots

pytestmark = pytest.mark.e2e


def test_a_resignation_on_the_match_page_shows_on_the_campaign_page_at_once(new_page):
    (a, alice), (b, bob) = _player(new_page, "rm-a-"), _player(new_page, "rm-b-")
    asked = []
    # given A's campaign for two, joined by B and started (chapter 1's Adventure Phase)
    a.goto("/campaigns/")
    a.get_by_test_id("campaign-form").get_by_role("button", name="Create the campaign").click()
    a.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    campaign_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    b.goto(f"/campaigns/{campaign_id}/")
    b.get_by_test_id("campaign-join").click()
    expect(a.get_by_test_id("campaign-start")).to_be_visible()
    a.get_by_test_id("campaign-start").click()
    expect(a.get_by_test_id("campaign-continue")).to_be_visible()
    # when B opens the phase's match from the campaign page and resigns there
    expect(b.get_by_test_id("campaign-continue")).to_be_visible()
    b.get_by_test_id("campaign-continue").click()
    b.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
    _answer(b, True, asked)
    b.get_by_test_id("resign").click()
    expect(b.get_by_test_id("resign")).to_be_hidden()
    assert asked[-1].startswith("Resign this match?")
    # then A's campaign page says by itself that B resigned and so left, and that A plays B's characters now
    notice = a.get_by_test_id("campaign-left-notice")
    expect(notice).to_contain_text(f"{bob} resigned from the phase's match and so left the campaign on ")
    expect(notice).to_contain_text("UTC, in chapter 1's Adventure Phase: you play their characters now.")
    expect(a.get_by_test_id("campaign-players")).to_contain_text(f"{alice} (you): Akira, Hattori, Hikaru, Tomoe")
    expect(a.get_by_test_id("campaign-players")).not_to_contain_text(bob)
    expect(a.get_by_test_id("campaign-subtitle")).to_have_text(re.compile(r"· 1 player$"))
    # and B's campaign page no longer seats B: it is a watcher's page, telling B what B did
    b.goto(f"/campaigns/{campaign_id}/")
    expect(b.get_by_test_id("campaign-left-notice")).to_contain_text(
        "You resigned from the phase's match and so left the campaign on ")
    expect(b.get_by_test_id("campaign-left-notice")).to_contain_text(f"{alice} plays your characters now.")
    expect(b.get_by_test_id("campaign-departures")).to_contain_text(
        "You resigned from the phase's match · chapter 1's Adventure Phase · ")
    expect(b.get_by_test_id("campaign-departures")).to_contain_text(f"· your characters to {alice}")
    expect(b.get_by_test_id("campaign-leave")).to_have_count(0)
    expect(b.get_by_test_id("campaign-continue")).to_have_text("Watch the current phase")
    # and A's own Leave now asks as the last player's (declined: nothing happens)
    _answer(a, False, asked)
    a.get_by_test_id("campaign-leave").click()
    assert asked[-1].startswith("Leave this campaign now? You resign from the phase being played and your seat goes, "
                                "and as its last player you end it")
    expect(a.get_by_test_id("campaign-abandon")).to_be_visible()
    _shots([(a, "campaign-resigned-on-match-page-creator"), (b, "campaign-resigned-on-match-page-watcher")])
    assert not [e for e in a.console_errors + b.console_errors if "favicon" not in e]
