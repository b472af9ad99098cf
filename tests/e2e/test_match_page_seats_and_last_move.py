"""The match page in a real browser: an open team table tags each seat with its team (as the lobby
does, and as the page keeps doing once the match runs), and a solo Harakiri player's Last move box
names the player when its lines are the game's steps that answered the player's own decision."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import assert_fits_width, table_shot
from .test_match_flow import create_match, sign_up, wait_live

pytestmark = pytest.mark.e2e


# whether a badge is drawn on the line where its row's name begins: the badge's vertical middle lies
# within the first letter of the row's text, and that letter's middle within the badge
SAME_LINE_JS = """([row, badge]) => {
  const rowNode = document.querySelector(row);
  const walker = document.createTreeWalker(rowNode, NodeFilter.SHOW_TEXT, {acceptNode: (t) => t.data.trim() ? 1 : 3});
  const text = walker.nextNode(), at = text.data.search(/\\S/), range = document.createRange();
  range.setStart(text, at); range.setEnd(text, at + 1);
  const x = range.getBoundingClientRect(), y = document.querySelector(badge).getBoundingClientRect();
  const mid = (q) => (q.top + q.bottom) / 2;
  return mid(x) > y.top && mid(x) < y.bottom && mid(y) > x.top && mid(y) < x.bottom; }"""


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
    # and the player's own "to play" badge stays on the line of the name (it wrapped onto a line of its
    # own beside "alice-xxxxxx (you) · team A" at 1280 px), in the seat list and on the board's panel
    for name, badge in (("#seats li.me", "#seats li.me .badge"), (".yk-player.is-me .yk-pname", ".yk-player.is-me .badge")):
        expect(page.locator(badge)).to_have_text("to play")
        assert page.evaluate(SAME_LINE_JS, [name, badge]), name
    table_shot(page, "running-team-table-seats")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(SAME_LINE_JS, ["#seats li.me", "#seats li.me .badge"])
    assert_fits_width(page)
    table_shot(page, "running-team-table-seats-390")


def test_a_solo_harakiri_last_move_after_the_players_decision_names_the_player(new_page):
    """In a solo Harakiri game every line the box can show is the game's: after the player's own
    decision its steps (the player's hero starting the activation, a counter attack the player chose)
    were titled "Last moves by the game". The title now names the player, as a multiplayer table's
    names the seat whose decision the game's steps followed ("bob, with the game's steps")."""
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    ronin = f"ronin-{uuid.uuid4().hex[:6]}"
    sign_up(page, ronin)
    create_match(page, {"round_cap": 1}, game="harakiri", seats=1)
    wait_live(page)
    page.get_by_role("button", name="Start").click()
    wait_live(page)
    title = page.get_by_test_id("last-move").locator(".last-move-title")
    # given the game's set-up, before any decision of the player: the game's own steps
    # rules: Harakiri core, "Initiative" (the party may swap two characters' initiative cards)
    choices = page.locator("#board .hk-choice")
    expect(choices.first).to_be_visible()
    expect(title).to_have_text("Last moves by the game")
    # when the player decides, and the game carries on (the round's activations begin: a hero's, or
    # the enemies' first when the round's event moves their cards ahead, as War Drums does)
    page.locator("#board .hk-choice", has_text="No swap").click()
    expect(page.get_by_test_id("last-move")).to_contain_text("Round 1 order:")
    # then the title names the player, with the game's steps
    expect(title).to_have_text(f"Last move: {ronin} (you), with the game's steps")
    table_shot(page, "harakiri-solo-last-move")
    page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_width(page)
    table_shot(page, "harakiri-solo-last-move-390")
