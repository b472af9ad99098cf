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


def test_staff_review_team_invitations_like_the_other_records(client, make_user):
    staff = make_user(is_staff=True)
    t = services.tournament_create(creator=staff, name="Pairs Review", game="yashima", format="swiss", table_size=4,
                                   teams=True, round_minutes=30, match_options={"turn_seconds": 60})
    inviter, partner = make_user(username="tsubame"), make_user(username="kawasemi")
    invitation = services.tournament_register(tournament_id=t.pk, user=inviter, partner=partner)
    client.force_login(staff)
    listing = client.get(reverse("admin:tournaments_teaminvitation_changelist"))
    body = listing.content.decode()
    assert listing.status_code == 200 and "Pairs Review" in body and "tsubame" in body and "kawasemi" in body
    assert "Waiting for the partner" in body
    assert "tsubame" in client.get(reverse("admin:tournaments_teaminvitation_changelist") + "?q=kawasemi").content.decode()
    url = reverse("admin:tournaments_teaminvitation_change", args=[invitation.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"status": "accepted"}).status_code == 403  # read-only, like its neighbours
    assert client.get(reverse("admin:tournaments_teaminvitation_add")).status_code == 403
    client.force_login(make_user())
    assert client.get(url).status_code == 302  # to the admin login: not staff
