"""The match page in a real browser: an open team table tags each seat with its team (as the lobby
does, and as the page keeps doing once the match runs)."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import assert_fits_width, table_shot
from .test_match_flow import create_match, sign_up, wait_live

pytestmark = pytest.mark.e2e


def seat_tags(page):
    return page.locator("#seats li .team-of")


def test_an_open_two_against_two_table_tags_each_seat_with_its_team(new_page):
    """An open 2 against 2 table listed its seats bare, with only a sentence below saying who
    partners whom: each seat now reads "· team A" / "· team B", the letters the sentence, the lobby's
    open tables and the Yokai board use, before the start and after it."""
    # rules: Yokai Battle, team play: team-mates sit across the table (seats 1 and 3, 2 and 4)
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    alice = f"alice-{uuid.uuid4().hex[:6]}"
    sign_up(page, alice)
    create_match(page, {"teams": True}, game="yokai", seats=4)
    wait_live(page)
    expect(page.get_by_test_id("table-teams")).to_contain_text("Seats 1 and 3 (team A) play together against seats 2 and 4 (team B).")
    expect(seat_tags(page)).to_have_text(["· team A", "· team B", "· team A", "· team B"])
    expect(page.locator("#seats li").first).to_have_text(re.compile(rf"^{alice} \(you\) · team A"))
    table_shot(page, "open-team-table-seats")
    page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_width(page)
    table_shot(page, "open-team-table-seats-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    for _ in range(3):
        page.get_by_role("button", name="Add bot").click()
        wait_live(page)
    page.get_by_role("button", name="Start").click()
    wait_live(page)
    expect(page.locator("#status-match")).to_have_text("active")
    # once it runs the tags stay, beside the badges, and agree with the board's team names
    expect(seat_tags(page)).to_have_text(["· team A", "· team B", "· team A", "· team B"])
    expect(page.locator("#board")).to_contain_text("Team A")
    table_shot(page, "running-team-table-seats")
