"""Yokai Battle's match page for a player on a keyboard or a screen reader. axe-core (serious and
critical WCAG 2.1 A/AA faults) finds nothing in any state a player meets -- the open table before the
start, the combat on one's own turn and on the opponent's, a hand card or a monster chosen with their
targets lit, the spectator's board, the finished banner, a 3-player board of compact 4-column cards --
at 1280 and at 390 px. A scan of a demo match had found the terrain's words on the squares unreadable
(color-contrast x28). Beyond what axe sees: a whole move is played with the keyboard alone (Tab reaches
each control, Enter does it, a visible focus ring), Tab goes from the last square to the first hand
card in at most 3 presses (the stats' and the legend's help behind one disclosure button per group, not
a Tab stop per stat and chip), the keyboard focus stays on its square when the
board is redrawn by the opponent's move, and each square is named by what a sighted player sees on it
(its position, terrain, card, owner, LP and marks, what pressing it does), not by a coordinate alone.
Page shots of each state go to REVIEW_SHOTS (conftest.shot_at_widths)."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import REVIEW_SHOTS, accessibility_faults, load_scenario, shot_at_widths
from .test_match_flow import create_match, sign_up, wait_live
from .test_yokai_card_fits import WIDE_SCENARIO

pytestmark = pytest.mark.e2e

# rules: Yokai Battle, "Combat" (a paid attack costs the attacker's AP on the touching side) and
# "Winning" (conquest: 5 of one's own monsters on the board once a summoning has resolved). Alice
# (seat 0) has 4 monsters, 10 chakra and a Kodama in hand; 2,0 touches no enemy, so summoning there
# makes no summoning attack and wins. Her Onibi on 1,1 faces Bob's Katakirauwa on 1,2 with 2 AP.
SCENARIO = {
    "seats": 2,
    "board": [["water", "water", "earth"], ["metal", "fire", "earth"], ["metal", "wood", "wood"]],
    "round": 9, "meter": 10, "chakra": 10, "turn": 0,
    "hands": {"0": ["kodama", "gaki"], "1": ["kodama"]},
    "decks": {"0": ["kodama"] * 4, "1": ["kodama"] * 4},
    "monsters": [
        {"at": "0,0", "card": "kappa", "owner": 0, "lp": 10},
        {"at": "0,1", "card": "kosamebo", "owner": 0},
        {"at": "1,0", "card": "nue", "owner": 0, "orientation": "horizontal", "stealth": True},
        {"at": "1,1", "card": "onibi", "owner": 0, "lp": 10},
        {"at": "1,2", "card": "katakirauwa", "owner": 1, "lp": 10, "doubled": True},
        {"at": "2,2", "card": "momonji", "owner": 1},
    ],
}

WIDTHS = ((1280, 900), (390, 844))
FOCUS_JS = """() => { const e = document.activeElement; const s = getComputedStyle(e);
  return {inBoard: !!e.closest('#board'), pos: e.dataset.pos || null, cardId: e.dataset.cardId || null,
          orientation: e.dataset.orientation || null, action: e.dataset.action || null,
          ring: e.matches(':focus-visible') && s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2}; }"""


def scan(faults, page, state):
    """axe-core's faults on ``page`` at both widths, under ``state``; its page shots saved."""
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        for fault in accessibility_faults(page):
            faults.append(f"{state} at {width} px: {fault}")
        grid = page.locator("#board .yk-grid")
        if grid.count():
            REVIEW_SHOTS.mkdir(parents=True, exist_ok=True)
            grid.screenshot(path=str(REVIEW_SHOTS / f"a11y-yokai-{state}-grid-{width}.png"))
    shot_at_widths(page, f"a11y-yokai-{state}")
    page.set_viewport_size({"width": 1280, "height": 900})


def focused(page):
    return page.evaluate(FOCUS_JS)


def tab_to(page, selector, limit=120):
    """Press Tab until the keyboard focus is on ``selector``; fails when Tab never reaches it."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement.matches(sel)", selector):
            assert focused(page)["ring"], f"no visible focus ring on {selector}"
            return
    pytest.fail(f"Tab never reached {selector}")


def join(page, match_id):
    page.goto(f"/matches/{match_id}/")
    page.get_by_role("button", name=re.compile("^Join")).click()
    wait_live(page)


def test_the_yokai_board_is_playable_by_keyboard_and_screen_reader(new_page, live_server_env):
    a, b, c = new_page(), new_page(), new_page()
    names = [f"{who}-{uuid.uuid4().hex[:6]}" for who in ("ali", "bob", "car")]
    alice, bob, carol = names
    for page, name in zip((a, b, c), names):
        sign_up(page, name)
    faults = []

    match_id = create_match(a, game="yokai")
    wait_live(a)
    join(b, match_id)
    scan(faults, a, "open-table")  # before the start: the seats and the Start button
    load_scenario(live_server_env, match_id, alice, SCENARIO)
    for page in (a, b, c):
        page.goto(f"/matches/{match_id}/")
        wait_live(page)
    expect(a.locator("#board .yk-cell")).to_have_count(9)
    scan(faults, a, "my-turn")
    scan(faults, b, "their-turn")
    scan(faults, c, "spectator")

    # each square is named by what it shows: position, terrain, card, owner, LP and marks
    katakirauwa = b.locator('#board .yk-cell[data-pos="1,2"]')
    expect(katakirauwa).to_have_accessible_name(re.compile(
        r"^1,2, earth terrain: Katakirauwa, yours, 10 LP, on favourable terrain, attack values doubled"))
    expect(a.locator('#board .yk-cell[data-pos="1,2"]')).to_have_accessible_name(re.compile(rf"Katakirauwa, {bob}'s, 10 LP"))
    expect(a.locator('#board .yk-cell[data-pos="1,0"]')).to_have_accessible_name(re.compile(
        r"Nue, yours, \d+ LP, on favourable terrain, turned a quarter right, stealth, attack values N \d, E \d, S \d, W \d"))
    expect(a.locator('#board .yk-cell[data-pos="2,0"]')).to_have_accessible_name("2,0, metal terrain: empty.")

    # from the grid to the hand in a few Tab presses: the players' stats and the legend's chips explain
    # themselves on hover, but the keyboard reaches their texts through one button per group (it was
    # 17 presses here, one per stat and chip, and 27 with four players)
    tab_to(a, '#board .yk-cell[data-pos="2,2"]')  # the last square
    presses = 0
    while not a.evaluate("() => document.activeElement.matches('#board .yk-hcard')") and presses < 60:
        a.keyboard.press("Tab")
        presses += 1
    assert focused(a)["cardId"] == "h0-0" and presses <= 3, f"{presses} Tab presses from the last square to {focused(a)}"
    stat = a.locator("#board .yk-player").first.locator(".yk-pstats > span").first
    expect(stat).not_to_have_attribute("tabindex", "0")
    stat.hover()  # the mouse still gets a stat's help
    expect(a.locator("#kz-tip")).to_contain_text("Cards in hand.")
    a.mouse.move(0, 0)
    # the stats' one button (a disclosure) shows every stat's text, and hides it again
    a.keyboard.press("Shift+Tab")
    a.keyboard.press("Shift+Tab")
    toggle = a.locator('#board [data-action="explain-stats"]')
    assert focused(a)["action"] == "explain-stats" and focused(a)["ring"], focused(a)
    expect(toggle).to_have_accessible_name("Explain the stats")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    panel = a.locator("#board .yk-explain-stats .yk-explain")
    expect(panel).to_be_hidden()
    a.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Cards left in the deck.")
    expect(panel).to_contain_text(re.compile(rf"Dead monsters\. {alice} \(you\): none yet; {bob}: none yet"))
    a.keyboard.press("Tab")
    assert focused(a)["action"] == "explain-legend", focused(a)
    a.keyboard.press("Space")
    expect(a.locator("#board .yk-explain-legend .yk-explain")).to_contain_text("Fire terrain and fire monsters.")
    scan(faults, a, "explained")
    for which in ("legend", "stats"):  # closed again for the rest of the game
        a.locator(f'#board [data-action="explain-{which}"]').press("Enter")
        expect(a.locator(f"#board .yk-explain-{which} .yk-explain")).to_be_hidden()
    a.reload()  # the keyboard starts again from the top of the page
    wait_live(a)

    # Bob rests his keyboard focus on his Katakirauwa while Alice plays
    tab_to(b, '#board .yk-cell[data-pos="1,2"]')

    # Alice attacks with the keyboard alone: her Onibi, then the lit enemy (2 chakra, its AP facing east)
    # the prompt is spoken by one live region that outlives the redraws (a new one would stay silent)
    said = a.get_by_test_id("yokai-said")
    expect(said).to_have_text(re.compile(r"^Your move: "))
    a.evaluate("() => { window.__said = document.querySelector('[data-testid=yokai-said]'); }")
    tab_to(a, '#board .yk-cell[data-pos="1,1"]')
    expect(a.locator('#board .yk-cell[data-pos="1,1"]')).to_have_accessible_name(re.compile(r"Press to choose it to attack"))
    a.keyboard.press("Enter")
    assert focused(a)["pos"] == "1,1" and focused(a)["ring"], f"the chosen monster lost the focus: {focused(a)}"
    expect(a.locator('#board .yk-cell[data-pos="1,1"]')).to_have_attribute("aria-pressed", "true")
    target = a.locator('#board .yk-cell[data-pos="1,2"]')
    expect(target).to_have_class(re.compile(r"\bact-attack\b"))
    expect(target).to_have_accessible_name(re.compile(r"Press to attack it for 2 chakra"))
    scan(faults, a, "monster-chosen")
    tab_to(a, '#board .yk-cell[data-pos="1,2"]')
    a.keyboard.press("Space")
    expect(a.get_by_test_id("yokai-chakra")).to_contain_text("8 / 10")
    # Bob's board was redrawn by the attack: his focus is still on his Katakirauwa, named anew
    expect(katakirauwa).to_have_accessible_name(re.compile(r"Katakirauwa, yours, 8 LP"))
    assert focused(b)["pos"] == "1,2" and focused(b)["ring"], focused(b)

    # then summons her Kodama: the hand card, a lit terrain, an orientation, each by the keyboard
    tab_to(a, '#board .yk-hcard[data-card-id="h0-0"]')
    expect(a.locator('#board .yk-hcard[data-card-id="h0-0"]')).to_have_accessible_name(re.compile(
        r"^Kodama, 1 CP, wood, 3 LP, attack values as printed: top 2, right 1, bottom 1, left 1\. .*Press to summon it"))
    a.keyboard.press("Enter")
    expect(said).to_have_text("Summon Kodama: choose a highlighted terrain.")
    assert a.evaluate("() => document.querySelector('[data-testid=yokai-said]') === window.__said")
    # the focus goes to the first lit terrain, and the square says what pressing it does
    assert focused(a)["pos"] in ("0,2", "2,0", "2,1"), focused(a)
    expect(a.locator('#board .yk-cell[data-pos="2,0"]')).to_have_accessible_name(re.compile(r"^2,0, metal terrain: empty\. Press to summon Kodama here, with \d+ LP"))
    scan(faults, a, "card-chosen")
    tab_to(a, '#board .yk-cell[data-pos="2,0"]')
    a.keyboard.press("Enter")
    assert focused(a)["orientation"] == "vertical", focused(a)  # the first orientation button
    a.keyboard.press("Tab")
    assert focused(a)["orientation"] == "horizontal" and focused(a)["ring"], focused(a)
    a.keyboard.press("Enter")

    for page in (a, b, c):
        expect(page.get_by_test_id("yokai-banner")).to_contain_text(f"{alice} (you) wins!" if page is a else f"{alice} wins!")
    expect(said).to_have_text(re.compile(rf"^Game over\. {alice} \(you\) wins! {alice} \(you\) conquered 5 terrain cards"))
    expect(a.locator('#board .yk-cell[data-pos="2,0"]')).to_have_accessible_name(re.compile(r"Kodama, yours, \d+ LP.* turned a quarter right"))
    assert focused(a)["inBoard"], "the focus was lost when the game ended"
    scan(faults, a, "finished")
    scan(faults, c, "finished-spectator")

    # a 3-player board: 4 columns of compact cards on a phone
    wide_id = create_match(a, game="yokai", seats=3)
    wait_live(a)
    join(b, wide_id)
    join(c, wide_id)
    load_scenario(live_server_env, wide_id, alice, WIDE_SCENARIO)
    for page in (a, c):
        page.goto(f"/matches/{wide_id}/")
        wait_live(page)
    expect(a.locator("#board .yk-row").nth(1).locator(".yk-cell")).to_have_count(4)
    scan(faults, a, "three-players")
    scan(faults, c, "three-players-their-turn")
    expect(c.locator('#board .yk-cell[data-pos="1,0"]')).to_have_accessible_name(re.compile(r"^1,0, metal terrain: Gashadokuro, yours, 10 LP"))

    assert faults == [], "\n".join(faults)
    assert [p.console_errors for p in (a, b, c)] == [[], [], []]
