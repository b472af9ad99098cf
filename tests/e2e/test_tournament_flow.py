"""A Swiss tournament in real browsers: an organizer creates it through the form (real fields, the
decision clock among Yashima's match options), four players register from four browser contexts, the
organizer starts it, and an open tournament page (anonymous, never reloaded) shows the registrations
and then the round-1 pairings live, pushed over /ws/tournaments/{id}/. Every player's match is created
and started for them: the watch link opens a running match where they hold a seat."""

import json
import re
import subprocess
import sys
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import ROOT
from .test_match_flow import assert_not_reloaded, mark_no_reload, sign_up

pytestmark = pytest.mark.e2e

SHOTS = ROOT / "var" / "e2e-tournament"
PROMOTE_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
get_user_model().objects.get(username=sys.argv[1]).groups.add(Group.objects.get(name="organizers"))
"""


def promote(server_env, username):
    done = subprocess.run([sys.executable, "-c", PROMOTE_PY, username], cwd=ROOT, env=server_env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_organizer_creates_players_register_and_pairings_appear_live(new_page, live_server_env):
    tag = uuid.uuid4().hex[:6]
    org = new_page()
    sign_up(org, f"org-{tag}")
    promote(live_server_env, f"org-{tag}")

    org.goto("/")
    org.get_by_test_id("nav-tournaments").click()
    org.get_by_test_id("new-tournament").click()
    org.get_by_label("Name").fill(f"Swiss {tag}")
    org.get_by_label("Game").select_option("yashima")
    org.get_by_label("Format").select_option("swiss")
    org.get_by_label("Players per table").select_option("2")
    org.get_by_label("Round time limit (minutes)").fill("45")
    expect(org.locator("fieldset[data-game=yokai]")).to_be_hidden()  # only the chosen game's options
    org.get_by_label("Turn seconds").fill("120")
    org.get_by_label("Defense seconds").fill("60")
    shot(org, "1-create-form")
    org.get_by_role("button", name="Create").click()
    org.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]{36}/$"))
    expect(org.locator(".messages")).to_contain_text("open for registration")
    url = org.url

    watcher = new_page()  # anonymous, kept open and never reloaded
    watcher.goto(url)
    expect(watcher.locator("#tournament-connection")).to_have_text("live")
    mark_no_reload(watcher)

    players = []
    for i in range(4):
        page = new_page()
        sign_up(page, f"p{i}-{tag}")
        page.goto(url)
        page.get_by_test_id("register").click()
        expect(page.locator(".messages")).to_contain_text("You are registered.")
        players.append(page)
        expect(watcher.get_by_test_id("entrants").locator("li")).to_have_count(i + 1)
    expect(watcher.get_by_test_id("entrants")).to_contain_text(f"p3-{tag}")
    shot(watcher, "2-registered")

    org.reload()
    org.get_by_test_id("start").click()
    expect(org.locator(".messages")).to_contain_text("round 1 is paired")

    round1 = watcher.get_by_test_id("pairings-round-1")
    expect(round1.locator("tbody tr")).to_have_count(2)
    expect(round1.get_by_test_id("watch")).to_have_count(2)
    expect(watcher.get_by_test_id("tournament-status")).to_contain_text("running")
    expect(watcher.get_by_test_id("standings").locator("tbody tr")).to_have_count(4)
    assert_not_reloaded(watcher)
    names = round1.locator("tbody").inner_text()
    for i in range(4):
        assert f"p{i}-{tag}" in names
    shot(watcher, "3-paired-live")
    assert watcher.console_errors == []

    # each player's match was created and started for them: the watch link on their own row
    for i, page in enumerate(players):
        page.goto(url)
        row = page.get_by_test_id("pairings-round-1").locator("tbody tr", has_text=f"p{i}-{tag}")
        row.get_by_test_id("watch").click()
        page.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
        match_id = page.url.rstrip("/").rsplit("/", 1)[1]
        detail = json.loads(page.evaluate(f"fetch('/api/matches/{match_id}/').then(r => r.text())"))
        assert detail["status"] == "active", detail
        assert detail["your_seat"] is not None, detail
        assert detail["options"]["turn_seconds"] == 120
        if i == 0:
            shot(page, "4-player-match")
