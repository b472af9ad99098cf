"""The table's wording helpers (frontend/static/js/words.js) say what the server's do: a bot's name once
(identities.seat_label) and a refusal in words, never its code (frontend/wording.error_text)."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from frontend.wording import delay_words, error_text
from games.application.identities import seat_label

from ..application.test_seat_label import SEATS

WORDS_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "words.js"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

ERRORS = [
    {"code": "throttled", "message": "Request was throttled. Expected available in 3 seconds."},
    {"code": "version_conflict", "message": "the match has moved on to seq 12"},
    {"code": "not_your_turn", "message": "wait for your turn"},
    {"code": "match_in_progress", "message": "match_in_progress"},
    {"code": "odd", "message": ""},
    {"code": "", "message": "some_code_here"},
]


def run_js(expression: str):
    script = f"import * as words from {json.dumps(WORDS_JS.as_uri())};\nconsole.log(JSON.stringify({expression}));"
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_seat_labels_match_the_server():
    seats = [s for s, _ in SEATS]
    assert run_js(f"{json.dumps(seats)}.map(words.seatLabel)") == [seat_label(s) for s in seats]


def test_refusals_read_as_the_server_words_them():
    shown = run_js(f"{json.dumps(ERRORS)}.map((b) => words.errorText(b))")
    assert shown == [error_text(b) for b in ERRORS]
    assert not any(b["code"] and b["code"] in text for b, text in zip(ERRORS, shown))
    assert "seq" not in shown[1]


def test_a_caller_words_its_own_codes_and_fallback():
    assert run_js('words.errorText({code: "throttled"}, {throttled: "Slow down."})') == "Slow down."
    assert run_js('words.errorText(null, {}, "The rematch could not be accepted.")') == "The rematch could not be accepted."


def test_an_open_tables_waiting_words_say_who_it_waits_for():
    # given an open two-seat match created by aiko (user 1), seen by each reader in turn
    def doc(seats, seat, creator=1, status="open"):
        return {"seat": seat, "match": {"status": status, "creator_id": creator, "seats": seats}}

    aiko, ren = {"user_id": 1, "username": "aiko", "bot": False}, {"user_id": 2, "username": "ren", "bot": False}
    docs = [doc([aiko, None], 0), doc([aiko, None], None), doc([aiko, ren], 0), doc([aiko, ren], 1),
            doc([aiko, ren], None, creator=None), doc([aiko, ren], 1, status="active")]
    # when the table words its wait
    said = run_js(f"{json.dumps(docs)}.map(words.waitingWords)")
    # then the creator is told what to do, the others who they wait for
    assert said == [
        "Waiting for players: 1 of 2 seats taken. Invite players or add bots, then start the match.",
        "Waiting for players: 1 of 2 seats taken.",
        "Every seat is taken: start the match when you are ready.",
        "Every seat is taken: waiting for aiko to start the match.",
        "Every seat is taken: waiting for the match to start.",
        "Nothing to show yet.",
    ]


def test_the_end_result_says_a_team_lost_by_one_resignation():
    # given a team game that ended when alice resigned for her team
    winners = ["Bot 2", "Bot 4", "Bot 6"]
    # when the table words the result
    team = run_js(f'words.resultWords({json.dumps(winners)}, [{{name: "alice", forTeam: true}}])')
    # then it lists the winners as a sentence does and says alice resigned for the team
    assert team == "Winners: Bot 2, Bot 4 and Bot 6 (alice resigned for the team)"
    assert run_js('words.resultWords(["bob"], [{name: "you", forTeam: false}])') == "Winner: bob (you resigned)"
    assert run_js('words.resultWords(["bob"], [{name: "ann"}, {name: "cy"}])') == "Winner: bob (ann and cy resigned)"
    assert run_js("words.resultWords([])") == "No winner."


def test_the_paused_banner_says_the_reason_as_the_server_does():
    from frontend.views import paused_words
    # given a match held by its tournament's organizer, with or without a reason
    for reason in ("power cut", ""):
        # when the table words the banner, then it says what the server's page said
        assert run_js(f"words.pausedWords({json.dumps(reason)})") == paused_words(reason)
    assert paused_words("power cut") == ("The round is paused by the organizer: power cut. Moves wait until it "
                                         "resumes; clocks are stopped.")


def test_the_rematch_offer_reads_sensibly_to_a_player_who_resigned():
    # given a player who resigned the match they look at
    intro = run_js("words.rematchIntro(true)")
    # then the offer is plainly a new match that they may still offer
    assert intro.startswith("A new match: the same game") and "You resigned this one; you can still offer a new one." in intro
    assert "resigned" not in run_js("words.rematchIntro(false)")
    # and their own line does not say they have "not answered" a question nobody asked them
    assert run_js("words.rematchSeatState({mine: true})") == "not accepted yet"
    assert run_js("words.rematchSeatState({})") == "has not answered yet"
    assert run_js("words.rematchSeatState({accepted: true, mine: true})") == "accepted"
    assert run_js("words.rematchSeatState({bot: true})") == "accepts by itself"


def _delay(seconds, turns):
    """The boot's ``spectator_delay`` as views.match_page gives it (the server's words)."""
    return {"seconds": seconds, "turns": turns, "words": delay_words(seconds, turns)}


def test_a_delayed_spectator_is_not_told_live():
    # given a tournament match its spectators watch 60 seconds and 1 turn behind the players
    delays = [_delay(60, 1), _delay(60, 0), _delay(150, 2), None, _delay(0, 0)]
    shown = run_js(f"{json.dumps(delays)}.map(words.liveWords)")
    # then the badge says how far behind in the tournament page's words (before: "60 s" against its
    # "1 minute"), and only a view without delay is "Live"
    assert shown == ["Delayed 1 minute and 1 turn", "Delayed 1 minute", "Delayed 2 minutes 30 seconds and 2 turns",
                     "Live", "Live"]


def test_a_delayed_spectator_before_the_deal_is_told_the_match_has_started():
    # given a running tournament match whose deal has not reached its spectators yet (docs/tournaments.md)
    running = {"match": {"status": "active", "seats": [], "creator_id": None}, "seat": None}
    docs = [{**running, "spectator_delay": _delay(60, 1)}, {**running, "spectator_delay": _delay(90, 0)},
            {**running, "spectator_delay": None}]
    # when the table words its wait
    said = run_js(f"{json.dumps(docs)}.map(words.waitingWords)")
    # then a delayed spectator reads that it has started and how far behind they see it, not "Nothing to show yet"
    assert said == [
        "The match has started; as a spectator you see it 1 minute and 1 turn behind: the first moves appear soon.",
        "The match has started; as a spectator you see it 1 minute 30 seconds behind: the first moves appear soon.",
        "Nothing to show yet.",
    ]
