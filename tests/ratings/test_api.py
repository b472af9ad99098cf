"""GET /api/ratings/{game}/ and /api/users/{username}/, and the rated flag on matches."""

import pytest

from accounts.selfservice import account_anonymize
from games.ratings import skill
from games.ratings.models import Rating, RatingChange
from tests.projections.play import play_randomly

pytestmark = pytest.mark.django_db


def test_create_sets_rated_and_match_detail_shows_it(make_user, client_for, api):
    c = client_for(make_user())
    default = c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").json()
    assert default["rated"] is True
    off = c.post("/api/matches/", {"game": "pebbles", "seats": 2, "rated": False}, format="json").json()
    assert off["rated"] is False
    assert api.get(f"/api/matches/{off['id']}/").json()["rated"] is False
    assert api.get(f"/api/matches/{default['id']}/view/").json()["match"]["rated"] is True
    listed = {m["id"]: m["rated"] for m in api.get("/api/matches/", {"game": "pebbles"}).json()["results"]}
    assert listed == {default["id"]: True, off["id"]: False}
    bad = c.post("/api/matches/", {"game": "pebbles", "seats": 2, "rated": "perhaps"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "malformed"


def test_a_cooperative_game_is_never_rated(make_user, client_for):
    c = client_for(make_user())
    res = c.post("/api/matches/", {"game": "harakiri", "seats": 1, "rated": True}, format="json")
    assert res.status_code == 201 and res.json()["rated"] is False


def test_leaderboard(make_user, finish, api):
    a, b, c = make_user(), make_user(), make_user()
    finish([a, b], seed=1)
    finish([b, c], seed=2)
    res = api.get("/api/ratings/pebbles/")
    assert res.status_code == 200
    board = res.json()
    assert [e["rank"] for e in board] == [1, 2, 3]
    rows = {r.user_id: r for r in Rating.objects.filter(game="pebbles")}
    assert {e["user_id"] for e in board} == {a.pk, b.pk, c.pk}
    for e in board:
        row = rows[e["user_id"]]
        assert e == {"rank": e["rank"], "user_id": row.user_id, "username": row.user.username,
                     "rating": skill.display(row.mu, row.sigma), "mu": row.mu, "sigma": row.sigma,
                     "matches": row.matches}
    assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)
    assert next(e for e in board if e["user_id"] == b.pk)["matches"] == 2
    assert len(api.get("/api/ratings/pebbles/", {"limit": 1}).json()) == 1
    assert api.get("/api/ratings/pebbles/", {"limit": 0}).json()["code"] == "malformed"
    assert api.get("/api/ratings/yokai/").json() == []


@pytest.mark.parametrize("game, code", [("nope", "unknown_game"), ("harakiri", "game_not_rated")])
def test_leaderboard_of_an_unknown_or_unrated_game_is_404(api, game, code):
    res = api.get(f"/api/ratings/{game}/")
    assert res.status_code == 404 and res.json()["code"] == code and res.json()["message"]


def test_profile(make_user, finish, api):
    a, b, c = make_user(), make_user(), make_user()
    m1 = finish([a, b], seed=1)
    m2 = finish([a, c], seed=2, rated=False)
    m3 = finish([a, b], seed=3)
    res = api.get(f"/api/users/{a.username}/")
    assert res.status_code == 200
    body = res.json()
    assert body["username"] == a.username and body["tournaments"] == []
    rating = body["ratings"]["pebbles"]
    row = Rating.objects.get(user=a, game="pebbles")
    assert (rating["rating"], rating["mu"], rating["sigma"], rating["matches"]) == (row.display, row.mu, row.sigma, 2)
    assert rating["rank"] in (1, 2)
    assert [p["match_id"] for p in rating["history"]] == [None, str(m1.pk), str(m3.pk)]
    assert rating["history"][0]["rating"] == 1000 and rating["history"][-1]["rating"] == row.display
    recent = body["recent_matches"]
    assert [m["id"] for m in recent] == [str(m3.pk), str(m2.pk), str(m1.pk)]
    unrated = recent[1]
    assert unrated["rated"] is False and unrated["rating_before"] is None and unrated["result"] in ("won", "lost", "draw")
    change = RatingChange.objects.get(match=m3, user=a)
    assert (recent[0]["rating_before"], recent[0]["rating_after"]) == (change.display_before, change.display_after)
    assert recent[0]["seat"] == 0


def test_recent_matches_come_last_played_first(make_user, start, finish, api, django_capture_on_commit_callbacks):
    a, b = make_user(), make_user()
    older = start([a, b], options={"target": 12})  # created first, played to its end last
    newer = finish([a, b], seed=4)
    play_randomly(older, [a, b], django_capture_on_commit_callbacks, seed=5, max_moves=3000)
    recent = api.get(f"/api/users/{a.username}/").json()["recent_matches"]
    assert [m["id"] for m in recent] == [str(older.pk), str(newer.pk)]


def test_profile_of_someone_without_matches_and_of_nobody(make_user, api):
    quiet = make_user()
    assert api.get(f"/api/users/{quiet.username}/").json() == {
        "username": quiet.username, "ratings": {}, "recent_matches": [], "tournaments": []}
    res = api.get("/api/users/no-such-person/")
    assert res.status_code == 404 and res.json()["code"] == "unknown_user"


def test_a_deleted_account_leaves_the_leaderboard_and_has_no_profile(make_user, finish, api):
    # given three rated players, the best of them about to delete the account
    a, b, c = make_user(), make_user(), make_user()
    finish([a, b], seed=1)
    finish([b, c], seed=2)
    best = api.get("/api/ratings/pebbles/").json()[0]
    leaving = next(u for u in (a, b, c) if u.pk == best["user_id"])
    # when it is deleted
    account_anonymize(leaving)
    # then the leaderboard ranks the other two only, their profiles agree, and it has no profile page
    board = api.get("/api/ratings/pebbles/").json()
    assert [e["rank"] for e in board] == [1, 2] and leaving.pk not in {e["user_id"] for e in board}
    for entry in board:
        profile = api.get(f"/api/users/{entry['username']}/").json()
        assert profile["ratings"]["pebbles"]["rank"] == entry["rank"]
    leaving.refresh_from_db()
    res = api.get(f"/api/users/{leaving.username}/")
    assert res.status_code == 404 and res.json()["code"] == "unknown_user"
