"""A player resigns mid-match and then deletes the account: the other player's profile and the match
page (seats and history) say "deleted player" and never the old name, at desktop and phone widths.
(docs/platform.md, "Names in seats"; the account-delete page's promise)"""

import json
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api
from .conftest import SHOTS, assert_fits_width
from .test_match_flow import sign_in

pytestmark = pytest.mark.e2e

PASSWORD = "paper-lantern-42"
WIDTHS = (1280, 390)


def register(base, name):
    return api(base, "/api/auth/register/", body={"username": name, "password": PASSWORD})["token"]


def delete_account(base, token):
    req = urllib.request.Request(f"{base}/api/account/delete/", data=json.dumps({"password": PASSWORD}).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Token {token}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        assert r.status == 204


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_deleted_players_name_is_gone_from_the_profile_and_the_match_page(new_page, live_server_url):
    base = live_server_url
    stays, leaves = f"newbie1{uuid.uuid4().hex[:5]}", f"newbie3{uuid.uuid4().hex[:5]}"
    tokens = {stays: register(base, stays), leaves: register(base, leaves)}
    match = api(base, "/api/matches/", tokens[stays], {"game": "pebbles", "seats": 2, "options": {"bonus_rolls": False}})
    mid = match["id"]
    api(base, f"/api/matches/{mid}/join/", tokens[leaves], {})
    api(base, f"/api/matches/{mid}/start/", tokens[stays], {})
    api(base, f"/api/matches/{mid}/resign/", tokens[leaves], {})  # MatchFinished records the name
    delete_account(base, tokens[leaves])

    page = new_page()
    sign_in(page, stays, f"/users/{stays}/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/users/{stays}/")
        expect(page.get_by_text("deleted player").first).to_be_visible()
        assert leaves not in page.content()
        assert_fits_width(page)
        shot(page, f"deleted-player-profile-{width}")

        page.goto(f"/matches/{mid}/")
        expect(page.get_by_text("deleted player resigns: the match is over").first).to_be_attached()
        assert leaves not in page.content()
        assert_fits_width(page)
        shot(page, f"deleted-player-match-{width}")
    assert page.console_errors == []
