"""The Harakiri board and home page say what the engine does: the action points a hero spends, why a
click on an enemy starts no attack (``whyNoAttack`` in boards/harakiri.js, run under Node on views the
engine builds), and why a hit dealt no damage (``resolvedText``, the last-roll panel)."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from games.engines.harakiri import ENGINE, content
from games.kernel import Rng, fold
from tests.engines.harakiri.helpers import arena, doc, open_rows, scenario

BOARD = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "boards" / "harakiri.js"
NODE = shutil.which("node")
WEAPONS = {k: {"name": w["name"], "range": w["range"]} for k, w in content.WEAPONS.items()}


@pytest.mark.django_db
def test_the_home_pages_action_points_are_the_engines():
    # rules: Harakiri, "Exploration Phase Setup" step 13 (4 action points) and "Character Activation"
    # (3 gained each activation, 1 kept, at most 4)
    state = fold(ENGINE, ENGINE.setup({}, 1, Rng(b"home-ap", "setup")))
    assert {ch["ap"] for ch in state["characters"].values()} == {4}
    html = Client().get("/").content.decode()
    assert "Spend up to 4 action points each activation (3 gained, plus 1 kept from the last; heroes start with 4)" in html
    assert "Spend 3 action points" not in html


def board(expression: str, docs: dict):
    """Evaluate ``expression`` with the board module loaded (``b``: its test hooks) and ``docs``."""
    script = (
        "globalThis.window = globalThis;\n"
        f"await import({json.dumps(BOARD.as_uri())});\n"
        "const b = window.KamizaHarakiri;\n"
        f"b.ui.content = {{ weapons: {json.dumps(WEAPONS)} }};\n"
        f"const docs = {json.dumps(docs)};\n"
        f"console.log(JSON.stringify({expression}));"
    )
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def seat_doc(s, seat):
    st = ENGINE.status(s.state)
    return {"seat": seat, "seq": 1, "status": {"phase": st.phase, "awaiting": st.awaiting, "finished": st.finished},
            "view": ENGINE.view_for(s.state, seat), "legal_commands": ENGINE.legal_commands(s.state, seat)}


def attack_targets(d):
    return {c["args"]["target"] for c in d["legal_commands"] if c["type"] == "attack"}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_click_on_an_enemy_no_attack_can_reach_says_why():
    # given Akira (katana, range 1) on 2,2 in his activation: one kachi adjacent, one 4 squares away
    enemies = {"near": {"type": "kachi", "color": "red", "at": "3,2"}, "far": {"type": "kachi", "color": "blue", "at": "6,2"}}
    s = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2"}}, enemies, activate="char:akira"))
    me = seat_doc(s, 0)
    assert attack_targets(me) == {"near"}  # the far kachi has no command: a click on it finds nothing
    # when the player clicks each kachi, and another seat clicks the near one
    other = {**me, "seat": 1}
    said = board('[b.whyNoAttack(docs.me, "far"), b.whyNoAttack(docs.other, "near")]', {"me": me, "other": other})
    # then the far one is out of reach, with the numbers the player can check on the board
    assert said[0] == "Kachi (blue) is out of Akira's reach: Katana has range 1, Kachi (blue) is 4 squares away."
    assert said[1] == "It is not your turn: nothing of yours can target Kachi (red) now."


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_click_after_the_attack_or_behind_an_obstacle_says_so():
    # given Tomoe's bow (range 4) and a kachi 2 squares away, behind an obstacle (no line of sight)
    rows = open_rows()
    rows[2] = "...o" + rows[2][4:]
    bow = {"sq": "2,2", "weapons": ["samurai_yumi"], "equipped": "samurai_yumi"}
    s = scenario(doc(arena(rows), {"tomoe": bow}, {"k": {"type": "kachi", "color": "blue", "at": "4,2"}},
                     activate="char:tomoe"))
    hidden = seat_doc(s, 0)
    assert not attack_targets(hidden)
    attacked = seat_doc(s, 0)
    attacked["view"]["turn"]["attacked"] = True
    said = board('[b.whyNoAttack(docs.hidden, "k"), b.whyNoAttack(docs.attacked, "k")]',
                 {"attacked": attacked, "hidden": hidden})
    # then line of sight, which the view does not compute, reads as the plain fact
    assert said == ["No action of Tomoe's can target Kachi (blue) now.", "Tomoe has already attacked this activation."]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_last_roll_says_why_a_hit_dealt_no_damage():
    enemies = {"near": {"type": "kachi", "color": "red", "at": "3,2"}}
    s = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2"}}, enemies, activate="char:akira"))
    me = seat_doc(s, 0)
    shown = board('[b.whyNoAttack(docs.me, "near"), b.resolvedText({attacker: "akira", damage: {near: 0}, critical: false}),'
                  ' b.resolvedText({attacker: "akira", damage: {near: 2}, critical: false}),'
                  ' b.resolvedText({attacker: "near", target: "akira", outcome: "hit", damage: 0})]', {"me": me})
    assert shown[1] == "0 damage to Kachi (red) (Kachi (red)'s defense and armor absorb the hits)"
    assert shown[2] == "2 damage to Kachi (red)"
    assert shown[3] == "Hit on Akira: 0 damage (Akira's defense, armor and protections absorb the hits)"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_last_roll_shows_an_enemys_activation_roll():
    # rules: Harakiri, "Minions" (a test die on the enemy board's table, the aggressive one under a red oracle)
    # given an enemy's activation roll after an attack by Akira, the newest roll of the log
    events = [{"seq": 5, "type": "AttackRolled", "payload": {"attack": {"attacker": "akira", "targets": ["near"], "dice": [{"die": "red", "i": 1}]}}},
              {"seq": 6, "type": "EnemyActivated", "payload": {"enemy": "near", "roll": 4, "table": "aggressive", "lines": [1, 2]}},
              {"seq": 7, "type": "EnemyActivated", "payload": {"enemy": "boss", "card": "hate", "lines": [1]}}]
    # when the Last roll panel reads the log, then it shows that roll (a chosen's AI card is no roll)
    roll = board("b.lastRoll(docs.d)", {"d": {"seq": 7, "events": events}})
    assert (roll["seq"], roll["who"], roll["dice"]) == (6, "near", [{"die": "test", "n": 4}])
    assert roll["outcomes"] == ["On the aggressive table: lines 1, 2"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_board_tags_the_zones_that_give_no_heads_after_a_failure():
    # rules: Harakiri, "Failure", step 7: "no enemy heads can be acquired in zones that were already active.
    # They can only be acquired in newly discovered zones from this point onward"
    from tests.engines.harakiri.test_failure_heads import _failed

    # given the failure with the arena and the annex on the table (the hall not revealed yet)
    me = seat_doc(_failed(), 0)
    # when the board lists the zones that give no heads and where their tags go: on a free map, and with
    # miniatures or marks on the arena's 0,0 and 2,0
    said = board('[b.noHeadZones(docs.me.view), b.noHeadZones(docs.me.view, new Set(["0,0", "2,0"])), '
                 'b.noHeadsText("Annex")]', {"me": me})
    # then both zones are named, each tag on the zone's first square, or on its first square that hides
    # nothing, itself or east of it (the tag may run over the next square on a phone): 3,0; and the help
    # says what it means in words
    assert said[0] == [{"zone": "arena", "name": "Arena", "sq": "0,0"}, {"zone": "annex", "name": "Annex", "sq": "10,0"}]
    assert said[1] == [{"zone": "arena", "name": "Arena", "sq": "3,0"}, {"zone": "annex", "name": "Annex", "sq": "10,0"}]
    assert said[2] == ("No heads: Annex was on the table when the party failed, so its enemies leave no head when "
                       "defeated. Only zones discovered after the failure give heads.")


def test_the_boards_words_say_choose_not_click():
    # a square, a place or a button is chosen by a click, a tap or Enter/Space alike: the words the
    # boards show or speak (prompts, tooltips, legends, accessible names) never say "click"; code
    # comments and names (onclick, clickable) may
    found = []
    for name in ("harakiri.js", "harakiri_adventure.js", "harakiri_adventure_words.js"):
        source = (BOARD.parent / name).read_text()
        source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
        for line in source.splitlines():
            code = re.sub(r"(^|\s)//.*$", "", line).replace('"click"', "")
            if re.search(r"\bclick(?!able)", code, re.I):
                found.append(f"{name}: {line.strip()}")
    assert not found, "\n".join(found)
