"""A tournament's spectator kept behind the players (docs/tournaments.md, "Fair play: the spectator
delay") opens a match that has just started: the deal has not reached them yet, so their view is still
the lobby's. The page says what is true, that the match has started and how far behind they see it,
never "Phase: Lobby" or "Nothing to show yet", in each tournament game, at 1280 and 390 px."""

import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, server_side

pytestmark = pytest.mark.e2e

CUP_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.tournaments import services
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_start_and_play
User = get_user_model()
tag, game = sys.argv[1], sys.argv[2]
organizer = User.objects.create_user(f"org-{tag}", password="x-pass-123456", is_staff=True)
t = services.tournament_create(creator=organizer, name=f"Cup {tag}", game=game, format="swiss", table_size=2,
                               rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
for i in range(2):
    services.tournament_register(tournament_id=t.pk, user=User.objects.create_user(f"cp{i}-{tag}", password="x-pass-123456"))
tournament_start_and_play(tournament_id=t.pk, user=organizer)
with open(sys.argv[3], "w") as out:
    out.write(str(TournamentTable.objects.get(tournament=t, round=1).match_id))
"""
STARTED = "The match has started; as a spectator you see it 1 minute and 1 turn behind: the first moves appear soon."


@pytest.mark.parametrize("game", ["yokai", "yashima"])
def test_a_delayed_spectator_reads_that_the_match_has_started(new_page, live_server_env, tmp_path, game):
    # given a tournament match that has just started, watched 1 minute and 1 turn behind (the default; worded as on the tournament page)
    out = tmp_path / "match_id"
    server_side(live_server_env, CUP_PY, uuid.uuid4().hex[:6], game, str(out))
    match_id = out.read_text().strip()
    page = new_page()
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
        # when an anonymous spectator opens its page
        page.goto(f"/matches/{match_id}/")
        expect(page.locator("#connection")).to_have_text("Delayed 1 minute and 1 turn")
        # then the table says the match has started and how far behind they see it
        expect(page.get_by_test_id("waiting")).to_have_text(STARTED)
        expect(page.locator("#status-match")).to_have_text("active")
        expect(page.locator("#status-phase")).to_have_text("Started (spectators see it soon)")
        expect(page.locator("#match-app")).not_to_contain_text("Nothing to show yet")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"delayed-{game}-{width}.png"), full_page=True)
    assert page.console_errors == [], page.console_errors
