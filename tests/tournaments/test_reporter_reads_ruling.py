"""The player who filed a report reads the judge's decision and reason on the tournament page ("Your
reports" in their entry box), not only a "result stands" badge; the other players and spectators do
not see it, and no staff note of the match log ever shows."""

import pytest

from games.staff import services as staff_services
from games.tournaments import reports
from games.tournaments.models import EntrantMember

pytestmark = pytest.mark.django_db


def _entry(client, user, t):
    if user is not None:
        client.force_login(user)
    return client.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()


def test_the_reporter_reads_the_decision_and_the_reason(played, make_user, client):
    t, table, (alice, bob) = played
    judge = make_user(is_staff=True)
    upheld = reports.report_file(match_id=table.match_id, user=alice, seq=1, text="my turn was skipped")
    reports.report_file(match_id=table.match_id, user=alice, seq=2, text="and again later")
    reports.report_resolve(report_id=upheld.pk, user=judge, decision="uphold",
                           reason="The clock ran out as the rules say.")
    staff_services.annotation_create(match=table.match, seq=1, note="STAFF ONLY: watch this account", author=judge)

    html = _entry(client, alice, t)
    assert 'data-testid="my-reports"' in html and html.count('data-testid="my-report"') == 2
    assert "A judge reviewed it" in html and "<strong>the result stands</strong>" in html
    assert "Reason: “The clock ran out as the rules say.”" in html
    assert "A judge has not ruled on it yet" in html and "my turn was skipped" in html
    assert "STAFF ONLY" not in html

    for viewer in (bob, None):  # the opponent and a spectator: no one else's report, no reason
        client.logout()
        other = _entry(client, viewer, t)
        assert 'data-testid="my-reports"' not in other and "The clock ran out" not in other
        assert "my turn was skipped" not in other


def test_a_correction_names_the_places_by_their_entrants(played, client):
    t, table, (alice, bob) = played
    a, b = table.entrant_ids
    names = {e: EntrantMember.objects.get(entrant_id=int(e)).user.username for e in (a, b)}
    report = reports.report_file(match_id=table.match_id, user=bob, seq=1, text="the other seat left")
    reports.report_resolve(report_id=report.pk, user=t.created_by, decision="override", places={a: 2, b: 1},
                           reason="seat 1 left the table")
    html = _entry(client, bob, t)
    assert "A judge reviewed it" in html and "<strong>the result was corrected</strong>" in html
    assert f"({names[b]} first, {names[a]} second)" in html
    assert "Reason: “seat 1 left the table”" in html
