"""Disputes: a seated player reports a tournament match at a seq; a judge upholds or overrides the
result from the staff queue; both are append-only and recorded in the tournament log."""

import uuid

import pytest

from games.application.services import Actor, match_submit_system_command
from games.tournaments import selectors, services
from games.tournaments.models import MatchReport, ReportResolution, Tournament, TournamentRecord, TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user):
    """A 2-entrant Yokai event whose one match ended (the time limit) and was counted."""
    organizer = make_user(is_staff=True)
    t = services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   rounds=1, round_minutes=20)
    players = [make_user(), make_user()]
    for p in players:
        services.tournament_register(tournament_id=t.pk, user=p)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    match_submit_system_command(match_id=table.match_id, actor=Actor(kind="worker", extra={"purpose": "time_limit"}),
                                command_id=uuid.uuid4(), type_="time_limit", args={})
    tournament_match_finished(match_id=table.match_id)  # the test database never commits: react by hand
    return t, table, players


def _report(client_for, user, match_id, **body):
    return client_for(user).post(f"/api/matches/{match_id}/reports/", body, format="json")


def test_a_seated_player_files_a_report_pinned_to_a_seq(played, client_for):
    t, table, (alice, _bob) = played
    r = _report(client_for, alice, table.match_id, seq=2, text="the clock skipped my turn")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["seq"] == 2 and body["round"] == 1 and body["table"] == 1 and body["resolution"] is None
    assert body["reporter"] == alice.username and body["match_id"] == str(table.match_id)


def test_reports_are_refused_to_others_and_beyond_the_head(played, client_for, make_user, api):
    t, table, (alice, _bob) = played
    stranger = make_user()
    r = _report(client_for, stranger, table.match_id, seq=1, text="I saw it")
    assert (r.status_code, r.json()["code"]) == (403, "not_a_player")
    head = table.match.__class__.objects.get(pk=table.match_id).head_seq
    r = _report(client_for, alice, table.match_id, seq=head + 1, text="later")
    assert (r.status_code, r.json()["code"]) == (422, "seq_beyond_head")
    r = _report(client_for, alice, table.match_id, seq=0, text="zero")
    assert r.status_code == 400 and r.json()["code"] == "malformed"
    r = _report(client_for, alice, table.match_id, seq=1, text="   ")
    assert r.status_code in (400, 422)
    r = _report(client_for, alice, uuid.uuid4(), seq=1, text="nowhere")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    assert api.post(f"/api/matches/{table.match_id}/reports/", {"seq": 1, "text": "x"}, format="json").status_code == 401
    assert MatchReport.objects.count() == 0


def test_a_judge_upholds_or_overrides_and_the_standings_follow(played, client_for, make_user):
    t, table, (alice, bob) = played
    judge = make_user(is_staff=True)
    first = _report(client_for, alice, table.match_id, seq=1, text="wrong").json()
    second = _report(client_for, bob, table.match_id, seq=2, text="also wrong").json()
    staff = client_for(judge)
    assert client_for(alice).get("/api/admin/reports/").status_code == 403
    queue = staff.get("/api/admin/reports/").json()
    assert [q["id"] for q in queue] == [first["id"], second["id"]]

    r = staff.post(f"/api/admin/reports/{first['id']}/resolve/", {"decision": "uphold", "reason": "as played"},
                   format="json")
    assert r.status_code == 200 and r.json()["resolution"]["decision"] == "uphold"
    again = staff.post(f"/api/admin/reports/{first['id']}/resolve/", {"decision": "uphold"}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_resolved")

    winner, loser = table.entrant_ids
    no_reason = staff.post(f"/api/admin/reports/{second['id']}/resolve/",
                           {"decision": "override", "places": {winner: 1, loser: 2}, "reason": " "}, format="json")
    assert (no_reason.status_code, no_reason.json()["code"]) == (422, "reason_required")
    r = staff.post(f"/api/admin/reports/{second['id']}/resolve/",
                   {"decision": "override", "places": {winner: 1, loser: 2}, "reason": "seat 1 left the table"},
                   format="json")
    assert r.status_code == 200, r.json()
    assert staff.get("/api/admin/reports/").json() == []
    kinds = list(TournamentRecord.objects.filter(tournament=t).values_list("kind", flat=True))
    assert kinds[-2:] == ["adjudicated", "overridden"]
    assert ReportResolution.objects.get(report_id=second["id"]).record_seq == Tournament.objects.get(pk=t.pk).head_seq
    (pairing,) = selectors.tournament_pairings(t)
    assert pairing["result"]["by"] == "judge" and pairing["result"]["winners"] == [winner]
    top = selectors.tournament_standings(t)[0]
    assert top["entrant_id"] == winner and top["points"] == 3


def test_the_staff_queue_page_links_each_report_to_the_log_review_at_its_seq(played, client_for, make_user, client):
    t, table, (alice, _bob) = played
    report = _report(client_for, alice, table.match_id, seq=2, text="look here").json()
    judge = make_user(is_staff=True)
    client.force_login(judge)
    page = client.get("/staff/reports/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/staff/matches/{table.match_id}/?at=2#seq-2" in html and "look here" in html
    winner, loser = table.entrant_ids
    r = client.post(f"/staff/reports/{report['id']}/resolve/",
                    {"decision": "override", f"place-{winner}": "2", f"place-{loser}": "1", "reason": "misclick"})
    assert r.status_code == 302
    assert "look here" not in client.get("/staff/reports/").content.decode()
    (pairing,) = selectors.tournament_pairings(t)
    assert pairing["result"]["winners"] == [loser]
    client.force_login(alice)
    assert client.get("/staff/reports/").status_code == 302  # to the admin login
