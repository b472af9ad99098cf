"""The "Last move" box above the board (frontend/static/js/last_move.js, used by match.js) shows a
resignation, the resigner's own included: it used to be in the History only."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

LAST_MOVE_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "last_move.js"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SEAT_OF = "(ev) => ev.type === 'SeatConceded' ? ev.payload.seat : (ev.type === 'MatchFinished' && Number.isInteger(ev.payload.resigned) ? ev.payload.resigned : (Number.isInteger((ev.actor || {}).seat) ? ev.actor.seat : 'system'))"


def resignation_move(newest_first):
    script = (f"import * as lm from {json.dumps(LAST_MOVE_JS.as_uri())};\n"
              f"console.log(JSON.stringify(lm.resignationMove({json.dumps(newest_first)}, {SEAT_OF})));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def ev(seq, type_, text, seat=None, **payload):
    return {"seq": seq, "type": type_, "text": text, "actor": {"kind": "user", "seat": seat}, "payload": payload}


def test_a_resignation_that_ended_the_match_is_the_last_move():
    # given alice (seat 0) resigned a two-sided match after a clock hold and her opponent's move
    log = [ev(7, "MatchFinished", "alice resigns: the match is over", winners=[1], resigned=0),
           ev(6, "ClockHeld", "The clock stops: the tournament is paused"),
           ev(5, "TilePlayed", "carol plays", seat=1)]
    # when the box picks its events, then it is her resignation
    assert [e["seq"] for e in resignation_move(log)] == [7]


def test_a_resignation_the_others_play_on_from_shows_with_what_the_game_did():
    # given bob (seat 2) resigned from a three-master game: his master leaves, the turn passes
    log = [ev(12, "TurnPassed", "alice's turn"), ev(11, "MasterConceded", "bob's master leaves the game"),
           ev(10, "SeatConceded", "bob resigns and leaves the game", seat=None, username="bob"),
           ev(9, "Moved", "carol moves", seat=1)]
    log[2]["payload"]["seat"] = 2
    # then the box shows the resignation and the game's steps after it, oldest first
    assert [e["seq"] for e in resignation_move(log)] == [10, 11, 12]


def test_once_someone_moved_after_a_resignation_the_usual_last_move_applies():
    log = [ev(13, "Moved", "alice moves", seat=0), ev(12, "TurnPassed", "alice's turn"),
           ev(10, "SeatConceded", "bob resigns and leaves the game", seat=2)]
    log[2]["payload"]["seat"] = 2
    assert resignation_move(log) is None
    assert resignation_move([ev(3, "Moved", "alice moves", seat=0)]) is None
