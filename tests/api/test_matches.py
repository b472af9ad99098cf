"""Catalog, match creation, listing, detail and the lobby actions."""

import json
import uuid

import pytest

from games.kernel import registry
from tests.engines.pebbles import Pebbles

pytestmark = pytest.mark.django_db


class ListedPebbles(Pebbles):
    slug = "pebbles-listed"
    name = "Listed pebbles"
    listed = True


@pytest.fixture
def listed_engine():
    engine = registry.register(ListedPebbles())
    yield engine
    registry.unregister(engine.slug)


def create(client, game="pebbles", seats=2, options=None):
    body = {"game": game, "seats": seats}
    if options is not None:
        body["options"] = options
    return client.post("/api/matches/", body, format="json")


# -- catalog -----------------------------------------------------------------------------------


def test_catalog_lists_listed_engines_never_pebbles(api, listed_engine):
    res = api.get("/api/games/")
    assert res.status_code == 200
    games = {g["slug"]: g for g in res.json()}
    assert "pebbles" not in games
    assert games["pebbles-listed"] == {
        "slug": "pebbles-listed", "name": "Listed pebbles", "min_seats": 2, "max_seats": 4,
        "options": ListedPebbles.options_schema,
    }
    assert all(e.listed for e in registry.all_engines()) and {e.slug for e in registry.all_engines()} == set(games)


def test_game_content(api, listed_engine):
    res = api.get("/api/games/pebbles-listed/content/")
    assert res.status_code == 200 and res.json() == ListedPebbles().content()


def test_unknown_game_content_is_404(api):
    res = api.get("/api/games/no-such-game/content/")
    assert res.status_code == 404 and res.json()["code"] == "not_found"


# -- create --------------------------------------------------------------------------------------


def test_create_match_creator_takes_seat_0(make_user, client_for):
    user = make_user()
    res = create(client_for(user), options={"target": 12})
    assert res.status_code == 201, res.content
    m = res.json()
    assert m["game"] == "pebbles" and m["seats"] == 2 and m["options"] == {"target": 12}
    assert m["status"] == "open" and m["phase"] == "lobby" and m["seq"] == 2
    assert m["seat_list"] == [{"user_id": user.pk, "username": user.username, "bot": False}, None]
    assert m["your_seat"] == 0 and m["created_by"] == user.pk
    assert len(m["seed_hash"]) == 64 and m["seed"] is None
    assert m["awaiting"] == [] and m["winners"] == []
    uuid.UUID(m["id"])


def test_create_defaults_seats_to_the_games_minimum(make_user, client_for):
    res = client_for(make_user()).post("/api/matches/", {"game": "pebbles"}, format="json")
    assert res.status_code == 201 and res.json()["seats"] == 2


@pytest.mark.parametrize("seats", [1, 5])
def test_create_with_seats_out_of_range_is_422(make_user, client_for, seats):
    res = create(client_for(make_user()), seats=seats)
    assert res.status_code == 422 and res.json()["code"] == "bad_seats"


@pytest.mark.parametrize("options", [{"target": 1}, {"colour": "red"}, {"target": "ten"}])
def test_create_with_options_failing_the_schema_is_422(make_user, client_for, options):
    res = create(client_for(make_user()), options=options)
    assert res.status_code == 422 and res.json()["code"] == "bad_options"


def test_create_unknown_game_is_422(make_user, client_for):
    res = create(client_for(make_user()), game="chess")
    assert res.status_code == 422 and res.json()["code"] == "unknown_game"


@pytest.mark.parametrize("body", [{}, {"game": "pebbles", "seats": "two"}, {"game": "pebbles", "options": [1]},
                                  {"game": "pebbles", "seats": 0}, {"game": 7, "seats": 2.5}])
def test_create_malformed_is_400(make_user, client_for, body):
    res = client_for(make_user()).post("/api/matches/", body, format="json")
    assert res.status_code == 400 and res.json()["code"] == "malformed" and res.json()["extra"]


def test_create_anonymous_is_401(api):
    res = create(api)
    assert res.status_code == 401 and res.json()["code"] == "not_authenticated"


# -- list and detail ------------------------------------------------------------------------------


def test_list_filters_by_game_and_status_and_pages(make_user, client_for, started_pebbles):
    creator = make_user()
    c = client_for(creator)
    open_ids = {create(c).json()["id"] for _ in range(3)}
    active, _ = started_pebbles()
    res = c.get("/api/matches/", {"game": "pebbles", "status": "open"})
    assert res.status_code == 200
    page = res.json()
    assert {m["id"] for m in page["results"]} == open_ids and page["count"] == 3
    assert all(m["your_seat"] == 0 and m["status"] == "open" for m in page["results"])
    res = c.get("/api/matches/", {"status": "active"})
    assert [m["id"] for m in res.json()["results"]] == [str(active.pk)]
    assert res.json()["results"][0]["phase"] == "play" and res.json()["results"][0]["your_seat"] is None
    assert c.get("/api/matches/", {"game": "other"}).json()["count"] == 0
    assert c.get("/api/matches/", {"mine": "true"}).json()["count"] == 3
    first = c.get("/api/matches/", {"page_size": 2}).json()
    assert first["count"] == 4 and len(first["results"]) == 2 and first["next"]
    second = c.get("/api/matches/", {"page": 2, "page_size": 2}).json()
    assert len(second["results"]) == 2 and second["next"] is None
    assert not {m["id"] for m in first["results"]} & {m["id"] for m in second["results"]}


def test_list_bad_filter_is_400_and_bad_page_is_404(api):
    res = api.get("/api/matches/", {"status": "sleeping"})
    assert res.status_code == 400 and res.json()["code"] == "malformed" and "status" in res.json()["extra"]
    res = api.get("/api/matches/", {"page": 99})
    assert res.status_code == 404 and res.json()["code"] == "not_found"


def test_detail_of_a_started_match(started_pebbles, client_for, api):
    match, users = started_pebbles()
    m = client_for(users[1]).get(f"/api/matches/{match.pk}/").json()
    assert m["status"] == "active" and m["phase"] == "play" and m["awaiting"] == [0]
    assert m["your_seat"] == 1 and m["seq"] == match.head_seq and m["seed"] is None
    assert [s["user_id"] for s in m["seat_list"]] == [u.pk for u in users]
    anon = api.get(f"/api/matches/{match.pk}/").json()
    assert anon["your_seat"] is None and anon["id"] == m["id"]


def test_seed_is_revealed_once_finished(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False, "target": 5})
    clients = [client_for(u) for u in users]
    for _ in range(20):
        m = clients[0].get(f"/api/matches/{match.pk}/").json()
        if m["status"] == "finished":
            break
        seat = m["awaiting"][0]
        view = clients[seat].get(f"/api/matches/{match.pk}/view/").json()
        legal = view["legal_commands"][0]
        res = clients[seat].post(f"/api/matches/{match.pk}/commands/",
                                 command(legal["type"], legal["args"], view["seq"]), format="json")
        assert res.status_code == 201, res.content
    assert m["status"] == "finished" and m["winners"] and m["awaiting"] == []
    match.refresh_from_db()
    assert m["seed"] == match.seed
    listed = clients[0].get("/api/matches/", {"status": "finished"}).json()["results"]
    assert listed[0]["seed"] == match.seed


@pytest.mark.parametrize("path", ["/api/matches/not-a-uuid/", "/api/matches/123/view/",
                                  "/api/matches/not-a-uuid/commands/", "/api/nothing/here/", "/api/matches/x"])
def test_bad_paths_are_json_404(api, path):
    for res in (api.get(path), api.post(path, {}, format="json")):
        assert res.status_code == 404
        assert res.json()["code"] == "not_found"


def test_unknown_match_is_404(api):
    res = api.get(f"/api/matches/{uuid.uuid4()}/")
    assert res.status_code == 404 and res.json() == {"code": "not_found", "message": "no such match"}


def test_wrong_method_is_405(make_user, client_for):
    res = client_for(make_user()).delete("/api/games/")
    assert res.status_code == 405 and res.json()["code"] == "method_not_allowed"


# -- lobby actions -------------------------------------------------------------------------------


def test_join_leave_bot_start(make_user, client_for):
    creator, guest = make_user(), make_user()
    c, g = client_for(creator), client_for(guest)
    mid = create(c, seats=3).json()["id"]
    res = g.post(f"/api/matches/{mid}/join/", {"seat": 2}, format="json")
    assert res.status_code == 200 and res.json()["your_seat"] == 2
    res = g.post(f"/api/matches/{mid}/leave/")
    assert res.status_code == 200 and res.json()["seat_list"][2] is None and res.json()["your_seat"] is None
    res = g.post(f"/api/matches/{mid}/join/", {}, format="json")
    assert res.json()["your_seat"] == 1
    res = c.post(f"/api/matches/{mid}/bots/", {}, format="json")
    assert res.status_code == 200 and res.json()["seat_list"][2] == {"user_id": None, "username": "Bot 3", "bot": True}
    res = c.post(f"/api/matches/{mid}/start/")
    assert res.status_code == 200 and res.json()["status"] == "active" and res.json()["phase"] == "play"


def test_lobby_refusals(make_user, client_for):
    creator, guest, third = make_user(), make_user(), make_user()
    c, g, t = client_for(creator), client_for(guest), client_for(third)
    mid = create(c).json()["id"]
    res = c.post(f"/api/matches/{mid}/start/")
    assert res.status_code == 409 and res.json()["code"] == "seats_not_filled"
    res = g.post(f"/api/matches/{mid}/join/", {"seat": 0}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "seat_taken"
    res = g.post(f"/api/matches/{mid}/join/", {"seat": 7}, format="json")
    assert res.status_code == 400 and res.json()["code"] == "bad_seat"
    res = g.post(f"/api/matches/{mid}/join/", {"seat": -1}, format="json")
    assert res.status_code == 400 and res.json()["code"] == "malformed"
    res = g.post(f"/api/matches/{mid}/bots/", {}, format="json")
    assert res.status_code == 403 and res.json()["code"] == "not_creator"
    res = g.post(f"/api/matches/{mid}/leave/")
    assert res.status_code == 409 and res.json()["code"] == "not_seated"
    assert g.post(f"/api/matches/{mid}/join/").status_code == 200
    res = g.post(f"/api/matches/{mid}/join/")
    assert res.status_code == 409 and res.json()["code"] == "already_seated"
    res = t.post(f"/api/matches/{mid}/join/")
    assert res.status_code == 409 and res.json()["code"] == "match_full"
    res = g.post(f"/api/matches/{mid}/start/")
    assert res.status_code == 403 and res.json()["code"] == "not_creator"
    assert c.post(f"/api/matches/{mid}/start/").status_code == 200
    res = g.post(f"/api/matches/{mid}/leave/")
    assert res.status_code == 409 and res.json() == {"code": "match_not_open", "message": "the match has already started"}


def test_lobby_actions_need_login(make_user, client_for, api):
    mid = create(client_for(make_user())).json()["id"]
    for action in ("join", "leave", "start", "bots"):
        res = api.post(f"/api/matches/{mid}/{action}/")
        assert res.status_code == 401 and res.json()["code"] == "not_authenticated"


@pytest.mark.parametrize("slug", [engine.slug for engine in registry.all_engines()])  # every game in the catalog
def test_each_game_serves_its_provisional_content_pack_to_anyone(api, slug):
    # the issues' contract: GET /api/games/<slug>/content/ (public data, no hidden information)
    res = api.get(f"/api/games/{slug}/content/")
    assert res.status_code == 200
    pack = res.json()
    assert pack == json.loads(json.dumps(registry.get(slug).content()))
    assert "provisional" in json.dumps(pack)


def test_a_finished_match_refuses_the_lobby_saying_it_is_over(finished_pebbles, client_for, make_user):
    match, (alice, _) = finished_pebbles()
    for who, action in ((alice, "leave"), (alice, "start"), (make_user(), "join")):
        res = client_for(who).post(f"/api/matches/{match.pk}/{action}/")
        assert res.status_code == 409 and res.json() == {"code": "match_not_open", "message": "the match is over"}, action
