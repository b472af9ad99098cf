"""Staff review of a tournament's append-only log: every record in seq order with its actor; staff only."""

import re
import uuid

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games.staff.words import record_summary
from games.tournaments import services

pytestmark = pytest.mark.django_db


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def test_each_record_kind_reads_in_one_line_with_the_entrants_names():
    names = {"1": "alice", "3": "carol"}
    assert record_summary({"kind": "overridden", "round": 1, "table": 1, "places": {"1": 2, "3": 1}, "judge": "admin",
                           "reason": "misclick", "role": "staff"}, names) == \
        "result overridden, round 1 table 1: carol 1st, alice 2nd, by admin (staff): misclick"
    assert record_summary({"kind": "result", "round": 1, "table": 1, "places": {"1": 1, "3": 1}, "by": "time"},
                          names) == "result, round 1 table 1 (on time): alice 1st, carol 1st"
    assert record_summary({"kind": "reported", "round": 2, "table": 1, "report_id": 4, "entrant_id": "3", "seq": 9},
                          names) == "carol reported round 2 table 1 (report #4, match seq 9)"
    assert record_summary({"kind": "paired", "round": 2, "tables": [{"table": 1, "entrant_ids": ["3"]}]},
                          names) == "round 2 paired: table 1 carol (bye)"
    assert record_summary({"kind": "clock_paused", "round": 1, "reason": "lunch"}, names) == "round 1 clock paused: lunch"
    assert record_summary({"kind": "something_new"}, names) == "something new"


def test_a_judges_ruling_reads_who_ruled_in_what_capacity_and_why():
    # given an organizer's upheld result with a reason, and an upheld result recorded before organizers
    # judged (no role: staff's) without one
    names = {"1": "alice", "3": "carol"}
    by_organizer = {"kind": "adjudicated", "round": 2, "table": 3, "judge": "olga", "role": "organizer",
                    "reason": "the log shows the move was legal", "report_id": 5}
    by_staff_before_roles = {"kind": "adjudicated", "round": 1, "table": 1, "judge": "admin"}
    # when staff read them, then each says what became of the result, who ruled, as what, and why
    assert record_summary(by_organizer, names) == \
        "result upheld, round 2 table 3, by olga (organizer): the log shows the move was legal"
    assert record_summary(by_staff_before_roles, names) == "result upheld, round 1 table 1, by admin (staff)"


def test_staff_reads_the_log_in_order_and_players_cannot(make_user):
    organizer = make_user()
    organizer.groups.add(Group.objects.get(name="organizers"))
    t = services.tournament_create(creator=organizer, name="Logged Open", game="yashima", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    players = [make_user() for _ in range(2)]
    for p in players:
        services.tournament_register(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    staff = _client(make_user(is_staff=True))

    index = staff.get("/staff/tournaments/").content.decode()
    assert "Logged Open" in index and f"/staff/tournaments/{t.pk}/" in index
    page = staff.get(f"/staff/tournaments/{t.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    kinds = [line.split("<td>")[2].split("</td>")[0] for line in html.splitlines() if line.startswith("<tr data-seq=")]
    assert kinds == ["registered", "registered", "started", "paired"]
    # the actor by name, one line per record with the entrants' names, the JSON folded beneath
    assert f"{organizer.username} (user #{organizer.pk})" in html and players[0].username in html
    a, b = (p.username for p in players)
    summaries = re.findall(r'<p class="record-summary" data-testid="record-summary">(.*?)</p>', html)
    assert summaries[:2] == [f"{a} registered", f"{b} registered"] and summaries[2].startswith("started; seeding: ")
    assert re.fullmatch(rf"round 1 paired: table 1 ({a} vs {b}|{b} vs {a})", summaries[3])
    assert "the record (JSON)" in html and "…" not in html
    assert f'<code class="seed-hash">{t.seed_hash}</code>' in html  # wraps on a phone (staff.css)
    assert staff.get(f"/staff/tournaments/{uuid.uuid4()}/").status_code == 404
    assert _client(players[0]).get(f"/staff/tournaments/{t.pk}/").status_code == 403  # refused: not staff
    assert Client().get("/staff/tournaments/").status_code == 302
