"""A paused round in a real browser, as the review found it (the player's Clock said "stopped: the
tournament is paused" under an organizer's page that said "round is paused", and the paused player's
seat still read "to play"): every place says "the round is paused", and the awaited seat's badges say
it plays when resumed. And a player who opens a staff page gets Kamiza's 403 page, not the admin's
sign-in form. Screenshots at 1280 and 390 px go to var/screenshots (or E2E_SHOTS_DIR)."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import server_side, shot_at_widths
from .test_match_flow import sign_in

pytestmark = pytest.mark.e2e
PASSWORD = "paper-lantern-42"

# a two-player Yokai cup whose organizer paused round 1 for a power cut; prints the tournament, the
# match and the awaited seat's and the other seat's usernames
SETUP_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.application import selectors
from games.eventstore.models import Match
from games.tournaments import services
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_start_and_play
User = get_user_model()
tag, password = sys.argv[1:]
organizer = User.objects.create_user(username="org-" + tag, password=password, is_staff=True)
players = [User.objects.create_user(username=n + "-" + tag, password=password) for n in ("alice", "carol")]
t = services.tournament_create(creator=organizer, name="Review Cup " + tag, game="yokai", format="swiss",
                               table_size=2, rounds=2, round_minutes=30, match_options={"turn_seconds": 60})
for p in players:
    services.tournament_register(tournament_id=t.pk, user=p)
tournament_start_and_play(tournament_id=t.pk, user=organizer)
services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="power cut")
table = TournamentTable.objects.get(tournament=t, round=1)
state = selectors.state_load(Match.objects.get(pk=table.match_id))
seats = [s["username"] for s in state["lobby"]["seats"]]
awaited = selectors.engine_of(Match.objects.get(pk=table.match_id)).status(state["game"]).awaiting[0]
print(t.pk, table.match_id, seats[awaited], seats[1 - awaited])
"""


def setup(server_env):
    tag = uuid.uuid4().hex[:6]
    return server_side(server_env, SETUP_PY, tag, PASSWORD).split()[-4:]


def test_a_paused_round_is_said_alike_everywhere_and_the_awaited_seat_waits(new_page, live_server_env):
    # given a running cup whose organizer paused round 1 for a power cut, on the awaited player's turn
    tid, match_id, awaited, other = setup(live_server_env)
    page = new_page()
    # when the awaited player opens their match page
    sign_in(page, awaited, f"/matches/{match_id}/")
    # then the banner, the Clock, the actions, the board's header and both "to play" badges say so alike
    expect(page.get_by_test_id("paused-banner")).to_have_text(
        "The round is paused by the organizer: power cut. Moves wait until it resumes; clocks are stopped.")
    expect(page.get_by_test_id("clock")).to_have_text("stopped: the round is paused")
    expect(page.locator("#seats li.awaiting .badge")).to_have_text("to play when resumed")
    expect(page.locator(".yk-player.is-awaited .badge")).to_have_text("to play when resumed")
    expect(page.locator("#board")).to_contain_text("Round paused")
    expect(page.locator("#board")).to_contain_text("Your move waits until the round resumes.")
    expect(page.locator("body")).not_to_contain_text("tournament is paused")
    expect(page.locator("body")).not_to_contain_text(re.compile(r"\bto play\b(?! when resumed)"))
    shot_at_widths(page, "paused-match-awaited")
    # and the tournament page says the same
    page.goto(f"/tournaments/{tid}/")
    expect(page.get_by_test_id("clock-paused")).to_have_text("round paused")
    expect(page.get_by_test_id("pause-reason")).to_contain_text("The round is paused by the organizer: “power cut”.")
    shot_at_widths(page, "paused-tournament")
    # and the other player reads who plays when the round resumes
    them = new_page()
    sign_in(them, other, f"/matches/{match_id}/")
    expect(them.get_by_test_id("clock")).to_have_text("stopped: the round is paused")
    expect(them.locator("#board")).to_contain_text(f"{awaited} will play when the round resumes.")
    shot_at_widths(them, "paused-match-other")


def test_a_player_who_opens_a_staff_page_gets_kamizas_refusal(new_page, live_server_env):
    tid, match_id, awaited, _other = setup(live_server_env)
    page = new_page()
    # given a signed-out visitor: Kamiza's own sign-in page, which comes back to the staff page
    page.goto(f"/staff/matches/{match_id}/")
    expect(page).to_have_url(re.compile(r"/login/\?next=/staff/matches/"))
    shot_at_widths(page, "staff-signed-out")
    # when a signed-in player (no staff rights) opens it
    page.get_by_label("Username").fill(awaited)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    # then a Kamiza page says these pages are for staff, with a link back
    expect(page.get_by_test_id("forbidden-reason")).to_have_text(
        "These pages are for Kamiza's staff only, and your account is not a staff account.")
    expect(page.get_by_test_id("whoami")).to_have_text(awaited)
    shot_at_widths(page, "staff-refused")
    page.get_by_test_id("forbidden-back").click()
    expect(page).to_have_url(re.compile(r"/$"))


# a four-player Yokai cup, round 1 of 2: table 1 ended, table 2 still played when its organizer paused
# the round for a power cut; prints the tournament and the organizer's username
ORGANIZER_SETUP_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.tournaments import services
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play
from tests.tournaments.play import end_by_time_limit, round_matches
User = get_user_model()
tag, password = sys.argv[1:]
organizer = User.objects.create_user(username="org-" + tag, password=password, is_staff=True)
players = [User.objects.create_user(username=n + "-" + tag, password=password) for n in ("alice", "ben", "carol", "dan")]
t = services.tournament_create(creator=organizer, name="Pause Cup " + tag, game="yokai", format="swiss",
                               table_size=2, rounds=2, round_minutes=30, match_options={"turn_seconds": 60})
for p in players:
    services.tournament_register(tournament_id=t.pk, user=p)
tournament_start_and_play(tournament_id=t.pk, user=organizer)
first = round_matches(t.pk, 1)[0]
end_by_time_limit(first)
tournament_match_finished(match_id=first)
services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="power cut")
print(t.pk, organizer.username)
"""

# the rest of round 1 ends while it is paused: round 2 waits for the organizer
END_ROUND_PY = """
import sys, django
django.setup()
from games.tournaments.models import TournamentRecord
from games.tournaments.policies import tournament_match_finished
from tests.tournaments.play import end_by_time_limit, round_matches
tid = sys.argv[1]
done = set(TournamentRecord.objects.filter(tournament_id=tid, round=1, kind="result").values_list("table", flat=True))
from games.tournaments.models import TournamentTable
for table in TournamentTable.objects.filter(tournament_id=tid, round=1, match__isnull=False).exclude(table__in=done):
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)
"""


def test_the_organizer_s_page_says_a_paused_round_once_beside_the_resume_button(new_page, live_server_env):
    # given round 1 of a cup paused by its organizer for a power cut, one table over, one still played
    tid, organizer = server_side(live_server_env, ORGANIZER_SETUP_PY, uuid.uuid4().hex[:6], PASSWORD).split()[-2:]
    page = new_page()
    # when the organizer opens the tournament's page
    sign_in(page, organizer, f"/tournaments/{tid}/")
    # then the pause is stated once, in its one wording, beside the Resume button (before: the status
    # line, a notice, the next-round line and the controls' help each said it again)
    notice = page.get_by_test_id("pause-reason")
    expect(notice).to_have_count(1)
    expect(notice).to_have_text("The round is paused: “power cut”.")
    expect(page.get_by_test_id("entry").get_by_test_id("pause-reason")).to_be_visible()
    expect(page.get_by_test_id("resume")).to_have_text("Resume the round")
    expect(page.locator("body")).not_to_contain_text("paused by the organizer")
    expect(page.locator("body")).not_to_contain_text("While the round is paused")
    assert page.locator("body").inner_text().count("power cut") == 1
    # and the status line and the pairings only badge it: the table still played reads "paused"
    expect(page.get_by_test_id("clock-paused")).to_have_text("round paused")
    pairings = page.get_by_test_id("pairings-round-1")
    expect(pairings.get_by_test_id("table-paused")).to_have_text("paused")
    expect(pairings).not_to_contain_text("playing")
    shot_at_widths(page, "paused-tournament-organizer")
    # when the last match of the round ends during the pause
    server_side(live_server_env, END_ROUND_PY, tid).split()
    page.reload()
    # then the one statement says the round is over and the next round waits
    expect(notice).to_have_count(1)
    expect(notice).to_have_text("Round over and paused (“power cut”): the next round waits for the organizer.")
    expect(page.get_by_test_id("resume")).to_have_text("Resume and pair round 2")
    expect(page.get_by_test_id("clock-paused")).to_have_text("round over, paused")
    expect(pairings.get_by_test_id("table-paused")).to_have_count(0)
    assert page.locator("body").inner_text().count("power cut") == 1
    shot_at_widths(page, "paused-tournament-organizer-round-over")
