"""A tournament's organizer judges the disputes of their own event (docs/tournaments.md, "Disputes"):
through the same write path as the staff queue (``reports.report_resolve`` -> ``tournament_uphold`` /
``tournament_override``), with the same audit trail (who ruled, in what role, when, why), from the API
and from the tournament page. Refused: an organizer of another tournament (``not_judge``), an
organizer or staff member who plays in the event (``conflict_of_interest``), anyone signed out (401). Staff keep their
powers everywhere."""

import pytest
from django.test import Client

from games.tournaments import rebuild, reports, selectors, services
from games.tournaments.models import MatchReport, ReportResolution, TournamentRecord, TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play

from .play import end_by_time_limit

pytestmark = pytest.mark.django_db


def _played(make_user, organizer, *, organizer_plays=False):
    """A 1-round Yokai event run by ``organizer`` (organizers group, not staff) whose one match ended
    and was counted: (tournament, table, players)."""
    t = services.tournament_create(creator=organizer, name="Club night", game="yokai", format="swiss", table_size=2,
                                   rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
    players = [organizer if organizer_plays else make_user(), make_user()]
    for player in players:
        services.tournament_register(tournament_id=t.pk, user=player)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)
    return t, table, players


def _report(client_for, user, table, text="the clock skipped my turn"):
    r = client_for(user).post(f"/api/matches/{table.match_id}/reports/", {"seq": 1, "text": text}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()["id"]


def test_the_organizer_upholds_and_corrects_results_with_the_staff_audit_trail(make_user, organizer, client_for):
    # given a dispute in the organizer's own event, filed twice
    t, table, (alice, bob) = _played(make_user, organizer)
    first, second = _report(client_for, alice, table), _report(client_for, bob, table, "no, I won")
    api = client_for(organizer)
    # when the organizer lists the event's reports
    listed = api.get(f"/api/tournaments/{t.pk}/reports/")
    # then they read the open ones, with their text
    assert listed.status_code == 200 and [r["id"] for r in listed.json()] == [first, second]
    assert listed.json()[0]["text"] == "the clock skipped my turn"
    # when they uphold the first and correct the result for the second
    upheld = api.post(f"/api/tournaments/{t.pk}/reports/{first}/resolve/",
                      {"decision": "uphold", "reason": "the log shows the clock ran out"}, format="json")
    loser, winner = sorted(table.entrant_ids, key=lambda e: selectors.tournament_pairings(t)[0]["result"]["points"][e])
    corrected = api.post(f"/api/tournaments/{t.pk}/reports/{second}/resolve/",
                         {"decision": "override", "places": {loser: 1, winner: 2}, "reason": "a misclick"},
                         format="json")
    # then both are rulings by the organizer, recorded like a staff judge's, and the standings follow
    assert upheld.status_code == 200 and corrected.status_code == 200, (upheld.json(), corrected.json())
    resolution = corrected.json()["resolution"]
    assert resolution["judge"] == organizer.username and resolution["role"] == "organizer" and resolution["at"]
    assert resolution["reason"] == "a misclick" and resolution["decision"] == "override"
    records = list(TournamentRecord.objects.filter(tournament=t, kind__in=("adjudicated", "overridden"))
                   .order_by("seq"))
    assert [r.payload["role"] for r in records] == ["organizer", "organizer"]
    assert [r.payload["judge"] for r in records] == [organizer.username] * 2
    assert [r.actor["user_id"] for r in records] == [organizer.pk] * 2 and all(r.at for r in records)
    assert records[0].payload["reason"] == "the log shows the clock ran out"
    assert ReportResolution.objects.get(report_id=second).judge == organizer
    assert selectors.tournament_standings(t)[0]["entrant_id"] == loser
    assert api.get(f"/api/tournaments/{t.pk}/reports/").json() == []
    assert [r["resolution"]["role"] for r in api.get(f"/api/tournaments/{t.pk}/reports/?status=all").json()] == \
        ["organizer", "organizer"]
    assert rebuild.check(t.pk) == []


def test_an_organizer_of_another_tournament_is_refused(make_user, organizer, client_for):
    # given a dispute in someone else's event
    t, table, (alice, _bob) = _played(make_user, organizer)
    report = _report(client_for, alice, table)
    other = make_user()
    other.groups.add(*organizer.groups.all())
    # when another organizer lists or rules on it
    listed = client_for(other).get(f"/api/tournaments/{t.pk}/reports/")
    ruled = client_for(other).post(f"/api/tournaments/{t.pk}/reports/{report}/resolve/", {"decision": "uphold"},
                                   format="json")
    # then both are refused, and nothing is written
    assert (listed.status_code, listed.json()["code"]) == (403, "not_judge")
    assert (ruled.status_code, ruled.json()["code"]) == (403, "not_judge")
    assert not ReportResolution.objects.exists()
    with pytest.raises(services.TournamentServiceError) as err:
        services.tournament_uphold(tournament_id=t.pk, user=other, round=1, table=1)
    assert err.value.code == "not_judge"
    # and a player is refused the same way
    assert client_for(alice).get(f"/api/tournaments/{t.pk}/reports/").json()["code"] == "not_judge"


def test_an_organizer_who_plays_in_the_event_has_a_conflict_of_interest(make_user, organizer, client_for):
    # given an event whose organizer plays in it, and a dispute about the organizer's own table
    t, table, (_organizer, bob) = _played(make_user, organizer, organizer_plays=True)
    report = _report(client_for, bob, table)
    # when the organizer tries to rule on it, by the API or the services
    listed = client_for(organizer).get(f"/api/tournaments/{t.pk}/reports/")
    ruled = client_for(organizer).post(f"/api/tournaments/{t.pk}/reports/{report}/resolve/",
                                       {"decision": "override", "places": dict.fromkeys(table.entrant_ids, 1),
                                        "reason": "a draw"}, format="json")
    # then it is refused with its own code, and nothing is written
    assert (listed.status_code, listed.json()["code"]) == (403, "conflict_of_interest")
    assert (ruled.status_code, ruled.json()["code"]) == (403, "conflict_of_interest")
    with pytest.raises(services.TournamentServiceError) as err:
        services.tournament_override(tournament_id=t.pk, user=organizer, round=1, table=1,
                                     places=dict.fromkeys(table.entrant_ids, 1), reason="a draw")
    assert err.value.code == "conflict_of_interest"
    assert not ReportResolution.objects.exists()
    assert not TournamentRecord.objects.filter(tournament=t, kind__in=("adjudicated", "overridden")).exists()
    # but staff still judge it
    judge = make_user(is_staff=True)
    r = client_for(judge).post(f"/api/tournaments/{t.pk}/reports/{report}/resolve/", {"decision": "uphold"},
                               format="json")
    assert r.status_code == 200 and r.json()["resolution"]["role"] == "staff"


def test_a_staff_member_who_plays_in_the_event_has_a_conflict_of_interest_too(make_user, organizer, client_for):
    # given an event in which a staff member plays, and a dispute about that staff member's table
    t = services.tournament_create(creator=organizer, name="Staff night", game="yokai", format="swiss", table_size=2,
                                   rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
    staff_player, bob = make_user(is_staff=True), make_user()
    for player in (staff_player, bob):
        services.tournament_register(tournament_id=t.pk, user=player)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)
    report = _report(client_for, bob, table)
    # when the playing staff member rules on it, from the tournament's API or the admin queue
    ruled = client_for(staff_player).post(f"/api/tournaments/{t.pk}/reports/{report}/resolve/",
                                          {"decision": "override", "places": dict.fromkeys(table.entrant_ids, 1),
                                           "reason": "a draw"}, format="json")
    queued = client_for(staff_player).post(f"/api/admin/reports/{report}/resolve/", {"decision": "uphold"},
                                           format="json")
    # then both are refused as a conflict of interest (before: staff ruled on their own table), nothing written
    assert (ruled.status_code, ruled.json()["code"]) == (403, "conflict_of_interest")
    assert (queued.status_code, queued.json()["code"]) == (403, "conflict_of_interest")
    assert not ReportResolution.objects.exists()
    # and the organizer, who does not play, rules on it
    r = client_for(organizer).post(f"/api/tournaments/{t.pk}/reports/{report}/resolve/", {"decision": "uphold"},
                                   format="json")
    assert r.status_code == 200 and r.json()["resolution"]["role"] == "organizer"


def test_signed_out_callers_are_refused(make_user, organizer, client_for, api):
    t, table, (alice, _bob) = _played(make_user, organizer)
    report = _report(client_for, alice, table)
    assert api.get(f"/api/tournaments/{t.pk}/reports/").status_code == 401
    assert api.post(f"/api/tournaments/{t.pk}/reports/{report}/resolve/", {"decision": "uphold"},
                    format="json").status_code == 401
    with pytest.raises(services.TournamentServiceError) as err:
        reports.report_resolve(report_id=report, user=None, decision="uphold")
    assert err.value.code == "not_judge"
    assert not ReportResolution.objects.exists()


def test_staff_keep_their_powers_and_a_report_is_ruled_on_in_its_own_tournament(make_user, organizer, client_for):
    t, table, (alice, _bob) = _played(make_user, organizer)
    report = _report(client_for, alice, table)
    elsewhere, _table, _players = _played(make_user, organizer)
    judge = make_user(is_staff=True)
    # a report ruled on under another tournament's address is not found there
    wrong = client_for(organizer).post(f"/api/tournaments/{elsewhere.pk}/reports/{report}/resolve/",
                                       {"decision": "uphold"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (404, "not_found")
    # staff list it in their queue and in the tournament's, and rule on it from the admin API as before
    assert [r["id"] for r in client_for(judge).get(f"/api/tournaments/{t.pk}/reports/").json()] == [report]
    r = client_for(judge).post(f"/api/admin/reports/{report}/resolve/", {"decision": "uphold"}, format="json")
    assert r.status_code == 200 and r.json()["resolution"]["role"] == "staff"
    assert client_for(judge).get("/api/admin/reports/?status=all").json()[0]["resolution"]["role"] == "staff"
    # the admin API stays staff's
    assert client_for(organizer).get("/api/admin/reports/").status_code == 403


def test_the_organizer_rules_from_the_tournament_page(make_user, organizer, client_for):
    # given an open dispute in the organizer's event
    t, table, (alice, _bob) = _played(make_user, organizer)
    report = _report(client_for, alice, table, "my last attack was not counted")
    page = Client()
    page.force_login(organizer)
    # then the organizer's page shows it with its text and the ruling actions
    entry = page.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert 'data-testid="disputes"' in entry and "my last attack was not counted" in entry
    assert f'name="report_id" value="{report}"' in entry and 'data-testid="override"' in entry
    # and a player's page does not (the text is for the judges)
    as_alice = Client()
    as_alice.force_login(alice)
    assert 'data-testid="disputes"' not in as_alice.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    # when the organizer corrects the result without a reason, it is refused in words
    places = {f"place-{e}": "1" for e in table.entrant_ids}
    refused = page.post(f"/tournaments/{t.pk}/report/", {"report_id": report, "decision": "override", **places},
                        follow=True).content.decode()
    assert "Write the reason for correcting the result" in refused and not ReportResolution.objects.exists()
    # when they correct it to a draw, with a reason
    done = page.post(f"/tournaments/{t.pk}/report/", {"report_id": report, "decision": "override",
                                                      "reason": "both masters fell together", **places},
                     follow=True).content.decode()
    # then the page says so and lists the ruling: who, in what role, why
    assert "The result of round 1, table 1 is corrected" in done
    entry = page.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert 'data-testid="ruling"' in entry and f"by {organizer.username} (organizer)" in entry
    assert "both masters fell together" in entry and 'data-testid="no-disputes"' in entry
    assert selectors.tournament_pairings(t)[0]["result"]["by"] == "judge"
    assert MatchReport.objects.get(pk=report).resolution.judge == organizer


def test_an_organizer_who_plays_is_told_the_staff_judges_rule(make_user, organizer, client_for):
    t, table, (_organizer, bob) = _played(make_user, organizer, organizer_plays=True)
    report = _report(client_for, bob, table)
    page = Client()
    page.force_login(organizer)
    entry = page.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert 'data-testid="judge-conflict"' in entry and 'data-testid="disputes"' not in entry
    r = page.post(f"/tournaments/{t.pk}/report/", {"report_id": report, "decision": "uphold"}, follow=True)
    assert "code-conflict_of_interest" in r.content.decode() and not ReportResolution.objects.exists()


def test_the_disputes_card_appears_once_the_event_is_under_way(make_user, organizer):
    t = services.tournament_create(creator=organizer, name="Later", game="yokai", format="swiss", table_size=2,
                                   rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
    page = Client()
    page.force_login(organizer)
    assert 'data-testid="disputes"' not in page.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    entry = page.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert 'data-testid="disputes"' in entry and 'data-testid="no-disputes"' in entry
