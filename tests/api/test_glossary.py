"""GET /api/games/{slug}/glossary/: public, cacheable, one per game."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug,sample", [("yashima", "keyword:KINDLE"), ("harakiri", "condition:bleeding"),
                                         ("yokai", "element:fire")])
def test_each_game_serves_its_glossary_to_anyone(api, slug, sample):
    res = api.get(f"/api/games/{slug}/glossary/")
    assert res.status_code == 200
    body = res.json()
    assert body["game"] == slug and body["provisional"] is True
    entry = body["entries"][sample]
    assert entry["group"] in body["groups"] and entry["text"] and entry["term"]
    assert "public" in res["Cache-Control"] and "max-age=3600" in res["Cache-Control"]
    assert "Cookie" not in res.get("Vary", "")


def test_the_etag_answers_304_when_nothing_changed(api):
    first = api.get("/api/games/yashima/glossary/")
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    again = api.get("/api/games/yashima/glossary/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    other = api.get("/api/games/yashima/glossary/", HTTP_IF_NONE_MATCH='"stale"')
    assert other.status_code == 200 and other.json() == first.json()


def test_a_bad_token_does_not_lock_out_the_public_glossary(api):
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api.get("/api/games/yokai/glossary/").status_code == 200


def test_a_game_without_a_glossary_serves_an_empty_one_and_an_unknown_game_is_404(api):
    res = api.get("/api/games/pebbles/glossary/")  # the test engine: registered, no glossary
    assert res.status_code == 200 and res.json()["entries"] == {} and res.json()["groups"] == {}
    missing = api.get("/api/games/no-such-game/glossary/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@pytest.mark.parametrize("slug", ["yashima", "harakiri", "yokai"])
def test_each_game_serves_a_how_to_play_whose_links_resolve(api, slug):
    body = api.get(f"/api/games/{slug}/glossary/").json()
    guide = body["guide"]
    assert guide["summary"] and len(guide["steps"]) >= 3
    for step in guide["steps"]:
        assert step["title"] and step["text"] and step["see"]
        for ref in step["see"]:
            assert ref in body["groups"] or ref in body["entries"], (step["title"], ref)
    assert "guide" not in api.get("/api/games/pebbles/glossary/").json()  # a game without one
