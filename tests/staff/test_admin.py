"""The Django admin: staff can review matches and events; nobody can alter an event."""

import pytest
from django.urls import reverse

from games.eventstore.models import EventAnnotation, Match, MatchCommand, MatchEvent, StaffAccess
from tests.projections.play import play_randomly

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user(is_staff=True)


@pytest.fixture
def superuser(make_user):
    return make_user(is_staff=True, is_superuser=True)


@pytest.fixture
def two_matches(started_pebbles, django_capture_on_commit_callbacks):
    done, done_users = started_pebbles(seats=2, options={"target": 10}, bots=(1,))
    play_randomly(done, done_users, django_capture_on_commit_callbacks, seed=3)
    live, live_users = started_pebbles(seats=3)
    return (done, done_users), (live, live_users)


def changelist(client, params=""):
    response = client.get(reverse("admin:eventstore_match_changelist") + params)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_match_changelist_and_each_filter(client, staff, two_matches):
    (done, done_users), (live, live_users) = two_matches
    client.force_login(staff)
    page = changelist(client)
    assert str(done.pk) in page and str(live.pk) in page
    assert "finished" in page and "active" in page
    assert done_users[0].username in page and "Bot 2 (bot)" in page
    assert reverse("staff:match", args=[done.pk]) in page  # link to the staff page

    assert str(live.pk) not in changelist(client, "?status=finished")
    assert str(done.pk) in changelist(client, "?status=finished")
    assert str(done.pk) not in changelist(client, "?status=active")
    assert str(done.pk) in changelist(client, "?game=pebbles")
    assert str(done.pk) not in changelist(client, "?game=yokai")
    by_player = changelist(client, f"?player={live_users[2].pk}")
    assert str(live.pk) in by_player and str(done.pk) not in by_player
    assert str(done.pk) not in changelist(client, "?player=abc")
    year = done.created_at.year
    assert str(done.pk) in changelist(client, f"?created_at__year={year}&created_at__month={done.created_at.month}")
    assert str(done.pk) in changelist(client, "?created_at__gte=2000-01-01+00:00:00%2B00:00")
    # search: by username, by full id, by an id prefix
    assert str(done.pk) not in changelist(client, f"?q={live_users[1].username}")
    assert str(live.pk) in changelist(client, f"?q={live_users[1].username}")
    only_done = changelist(client, f"?q={done.pk}")
    assert str(done.pk) in only_done and str(live.pk) not in only_done
    assert str(live.pk) in changelist(client, f"?q={str(live.pk)[:8]}")


def test_match_change_page_is_read_only_with_staff_link(client, staff, two_matches):
    (done, _), _ = two_matches
    client.force_login(staff)
    url = reverse("admin:eventstore_match_change", args=[done.pk])
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("staff:match", args=[done.pk]) in page
    assert done.seed_hash in page
    assert done.seed not in page  # the secret seed is not an admin field
    assert 'name="_save"' not in page  # a view page, no save button
    assert client.post(url, {"game": "yokai", "head_seq": 0}).status_code == 403
    assert client.post(reverse("admin:eventstore_match_delete", args=[done.pk]), {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:eventstore_match_add")).status_code == 403
    done_after = Match.objects.get(pk=done.pk)
    assert (done_after.game, done_after.head_seq) == (done.game, done.head_seq)


def test_admin_refused_to_non_staff(client, make_user, two_matches):
    (done, _), _ = two_matches
    client.force_login(make_user())
    for url in (
        reverse("admin:eventstore_match_changelist"),
        reverse("admin:eventstore_match_change", args=[done.pk]),
        reverse("admin:eventstore_matchevent_changelist"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.logout()
    assert client.get(reverse("admin:eventstore_match_changelist")).status_code == 302


def test_events_cannot_be_changed_or_deleted(client, superuser, two_matches):
    (done, _), _ = two_matches
    client.force_login(superuser)
    event = MatchEvent.objects.get(match=done, seq=2)
    before = (event.type, event.payload, event.actor)
    change = reverse("admin:eventstore_matchevent_change", args=[event.pk])
    page = client.get(change)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(change, {"type": "Hacked", "payload": "{}", "seq": 2}).status_code == 403
    assert client.post(reverse("admin:eventstore_matchevent_delete", args=[event.pk]), {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:eventstore_matchevent_add")).status_code == 403
    # the bulk delete action is not offered either
    response = client.post(reverse("admin:eventstore_matchevent_changelist"),
                           {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"})
    assert response.status_code in (200, 302, 403)
    command = MatchCommand.objects.filter(match=done).first()
    assert client.post(reverse("admin:eventstore_matchcommand_change", args=[command.pk]), {}).status_code == 403
    assert client.post(reverse("admin:eventstore_matchcommand_delete", args=[command.pk]), {"post": "yes"}).status_code == 403
    event.refresh_from_db()
    assert (event.type, event.payload, event.actor) == before
    assert MatchEvent.objects.filter(match=done).count() == done.head_seq
    assert MatchCommand.objects.filter(pk=command.pk).exists()


def test_reading_events_in_the_admin_is_recorded(client, staff, two_matches):
    (done, _), _ = two_matches
    client.force_login(staff)
    url = reverse("admin:eventstore_matchevent_changelist") + f"?match__id__exact={done.pk}"
    page = client.get(url)
    assert page.status_code == 200
    assert "TilesDealt" in page.content.decode()
    event = MatchEvent.objects.get(match=done, seq=4)
    assert client.get(reverse("admin:eventstore_matchevent_change", args=[event.pk])).status_code == 200
    whats = list(StaffAccess.objects.filter(user=staff).values_list("what", "match_id"))
    assert ("admin event list", done.pk) in whats
    assert ("admin event seq=4", done.pk) in whats


@pytest.mark.parametrize("name", [
    "eventstore_match", "eventstore_matchevent", "eventstore_matchcommand", "eventstore_staffaccess",
    "eventstore_eventannotation", "projections_matchsummary", "projections_playerrecord",
    "projections_matchdeadline", "workers_deadletter", "accounts_profile",
])
def test_every_registered_admin_loads(client, superuser, two_matches, name):
    from accounts.models import Profile
    from workers.models import DeadLetter

    (done, users), _ = two_matches
    DeadLetter.objects.create(task="workers.tasks.advance_match", args=[str(done.pk), 3], error="boom")
    Profile.objects.get_or_create(user=users[0], defaults={"display_name": "Ada"})
    EventAnnotation.objects.create(match=done, seq=2, author=superuser, note="looked fine")
    StaffAccess.objects.create(user=superuser, match=done, what="test")
    client.force_login(superuser)
    response = client.get(reverse(f"admin:{name}_changelist"))
    assert response.status_code == 200
    model = response.context["cl"].model
    obj = model.objects.first()
    if obj is not None:
        assert client.get(reverse(f"admin:{name}_change", args=[obj.pk])).status_code == 200


def test_read_models_are_read_only(client, superuser, two_matches):
    from games.projections.models import MatchSummary, PlayerRecord

    (done, users), _ = two_matches
    client.force_login(superuser)
    record = PlayerRecord.objects.get(user=users[0])
    assert client.post(reverse("admin:projections_playerrecord_change", args=[record.pk]), {"played": 99, "won": 99}).status_code == 403
    assert client.post(reverse("admin:projections_matchsummary_delete", args=[done.pk]), {"post": "yes"}).status_code == 403
    assert client.post(reverse("admin:eventstore_staffaccess_add"), {"what": "forged"}).status_code == 403
    record.refresh_from_db()
    assert record.played == 1
    assert MatchSummary.objects.filter(match=done).exists()


def test_annotation_added_in_admin_gets_its_author(client, superuser, two_matches):
    (done, _), _ = two_matches
    client.force_login(superuser)
    response = client.post(reverse("admin:eventstore_eventannotation_add"),
                           {"match": str(done.pk), "seq": 3, "note": "player says the roll was wrong"})
    assert response.status_code == 302
    note = EventAnnotation.objects.get(match=done, seq=3)
    assert note.author == superuser
