"""A player reports a chosen moment of their running tournament match to the judges, from the match
page: they open "Report a moment to the judges", click an earlier line of the history (the list follows
and the line is marked), describe the problem and send it. The report (POST /api/matches/{id}/reports/)
is pinned to that line's moment, not to the match's latest point; the tournament page then marks the
table "under review". A spectator's page has no such panel."""

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import server_side
from .test_match_flow import sign_up
from .test_tournament_flow import shot

pytestmark = pytest.mark.e2e

SETUP_PY = """
import json, sys, uuid, django
django.setup()
from django.contrib.auth import get_user_model
from games.application import selectors
from games.application.services import Actor, match_submit_command
from games.eventstore.models import Match
from games.kernel import Rng
from games.tournaments import services
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_start_and_play
User = get_user_model()
organizer = User.objects.create_user(username="org-" + sys.argv[3], password="x-pass-98765", is_staff=True)
t = services.tournament_create(creator=organizer, name="Moment Cup " + sys.argv[3], game="yokai", format="swiss",
                               table_size=2, rounds=1, round_minutes=60, match_options={"turn_seconds": 600})
for name in sys.argv[1:3]:
    services.tournament_register(tournament_id=t.pk, user=User.objects.get(username=name))
tournament_start_and_play(tournament_id=t.pk, user=organizer)
match = TournamentTable.objects.get(tournament=t, round=1).match
for n in range(6):  # a few bot moves, so the history has moments to choose from
    match.refresh_from_db()
    state = selectors.state_load(match)
    engine = selectors.engine_of(match)
    seat = [s for s in engine.status(state["game"]).awaiting if isinstance(s, int)][0]
    command = engine.bot_command(state["game"], seat, Rng(bytes.fromhex(match.seed), f"e2e:{n}"))
    match_submit_command(match_id=match.pk, seat=seat, actor=Actor(kind="user", user_id=state["lobby"]["seats"][seat]["user_id"]),
                         command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=command["type"],
                         args=command.get("args", {}))
match.refresh_from_db()
print("IDS", json.dumps({"tournament": str(t.pk), "match": str(match.pk), "head": match.head_seq}))
"""

REPORTS_PY = """
import sys, json, django
django.setup()
from games.tournaments.models import MatchReport
print("REPORTS", json.dumps([[r.seq, r.text] for r in MatchReport.objects.filter(match_id=sys.argv[1])]))
"""


def _server_json(env, script, marker, *args):
    """Run a snippet against the live server's database; the JSON it prints after ``marker``."""
    return json.loads(server_side(env, script, *args).split(marker, 1)[1].strip().splitlines()[0])


def test_a_player_reports_a_moment_they_choose_from_the_match_page(new_page, live_server_env):
    tag = uuid.uuid4().hex[:6]
    names = [f"rp{i}-{tag}" for i in range(2)]
    pages = []
    for name in names:
        page = new_page()
        sign_up(page, name)
        pages.append(page)
    ids = _server_json(live_server_env, SETUP_PY, "IDS", names[0], names[1], tag)

    player = pages[0]
    player.goto(f"/matches/{ids['match']}/")
    panel = player.get_by_test_id("match-report")
    expect(panel).to_be_visible()
    panel.locator("summary").click()
    history = player.get_by_test_id("log").locator("li.event:not([hidden])")
    expect(history.nth(3)).to_be_visible()
    lines = history.count()
    assert lines >= 5
    chosen = history.nth(lines - 4)  # an earlier moment, not the latest
    seq = int(chosen.get_attribute("data-seq"))
    assert seq < ids["head"]
    chosen.click()
    expect(chosen).to_have_class(re.compile(r"\breport-chosen\b"))
    expect(player.get_by_test_id("match-report-moment")).to_have_value(str(seq))
    expect(player.get_by_test_id("match-report-moment").locator("option:checked")).to_have_text(
        re.compile(re.escape(chosen.inner_text().strip()[:40])))
    player.get_by_label("What went wrong?").fill("Here my monster should not have been able to attack.")
    shot(player, "report-moment-1-chosen")
    player.get_by_test_id("match-report-send").click()
    expect(player.get_by_test_id("match-report-status")).to_contain_text("Sent.")
    shot(player, "report-moment-2-sent")

    reports = _server_json(live_server_env, REPORTS_PY, "REPORTS", ids["match"])
    assert reports == [[seq, "Here my monster should not have been able to attack."]]
    player.goto(f"/tournaments/{ids['tournament']}/")
    expect(player.get_by_test_id("table-dispute")).to_have_text("under review")

    spectator = new_page()
    spectator.goto(f"/matches/{ids['match']}/")
    expect(spectator.get_by_test_id("log")).to_be_attached()
    expect(spectator.get_by_test_id("match-report")).to_have_count(0)
    assert player.console_errors == []
