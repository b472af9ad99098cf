"""Leaderboard and profile pages (Django's test client), and the chart geometry."""

import re

import pytest

from frontend.charts import rating_chart
from games.ratings.models import Rating

pytestmark = pytest.mark.django_db


def test_chart_geometry_is_a_real_plot():
    history = [{"rating": r} for r in (1000, 1012, 990, 1060)]
    chart = rating_chart(history)
    pts = [(p.x, p.y) for p in chart["points"]]
    assert len(pts) == 4 and pts == sorted(pts)  # left to right
    ys = {p.rating: p.y for p in chart["points"]}
    assert ys[1060] < ys[1012] < ys[1000] < ys[990]  # higher rating, higher on the plot (smaller y)
    assert chart["top"] <= min(ys.values()) and max(ys.values()) <= chart["bottom"]
    assert chart["low"] <= 990 and chart["high"] >= 1060
    assert rating_chart([]) is None
    assert len(rating_chart([{"rating": 1000}])["points"]) == 1


def test_leaderboard_page(client, make_user, finish):
    a, b = make_user(), make_user()
    finish([a, b], seed=1)
    client.force_login(a)
    html = client.get("/ratings/pebbles/").content.decode()
    for user in (a, b):
        row = Rating.objects.get(user=user)
        assert f'href="/users/{user.username}/"' in html
        assert f"<strong>{row.display}</strong>" in html
    assert f'class="me" data-user-id="{a.pk}"' in html
    assert client.get("/ratings/nope/").status_code == 404
    assert client.get("/ratings/harakiri/").status_code == 404
    assert client.get("/ratings/").status_code == 302


def test_the_probe_a_cooperative_game_s_leaderboard_says_why_there_is_none(client):
    """``/ratings/harakiri/`` was a bare 404 (Django's debug page in development) while the API says
    ``game_not_rated``: the page says in words that Harakiri is cooperative, and leads to the rated
    games' leaderboards (still a 404, as the API answers).

    # rules: Harakiri core, "Ending the Adventure Phase" (the phase ends in one success or failure
    # section for the whole party: no side or player to rank)"""
    res = client.get("/ratings/harakiri/")
    assert res.status_code == 404
    html = res.content.decode()
    assert "Harakiri: Blades of Honor has no leaderboard" in html
    assert "Harakiri: Blades of Honor is cooperative:" in html and "win or lose" in html
    for slug in ("yashima", "yokai"):
        assert f'href="/ratings/{slug}/"' in html
    assert 'href="/ratings/harakiri/"' not in html and 'href="/games/harakiri/rules/"' in html
    assert "There is nothing here" not in html  # not the generic not-found page
    unknown = client.get("/ratings/nope/")
    assert unknown.status_code == 404 and "has no leaderboard" not in unknown.content.decode()


def test_profile_page_has_chart_and_recent_matches(client, make_user, finish):
    a, b = make_user(), make_user()
    m1 = finish([a, b], seed=1)
    m2 = finish([a, b], seed=2)
    html = client.get(f"/users/{a.username}/").content.decode()
    assert 'data-testid="chart-pebbles"' in html
    assert len(re.findall(r'<circle class="marker"', html)) == 3  # start + two matches
    assert re.search(r'<polyline class="series" points="[0-9., ]+"', html)
    assert f'data-match-id="{m1.pk}"' in html and f'data-match-id="{m2.pk}"' in html
    assert "No tournaments yet." in html
    assert "<script" not in html.split("</main>")[0]  # no inline scripts in the page body
    assert client.get("/users/nobody-here/").status_code == 404


def test_header_and_lobby_link_the_pages(client, make_user):
    me = make_user()
    client.force_login(me)
    html = client.get("/lobby/").content.decode()
    assert 'href="/ratings/"' in html and f'href="/users/{me.username}/"' in html
    assert 'href="/ratings/yokai/"' in html


def test_the_create_form_sets_rated(client, make_user):
    me = make_user()
    client.force_login(me)
    client.post("/matches/new/", {"game": "yokai", "seats": 2, "options": "{}"})
    client.post("/matches/new/", {"game": "yokai", "seats": 2, "options": "{}", "rated": "on"})
    from games.eventstore.models import Match

    assert sorted(Match.objects.values_list("rated", flat=True)) == [False, True]


def test_the_match_page_says_whether_it_is_rated(client, make_user, start):
    a, b = make_user(), make_user()
    rated, casual = start([a, b]), start([a, b], rated=False)
    assert '<dd id="status-rated" data-testid="rated">yes</dd>' in client.get(f"/matches/{rated.pk}/").content.decode()
    assert '<dd id="status-rated" data-testid="rated">no</dd>' in client.get(f"/matches/{casual.pk}/").content.decode()
