"""Commands are kept with their rows (for verify_logs), and their args may hold a seat's secret
choice: no API nor player page ever shows them, only the staff tools do.

A canary rides in the args of a Pebbles ``pass`` (the engine ignores it, so it is in no event):
wherever it turns up, it can only have come from the kept command."""

import uuid

import pytest
from django.urls import reverse

from games.eventstore.models import MatchCommand, StaffAccess

pytestmark = pytest.mark.django_db


@pytest.fixture
def secret_command(started_pebbles, client_for):
    match, users = started_pebbles(options={"bonus_rolls": False})
    canary = f"canary-command-{uuid.uuid4().hex}"
    body = {"command_id": str(uuid.uuid4()), "expected_seq": match.head_seq, "type": "pass", "args": {"note": canary}}
    player = client_for(users[0])
    first = player.post(f"/api/matches/{match.pk}/commands/", body, format="json")
    again = player.post(f"/api/matches/{match.pk}/commands/", body, format="json")  # a replay: the same answer
    assert first.status_code == 201 and again.status_code == 201 and first.json() == again.json()
    for response in (first, again):
        assert canary not in response.content.decode()
    kept = MatchCommand.objects.get(match=match, command_id=body["command_id"])
    assert (kept.kind, kept.type, kept.args, kept.seat, kept.expected_seq) == ("game", "pass", {"note": canary}, 0,
                                                                               body["expected_seq"])
    assert kept.actor == {"kind": "user", "user_id": users[0].pk, "seat": 0}
    match.refresh_from_db()
    return match, users, canary


def test_no_api_shows_a_kept_command(secret_command, client_for, api, make_user):
    match, users, canary = secret_command
    staff = client_for(make_user(is_staff=True))
    readers = [client_for(users[0]), client_for(users[1]), client_for(make_user()), api]
    urls = [f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/view/", f"/api/matches/{match.pk}/events/",
            "/api/matches/?game=pebbles", f"/api/users/{users[0].get_username()}/"]
    for reader in readers:
        for url in urls:
            response = reader.get(url)
            assert response.status_code == 200, url
            assert canary not in response.content.decode(), url
    for user in users:  # one's own data export holds one's own events, not the commands behind them
        export = client_for(user).get("/api/account/export/")
        assert export.status_code == 200 and canary not in export.content.decode()
    # not even the staff API, whose log is every event unredacted
    for url in (f"/api/admin/matches/{match.pk}/log/", f"/api/admin/matches/{match.pk}/state/"):
        response = staff.get(url)
        assert response.status_code == 200 and canary not in response.content.decode()


def test_the_player_page_does_not_show_it_and_the_staff_review_shows_it_to_staff_only(secret_command, client, make_user):
    match, users, canary = secret_command
    client.force_login(users[0])
    page = client.get(reverse("frontend:match", args=[match.pk]))
    assert page.status_code == 200 and canary not in page.content.decode()
    staff_url = reverse("staff:match", args=[match.pk])
    refused = client.get(staff_url)
    assert refused.status_code == 403 and canary not in refused.content.decode()

    reviewer = make_user(is_staff=True)
    client.force_login(reviewer)
    html = client.get(staff_url).content.decode()
    assert canary in html and "asked: <strong>pass</strong> (game, expected seq" in html
    admin_row = MatchCommand.objects.get(match=match, type="pass")
    admin_page = client.get(reverse("admin:eventstore_matchcommand_change", args=[admin_row.pk]))
    assert admin_page.status_code == 200 and canary in admin_page.content.decode()
    assert list(StaffAccess.objects.filter(user=reviewer).order_by("pk").values_list("what", flat=True)) == [
        f"staff page at={match.head_seq}", f"admin command seq={admin_row.first_seq}"]
