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
           ev(6, "ClockHeld", "The clock stops: the round is paused"),
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


def box_lines(texts, most):
    lines = [{"seq": i + 1, "text": t} for i, t in enumerate(texts)]
    script = (f"import * as lm from {json.dumps(LAST_MOVE_JS.as_uri())};\n"
              f"const b = lm.boxLines({json.dumps(lines)}, {most});\n"
              "const words = (part) => part.map(lm.foldedText);\n"
              "console.log(JSON.stringify({head: words(b.head), middle: words(b.middle), tail: words(b.tail)}));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


MULLIGAN = "erin9 moves a card from the hand to the bottom of their deck"


def test_identical_lines_in_a_row_fold_into_one_and_the_newest_lines_show():
    # given a move of five identical lines, then the initiative and the turn change (the reviewed tour)
    texts = [MULLIGAN] * 5 + ["carol9 reveals Inferno for initiative: karma 4, attack 3", "carol9 puts Inferno into karma",
                              "erin9 reveals Dusk Rush for initiative: karma 4, attack 5", "erin9 puts Dusk Rush into karma",
                              "erin9 wins the initiative", "Round 1: erin9's turn"]
    # when the box picks its lines (four shown)
    box = box_lines(texts, 4)
    # then the five identical lines are one, the move's first line and its newest three show, the rest folds
    assert box["head"] == [f"{MULLIGAN} (×5)"]
    assert box["tail"] == ["erin9 puts Dusk Rush into karma", "erin9 wins the initiative", "Round 1: erin9's turn"]
    assert box["middle"] == texts[5:8]


def test_a_short_move_shows_whole_and_only_neighbouring_repeats_fold():
    box = box_lines(["a draws", "a draws", "b's turn", "a draws"], 4)
    assert box == {"head": ["a draws (×2)", "b's turn", "a draws"], "middle": [], "tail": []}


def box_title(seats, game):
    script = (f"import * as lm from {json.dumps(LAST_MOVE_JS.as_uri())};\n"
              f"console.log(JSON.stringify(lm.boxTitle({json.dumps(seats)}, {json.dumps(game)})));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_title_names_the_game_too_when_its_steps_are_in_the_box():
    # given bob ended his hero's turn and the red enemies then acted (the reviewed Harakiri table)
    # then the title does not credit bob alone with the enemies' activation
    assert box_title(["bob"], True) == "Last move: bob, with the game's steps"
    assert box_title(["bob"], False) == "Last move: bob"
    assert box_title([], True) == "Last moves by the game"
    assert box_title(["bob", "carol"], False) == "Last move: bob and carol"


def title_seats(keys, after):
    script = (f"import * as lm from {json.dumps(LAST_MOVE_JS.as_uri())};\n"
              f"console.log(JSON.stringify(lm.titleSeats({json.dumps(keys)}, {json.dumps(after)})));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_games_steps_after_the_viewers_own_decision_are_titled_with_the_viewer():
    # given a solo Harakiri box: only the game's steps, which answered the player's (seat 0) decision
    # (the hero's counter attack the player chose, the activation starting)
    # then the title names the player, not "the game" alone
    assert title_seats(["system", "system"], 0) == [0]
    # and a box with another seat's lines names that seat; the game's set-up alone names nobody
    assert title_seats(["system", 1, "system", 1], 0) == [1]
    assert title_seats(["system"], None) == []
