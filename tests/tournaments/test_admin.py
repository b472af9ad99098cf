"""Staff review a tournament's record log in the admin, read-only; players cannot."""

import pytest
from django.urls import reverse

from games.tournaments import services

pytestmark = pytest.mark.django_db


def test_staff_read_the_record_log_and_nobody_edits_it(client, make_user):
    staff = make_user(is_staff=True)
    t = services.tournament_create(creator=staff, name="Review Cup", game="yokai", format="swiss", table_size=2,
                                   round_minutes=30, match_options={"turn_seconds": 60})
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=staff)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    client.force_login(staff)
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "registered" in body and "started" in body and "paired" in body
    assert client.post(url, {"name": "renamed"}).status_code == 403
    assert client.get(reverse("admin:tournaments_tournament_add")).status_code == 403
    client.force_login(make_user())
    assert client.get(url).status_code == 302  # to the admin login: not staff
