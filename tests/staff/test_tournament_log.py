"""Staff review of a tournament's append-only log: every record in seq order with its actor; staff only."""

import uuid

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games.tournaments import services

pytestmark = pytest.mark.django_db


def _client(user):
    c = Client()
    c.force_login(user)
    return c


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
    assert f"user #{organizer.pk}" in html and players[0].username in html
    assert staff.get(f"/staff/tournaments/{uuid.uuid4()}/").status_code == 404
    assert _client(players[0]).get(f"/staff/tournaments/{t.pk}/").status_code == 302  # to the admin login
    assert Client().get("/staff/tournaments/").status_code == 302
