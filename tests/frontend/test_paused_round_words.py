"""A paused round is said in one wording wherever it shows (review finding: the organizer's page said
"round is paused", the match page's Clock "stopped: the tournament is paused", and the awaited seat
still read "to play"): the tournament page, the match page's banner, Clock and actions, a board's header
and the awaited seat's badge all say "the round is paused" (words.js PAUSED, frontend/views.PAUSED_SENTENCE;
docs/tournaments.md)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from frontend.views import PAUSED_SENTENCE
from games.tournaments import services
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_start_and_play

from ..tournaments.play import yokai_cup

JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js"
node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def run_js(module: str, expression: str):
    script = (f"globalThis.window = globalThis;\nconst m = await import({json.dumps((JS / module).as_uri())});\n"
              f"console.log(JSON.stringify({expression}));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def _doc(held: bool) -> dict:
    return {"seat": 0, "status": {"awaiting": [0]},
            "match": {"status": "active", "clock_held": held, "clock_reason": "power cut",
                      "seats": [{"username": "Miko"}, {"username": "Kenji"}]}}


@pytest.mark.django_db
def test_the_tournament_page_and_the_match_page_say_the_round_is_paused_in_the_same_words(client, make_user):
    # given a running cup whose organizer paused round 1 for a power cut
    organizer, t, players = yokai_cup(make_user, players=2, rounds=2)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="power cut")
    table = TournamentTable.objects.get(tournament=t, round=1)
    client.force_login(players[0])
    # when a player opens the tournament page and their match page
    tournament = client.get(f"/tournaments/{t.pk}/").content.decode()
    match = client.get(f"/matches/{table.match_id}/").content.decode()
    # then both start with the same sentence, with the organizer's reason
    notice = re.search(r'data-testid="pause-reason">([^<]*)</p>', tournament).group(1)
    banner = re.search(r'<p id="paused-banner"[^>]*>([^<]*)</p>', match).group(1)
    assert notice.startswith(f"{PAUSED_SENTENCE} by the organizer: “power cut”.")
    assert banner.startswith(f"{PAUSED_SENTENCE} by the organizer: power cut.")
    assert '<span class="badge paused" data-testid="clock-paused">round paused</span>' in tournament
    # and neither says it another way
    for page in (tournament, match):
        assert "tournament is paused" not in page and "time limit paused" not in page
        assert "organizer paused the round" not in page


@node
def test_the_match_page_s_words_and_the_server_s_are_one_and_the_same():
    # given the table's words for a paused round
    paused = run_js("words.js", "m.PAUSED")
    # then each says "the round is paused" as the server's pages do
    assert paused["sentence"] == PAUSED_SENTENCE
    assert paused["clock"] == "stopped: the round is paused"
    assert paused["moves"] == "The round is paused: your moves wait until it resumes."
    assert paused["header"] == "Round paused"


@node
def test_while_paused_the_awaited_seat_s_badge_says_it_waits_for_the_resume():
    # given the awaited seat of a match whose round is paused, then of the same match running
    # then its badge says it plays when the round resumes (before: plain "to play" under the paused banner)
    assert run_js("words.js", f"m.toPlayBadge({json.dumps(_doc(True))})") == "to play when resumed"
    assert run_js("words.js", f"m.toPlayBadge({json.dumps(_doc(False))})") == "to play"
    # a finished match is not paused, whatever its clock
    over = _doc(True)
    over["match"]["status"] = "finished"
    assert run_js("words.js", f"m.toPlayBadge({json.dumps(over)})") == "to play"


@node
def test_the_yokai_board_header_says_the_round_is_paused():
    assert run_js("boards/yokai.js", f"m.turnWords({json.dumps(_doc(True))}, {{turn: 0}}, true)") == "Round paused"
