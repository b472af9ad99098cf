"""Harakiri's exchanges and shops in a real browser: the items exchanged before the Exploration Phase
(the share stage a campaign opens with), and the failure procedure's Market and Blacksmith actions,
every option in words with its price."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.engines.harakiri.helpers import arena, doc, open_rows

from .conftest import HARAKIRI_SETTLED_JS, load_scenario, assert_fits_width, table_shot
from .test_match_flow import sign_up, wait_live

pytestmark = pytest.mark.e2e



def create_match(page, options: dict) -> str:
    """A one-seat Harakiri match with ``options`` the lobby's form does not offer (a campaign's
    ``share``, ``party``, ``market``), created through the API with the page's session; the page is
    then on its table."""
    page.goto("/lobby/")
    match_id = page.evaluate("""async (options) => {
        const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
        const resp = await fetch("/api/matches/", {method: "POST", credentials: "same-origin",
            headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
            body: JSON.stringify({game: "harakiri", seats: 1, options})});
        return (await resp.json()).id;
    }""", options)
    assert re.fullmatch(r"[0-9a-f-]{36}", match_id or ""), match_id
    page.goto(f"/matches/{match_id}/")
    wait_live(page)
    return match_id


def hero(page, cid):
    return page.locator(f'#board [data-testid=harakiri-party] [data-character="{cid}"]')


def test_the_party_exchanges_items_before_the_exploration_phase(new_page):
    # rules: Harakiri, "Exploration Phase Setup", step 2: "Characters can exchange items as per the share action
    # during the Adventure Phase before the Exploration Phase starts"
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_up(page, f"kenshi-{uuid.uuid4().hex[:6]}")
    create_match(page, {"share": True, "party": {"akira": {"coins": 5, "items": ["jirobo_omamori", "ginseng_tea"]}}})
    page.get_by_role("button", name="Start").click()
    prompt = page.get_by_test_id("harakiri-prompt")
    expect(prompt).to_contain_text("Before the Exploration Phase: the characters may exchange items.")
    expect(page.locator("#board .hk-top")).to_contain_text("Exchanging items")
    lists = page.get_by_test_id("harakiri-share")
    pair = lists.locator(".hk-share-pair").filter(has_text="Akira gives Tomoe")
    options = pair.locator("option").all_inner_texts()
    assert "Ginseng Tea" in options and "5 coins" in options and "Katana" not in options, options  # his only weapon
    assert all(not re.search(r"[a-z]+_[a-z]+", o) for o in options), options  # names, never ids
    table_shot(page, "harakiri-share-stage")
    assert_fits_width(page)
    pair.locator("select").select_option(label="Ginseng Tea")
    pair.get_by_role("button", name="Give").click()
    expect(hero(page, "tomoe")).to_contain_text("Ginseng Tea")
    expect(hero(page, "akira")).not_to_contain_text("Ginseng Tea")
    page.get_by_role("button", name="Ready: start the Exploration").click()
    expect(prompt).not_to_contain_text("Before the Exploration Phase")
    expect(page.locator("#board .hk-top")).not_to_contain_text("Exchanging items")
    expect(page.locator("#log")).to_contain_text("exchanged before the Exploration Phase")


def test_the_failure_procedures_shops_say_what_each_option_does_and_costs(new_page, live_server_env):
    # rules: Harakiri, "Failure", step 2: "Each character may perform a Market action and a Blacksmith action"
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    username = f"ronin-{uuid.uuid4().hex[:6]}"
    sign_up(page, username)
    match_id = create_match(page, {})
    down = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    down["tomoe"] = {"sq": "1,0", "health": 1, "coins": 25, "heads": 1}
    document = doc(arena(open_rows(), events={"green": [], "red": []}), down,
                   {"k": {"type": "kachi", "color": "red", "at": "0,0"}}, activate="color:red",
                   oracle={"color": "green"}, forced=[1, 6, 6, 3, 6, 6, 6, 6],
                   options={"market": ["bandages", "rice_ball", "smoke_bomb", "war_fan"]})  # the top 3 are revealed
    load_scenario(live_server_env, match_id, username, document)
    page.goto(f"/matches/{match_id}/")
    wait_live(page)
    prompt = page.get_by_test_id("harakiri-prompt")
    # the kachi's activation (the worker) defeats Tomoe, the last one standing: the failure procedure
    expect(prompt).to_contain_text("Akira: the failure's Blacksmith action", timeout=20_000)
    expect(prompt).to_contain_text("repair the armor (10 coins)")
    expect(prompt.get_by_role("button", name="Sell Ronin Robe for 5 coins")).to_be_visible()
    # each shop left, the next step is read only once the table is at rest: read while the board still
    # shows the step it is leaving, a press lands on the next step's button and can skip Tomoe's market
    page.wait_for_function(HARAKIRI_SETTLED_JS, timeout=20_000)
    while "Tomoe: the failure's Market action" not in prompt.inner_text():
        prompt.get_by_role("button", name=re.compile(r"^Leave the ")).click()
        page.wait_for_function(HARAKIRI_SETTLED_JS, timeout=20_000)
    for label in ("Buy Bandages for 8 coins", "Buy Rice Ball for 2 coins", "Buy Smoke Bomb for 8 coins",
                  "Sell heads (10 coins each, boss heads 30)", "Leave the market"):
        expect(prompt.get_by_role("button", name=label)).to_be_visible()
    expect(prompt.get_by_role("button", name=re.compile("War Fan"))).to_have_count(0)  # the 4th card stays face down
    table_shot(page, "harakiri-failure-market")
    prompt.get_by_role("button", name="Buy Smoke Bomb for 8 coins").click()
    expect(hero(page, "tomoe")).to_contain_text("Smoke Bomb")
    expect(page.locator("#log")).to_contain_text("At the market: buys Smoke Bomb")
    expect(page.get_by_test_id("harakiri-dice")).not_to_contain_text("[object")  # Tomoe's resurrection roll
    prompt.get_by_role("button", name="Leave the market").click()
    expect(prompt).to_contain_text("Tomoe: the failure's Blacksmith action")
    expect(prompt.get_by_role("button", name="Buy Naginata (level 1 weapon, range 2) for 10 coins")).to_be_visible()
    expect(prompt.get_by_role("button", name=re.compile(r"^Sell Yumi"))).to_have_count(0)  # her only weapon
    table_shot(page, "harakiri-failure-blacksmith")
    assert_fits_width(page)
    # rules: Harakiri, "Failure", step 7: "no enemy heads can be acquired in zones that were already active.
    # They can only be acquired in newly discovered zones from this point onward"
    # when Tomoe leaves the blacksmith, the procedure resets the arena and a new round begins
    prompt.get_by_role("button", name="Leave the blacksmith").click()
    # then the board says the arena gives no heads: a tag on its first square with nothing on it or east of
    # it (the party gathered on 0,0 to 1,1 around Tomoe's defeat on 1,0), a line in its squares' help and
    # in the legend
    tag = page.locator('#board .hk-cell[data-sq="3,0"] .hk-noheads')
    expect(tag).to_have_text("no heads", timeout=20_000)
    expect(page.locator("#board .hk-noheads")).to_have_count(2)  # the square's tag and the legend's sample
    expect(page.locator('#board .hk-cell[data-sq="7,7"]')).to_have_attribute(
        "data-help", re.compile(r"No heads: Arena was on the table when the party failed, so its enemies leave no head"))
    expect(page.get_by_test_id("harakiri-noheads")).to_contain_text(
        "Arena: no heads from enemies there since the failure; only zones discovered after it give heads")
    table_shot(page, "harakiri-failure-no-heads")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(tag).to_be_visible()
    table_shot(page, "harakiri-failure-no-heads-phone")
    assert_fits_width(page)
