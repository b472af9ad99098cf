"""Yokai Battle in real browsers: a monster card in its fullest state still shows everything on a
phone. A play-through found a Gashadokuro summoned on metal (10 LP, the favoured-terrain star,
stealth, turned a quarter) spilling out of its card at 390 px: the heart and the turn icon cut off,
the side attack values over the LP and "stealth", the "new" badge over the square's coordinates, and
its name broken mid-word ("Gashadok/uro"). Each card part must lie inside the card, clear of the
others and of the attack values; the square's label and badges clear of each other; a name breaks
only between words (or at a soft hyphen) -- at 1280 and at 390 px, for the opponent who sees the
"new" badge and for its owner. Screenshots of both pages at both widths go to var/screenshots."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, assert_fits_width, load_scenario, table_shot
from .test_match_flow import create_match, sign_up, wait_live

pytestmark = pytest.mark.e2e

# rules: Yokai Battle, "Summoning" (a monster on terrain of its element gains 1 LP; the metal
# ability hides it: stealth) and "Orientation" (a card turned a quarter). Alice (seat 0) holds
# Gashadokuro (9 LP, metal) with 10 chakra; metal 1,0 is free. Bob's Katakirauwa (colorless: always
# on favourable terrain) carries its fullest state: 10 LP, doubled attack values (its summoning
# ability), turned. (Stealth comes only with the metal ability and doubling only with the colorless
# one: no card has both.)
SCENARIO = {
    "seats": 2,
    "board": [["water", "water", "earth"], ["metal", "fire", "earth"], ["metal", "wood", "wood"]],
    "round": 9, "meter": 10, "chakra": 10, "turn": 0,
    "hands": {"0": ["gashadokuro"], "1": ["kodama"]},
    "decks": {"0": ["kodama"] * 4, "1": ["kodama"] * 4},
    "monsters": [
        {"at": "0,2", "card": "akuro_jin_no_hi", "owner": 1, "orientation": "horizontal"},
        {"at": "2,0", "card": "mikari_baba", "owner": 0, "orientation": "horizontal", "lp": 1},
        {"at": "2,2", "card": "katakirauwa", "owner": 1, "orientation": "horizontal", "lp": 10,
         "doubled": True},
    ],
}

# Every card on the board: its parts, its attack values, and its square's own label and badges.
CARD_BOXES_JS = r"""() => {
  const box = (n) => { const b = n.getBoundingClientRect(); return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; };
  const shown = (n) => n && n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
  const name = (n) => (n.className || "").toString().split(" ")[0] + (n.textContent ? ` "${n.textContent.trim()}"` : "");
  // the pieces of a name between its break opportunities (spaces, hyphens, soft hyphens) that the
  // browser split across lines: a piece drawn on two lines was broken mid-word
  const splitPieces = (node) => {
    const text = node.firstChild;
    const out = [];
    const re = /[^ \-\u00ad]+/g;
    for (let m = re.exec(text.data); m; m = re.exec(text.data)) {
      const tops = new Set();
      for (let i = m.index; i < m.index + m[0].length; i++) {
        const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
        const drawn = [...r.getClientRects()].filter((x) => x.width > 0);
        if (drawn.length) tops.add(Math.round(drawn[drawn.length - 1].top));
      }
      if (tops.size > 1) out.push(m[0]);
    }
    return out;
  };
  return [...document.querySelectorAll("#board .yk-cell")].filter((c) => c.querySelector(".yk-monster")).map((cell) => {
    const card = cell.querySelector(".yk-monster");
    const parts = [...card.querySelectorAll(".yk-mname, .yk-owner, .yk-lp, .yk-badge")].filter(shown);
    const marks = [...cell.querySelectorAll(":scope > .yk-terrain, :scope > .yk-last, :scope > .yk-action")].filter(shown);
    // the name shown: the full one, or on a narrow square of a 4-column board its short form
    const nameNode = [...card.querySelectorAll(".yk-mname")].find(shown);
    return {pos: cell.dataset.pos, cell: box(cell), card: box(card),
            parts: parts.map((p) => ({name: name(p), box: box(p), clipped: p.scrollWidth > p.clientWidth + 1})),
            aps: [...card.querySelectorAll(".ap")].map((a) => ({name: name(a), box: box(a)})),
            marks: marks.map((m) => ({name: name(m), box: box(m), clipped: m.scrollWidth > m.clientWidth + 1})),
            brokenPieces: splitPieces(nameNode)};
  });
}"""


def overlap(a, b):
    return a["left"] < b["right"] - .5 and b["left"] < a["right"] - .5 and a["top"] < b["bottom"] - .5 and b["top"] < a["bottom"] - .5


def inside(inner, outer):
    return (inner["left"] >= outer["left"] - .5 and inner["right"] <= outer["right"] + .5
            and inner["top"] >= outer["top"] - .5 and inner["bottom"] <= outer["bottom"] + .5)


def card_faults(page):
    """Everything wrong with the cards on the board, in words (empty when every card reads whole)."""
    faults = []
    for c in page.evaluate(CARD_BOXES_JS):
        where = c["pos"]
        for p in c["parts"]:
            if not inside(p["box"], c["card"]):
                faults.append(f"{where}: {p['name']} sticks out of its card")
            if p["clipped"]:
                faults.append(f"{where}: {p['name']} is cut off")
            faults += [f"{where}: {a['name']} covers {p['name']}" for a in c["aps"] if overlap(a["box"], p["box"])]
        faults += [f"{where}: {p['name']} and {q['name']} overlap"
                   for i, p in enumerate(c["parts"]) for q in c["parts"][i + 1:] if overlap(p["box"], q["box"])]
        for m in c["marks"]:
            if not inside(m["box"], c["cell"]) or m["clipped"]:
                faults.append(f"{where}: {m['name']} does not fit its square")
            if overlap(m["box"], c["card"]):
                faults.append(f"{where}: {m['name']} covers the card")
        faults += [f"{where}: {m['name']} and {n['name']} overlap"
                   for i, m in enumerate(c["marks"]) for n in c["marks"][i + 1:] if overlap(m["box"], n["box"])]
        faults += [f"{where}: {a['name']} covers {m['name']}" for a in c["aps"] for m in c["marks"] if overlap(a["box"], m["box"])]
        # a name breaks between words, after a hyphen of its own or at a soft hyphen, never mid-word
        faults += [f"{where}: the name breaks mid-word ({piece!r})" for piece in c["brokenPieces"]]
    return faults


def assert_cards_fit(pages: dict, shot: str) -> None:
    """At 1280 and 390 px, on each of ``pages`` (by who looks): no card part out of its card or over
    another, nothing wider than the page; the page and its board saved as ``<shot>[-grid]-<who>-<width>``."""
    faults = {}
    for width, height in ((1280, 900), (390, 844)):
        for who, page in pages.items():
            page.set_viewport_size({"width": width, "height": height})
            page.locator("#board .yk-grid").scroll_into_view_if_needed()
            faults[f"{who} at {width} px"] = card_faults(page)
            assert_fits_width(page)
            table_shot(page, f"{shot}-{who}-{width}")
            page.locator("#board .yk-grid").screenshot(path=str(SHOTS / f"{shot}-grid-{who}-{width}.png"))
    assert faults == {k: [] for k in faults}, faults


def test_a_full_card_fits_its_square_at_1280_and_390(new_page, live_server_env):
    a, b = new_page(), new_page()
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    for page in (a, b):
        page.set_viewport_size({"width": 1280, "height": 900})
    sign_up(a, alice)
    sign_up(b, bob)
    match_id = create_match(a, game="yokai")
    wait_live(a)
    b.goto(f"/matches/{match_id}/")
    b.get_by_role("button", name=re.compile("^Join")).click()
    wait_live(b)
    load_scenario(live_server_env, match_id, alice, SCENARIO)
    for page in (a, b):
        page.goto(f"/matches/{match_id}/")
        wait_live(page)
    board = a.locator("#board")

    # when alice summons Gashadokuro on metal 1,0, turned a quarter, by clicking the board
    board.locator('.yk-hcard[data-card-id="h0-0"]').click()
    board.locator('.yk-cell[data-pos="1,0"]').click()
    board.locator('.yk-orient[data-orientation="horizontal"]').click()
    gasha = b.locator('#board .yk-cell[data-pos="1,0"]')
    expect(gasha.locator(".yk-monster")).to_have_count(1)
    # then bob sees it whole: 10 LP, the star, stealth, turned, and marked new
    expect(gasha.locator(".yk-lp")).to_have_text("♥ 10")
    expect(gasha.locator(".yk-badge")).to_have_count(3)
    expect(gasha.locator(".yk-last")).to_have_text("new")
    expect(a.locator('#board .yk-cell[data-pos="1,0"] .yk-lp')).to_have_text("♥ 10")

    assert_cards_fit({"opponent": b, "owner": a}, "yokai-full-card")
    assert a.console_errors == [] and b.console_errors == [], (a.console_errors, b.console_errors)


# rules: Yokai Battle, "Setting up" (3 players: a Kekkai of 3, 4 and 4 terrain cards, so 4 columns),
# "Summoning" (the free summoning attack on an adjacent enemy) and "Orientation". On a 390 px phone
# its squares are about 74 px wide. Carol's Gashadokuro (seat 2) carries the metal marks (10 LP, ★,
# stealth, turned), Bob's Katakirauwa the colorless ones (10 LP, ★, ×2, turned). Alice (seat 0)
# summons a Kodama on wood 2,1 beside the Katakirauwa, which she then has to attack for free.
WIDE_SCENARIO = {
    "seats": 3,
    "board": [["water", "water", "earth"], ["metal", "fire", "earth", "fire"], ["metal", "wood", "wood", "water"]],
    "round": 9, "meter": 10, "chakra": 10, "turn": 0,
    "hands": {"0": ["kodama"], "1": ["kodama"], "2": ["kodama"]},
    "decks": {"0": ["kodama"] * 4, "1": ["kodama"] * 4, "2": ["kodama"] * 4},
    "monsters": [
        {"at": "0,2", "card": "akuro_jin_no_hi", "owner": 1, "orientation": "horizontal"},
        {"at": "1,0", "card": "gashadokuro", "owner": 2, "orientation": "horizontal", "lp": 10, "stealth": True},
        {"at": "2,0", "card": "mikari_baba", "owner": 0, "orientation": "horizontal", "lp": 1},
        {"at": "2,2", "card": "katakirauwa", "owner": 1, "orientation": "horizontal", "lp": 10, "doubled": True},
    ],
}


def test_full_cards_fit_the_narrow_squares_of_a_4_column_board(new_page, live_server_env):
    """On a 3-player board (4 columns) at 390 px the names ran over the attack values and the marks
    out of the cards; at 1280 px the "⚔ free" badge covered the square's coordinates."""
    pages = [new_page() for _ in range(3)]
    # names of ten letters, as "bob-…" in the first test: longer ones are shortened with "…" by design
    names = [f"{who}-{uuid.uuid4().hex[:6]}" for who in ("ali", "bob", "car")]
    for page, name in zip(pages, names):
        page.set_viewport_size({"width": 1280, "height": 900})
        sign_up(page, name)
    a, b, c = pages
    match_id = create_match(a, game="yokai", seats=3)
    wait_live(a)
    for page in (b, c):
        page.goto(f"/matches/{match_id}/")
        page.get_by_role("button", name=re.compile("^Join")).click()
        wait_live(page)
    load_scenario(live_server_env, match_id, names[0], WIDE_SCENARIO)
    for page in pages:
        page.goto(f"/matches/{match_id}/")
        wait_live(page)
    expect(a.locator("#board .yk-row").nth(1).locator(".yk-cell")).to_have_count(4)

    # when alice summons a Kodama on wood 2,1, turned a quarter, beside bob's Katakirauwa
    board = a.locator("#board")
    board.locator('.yk-hcard[data-card-id="h0-0"]').click()
    board.locator('.yk-cell[data-pos="2,1"]').click()
    board.locator('.yk-orient[data-orientation="horizontal"]').click()
    # then she has to attack it for free (the badge on its square), and bob sees the Kodama new
    expect(a.locator('#board .yk-cell[data-pos="2,2"] .yk-action')).to_have_text("⚔ free")
    expect(b.locator('#board .yk-cell[data-pos="2,1"] .yk-last')).to_have_text("new")
    expect(b.locator('#board .yk-cell[data-pos="1,0"] .yk-badge')).to_have_count(3)
    expect(b.locator('#board .yk-cell[data-pos="2,2"] .yk-badge')).to_have_count(3)

    assert_cards_fit({"attacker": a, "opponent": b}, "yokai-wide-card")
    # the short name keeps the full one in its title
    assert b.locator('#board .yk-cell[data-pos="1,0"] .yk-mshort').get_attribute("title") == "Gashadokuro"
    assert [p.console_errors for p in pages] == [[], [], []]
