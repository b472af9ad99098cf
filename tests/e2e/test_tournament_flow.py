"""A Swiss tournament in real browsers, the whole of its scenario in one test: an organizer creates
it through the form (real fields, Yokai Battle's decision clock among its match options), four players
register from four browser contexts, the organizer starts it (the open pages' entry boxes follow it:
registration closed, "Drop out", the report form), the standings fit at 1280 px and scroll inside their
card on a phone, and every player's match is created and started for them (each opens it from the
watch link on their own row and holds a seat there). Then one
table is played to its end by fast bot-like moves through the REST API (each player with their own
token), and an anonymous tournament page, open since before the registrations and never reloaded,
shows the result and the new standings live, pushed over /ws/tournaments/{id}/. A player reports a
problem with their match from the tournament page, and the open page marks the table and both
standings rows "under review". Finally the round's time runs out: the clock loop ends the other table
by the engine's SYSTEM time_limit and pairs round 2, which the open page shows too."""

import json
import random
import re
import subprocess
import sys
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api, play_to_the_end
from .conftest import ROOT, assert_fits_width, server_side
from .test_match_flow import PASSWORD, assert_not_reloaded, mark_no_reload, sign_up

pytestmark = pytest.mark.e2e

SHOTS = ROOT / "var" / "screenshots"  # kept as CI artifacts (never asserted)
PROMOTE_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
get_user_model().objects.get(username=sys.argv[1]).groups.add(Group.objects.get(name="organizers"))
"""
TIME_UP_PY = """
import sys, django
django.setup()
from datetime import timedelta
from django.core.management import call_command
from django.utils import timezone
from games.tournaments.models import RoundDeadline
RoundDeadline.objects.filter(tournament_id=sys.argv[1]).update(due_at=timezone.now() - timedelta(seconds=1))
call_command("run_clocks", "--once")
"""
# wrap: the standings need no scrolling; last_in_view / name_in_view: the last column's header / the first
# row's name is inside the visible part of its card; page: nothing scrolls the page sideways
STANDINGS_FIT_JS = """() => {
  const wrap = document.querySelector('[data-testid=standings]').closest('.table-wrap');
  const box = wrap.getBoundingClientRect();
  const inView = (r) => r.left >= box.left - 1 && r.right <= box.right + 1;
  return {wrap: wrap.scrollWidth <= wrap.clientWidth,
          last_in_view: inView(wrap.querySelector('thead th:last-child').getBoundingClientRect()),
          name_in_view: inView(wrap.querySelector('tbody td.entrant').getBoundingClientRect()),
          page: document.documentElement.scrollWidth <= window.innerWidth};
}"""


def promote(server_env, username):
    server_side(server_env, PROMOTE_PY, username)


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"tournament-{name}.png"), full_page=True)


def test_a_swiss_event_from_the_form_to_live_standings_and_a_report(new_page, live_server_env, live_server_url):
    tag = uuid.uuid4().hex[:6]
    org = new_page()
    sign_up(org, f"org-{tag}")
    promote(live_server_env, f"org-{tag}")

    org.goto("/")
    org.get_by_test_id("nav-tournaments").click()
    org.get_by_test_id("new-tournament").click()
    org.get_by_label("Name").fill(f"Swiss {tag}")
    org.get_by_label("Game").select_option("yokai")
    org.get_by_label("Format").select_option("swiss")
    org.get_by_label("Players per table").select_option("2")
    org.get_by_label("Round time limit (minutes)").fill("45")
    expect(org.locator("fieldset[data-game=yashima]")).to_be_hidden()  # only the chosen game's options
    org.locator("fieldset[data-game=yokai]").get_by_label("Turn clock (seconds)").fill("120")
    shot(org, "1-create-form")
    org.get_by_role("button", name="Create").click()
    org.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]{36}/$"))
    expect(org.locator(".messages")).to_contain_text("open for registration")
    url = org.url
    tournament_id = url.rstrip("/").rsplit("/", 1)[1]

    watcher = new_page()  # anonymous, kept open and never reloaded
    watcher.add_init_script("window.KamizaSyncIntervalMs = 1000")  # its idle resync, see the end
    watcher.goto(url)
    expect(watcher.locator("#tournament-connection")).to_have_text("live")
    mark_no_reload(watcher)

    players, names = [], [f"p{i}-{tag}" for i in range(4)]
    for i, name in enumerate(names):
        page = new_page()
        sign_up(page, name)
        page.goto(url)
        page.get_by_test_id("register").click()
        expect(page.locator(".messages")).to_contain_text("You are registered.")
        players.append(page)
        expect(watcher.get_by_test_id("entrants").locator("li")).to_have_count(i + 1)
    expect(watcher.get_by_test_id("entrants")).to_contain_text(names[3])
    shot(watcher, "2-registered")
    late = new_page()  # signed up too late, the page open since registration; never reloaded either
    sign_up(late, f"late-{tag}")
    late.goto(url)
    expect(late.get_by_test_id("register")).to_be_visible()
    expect(players[3].get_by_test_id("withdraw")).to_have_text("Withdraw")
    mark_no_reload(late)
    mark_no_reload(players[3])

    org.reload()
    org.once("dialog", lambda dialog: dialog.accept())  # "Start ... now with N entrants?" (confirm.js)
    org.get_by_test_id("start").click()
    expect(org.locator(".messages")).to_contain_text("round 1 is paired")

    # "You are registered." is old news once the tournament has started
    expect(players[3].locator(".messages")).to_have_count(0)
    # the entry boxes follow the start live: registration closes, withdrawing becomes dropping out, and
    # a player's page offers to report a problem with their match
    expect(late.get_by_test_id("entry")).to_contain_text("Registration is closed.")
    expect(late.get_by_test_id("register")).to_have_count(0)
    expect(players[3].get_by_test_id("withdraw")).to_have_text("Drop out")
    expect(players[3].get_by_test_id("report-problem")).to_be_visible()
    assert_not_reloaded(late)
    assert_not_reloaded(players[3])

    round1 = watcher.get_by_test_id("pairings-round-1")
    expect(round1.locator("tbody tr")).to_have_count(2)
    expect(round1.get_by_test_id("watch")).to_have_count(2)
    expect(watcher.get_by_test_id("tournament-status")).to_contain_text("running")
    standings = watcher.get_by_test_id("standings")
    expect(watcher.get_by_test_id("no-standings")).to_be_visible()  # no result yet: the seeding is no standing
    table_text = round1.locator("tbody").inner_text()
    assert all(name in table_text for name in names)
    shot(watcher, "3-paired-live")

    # each player's match was created and started for them: the watch link on their own row
    match_of = {}
    for name, page in zip(names, players):
        page.goto(url)
        row = page.get_by_test_id("pairings-round-1").locator("tbody tr", has_text=name)
        row.get_by_test_id("watch").click()
        page.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
        match_of[name] = page.url.rstrip("/").rsplit("/", 1)[1]
        detail = json.loads(page.evaluate(f"fetch('/api/matches/{match_of[name]}/').then(r => r.text())"))
        assert detail["status"] == "active" and detail["your_seat"] is not None, detail
        assert detail["options"]["turn_seconds"] == 120, detail
    shot(players[0], "4-player-match")

    # table 1 is played to its end through the API, by its two players
    (table1,) = api(live_server_url, f"/api/tournaments/{tournament_id}/pairings/?round=1")[:1]
    match_id = table1["match_id"]
    seated = [n for n in names if match_of[n] == match_id]
    assert len(seated) == 2
    detail = api(live_server_url, f"/api/matches/{match_id}/")
    tokens = {}
    for seat, s in enumerate(detail["seat_list"]):
        tokens[seat] = api(live_server_url, "/api/auth/token/", body={"username": s["username"], "password": PASSWORD})["token"]
    finished = play_to_the_end(live_server_url, match_id, tokens, random.Random(tag))
    winners = [finished["seat_list"][s]["username"] for s in finished["winners"]]

    # the open page shows the result and the standings without a reload
    first_row = round1.locator("tbody tr[data-table='1']")
    expect(first_row).to_contain_text("played")
    expect(standings.locator("tbody tr").first).to_contain_text(winners[0] if len(winners) == 1 else seated[0])
    if len(winners) == 1:
        expect(standings.locator("tbody tr").first.locator("td").nth(2)).to_have_text("3")
    expect(standings.locator("tbody tr", has_text=seated[0]).locator("td").nth(3)).to_have_text("1")  # played
    expect(standings.locator("tbody tr")).to_have_count(4)
    assert_not_reloaded(watcher)
    shot(watcher, "5-result-live")
    # the standings fit their card at 1280 px, every tiebreak column in view; on a phone the tiebreak
    # columns give way (the note under the table says so): the table fits, nothing scrolls sideways
    expect(standings.locator("th").last).to_have_text("Head-to-head")
    assert watcher.evaluate(STANDINGS_FIT_JS) == {"wrap": True, "last_in_view": True, "name_in_view": True, "page": True}
    watcher.set_viewport_size({"width": 390, "height": 844})
    fit = watcher.evaluate(STANDINGS_FIT_JS)
    assert fit["page"] and fit["wrap"] and fit["name_in_view"], fit
    expect(standings.locator("th.tiebreak").first).to_be_hidden()
    expect(watcher.locator(".narrow-only").first).to_be_visible()
    shot(watcher, "5-result-phone")
    watcher.set_viewport_size({"width": 1280, "height": 900})

    # meanwhile the round's time runs out: the clock loop (a process of its own, as `dev.py serve` runs
    # it) has the worker end the other table by the engine's SYSTEM time_limit and pair round 2
    clock_loop = subprocess.Popen([sys.executable, "-c", TIME_UP_PY, tournament_id], cwd=ROOT, env=live_server_env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    # a player of that table reports a problem from the tournament page; the open page marks it
    reporter = players[names.index(seated[1])]
    reporter.goto(url)
    reporter.get_by_test_id("report-problem").locator("summary").click()
    reporter.get_by_label("Match", exact=True).select_option(f"1:{table1['table']}")
    reporter.get_by_label("What happened?").fill("My opponent's last attack should have missed.")
    reporter.get_by_test_id("send-report").click()
    expect(reporter.locator(".messages")).to_contain_text("sent to the judges")
    expect(first_row.get_by_test_id("table-dispute")).to_have_text("under review")
    expect(standings.get_by_test_id("standing-dispute")).to_have_count(2)
    assert_not_reloaded(watcher)
    shot(watcher, "6-report-live")

    # the clock loop's push cannot reach this server's sockets in the embedded mode: the page's idle
    # resync brings round 2
    output, _ = clock_loop.communicate(timeout=120)
    assert clock_loop.returncode == 0, output
    expect(round1.locator("tbody tr[data-table='2']")).to_contain_text("on time")
    expect(watcher.get_by_test_id("pairings-round-2").locator("tbody tr")).to_have_count(2)
    expect(watcher.get_by_test_id("tournament-status")).to_contain_text("round 2")
    assert_not_reloaded(watcher)
    shot(watcher, "7-round-2-live")
    assert watcher.console_errors == []

    # on a phone the organizer's list, account and tournament pages never scroll sideways
    org.set_viewport_size({"width": 390, "height": 844})
    for path in ("/tournaments/", "/account/", url):
        org.goto(path)
        assert_fits_width(org)


CREATE_TEAM_EVENT_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.tournaments import services
organizer = get_user_model().objects.get(username=sys.argv[1])
t = services.tournament_create(creator=organizer, name=sys.argv[2], game="yashima", format="swiss", table_size=4,
                               teams=True, round_minutes=30, match_options={"turn_seconds": 60})
print(t.pk)
"""


def test_a_team_invitation_and_the_start_reach_open_pages_without_a_reload(new_page, live_server_env):
    """The entry box is live: the invited partner's open page shows the invitation (which the tournament
    socket does not carry: the page's idle resync refreshes a team event's box), and the start closes
    registration on a page that was offering it, both without a reload."""
    tag = uuid.uuid4().hex[:6]
    org = new_page()
    sign_up(org, f"torg-{tag}")
    promote(live_server_env, f"torg-{tag}")
    created = server_side(live_server_env, CREATE_TEAM_EVENT_PY, f"torg-{tag}", f"Pairs {tag}")
    url = f"/tournaments/{created.strip().splitlines()[-1]}/"

    inviter, partner = new_page(), new_page()
    partner.add_init_script("window.KamizaSyncIntervalMs = 1000")
    sign_up(inviter, f"ta-{tag}")
    sign_up(partner, f"tb-{tag}")
    partner.goto(url)
    expect(partner.locator("#tournament-connection")).to_have_text("live")
    expect(partner.get_by_test_id("invitation-received")).to_have_count(0)
    mark_no_reload(partner)

    inviter.goto(url)
    inviter.get_by_label("Partner's username").fill(f"tb-{tag}")
    inviter.get_by_test_id("register").click()
    expect(inviter.get_by_test_id("invitation-sent")).to_contain_text(f"tb-{tag}")
    expect(partner.get_by_test_id("invitation-received")).to_contain_text(f"ta-{tag}")
    assert_not_reloaded(partner)
    partner.get_by_test_id("accept-invitation").click()
    expect(partner.locator(".messages")).to_contain_text("Your team is registered.")

    # a watcher signed in but not entered keeps the page open; two more teams register; the start
    # closes the registration the page was offering
    late = new_page()
    late.add_init_script("window.KamizaSyncIntervalMs = 1000")
    sign_up(late, f"tl-{tag}")
    late.goto(url)
    expect(late.get_by_test_id("register")).to_be_visible()
    mark_no_reload(late)
    for i in range(2):
        a, b = new_page(), new_page()
        sign_up(a, f"t{i}a-{tag}")
        sign_up(b, f"t{i}b-{tag}")
        a.goto(url)
        a.get_by_label("Partner's username").fill(f"t{i}b-{tag}")
        a.get_by_test_id("register").click()
        b.goto(url)
        b.get_by_test_id("accept-invitation").click()
        expect(b.locator(".messages")).to_contain_text("Your team is registered.")
    org.goto(url)
    org.once("dialog", lambda dialog: dialog.accept())  # "Start ... now with N entrants?" (confirm.js)
    org.get_by_test_id("start").click()
    expect(org.locator(".messages")).to_contain_text("round 1 is paired")
    expect(late.get_by_test_id("entry")).to_contain_text("Registration is closed.")
    expect(late.get_by_test_id("register")).to_have_count(0)
    assert_not_reloaded(late)
    assert late.console_errors == [] and partner.console_errors == []
