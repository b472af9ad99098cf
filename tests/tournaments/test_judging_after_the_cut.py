"""Reports on elimination rounds the bracket has left, and overrides of Swiss rounds after a top cut:
an Uphold always closes a report; an Override of a round the bracket has left is refused; a new
report on such a round is refused (``bracket_moved_on``); overriding a Swiss round once the cut is
seeded is allowed, with a warning to the judge."""

import pytest
from django.test import Client

from games.tournaments import rebuild, reports, selectors, services
from games.tournaments.models import EntrantMember, MatchReport, Tournament, TournamentTable
from games.tournaments.policies import tournament_advance, tournament_match_finished

pytestmark = pytest.mark.django_db


def _event(organizer, make_user, **fields):
    t = services.tournament_create(creator=organizer, name="Cut Cup", game="yokai", table_size=2, round_minutes=30,
                                   match_options={"turn_seconds": 60}, **fields)
    players = [make_user() for _ in range(4)]
    for p in players:
        services.tournament_register(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_advance(tournament_id=t.pk)
    return t, players


def _player_of(table: TournamentTable):
    return EntrantMember.objects.filter(entrant_id=int(table.entrant_ids[0])).get().user


def _finish_round(t, round_no):
    for table in TournamentTable.objects.filter(tournament=t, round=round_no).exclude(match=None):
        tournament_match_finished(match_id=table.match_id, winners=[0])
    tournament_advance(tournament_id=t.pk)


def test_an_uphold_closes_a_report_on_a_round_the_bracket_has_left(organizer, make_user):
    t, _players = _event(organizer, make_user, format="single_elimination")
    table = TournamentTable.objects.get(tournament=t, round=1, table=1)
    report = reports.report_file(match_id=table.match_id, user=_player_of(table), seq=1, text="a misclick")
    _finish_round(t, 1)
    assert Tournament.objects.get(pk=t.pk).round == 2  # the bracket has moved on
    judge = make_user(is_staff=True)
    (item,) = reports.judge_queue()
    assert item["override_blocked"] is True and item["cut_warning"] is None
    staff_page = Client()
    staff_page.force_login(judge)
    html = staff_page.get("/staff/reports/").content.decode()
    assert 'data-testid="override-blocked"' in html and 'value="override" disabled' in html
    assert 'style="' not in html  # the strict CSP: no inline styles
    with pytest.raises(services.TournamentServiceError) as caught:
        reports.report_resolve(report_id=report.pk, user=judge, decision="override",
                               places={table.entrant_ids[0]: 2, table.entrant_ids[1]: 1}, reason="late")
    assert caught.value.code == "bracket_moved_on"
    reports.report_resolve(report_id=report.pk, user=judge, decision="uphold", reason="the result stands")
    assert reports.judge_queue() == []
    t.refresh_from_db()
    standings = selectors.tournament_standings(t)
    assert all(r["status"] == "upheld" for row in standings for r in row["reports"])
    assert rebuild.check(t.pk) == []


def test_a_new_report_on_a_round_the_bracket_has_left_is_refused(organizer, make_user, client_for):
    t, _players = _event(organizer, make_user, format="single_elimination")
    _finish_round(t, 1)
    table = TournamentTable.objects.get(tournament=t, round=1, table=1)
    res = client_for(_player_of(table)).post(f"/api/matches/{table.match_id}/reports/", {"seq": 1, "text": "late"},
                                             format="json")
    assert (res.status_code, res.json()["code"]) == (409, "bracket_moved_on")
    assert not MatchReport.objects.exists()  # nothing half-filed
    # the current round (the final) can still be reported
    final = TournamentTable.objects.get(tournament=t, round=2, table=1)
    res = client_for(_player_of(final)).post(f"/api/matches/{final.match_id}/reports/", {"seq": 1, "text": "now"},
                                             format="json")
    assert res.status_code == 201


def test_overriding_a_swiss_round_after_the_cut_warns_the_judge(organizer, make_user, client_for):
    t, _players = _event(organizer, make_user, format="swiss_top_cut", top_cut=4, rounds=1)
    table = TournamentTable.objects.get(tournament=t, round=1, table=1)
    report = reports.report_file(match_id=table.match_id, user=_player_of(table), seq=1, text="clock trouble")
    (item,) = reports.judge_queue()
    assert item["cut_warning"] is None  # no cut yet
    _finish_round(t, 1)
    assert services.state_of(t.pk).rounds[-1].stage == "elimination"
    (item,) = reports.judge_queue()
    assert item["cut_warning"] == services.CUT_WARNING and item["override_blocked"] is False
    judge = make_user(is_staff=True)
    staff_page = Client()
    staff_page.force_login(judge)
    assert 'data-testid="cut-warning"' in staff_page.get("/staff/reports/").content.decode()
    a, b = table.entrant_ids
    res = client_for(judge).post(f"/api/admin/reports/{report.pk}/resolve/",
                                 {"decision": "override", "places": {a: 2, b: 1}, "reason": "clock fault"},
                                 format="json")
    assert res.status_code == 200 and res.json()["warning"] == services.CUT_WARNING
    assert rebuild.check(t.pk) == []
