"""The home page in real Chromium: a player starts a match against a bot in two clicks (sign in
done: one click on the home page); a spectator on a 390-px phone finds that match in the list of
live matches, clicks Watch and watches it live (the board and the history follow the player's
move, the list counts the spectator); the home page and the lobby fit the phone's width, every
control is big enough to touch and reachable with the keyboard; no developer terms on the pages."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api
from .conftest import server_side, table_shot
from .test_match_flow import sign_up, wait_live

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
# Every visible control's box (a checkbox is measured by its label, which toggles it), whether the
# keyboard can reach it, and whether the page scrolls sideways.
CONTROLS_JS = """() => {
  const seen = [];
  for (const e of document.querySelectorAll('main a[href], main button, main input:not([type=hidden]), main select, main summary')) {
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || e.closest('[hidden]')) continue;
    const inline = e.tagName === 'A' && !e.classList.contains('button') && getComputedStyle(e).display === 'inline';
    const target = (e.type === 'checkbox' && e.closest('label')) || (e.type === 'checkbox' && e.labels && e.labels[0]) || e;
    const t = target.getBoundingClientRect();
    seen.push({what: `${e.tagName.toLowerCase()} ${(e.textContent || e.name || '').trim().slice(0, 30)}`,
               w: Math.round(Math.max(t.width, box.width)), h: Math.round(Math.max(t.height, box.height)),
               inline, focusable: e.tabIndex >= 0 && !e.disabled, right: Math.round(box.right)});
  }
  return {controls: seen, page: document.documentElement.scrollWidth, view: window.innerWidth};
}"""
WORDS_JS = "() => document.querySelector('main').innerText"
DEV_TERMS = re.compile(r"\bseq\b|\bseats? 0\b|\bnull\b|\bundefined\b|\bNaN\b|\([a-z]+(?:_[a-z]+)+\)|"
                       r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def assert_phone_friendly(page, where):
    """No sideways scrolling; every control at least 24 px each way (a link inside a sentence
    excepted: WCAG 2.5.8) and reachable with Tab."""
    fit = page.evaluate(CONTROLS_JS)
    assert fit["page"] <= fit["view"], (where, fit["page"], fit["view"])
    assert fit["controls"], where
    for c in fit["controls"]:
        assert c["right"] <= fit["view"] + 1, f"{where}: {c}"
        assert c["focusable"], f"{where}: {c}"
        if not c["inline"]:
            assert c["w"] >= 24 and c["h"] >= 24, f"{where}: {c}"


def tab_reaches(page, selectors, limit=250):
    """Press Tab from the top until each selector's element has had the focus."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    left = dict(selectors)
    for _ in range(limit):
        page.keyboard.press("Tab")
        for name, selector in list(left.items()):
            if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
                del left[name]
        if not left:
            return
    raise AssertionError(f"Tab never reached {sorted(left)}")


def test_play_against_a_bot_in_two_clicks_and_a_spectator_watches_from_the_list(new_page):
    # A player: sign up (the home page opens), then one click on "Play against a bot"
    a = new_page()
    alice = f"akane-{uuid.uuid4().hex[:6]}"
    sign_up(a, alice)
    a.goto("/")
    yokai = a.get_by_test_id("game-yokai")
    expect(yokai).to_contain_text("2 to 4 players")
    expect(yokai.locator(".how-to li")).to_have_count(5)
    yokai.get_by_role("button", name=re.compile("^Play against a bot")).click()
    a.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
    match_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    wait_live(a)
    expect(a.locator("#status-match")).to_have_text("active")
    expect(a.locator("#seats li")).to_have_text([re.compile(alice), re.compile(r"^Bot 2(?!\s*\(bot\))")])  # a bot named once
    expect(a.locator("#board .yk-turn")).to_have_text(re.compile("Your turn"))
    expect(a.get_by_test_id("rules-link")).to_have_attribute("href", "/games/yokai/rules/")

    # A spectator on a phone: the home page, no sideways scrolling, every control touchable and
    # reachable by keyboard; the running match is in the list with its players
    c = new_page()
    c.set_viewport_size(PHONE)
    c.add_init_script("window.KamizaLobbyRefreshMs = 500")
    c.goto("/")
    assert_phone_friendly(c, "home")
    tab_reaches(c, {"sign in": 'a[href^="/login/"]', "rules": 'a[href^="/games/yokai/rules/"]',
                    "watch": f'.live-row[data-match-id="{match_id}"] a'})
    expect(c.locator("details.how-to-box").first).not_to_have_attribute("open", "")  # folded on a phone
    row = c.locator(f'.live-row[data-match-id="{match_id}"]')
    expect(row).to_contain_text("Yokai Battle")
    expect(row).to_contain_text(alice)
    expect(row).to_contain_text("no one watching yet")
    assert not DEV_TERMS.search(c.evaluate(WORDS_JS))
    table_shot(c, "home-390")
    row.get_by_role("link", name=re.compile("^Watch")).click()
    c.wait_for_url(f"**/matches/{match_id}/")
    wait_live(c)
    expect(c.locator("#status-seat")).to_have_text("spectator")
    expect(c.locator("#board .yk-grid .yk-cell")).to_have_count(9)
    expect(c.locator("#board .yk-hand")).to_have_count(0)
    # the table itself says how many watch, live, to the player and to the spectator (a count only)
    expect(a.get_by_test_id("watchers")).to_have_text("1 watching", timeout=15_000)
    expect(c.get_by_test_id("watchers")).to_have_text("1 watching (you included)")

    # the list counts the spectator (the player's other tab, refreshing)
    home = a.context.new_page()
    home.add_init_script("window.KamizaLobbyRefreshMs = 500")
    home.goto("/")
    mine = home.locator(f'.live-row[data-match-id="{match_id}"]')
    expect(mine.get_by_test_id("watching")).to_have_text("1 watching", timeout=15_000)
    expect(mine).to_contain_text("Your match")

    # the player moves: the spectator's board and history follow without a reload
    c.evaluate("window.__noReload = 'same'")
    seq = c.evaluate("window.KamizaMatch.lastSeq")
    board_before = c.locator("#board").inner_html()
    a.locator('#board button[data-action="end-turn"]').click()
    a.wait_for_function("(s) => window.KamizaMatch.lastSeq > s", arg=seq)
    c.wait_for_function("(s) => window.KamizaMatch.lastSeq >= s && window.KamizaMatch.doc.seq === window.KamizaMatch.lastSeq",
                        arg=a.evaluate("window.KamizaMatch.lastSeq"))
    expect(c.locator("#log li.event:not([hidden])", has_text=f"{alice} ends the turn")).to_have_count(1)
    assert c.locator("#board").inner_html() != board_before  # the board drew the new position
    assert c.evaluate("window.__noReload") == "same"
    assert not DEV_TERMS.search(c.evaluate(WORDS_JS)), c.evaluate(WORDS_JS)
    table_shot(c, "watch-390-spectator")
    c.close()  # the spectator leaves: the player's table says so
    expect(a.get_by_test_id("watchers")).to_have_text("nobody watching", timeout=15_000)

    # the lobby on the phone: fits, every control touchable and reachable; the form shows the
    # chosen game's options only, with the players the game allows
    b = new_page()
    b.set_viewport_size(PHONE)
    sign_up(b, f"botan-{uuid.uuid4().hex[:6]}")
    b.goto("/lobby/?game=harakiri")
    expect(b.locator('fieldset[data-game="harakiri"]')).to_be_visible()
    expect(b.locator('fieldset[data-game="yashima"]')).to_be_hidden()
    expect(b.get_by_label("Rated")).to_be_hidden()  # a cooperative game is never rated
    b.get_by_label("Players").select_option("1")
    expect(b.get_by_text("Who plays each hero")).to_be_hidden()  # one player plays them all
    b.get_by_label("Players").select_option("2")
    heroes = b.locator('fieldset[data-keys-from="harakiri__characters"] [data-key]:visible')
    expect(heroes).to_have_count(4)
    b.get_by_role("checkbox", name="Takashi (samurai, Act 2)").check()
    b.get_by_role("checkbox", name="Tomoe (samurai)").uncheck()
    expect(heroes.filter(has_text="Takashi")).to_have_count(1)
    expect(heroes.filter(has_text="Tomoe")).to_have_count(0)
    assert_phone_friendly(b, "lobby")
    tab_reaches(b, {"game": "#id_game", "players": "#id_seats", "scenario": "#id_harakiri__scenario",
                    "create": 'form.match-form button[type="submit"]'})
    b.get_by_label("Game").select_option("yashima")
    expect(b.locator('fieldset[data-game="harakiri"]')).to_be_hidden()
    expect(b.get_by_label("Players").locator("option:not([disabled])")).to_have_text(["2", "3", "4", "5", "6"])
    assert_phone_friendly(b, "lobby (Yashima)")
    assert not DEV_TERMS.search(b.evaluate(WORDS_JS))
    table_shot(b, "lobby-390")
    for page in (a, b, c):
        assert page.console_errors == [], page.console_errors


SEED_RATINGS_PY = """import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.ratings.models import Rating
for i, name in enumerate(sys.argv[1:]):
    user = get_user_model().objects.get(username=name)
    Rating.objects.update_or_create(user=user, game="yokai", defaults={
        "mu": 27.64 - i, "sigma": 8.07, "display": 1138 - 40 * i, "matches": 1 + 37 * i, "updated_at": timezone.now()})
"""


def test_the_leaderboard_fits_a_phone(new_page, live_server_env, live_server_url):
    """/ratings/yokai/ was 404 px wide on a 390-px phone, its "Rated matches" column cut to "matche":
    on a narrow screen the μ and σ columns give way (the note says so) and long names wrap."""
    tag = uuid.uuid4().hex[:6]
    names = [f"lb{k}{tag}" for k in range(7)] + [f"a-rather-long-username-{tag}"]
    for name in names:
        api(live_server_url, "/api/auth/register/", body={"username": name, "password": "paper-lantern-42"})
    server_side(live_server_env, SEED_RATINGS_PY, *names)
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto("/ratings/yokai/")
    expect(page.get_by_test_id("leaderboard")).to_contain_text(names[-1])
    assert_phone_friendly(page, "the leaderboard on a phone")
    header = page.get_by_role("columnheader", name="Rated matches")
    assert header.bounding_box()["x"] + header.bounding_box()["width"] <= PHONE["width"]
    expect(page.get_by_text("On a narrow screen the μ and σ columns are hidden")).to_be_visible()
    table_shot(page, "leaderboard-390")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(page.locator("th.skill abbr[title='OpenSkill mean skill']")).to_be_visible()
    expect(page.get_by_text("On a narrow screen the μ and σ columns are hidden")).to_be_hidden()
