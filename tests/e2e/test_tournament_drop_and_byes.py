"""A Swiss tournament in a real browser, as a reviewer's play-through found it: dropping out now says
that the match being played is lost and then "You have dropped out"; the pairings say the match the
drop ended was lost by dropping out; the standings count games and show a bye beside them (and say a
bye counts from its round's pairing), head-to-head reads "–" where it does not apply; and the
tournament list fits a 390 px phone with Status and Starts in view. Screenshots at 1280 and 390 px go
to var/screenshots (or E2E_SHOTS_DIR)."""

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import REVIEW_SHOTS, server_side, shot_at_widths
from .test_match_flow import sign_in

pytestmark = pytest.mark.e2e
PASSWORD = "paper-lantern-42"

# a five-player Yokai Swiss of three rounds: round 1 has two tables and a bye; table 1 ended on time,
# table 2 is still played. Prints the tournament, the organizer and a player of table 2.
SETUP_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.tournaments import services
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play
from tests.tournaments.play import end_by_time_limit, round_matches
User = get_user_model()
tag, password = sys.argv[1:]
organizer = User.objects.create_user(username="org-" + tag, password=password, is_staff=True)
players = [User.objects.create_user(username=f"newbie{i}-" + tag, password=password) for i in range(1, 6)]
t = services.tournament_create(creator=organizer, name="Winter Swiss " + tag, game="yokai", format="swiss",
                               table_size=2, rounds=3, round_minutes=30, match_options={"turn_seconds": 600})
for p in players:
    services.tournament_register(tournament_id=t.pk, user=p)
from datetime import timedelta
from django.utils import timezone
services.tournament_create(creator=organizer, name="Spring Open for newcomers " + tag, game="yashima",
                           format="swiss_top_cut", top_cut=4, table_size=2, round_minutes=30,
                           match_options={"turn_seconds": 600}, starts_at=timezone.now() + timedelta(days=3))
tournament_start_and_play(tournament_id=t.pk, user=organizer)
first, second = round_matches(t.pk, 1)
end_by_time_limit(first)
tournament_match_finished(match_id=first)
table = TournamentTable.objects.get(tournament=t, round=1, match_id=second)
from games.tournaments.models import EntrantMember
dropper = next(p for p in players
               if str(EntrantMember.objects.get(tournament=t, user=p).entrant_id) in table.entrant_ids)
print(t.pk, organizer.username, dropper.username)
"""


def test_dropping_out_the_standings_and_the_list(new_page, live_server_env):
    tid, organizer, dropper = server_side(live_server_env, SETUP_PY, uuid.uuid4().hex[:6], PASSWORD).split()[-3:]
    org = new_page()
    sign_in(org, organizer, f"/tournaments/{tid}/")
    # the standings: games without the bye, the bye beside them and said to count already
    standings = org.get_by_test_id("standings")
    expect(standings.locator("th").nth(3)).to_have_text("Games")
    expect(standings.get_by_test_id("standing-byes")).to_have_text("+ 1 bye")
    expect(org.get_by_test_id("byes-explained")).to_contain_text("bye of round 1 is already in the points")
    expect(org.get_by_test_id("bye-points")).to_have_text("3 points")
    expect(standings).to_contain_text("–")
    shot_at_widths(org, "tourney2-standings")

    # the player of the table still played: Drop out asks, saying the match is lost
    page = new_page()
    sign_in(page, dropper, f"/tournaments/{tid}/")
    expect(page.get_by_test_id("your-match")).to_contain_text("Your match is ready")
    shot_at_widths(page, "tourney2-drop-confirm")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_test_id("withdraw").click()
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Drop out of Winter Swiss")
    assert "Your match in round 1 (table 2) ends now and counts as a loss. You are not paired again" in asked[0]
    (REVIEW_SHOTS / "tourney2-drop-confirm.txt").write_text(asked[0] + "\n")
    page.once("dialog", lambda d: d.accept())
    page.get_by_test_id("withdraw").click()
    expect(page.locator("ul.messages")).to_contain_text(
        "You have dropped out: you are not paired again, and your results so far stay.")
    expect(page.get_by_test_id("dropped")).to_be_visible()
    round1 = page.get_by_test_id("pairings-round-1")
    expect(round1.locator('tr[data-table="2"]')).to_contain_text(f"lost: {dropper} dropped out")
    shot_at_widths(page, "tourney2-after-drop")

    # the list fits a phone: nothing scrolls sideways, Status and Starts are in view
    page.goto("/tournaments/")
    page.set_viewport_size({"width": 390, "height": 900})
    page.wait_for_timeout(150)
    wrap = page.locator(".table-wrap").first
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for header in ("Status", "Starts"):
        box = page.get_by_role("columnheader", name=header).bounding_box()
        assert box and box["x"] + box["width"] <= 390
    expect(page.get_by_test_id("list-sub").first).to_be_visible()
    shot_at_widths(page, "tourney2-list")
