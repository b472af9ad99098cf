"""Disputes said clearly: the judge's queue names the result standing ("alice 1st, bob 2nd (played)"), not
the bare ``play``; a decision is confirmed in words; a refused override keeps what the judge typed and
says why beside that report's form; the player who filed a report can read the decision and the
judge's reason (``reports.reports_filed_by``), and nobody else's report nor any staff note."""

import pytest

from games.staff import services as staff_services
from games.tournaments import reports
from games.tournaments.models import EntrantMember, ReportResolution

pytestmark = pytest.mark.django_db


def _names(table):
    """{entrant id: its player's username} for the table's two entrants, in seat order."""
    return {e: EntrantMember.objects.get(entrant_id=int(e)).user.username for e in table.entrant_ids}


def test_the_queue_names_the_result_standing_by_its_entrants(played, make_user, client_for, client):
    t, table, (alice, bob) = played
    judge = make_user(is_staff=True)
    first = reports.report_file(match_id=table.match_id, user=alice, seq=1, text="wrong")
    reports.report_file(match_id=table.match_id, user=bob, seq=1, text="still wrong")
    client.force_login(judge)
    names = _names(table)
    a, b = table.entrant_ids
    html = client.get("/staff/reports/").content.decode()  # the time limit ended it level: a draw
    assert f"result now: a draw ({' 1st, '.join(sorted(names.values()))} 1st) (on time)" in html
    reports.report_resolve(report_id=first.pk, user=judge, decision="override", places={a: 2, b: 1}, reason="r")
    html = client.get("/staff/reports/").content.decode()
    assert f"result now: {names[b]} 1st, {names[a]} 2nd (judge&#x27;s ruling)" in html
    assert "result now: time" not in html and "result now: judge" not in html


def test_an_uphold_and_an_override_are_confirmed_in_words(played, make_user, client_for, client):
    t, table, (alice, bob) = played
    first = client_for(alice).post(f"/api/matches/{table.match_id}/reports/", {"seq": 1, "text": "a"},
                                   format="json").json()
    second = client_for(bob).post(f"/api/matches/{table.match_id}/reports/", {"seq": 1, "text": "b"},
                                  format="json").json()
    client.force_login(make_user(is_staff=True))
    page = client.post(f"/staff/reports/{first['id']}/resolve/", {"decision": "uphold", "reason": "as played"},
                       follow=True)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="staff-messages"' in html
    assert (f"Report {first['id']} (round 1, table 1, {alice.username}&#x27;s): the result stands, and the report "
            "is closed.") in html
    assert "The reporting player sees your reason: &quot;as played&quot;." in html
    names = _names(table)
    a, b = table.entrant_ids
    page = client.post(f"/staff/reports/{second['id']}/resolve/",
                       {"decision": "override", f"place-{a}": "2", f"place-{b}": "1", "reason": "Seat 1 left."},
                       follow=True)
    html = page.content.decode()
    assert "The reporting player sees your reason: &quot;Seat 1 left.&quot;</li>" in html  # one stop, not two
    assert f"result corrected to {names[b]} 1st, {names[a]} 2nd; the standings follow." in html
    assert "staff-messages" not in client.get("/staff/reports/").content.decode()  # said once


@pytest.mark.parametrize("typed, refusal", [
    ({"reason": "  "}, "an override needs a written reason"),
    ({"reason": "misclick", "bad_place": "first"}, "places are whole numbers"),
])
def test_a_refused_override_keeps_the_judges_input_beside_its_refusal(played, make_user, client_for, client, typed,
                                                                      refusal):
    t, table, (alice, _bob) = played
    report = client_for(alice).post(f"/api/matches/{table.match_id}/reports/", {"seq": 1, "text": "wrong"},
                                    format="json").json()
    client.force_login(make_user(is_staff=True))
    a, b = table.entrant_ids
    r = client.post(f"/staff/reports/{report['id']}/resolve/",
                    {"decision": "override", f"place-{a}": typed.get("bad_place", "2"), f"place-{b}": "1",
                     "reason": typed["reason"]})
    assert r.status_code in (400, 422)
    html = r.content.decode()
    row = html[html.index(f'id="report-{report["id"]}"'):]
    row = row[:row.index("</tr>")]
    assert 'data-testid="ruling-error"' in row and refusal in row
    assert f'name="place-{a}" value="{typed.get("bad_place", "2")}"' in row
    assert f'name="place-{b}" value="1"' in row
    assert f">{typed['reason']}</textarea>" in row
    assert 'data-testid="queue-error"' not in html  # said once, beside the form
    assert not ReportResolution.objects.exists()


def test_the_reporter_reads_the_decision_and_the_reason_and_nothing_staff_only(played, make_user):
    t, table, (alice, bob) = played
    judge = make_user(is_staff=True)
    upheld = reports.report_file(match_id=table.match_id, user=alice, seq=1, text="my turn was skipped")
    still_open = reports.report_file(match_id=table.match_id, user=alice, seq=2, text="and again")
    bobs = reports.report_file(match_id=table.match_id, user=bob, seq=1, text="bob's own")
    reports.report_resolve(report_id=upheld.pk, user=judge, decision="uphold",
                           reason="The clock ran as the rules say: the replay shows your turn timing out.")
    staff_services.annotation_create(match=table.match, seq=1, note="STAFF ONLY: check this player's history",
                                     author=judge)
    a, b = table.entrant_ids
    reports.report_resolve(report_id=bobs.pk, user=judge, decision="override", places={a: 2, b: 1},
                           reason="bob was right")

    mine = reports.reports_filed_by(t, alice)
    assert [(m["report"].pk, m["status"]) for m in mine] == [(still_open.pk, "open"), (upheld.pk, "upheld")]
    assert mine[1]["reason"] == "The clock ran as the rules say: the replay shows your turn timing out."
    assert mine[1]["role"] == "staff" and mine[1]["at"] is not None and mine[1]["places"] == {}
    assert mine[0]["reason"] == "" and mine[0]["role"] is None
    assert "STAFF ONLY" not in repr(mine) and "bob was right" not in repr(mine)
    (bob_reads,) = reports.reports_filed_by(t, bob)
    assert (bob_reads["status"], bob_reads["places"], bob_reads["reason"]) == ("overridden", {a: 2, b: 1},
                                                                               "bob was right")
    assert reports.reports_filed_by(t, make_user()) == []
