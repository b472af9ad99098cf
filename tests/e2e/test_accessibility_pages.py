"""Every page of the site but the game boards, checked by axe-core (conftest.accessibility_faults:
serious and critical WCAG 2.1 A/AA faults) at 1280 and 390 px, in the states a player meets them:
signed out (home, lobby, sign-in and sign-up with their errors, the password-reset pages, the lists,
a profile, a finished match's end screen, its replay and verification, a missing page, a 403) and signed in
(the lobby with an open table, an invitation and a refused create form, the account with a refused
e-mail change, a table with its chat, invite panel and a refused chat message, a Swiss tournament
running with its standings, pairings and organizer controls, a tournament match's report form, a
campaign, the staff pages, a match fair play bars). One browser session per side walks them all, and
every fault found is listed at the end, so that one run shows them all. Beyond axe: every page has a
viewport meta tag (a phone lays it out at its own width), no two links named alike lead to different places
(a screen reader's list of links would read "watch, watch, watch"), no aria reference points at nothing, and the table's live regions do not read out its whole history or chat again. The board itself (the three games' own
drawing, tested by their own suites) is left out of the match pages' scan."""

import json
import random
import re
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api, play_to_the_end
from .conftest import faults_at_widths, server_side
from .test_match_flow import PASSWORD, sign_in

pytestmark = pytest.mark.e2e

NOT_THE_BOARD = {"exclude": [["#board"]]}

# a running 2-round Swiss event (Yokai Battle, four entrants, the player among them) created by the player,
# made staff; the player's first-round table finished and reported by them, the other one still played
# (which fair play bars the player from watching); prints the ids as JSON
SWISS_PY = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.tournaments import reports, services
from games.tournaments.models import EntrantMember, TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play
User = get_user_model()
User.objects.filter(username=sys.argv[1]).update(is_staff=True)
player = User.objects.get(username=sys.argv[1])
others = [User.objects.create_user(username=f"sw{i}-{sys.argv[2]}", password="x-unused-9876") for i in range(3)]
t = services.tournament_create(creator=player, name="Swiss " + sys.argv[2], game="yokai", format="swiss",
                               table_size=2, rounds=2, round_minutes=30, match_options={"turn_seconds": 60})
for u in (player, *others):
    services.tournament_register(tournament_id=t.pk, user=u)
tournament_start_and_play(tournament_id=t.pk, user=player)
mine = str(EntrantMember.objects.get(tournament=t, user=player).entrant_id)
tables = TournamentTable.objects.filter(tournament=t, round=1)
table = next(tb for tb in tables if mine in tb.entrant_ids)
other = next(tb for tb in tables if mine not in tb.entrant_ids)
tournament_match_finished(match_id=table.match_id, winners=[0])
report = reports.report_file(match_id=table.match_id, user=player, seq=1, text="The clock skipped my turn.")
print("IDS", json.dumps({"tournament": str(t.pk), "finished": str(table.match_id), "report": report.pk,
                         "other": str(other.match_id)}))
"""


# what axe lets pass: a reference to nothing (Django points an invalid field's aria-describedby at
# "<id>_error", which the templates must carry, beside the help text's "<id>_helptext")
MISSING_REFERENCES_JS = """() => [...document.querySelectorAll('[aria-describedby], [aria-labelledby]')].flatMap((e) =>
  ['aria-describedby', 'aria-labelledby'].flatMap((attr) => (e.getAttribute(attr) || '').split(/\\s+/)
    .filter((id) => id && !document.getElementById(id)).map((id) => `${e.id || e.tagName} ${attr} -> #${id}`)))"""


# a page a phone renders at its own width, not a desktop's zoomed out (headless Chromium ignores the tag,
# so the scans at 390 px cannot tell)
VIEWPORT_META_JS = """() => [...document.querySelectorAll('head meta[name=viewport]')].map((m) => m.content)"""
VIEWPORT_CONTENT = re.compile(r"width=device-width\s*,\s*initial-scale=1")

# Links a screen reader lists by name alone: two that say the same but lead to different places ("watch",
# "watch", "watch" down a pairings table) cannot be told apart (WCAG 2.4.4). The name as the browser
# computes it for a plain link: aria-labelledby, aria-label, else the text (visually hidden text included);
# links not rendered (display: none, [hidden]) are left out.
SAME_NAME_LINKS_JS = """() => {
  const squash = (s) => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
  const nameOf = (a) => {
    const ids = (a.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean);
    if (ids.length) return squash(ids.map((id) => (document.getElementById(id) || {}).textContent).join(' '));
    if (a.hasAttribute('aria-label') && squash(a.getAttribute('aria-label'))) return squash(a.getAttribute('aria-label'));
    const copy = a.cloneNode(true);
    copy.querySelectorAll('[aria-hidden=true]').forEach((n) => n.remove());
    copy.querySelectorAll('img[alt]').forEach((n) => n.replaceWith(n.alt));
    return squash(copy.textContent) || squash(a.title);
  };
  const where = new Map();
  for (const a of document.querySelectorAll('a[href]')) {
    if (!a.getClientRects().length || a.closest('[aria-hidden=true]')) continue;
    const name = nameOf(a);
    if (!where.has(name)) where.set(name, new Set());
    const url = new URL(a.href);
    url.searchParams.delete('next'); // "Sign in" with or without the page to come back to: the same place
    where.get(name).add(url.href);
  }
  return [...where].filter(([, hrefs]) => hrefs.size > 1).map(([name, hrefs]) => `"${name}" -> ${[...hrefs].join(', ')}`);
}"""


# Every change inside a live region (which a screen reader reads out) from the page's start, by region:
# a table that redraws its history or its chat whole into a live region would read them out again and again.
COUNT_LIVE_CHANGES_JS = """window.__liveChanges = {};
new MutationObserver((records) => { for (const r of records) {
  const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
  const live = node && node.closest('[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]');
  if (!live || live.closest('[hidden]')) continue;
  const key = live.id || live.className || live.tagName;
  window.__liveChanges[key] = (window.__liveChanges[key] || 0) + 1;
} }).observe(document, {subtree: true, childList: true, characterData: true});"""
MAX_LIVE_CHANGES = 3  # a table's load, a message sent and one refused: a few words said, no flood


class Scanner:
    """Scans pages at both widths, keeps every fault found (one line each, naming the page) and saves
    a shot of each page at each width under REVIEW_SHOTS/a11y-<name>-<width>.png."""

    def __init__(self):
        self.faults = []

    def __call__(self, page, name, context=None):
        page.wait_for_load_state("load")
        self.faults += faults_at_widths(page, f"a11y-{name}", context)
        self.faults += [f"{name}: refers to nothing: {ref}" for ref in page.evaluate(MISSING_REFERENCES_JS)]
        if not any(VIEWPORT_CONTENT.search(content) for content in page.evaluate(VIEWPORT_META_JS)):
            self.faults.append(f"{name}: no <meta name=viewport content='width=device-width, initial-scale=1'>")
        self.faults += [f"{name}: links named alike lead to different places: {links}"
                        for links in page.evaluate(SAME_NAME_LINKS_JS)]


def submit_unchecked(page, form_selector):
    """Submit a form without the browser's own checks (as an old browser would): the server's refusal shows."""
    with page.expect_navigation():
        page.locator(form_selector).evaluate("(f) => { f.noValidate = true; f.requestSubmit(); }")


def walk_signed_out(page, scan, ids, names):
    page.goto("/")
    scan(page, "home-out")
    page.keyboard.press("Tab")  # the first stop skips the header
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    page.goto("/lobby/")
    scan(page, "lobby-out")
    page.goto("/games/yokai/rules/")
    scan(page, "rules")
    page.goto("/login/")
    page.get_by_label("Username").fill(names["player"])
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("form .errorlist, form [role=alert]").first).to_be_visible()
    scan(page, "login-error")
    page.goto("/signup/")
    page.get_by_label("Username").fill(names["player"])
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD + "x")
    page.get_by_role("button", name="Sign up").click()
    scan(page, "signup-error")
    for path, name in (("/password-reset/", "reset"), ("/password-reset/sent/", "reset-sent"),
                       ("/reset/MQ/not-a-token/", "reset-bad-link"), ("/reset/done/", "reset-done"),
                       ("/tournaments/", "tournaments-out"), (f"/tournaments/{ids['tournament']}/", "swiss-out"),
                       ("/campaigns/", "campaigns-out"), ("/ratings/", "ratings"), ("/ratings/yokai/", "leaderboard"),
                       (f"/users/{names['player']}/", "profile-out"), ("/no-such-page/", "404")):
        page.goto(path)
        scan(page, name)
    page.goto(f"/matches/{ids['pebbles_done']}/")
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    scan(page, "end-screen-out", NOT_THE_BOARD)
    page.goto(f"/matches/{ids['pebbles_done']}/replay/")
    scan(page, "replay", NOT_THE_BOARD)
    page.goto(f"/matches/{ids['pebbles_done']}/verify/")
    scan(page, "verify")
    sign_in(page, names["host"], "/")
    page.goto("/staff/")
    expect(page.get_by_test_id("forbidden")).to_be_visible()
    scan(page, "403")


def walk_signed_in(page, scan, ids, names):
    page.goto("/")
    scan(page, "home-in")
    expect(page.get_by_test_id("invitations")).to_be_visible()
    page.goto("/lobby/")
    expect(page.get_by_test_id("invitations")).to_be_visible()
    scan(page, "lobby-in")
    page.get_by_label("Game").select_option("pebbles")
    page.locator('[name="pebbles__target"]').fill("-5")
    submit_unchecked(page, "form:has([name='pebbles__target'])")
    scan(page, "lobby-create-error")

    page.goto("/account/")
    scan(page, "account")
    email_form = page.locator("form[action$='/account/notifications/']")
    email_form.locator("input[type=email]").fill("new@example.com")
    email_form.locator("input[type=password]").fill("wrong-password")
    submit_unchecked(page, "form[action$='/account/notifications/']")
    scan(page, "account-email-error")
    page.goto("/account/password/")
    scan(page, "password-change")
    page.goto("/account/delete/")
    scan(page, "account-delete")
    page.goto(f"/users/{names['player']}/")
    scan(page, "profile-in")

    # a table with a chat: one message sent, one refused; its live regions say each change once
    page.add_init_script(COUNT_LIVE_CHANGES_JS)
    page.goto(f"/matches/{ids['pebbles_live']}/")
    expect(page.locator("#connection")).to_have_text("Live")
    page.locator("#chat-text").fill("good luck!")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("#chat-log")).to_contain_text("good luck!")
    page.route("**/chat/", lambda route: route.fulfill(status=429, json={"code": "throttled", "detail": "slow down"})
               if route.request.method == "POST" else route.continue_())
    page.locator("#chat-text").fill("and have fun")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("#chat-error")).to_be_visible()
    page.wait_for_timeout(500)
    scan.faults += [f"table-chat: the live region {region} changed {count} times" for region, count
                    in page.evaluate("window.__liveChanges").items() if count > MAX_LIVE_CHANGES]
    scan(page, "table-chat", NOT_THE_BOARD)
    page.unroute("**/chat/")
    page.goto(f"/matches/{ids['pebbles_open']}/")
    expect(page.get_by_test_id("invite-panel")).to_be_visible()
    scan(page, "table-open-invite", NOT_THE_BOARD)
    page.goto(f"/matches/{ids['pebbles_done']}/")
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    scan(page, "end-screen-player", NOT_THE_BOARD)
    # over, the players read both chat channels: one tab stop, the arrow keys switch, the focus stays on the tabs
    page.get_by_role("tab", name="Players").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Spectators")).to_be_focused()
    expect(page.get_by_role("tab", name="Spectators")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tab", name="Players")).to_have_attribute("tabindex", "-1")

    page.goto(f"/matches/{ids['finished']}/")
    expect(page.get_by_test_id("match-report")).to_be_visible()
    page.get_by_test_id("match-report").locator("summary").click()
    scan(page, "tournament-match-report", NOT_THE_BOARD)

    page.goto(f"/matches/{ids['other']}/")
    scan(page, "match-refused")
    page.goto("/tournaments/")
    scan(page, "tournaments-in")
    page.goto("/tournaments/new/")
    scan(page, "tournament-create")
    submit_unchecked(page, "form:has(button.primary)")
    scan(page, "tournament-create-error")
    page.goto(f"/tournaments/{ids['tournament']}/")
    expect(page.get_by_test_id("standings")).to_be_visible()
    scan(page, "swiss-organizer")

    page.goto("/campaigns/")
    scan(page, "campaigns-in")
    page.get_by_test_id("campaign-form").get_by_role("button", name="Create the campaign").click()
    page.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    scan(page, "campaign")

    for path, name in (("/staff/", "staff-index"), ("/staff/reports/", "staff-reports"),
                       (f"/staff/matches/{ids['finished']}/?report={ids['report']}", "staff-match"),
                       ("/staff/tournaments/", "staff-tournaments"),
                       (f"/staff/tournaments/{ids['tournament']}/", "staff-tournament"),
                       ("/staff/matches/import/", "staff-import")):
        page.goto(path)
        scan(page, name)


def pebbles_matches(base, tokens):
    """The player's Pebbles tables, made through the API: a running one with the host, an open one the
    player made (its invite panel), and one finished."""
    player, host = tokens
    options = {"game": "pebbles", "seats": 2, "options": {"bonus_rolls": False, "target": 15}}
    ids = {}
    for name in ("pebbles_live", "pebbles_done"):
        match_id = api(base, "/api/matches/", host, options)["id"]
        api(base, f"/api/matches/{match_id}/join/", player, {})
        api(base, f"/api/matches/{match_id}/start/", host, {})
        ids[name] = match_id
    play_to_the_end(base, ids["pebbles_done"], {0: host, 1: player}, random.Random(5))
    ids["pebbles_open"] = api(base, "/api/matches/", player, options)["id"]
    return ids


def test_every_page_but_the_boards_is_accessible(new_page, live_server_env, live_server_url):
    base, tag = live_server_url, uuid.uuid4().hex[:6]
    names = {"player": f"ally-{tag}", "host": f"host-{tag}"}
    tokens = [api(base, "/api/auth/register/", body={"username": name, "password": PASSWORD})["token"]
              for name in (names["player"], names["host"])]
    ids = pebbles_matches(base, tokens)
    invited = api(base, "/api/matches/", tokens[1], {"game": "pebbles", "seats": 2, "options": {}})["id"]
    api(base, f"/api/matches/{invited}/invitations/", tokens[1], {"username": names["player"]})
    ids.update(json.loads(server_side(live_server_env, SWISS_PY, names["player"], tag).split("IDS ", 1)[1]))

    scan = Scanner()
    walk_signed_out(new_page(), scan, ids, names)
    page = new_page()
    sign_in(page, names["player"], "/")
    walk_signed_in(page, scan, ids, names)
    assert not scan.faults, "\n".join(scan.faults)
