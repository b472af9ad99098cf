"""The replay page /matches/{id}/replay/: the shell replay.js fills from the replay API, the link to it
from a finished match's page (and a tournament's finished tables), and a tournament player's report of
the moment shown."""

import json
import re
import uuid
from html import unescape

import pytest
from django.test import Client

from games.application import selectors
from games.eventstore.models import MatchEvent
from games.tournaments.models import MatchReport, TournamentRecord, TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play
from tests.tournaments.play import end_by_time_limit, yokai_cup

pytestmark = pytest.mark.django_db


def _boot(html: str) -> dict:
    return json.loads(unescape(html.split('<script id="replay-boot" type="application/json">')[1].split("</script>")[0]))


def _executable_scripts_are_files(html: str) -> bool:
    tags = [t for t in re.findall(r"<script\b[^>]*>", html) if "application/json" not in t]
    return all(re.search(r"\bsrc=", tag) for tag in tags)


def test_a_finished_match_has_a_replay_page_linked_from_its_match_page(finished_pebbles, make_user):
    match, users = finished_pebbles()
    page = Client().get(f"/matches/{match.pk}/replay/")  # anyone who could watch it
    html = page.content.decode()
    assert page.status_code == 200 and _executable_scripts_are_files(html)
    boot = _boot(html)
    first_game_event = MatchEvent.objects.filter(match=match).exclude(
        type__in=["MatchCreated", "SeatTaken", "MatchStarted"]).order_by("seq").first()
    assert boot["head"] == match.head_seq and boot["start"] == first_game_event.seq
    assert boot["api"] == f"/api/matches/{match.pk}/replay/" and boot["my_seat"] is None
    assert [s["name"] for s in boot["seats"]] == [u.username for u in users]
    assert "js/replay.js" in html and 'data-testid="replay-slider"' in html and 'data-testid="replay-seat"' in html
    assert "Report this moment" not in html  # not a tournament match
    # the step buttons say they go from move to move (replay.js counts them: "Move 3 of 41 · step 12 of 113")
    assert 'data-testid="replay-hint"' in html and "skipping the bookkeeping steps" in html
    as_player = Client()
    as_player.force_login(users[1])
    assert _boot(as_player.get(f"/matches/{match.pk}/replay/").content.decode())["my_seat"] == 1
    match_page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f'<p id="replay-link"><a href="/matches/{match.pk}/replay/" data-testid="replay-link">' in match_page


def test_a_running_match_has_no_replay_yet(started_pebbles):
    match, _users = started_pebbles()
    html = Client().get(f"/matches/{match.pk}/replay/").content.decode()
    assert 'data-testid="replay-unavailable"' in html and "js/replay.js" not in html
    assert '<p id="replay-link" hidden>' in Client().get(f"/matches/{match.pk}/").content.decode()
    assert Client().get(f"/matches/{uuid.uuid4()}/replay/").status_code == 404


def test_a_tournament_player_reports_the_moment_the_replay_shows(make_user):
    organizer, t, (alice, _bob) = yokai_cup(make_user, players=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)
    as_alice = Client()
    as_alice.force_login(alice)
    html = as_alice.get(f"/matches/{table.match_id}/replay/").content.decode()
    assert 'data-testid="replay-report"' in html
    assert 'data-testid="replay-report"' not in Client().get(f"/matches/{table.match_id}/replay/").content.decode()
    r = as_alice.post(f"/matches/{table.match_id}/replay/report/", {"seq": "6", "text": "this attack looks wrong"})
    assert r.status_code == 302 and r["Location"] == f"/matches/{table.match_id}/replay/?at=6"
    (report,) = MatchReport.objects.all()
    assert (report.seq, report.reporter, report.text) == (6, alice, "this attack looks wrong")
    assert TournamentRecord.objects.filter(tournament=t, kind="reported").count() == 1
    stranger = Client()
    stranger.force_login(make_user())
    r = stranger.post(f"/matches/{table.match_id}/replay/report/", {"seq": "6", "text": "x"}, follow=True)
    assert "not_a_player" in r.content.decode() and MatchReport.objects.count() == 1
    tournament_page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="/matches/{table.match_id}/replay/" data-testid="replay"' in tournament_page
    assert selectors.state_load(selectors.match_get(table.match_id))["lobby"]["status"] == "finished"

