"""Lobby flooding (issue #14 finding 7) and a creator who leaves their open match."""

import pytest

from games.application import selectors, services
from games.eventstore.models import MatchEvent
from games.projections.models import MatchSummary

pytestmark = pytest.mark.django_db


def test_match_creation_is_throttled_per_user_with_retry_after(make_user, client_for, rates, settings):
    rates(match_create="3/minute")
    settings.MAX_OPEN_MATCHES_PER_USER = 100
    flooder, other = client_for(make_user()), client_for(make_user())
    codes = [flooder.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    res = flooder.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json")
    assert res.status_code == 429 and res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0
    assert other.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").status_code == 201  # per user
    assert flooder.get("/api/matches/").status_code == 200  # reading the list is not throttled
    assert MatchSummary.objects.filter(status="open").count() == 4


def test_joining_is_throttled_per_user(make_user, client_for, rates):
    rates(match_join="2/minute")
    creators = [make_user() for _ in range(3)]
    matches = [services.match_create(game="pebbles", seats=2, options={}, creator=u) for u in creators]
    joiner = client_for(make_user())
    codes = [joiner.post(f"/api/matches/{m.pk}/join/", {}, format="json").status_code for m in matches]
    assert codes == [200, 200, 429]
    res = joiner.post(f"/api/matches/{matches[2].pk}/join/", {}, format="json")
    assert res.json()["code"] == "throttled" and "Retry-After" in res


def test_the_chat_scope_has_a_rate():
    from rest_framework.settings import api_settings

    from games.api.throttles import ChatThrottle

    assert ChatThrottle().get_rate() == api_settings.DEFAULT_THROTTLE_RATES["chat"]


def test_a_user_has_at_most_max_open_matches(make_user, client_for, settings):
    settings.MAX_OPEN_MATCHES_PER_USER = 2
    user = make_user()
    c = client_for(user)
    first = c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").json()
    assert c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").status_code == 201
    res = c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "too_many_open_matches"
    # Leaving one (which closes it: nobody else sits there) frees a place.
    assert c.post(f"/api/matches/{first['id']}/leave/").status_code == 200
    assert c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").status_code == 201


def test_the_web_form_is_capped_and_throttled_too(make_user, client, settings, rates):
    settings.KAMIZA_EXTRA_ENGINES = ["tests.engines.pebbles"]
    settings.MAX_OPEN_MATCHES_PER_USER = 1
    rates(match_create="2/minute")
    client.force_login(make_user())
    assert client.post("/matches/new/", {"game": "pebbles", "seats": 2}).status_code == 302
    refused = client.post("/matches/new/", {"game": "pebbles", "seats": 2})
    assert refused.status_code == 400 and b"You already have 1 open matches" in refused.content  # in words, no code
    throttled = client.post("/matches/new/", {"game": "pebbles", "seats": 2})
    assert throttled.status_code == 429 and "Retry-After" in throttled


# -- a creator who leaves -----------------------------------------------------------------------------


def test_a_creator_who_leaves_hands_creator_rights_to_the_next_seated_user(make_user, client_for):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = services.match_create(game="pebbles", seats=3, options={}, creator=alice)
    services.match_join(match_id=match.pk, user=bob, seat=2)
    services.match_join(match_id=match.pk, user=carol, seat=1)
    ca = client_for(alice)
    assert ca.post(f"/api/matches/{match.pk}/leave/").status_code == 200
    # The old creator can no longer add bots or start...
    assert ca.post(f"/api/matches/{match.pk}/bots/", {}, format="json").json()["code"] == "not_creator"
    assert ca.post(f"/api/matches/{match.pk}/start/").json()["code"] == "not_creator"
    # ...the next seated user after seat 0 (carol, seat 1) can.
    assert client_for(bob).post(f"/api/matches/{match.pk}/bots/", {}, format="json").json()["code"] == "not_creator"
    res = client_for(carol).post(f"/api/matches/{match.pk}/bots/", {}, format="json")
    assert res.status_code == 200 and res.json()["seat_list"][0]["bot"] is True
    assert client_for(carol).post(f"/api/matches/{match.pk}/start/").status_code == 200
    match.refresh_from_db()
    assert selectors.state_load(match)["lobby"]["creator_id"] == carol.pk


def test_a_creator_who_leaves_with_only_bots_left_closes_the_match(make_user, client_for):
    alice = make_user()
    match = services.match_create(game="pebbles", seats=2, options={}, creator=alice)
    services.match_add_bot(match_id=match.pk, user=alice, seat=1)
    ca = client_for(alice)
    res = ca.post(f"/api/matches/{match.pk}/leave/")
    assert res.status_code == 200 and res.json()["status"] == "abandoned"
    assert ca.post(f"/api/matches/{match.pk}/start/").json()["code"] == "match_not_open"
    assert MatchSummary.objects.get(match=match).status == "abandoned"
    assert list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("type", flat=True))[-2:] == [
        "SeatLeft", "MatchAbandoned"]


def test_a_player_who_is_not_the_creator_leaves_without_changing_rights(make_user):
    alice, bob = make_user(), make_user()
    match = services.match_create(game="pebbles", seats=2, options={}, creator=alice)
    services.match_join(match_id=match.pk, user=bob)
    services.match_leave(match_id=match.pk, user=bob)
    match.refresh_from_db()
    lobby = selectors.state_load(match)["lobby"]
    assert lobby["creator_id"] == alice.pk and lobby["status"] == "open"
