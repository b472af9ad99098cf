"""The Yokai Battle board's summon choices (frontend/static/js/boards/yokai.js, run under Node): an
orientation is offered once per distinct set of attack values, so a symmetric monster (Gaki: 1 on every
side) gets one button, not "Upright" and "Turned ¼ right" that do the same. The engine reads a monster's
orientation for its attack values only (rules.side_ap), so two orientations with the same values on every
side are the same move: this checks the board's dedupe against the engine for every monster."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engines.yokai.board import ORIENTATIONS
from games.engines.yokai.content import MONSTERS
from games.engines.yokai.rules import side_ap

YOKAI_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "boards" / "yokai.js"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SUMMONS = [{"type": "summon", "args": {"card": "c1", "terrain": "1,1", "orientation": o}} for o in ORIENTATIONS]


def run_js(expression: str):
    # the board registers itself on `window` when imported: Node's global object stands in for it
    script = (f"globalThis.window = globalThis;\nconst yokai = await import({json.dumps(YOKAI_JS.as_uri())});\n"
              f"console.log(JSON.stringify({expression}));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def offered(attacks: dict) -> dict:
    """monster key -> the orientations the board offers a button for."""
    calls = {key: f"yokai.distinctOrientations({json.dumps(SUMMONS)}, {json.dumps(attack)}).map((c) => c.args.orientation)"
             for key, attack in attacks.items()}
    return run_js("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in calls.items()) + "}")


def test_a_symmetric_monster_gets_one_orientation_button():
    gaki = MONSTERS["gaki"]["attack"]
    assert set(gaki.values()) == {1}
    assert offered({"gaki": gaki, "lopsided": {"top": 2, "right": 1, "bottom": 1, "left": 1}}) == {
        "gaki": ["vertical"],  # the first one only: "Upright"
        "lopsided": ["vertical", "horizontal"],
    }


def test_the_buttons_offered_match_what_the_engine_tells_apart_for_every_monster():
    got = offered({key: m["attack"] for key, m in MONSTERS.items()})
    for key in MONSTERS:
        values = {o: tuple(side_ap({"card": key, "orientation": o}, d) for d in "NESW") for o in ORIENTATIONS}
        expected = ["vertical"] if values["vertical"] == values["horizontal"] else list(ORIENTATIONS)
        assert got[key] == expected, key


def test_without_the_card_s_values_every_option_stays():
    assert run_js(f"yokai.distinctOrientations({json.dumps(SUMMONS)}, null).length") == 2


# docs/games/yokai.md, "Time limit (tournaments)": the banner says why a game the clock ended is over
def test_the_banner_says_why_the_game_ended_even_when_the_clock_ended_it():
    doc = json.dumps({"match": {"seats": [{"username": "Miko"}, {"username": "Kenji"}]}})

    def how(result, winners):
        return run_js(f"yokai.howItEnded({doc}, {json.dumps(result)}, {json.dumps(winners)})")

    assert how({"reason": "conquest", "seat": 0}, [0]) == "Miko conquered 5 terrain cards."
    assert how({"reason": "deck_out", "loser": 1}, [0]) == "Kenji had to draw from an empty deck."
    assert how({"reason": "time_limit"}, [1]) == (
        "The round's time ran out: the side with the most monsters on the board (then the most LP on them) wins.")
    assert how({"reason": "time_limit"}, []).endswith("a draw.")


def test_a_paused_tournament_match_says_so_above_the_board():
    # given the seat's turn in a match whose organizer paused the round (its clock held)
    doc = {"seat": 0, "status": {"awaiting": [0]},
           "match": {"status": "active", "clock_held": True, "seats": [{"username": "Miko"}, {"username": "Kenji"}]}}
    def words(doc):
        return run_js(f"yokai.turnWords({json.dumps(doc)}, {{turn: 0}}, true)")

    # then the top bar reads Round paused, not Your turn (before: "Your turn" under the paused banner)
    assert words(doc) == "Round paused"
    assert words({**doc, "match": {**doc["match"], "clock_held": False}}) == "Your turn"


def test_a_paused_match_s_prompt_names_who_plays_next_without_repeating_the_banner():
    # given a match whose organizer paused the round while Miko (seat 1) was to play
    doc = {"seat": 0, "status": {"awaiting": [0]},
           "match": {"status": "active", "clock_held": True, "clock_reason": "a fire alarm",
                     "seats": [{"username": "Miko"}, {"username": "Kenji"}]}}
    def prompt(doc, player=True):
        return run_js(f"yokai.pausedPrompt({json.dumps(doc)}, {json.dumps(player)})")

    # then Miko reads that her move waits, Kenji and a spectator that Miko plays on the resume; the
    # page's banner right above says why (before: the banner's sentence again, word for word)
    assert prompt(doc) == "Your move waits until the round resumes."
    assert prompt({**doc, "seat": 1}) == "Miko will play when the round resumes."
    assert prompt({**doc, "seat": None}, player=False) == "Miko will play when the round resumes."


# A play-through found "Gashadokuro" broken "Gashadok/uro" on a phone's card: the board breaks a long
# name only between its syllables (soft hyphens), keeps short words and spaced names as they are
def test_a_long_monster_name_breaks_between_syllables_only():
    names = ["Gashadokuro", "Katakirauwa", "Enraenra", "Akuro-Jin no Hi", "Mikari Baba", "Kappa"]
    got = run_js(f"{json.dumps(names)}.map((n) => yokai.syllableBreaks(n))")
    assert [g.replace("\u00ad", "·") for g in got] == [
        "Gasha·do·kuro", "Kata·ki·ra·uwa", "Enra·enra", "Akuro-Jin no Hi", "Mikari Baba", "Kappa"]
    assert [g.replace("\u00ad", "") for g in got] == names  # only soft hyphens are added
