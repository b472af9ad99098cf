"""The tournament page in a real browser, as the organizer's play-through found it: destructive actions
ask first (``static/js/confirm.js`` on ``data-confirm``: dismissed, nothing happens; accepted, the form
submits), and the standings and pairings keep their "under review" / "corrected" badges inside
their cards from 1280 to 1920 px."""

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import server_side
from .test_match_flow import sign_up
from .test_tournament_flow import shot

pytestmark = pytest.mark.e2e

# a registering event with the first player entered, and a running one whose round 1 has a report
# still open on one table and an override on another (the two badges), for the named players
SETUP_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from games.tournaments import reports, services
from games.tournaments.models import EntrantMember, TournamentTable
from games.tournaments.policies import tournament_advance, tournament_match_finished
User = get_user_model()
org, *names = sys.argv[1:]
organizer = User.objects.get(username=org)
organizer.groups.add(Group.objects.get(name="organizers"))
players = [User.objects.create_user(username=n, password="x-unused-9876") if not User.objects.filter(username=n).exists()
           else User.objects.get(username=n) for n in names]
def make(name):
    return services.tournament_create(creator=organizer, name=name, game="yokai", format="swiss", table_size=2,
                                      round_minutes=30, match_options={"turn_seconds": 60}, rounds=3)
waiting = make("Confirm Cup " + org)
services.tournament_register(tournament_id=waiting.pk, user=players[0])
running = make("A Rather Long Running Championship Name " + org)
for p in players:
    services.tournament_register(tournament_id=running.pk, user=p)
services.tournament_start(tournament_id=running.pk, user=organizer)
tournament_advance(tournament_id=running.pk)
tables = list(TournamentTable.objects.filter(tournament=running, round=1).order_by("table"))
for t in tables[:2]:
    tournament_match_finished(match_id=t.match_id, winners=[0])
def player(t):
    return EntrantMember.objects.filter(entrant_id=int(t.entrant_ids[0])).get().user
reports.report_file(match_id=tables[0].match_id, user=player(tables[0]), seq=1, text="a misclick")
fixed = reports.report_file(match_id=tables[1].match_id, user=player(tables[1]), seq=1, text="the clock")
judge = User.objects.create_user(username="judge-" + org, password="x-unused-9876", is_staff=True)
a, b = tables[1].entrant_ids
reports.report_resolve(report_id=fixed.pk, user=judge, decision="override", places={a: 2, b: 1}, reason="clock fault")
print(waiting.pk, running.pk)
"""
# every table of the page scrolls nothing sideways inside its card
TABLES_FIT_JS = """() => [...document.querySelectorAll('.tournament-grid .table-wrap')].map(
  (w) => ({label: w.getAttribute('aria-label') || w.getAttribute('aria-labelledby'),
           fits: w.scrollWidth <= w.clientWidth}))"""


def test_withdraw_asks_first_and_the_badges_fit_their_cards(new_page, live_server_env, live_server_url):
    tag = uuid.uuid4().hex[:6]
    org = new_page()
    sign_up(org, f"org-{tag}")
    player = new_page()
    sign_up(player, f"first-{tag}")
    names = [f"first-{tag}"] + [f"p{i}-{tag}" for i in range(5)]
    waiting, running = server_side(live_server_env, SETUP_PY, f"org-{tag}", *names).split()

    player.goto(f"/tournaments/{waiting}/")
    entry = player.get_by_test_id("entry")
    expect(entry).to_contain_text("You are entered as")
    asked = []
    player.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    player.get_by_test_id("withdraw").click()
    player.wait_for_timeout(300)
    assert asked and asked[0].startswith("Withdraw from Confirm Cup")
    expect(entry).to_contain_text("You are entered as")  # dismissed: nothing was sent
    player.once("dialog", lambda d: d.accept())
    player.get_by_test_id("withdraw").click()
    expect(player.locator("ul.messages")).to_contain_text("You have withdrawn.")
    expect(player.get_by_test_id("register")).to_be_visible()

    org.goto(f"/tournaments/{running}/")
    expect(org.get_by_test_id("standing-dispute").first).to_be_visible()
    expect(org.get_by_test_id("table-dispute").first).to_be_visible()
    for width in (1280, 1440, 1920):
        org.set_viewport_size({"width": width, "height": 900})
        org.wait_for_timeout(200)
        fits = org.evaluate(TABLES_FIT_JS)
        assert fits and all(t["fits"] for t in fits), (width, fits)
    shot(org, "badges-1280")
    assert not [e for e in player.console_errors if "HTTP" not in e], player.console_errors
