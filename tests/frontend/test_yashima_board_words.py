"""The Yashima board's words (frontend/static/js/boards/yashima.js, run under Node): every command the
engine lists reads as a player's sentence (never "Attack · card: … · facing: 0"), spaces as the
history writes them, a prompt's title and instruction as sentences, a kami's cards against the
battle deck the history shuffles, and a karma payment that names its cost, each card's karma and
why it cannot be called off."""

import ast
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engines.yashima import ENGINE, labels
from games.engines.yashima.content import KAMI, MASTERS
from games.kernel import SYSTEM, Command, Rng, fold

from ..engines.yashima.helpers import P, attack, card, hid, pl, prompt, scene

ROOT = Path(__file__).resolve().parents[2]
BOARD_JS = ROOT / "frontend" / "static" / "js" / "boards" / "yashima.js"
NAMES = ["hanzo", "tomoko", "aiko", "ren", "kaito", "yuki"]
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

# Reads {pack, calls: [[op, doc, ...args]]} on stdin; prints each call's result. The board module
# registers itself on window at import, so a bare window is given first; ui.last is set to the call's
# document as render() sets it (scenario cards are looked up there).
HARNESS = """
import { readFileSync } from "node:fs";
globalThis.window = globalThis;
const y = await import(process.argv[1]);
const input = JSON.parse(readFileSync(0, "utf8"));
y.ui.content = input.pack;
y.ui.defs = y.indexDefs(input.pack);
const ops = {
  label: (doc, cmd) => y.commandLabel(doc, cmd),
  arrow: (doc, cmd, hits) => y.arrowLabel(doc, cmd, hits),
  prompt: (doc) => y.promptText({ doc, view: doc.view, opts: window.KamizaYashima.classify(doc), reach: new Map() }),
  kami: (doc, kami, master) => y.kamiChoiceLabel(kami, master),
  join: (doc, ...parts) => y.joinSentences(...parts),
  team: (doc, seat) => y.teamLine(doc, seat),
  and: (doc, items) => y.andList(items),
  teams: (doc) => y.teamLegend(doc),
  restore: (doc, seat) => y.restoreFlag(doc, doc.view.players[seat]),
  destiny: (doc, seat) => y.destinyFlag(doc, seat),
  space: (doc, cell) => y.spaceWords(doc.view, cell),
  label_of: (doc, cell) => y.spaceLabel(cell),
};
const out = input.calls.map(([op, doc, ...args]) => {
  y.ui.last = [null, doc, () => {}];
  return ops[op](doc, ...args);
});
process.stdout.write(JSON.stringify(out));
"""


def run(calls):
    done = subprocess.run(["node", "--input-type=module", "-e", HARNESS, BOARD_JS.as_uri()],
                          input=json.dumps({"pack": ENGINE.content(), "calls": calls}),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def doc_for(state, seat):
    """The document the match page gives the board: the seat's view and its legal commands."""
    seats = len(state["players"])
    return {"seat": seat, "seq": 1, "view": ENGINE.view_for(state, seat), "legal_commands": ENGINE.legal_commands(state, seat),
            "status": {"awaiting": [seat]},
            "match": {"seats": [{"username": n, "bot": False} for n in NAMES[:seats]]}}


def label(state, seat, cmd):
    return run([["label", doc_for(state, seat), cmd]])[0]


# -- finding: raw command text ------------------------------------------------------------------

def _engine_command_types():
    types = set()
    for path in Path(labels.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "C" and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                types.add(node.args[0].value)
    return types - {"proceed"}  # the platform's worker sends it, never a seat


def test_every_command_type_the_engine_lists_has_the_boards_own_words():
    source = BOARD_JS.read_text()
    body = source[source.index("export function commandLabel"):source.index("export function arrowLabel")]
    cases = set(re.findall(r'case "([a-z_]+)":', body))
    types = _engine_command_types()
    assert len(types) > 50
    assert types <= cases, sorted(types - cases)


def _played_cases():
    """(doc, command) for the commands seats meet in seeded games, a few of each type, plus the
    ones play seldom reaches (a short status supply, FROST at initiative, PURIFY's choice, GROW)."""
    cases, count = [], {}

    def keep(state, seat):
        d = doc_for(state, seat)
        for cmd in d["legal_commands"]:
            if count.get(cmd["type"], 0) < 3:
                count[cmd["type"]] = count.get(cmd["type"], 0) + 1
                cases.append((d, cmd))

    for seed, seats in [(i, 2 + i % 3) for i in range(16)]:
        rng = Rng(f"board-words-{seed}".encode(), "walk")
        state = fold(ENGINE, ENGINE.setup({"round_cap": 12}, seats, Rng(f"bw{seed}".encode(), "setup")))
        for step in range(4000):
            st = ENGINE.status(state)
            if st.finished:
                break
            if st.awaiting == [SYSTEM]:
                seat, cmd = SYSTEM, ENGINE.system_command(state)
            else:
                seat = rng.choice(st.awaiting)
                keep(state, seat)
                legal = ENGINE.legal_commands(state, seat)
                cmd = ENGINE.bot_command(state, seat, rng) if rng.below(2) else legal[rng.below(len(legal))]
            state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(b"bw", f"{seed}-{step}")), state)
    short = scene(pl(pos="0,0", hand=["blinder"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=2),
                  pl(master="kenta", kami="tiger", pos="0,-1", facing=3), supply={"BLIND": 1},
                  custom={"blinder": card("blinder", atk=1, pattern="arc", attack=[{"k": "BLIND"}])})
    attack(short, 0, "blinder")
    short.when(0, "use_effect", effect="BLIND")
    keep(short.state, 0)
    frost = scene(pl(pos="0,0", deck=["high", "plain"], karma=["mid", "low"], statuses={"FROST": 1}),
                  pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"]), phase="initiative")
    frost.when(SYSTEM, "proceed")
    keep(frost.state, 0)
    purify = scene(pl(pos="0,0", hand=["fx"]), pl(master="rosamu", kami="dragon", pos="0,-1", facing=3, statuses={"BLIND": 1, "BURN": 1}),
                   custom={"fx": card("fx", atk=1, attack=[{"k": "PURIFY"}])})
    attack(purify, 0, "fx")
    purify.when(0, "use_effect", effect="PURIFY")
    keep(purify.state, 0)
    grow = scene(pl(pos="0,0", hand=["fx"]), pl(master="rosamu", kami="dragon", pos="0,-1", facing=3),
                 custom={"fx": card("fx", atk=2, pattern="none", attack=[{"k": "GROW"}])}, space_statuses={"2,2": {"PLANT": 1}})
    attack(grow, 0, "fx")
    grow.when(0, "use_effect", effect="GROW")
    keep(grow.state, 0)
    return cases


RAW = re.compile(r"undefined|null|NaN|\[object|[{}_·]|\b(card|cell|to|frm|facing|who|on|src|spread|order|dir|delta|zone|"
                 r"effect|token|status|slot|rotation|board|side|kami|master): |facing \d|card [0-9a-f]{6}")


def test_every_command_seats_meet_reads_as_a_sentence():
    cases = _played_cases()
    assert {cmd["type"] for _, cmd in cases} == _engine_command_types()  # play and scenarios reach every type
    said = run([["label", d, cmd] for d, cmd in cases])
    for (d, cmd), text in zip(cases, said):
        assert text and not RAW.search(text), (cmd, text)
        assert text != cmd["type"].replace("_", " ").title(), (cmd, text)  # not the bare type name


def test_an_attack_arrow_says_the_card_the_direction_and_whom_it_hits():
    s = scene(pl(master="kenta", kami="tiger", pos="1,1", facing=0, hand=["tiger_14"]),
              pl(master="akiko", kami="dragon", pos="1,0", facing=3))
    d = doc_for(s.state, 0)
    up, down = ({"type": "attack", "args": {"card": hid(s, 0, "tiger_14"), "facing": f}} for f in (0, 3))
    assert run([["arrow", d, up, [1]], ["arrow", d, down, []], ["label", d, up]]) == [
        "Attack with Hunt Song facing up: hits tomoko",
        "Attack with Hunt Song facing down: no opponent in the pattern",
        "Attack with Hunt Song facing up"]


def test_steps_and_spaces_are_written_as_the_history_writes_them():
    # given a step onto a road space, which the map labels J9
    s = scene(pl(pos="1,1", facing=0), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"2,1": "road"})
    s.when(0, "move_action")
    step = {"type": "step", "args": {"to": "2,1"}}
    assert ENGINE.content()["geometry"]["labels"]["2,1"] == "J9"
    # then the board's button reads as the engine's label does, the space in words
    assert label(s.state, 0, step) == labels.label(s.state, 0, step) == "Step to the road space J9"
    blaze = scene(pl(pos="0,0", hand=["akiko_01"]), pl(master="rosamu", kami="dragon", pos="0,-2", facing=3))
    attack(blaze, 0, "akiko_01")
    blaze.when(0, "use_effect", effect=prompt(blaze)["cmds"][0]["args"]["effect"])
    assert prompt(blaze)["kind"] == "blaze_spaces"
    d = doc_for(blaze.state, 0)
    assert run([["label", d, {"type": "choose_space", "args": {"cell": "0,-3"}}]]) == ["Choose the blank space H4 for BURN"]
    # and the engine's history names the same space the same way (given the map, as the platform does)
    facts = ENGINE.narration_facts(blaze.state)
    told = [ENGINE.describe(ev, 1, NAMES, facts) for ev in blaze.when(0, "choose_space", cell="0,-3") if ev["type"] == "StatusChanged"]
    assert told == ["hanzo places BURN on the blank space H4"]


# -- finding: a title and its instruction run together ------------------------------------------

def test_a_prompt_title_and_its_instruction_read_as_sentences():
    s = scene(pl(pos="0,0", hand=["akiko_01"]), pl(master="rosamu", kami="dragon", pos="0,-2", facing=3))
    attack(s, 0, "akiko_01")
    s.when(0, "use_effect", effect=prompt(s)["cmds"][0]["args"]["effect"])
    assert run([["prompt", doc_for(s.state, 0)]]) == [
        "Choose up to two targeted spaces to gain BURN. Choose with the buttons below or a highlighted space."]
    # a title that already ends a sentence gets no second mark
    assert run([["join", None, "RELOCATE?", "Choose."], ["join", None, "Done.", "Next."], ["join", None, "", "Only."]]) == [
        "RELOCATE? Choose.", "Done. Next.", "Only."]


def test_a_paused_tournament_match_invites_no_move():
    # given the seat's turn in a match whose organizer paused the round (its clock held)
    s = scene(pl(pos="0,0", hand=["akiko_01"]), pl(master="rosamu", kami="dragon", pos="0,-2", facing=3))
    doc = doc_for(s.state, 0)
    doc["match"].update(status="active", clock_held=True, clock_reason="power cut in hall B")
    # then the prompt says the move waits (before: "Your turn: ..." under the paused banner), without
    # repeating the page's banner right above it (the organizer's reason and the stopped clocks)
    assert run([["prompt", doc]]) == ["Your move waits until the round resumes."]


# -- finding: the kami's deck size ----------------------------------------------------------------

# rules: Yashima core, "Setting up the Game" 2 (the kami's battle cards and the master's, shuffled: the battle deck)
def test_a_kami_choice_counts_its_own_cards_and_the_deck_the_history_shuffles():
    pairs = [(k, m) for k in KAMI for m in MASTERS]
    said = run([["kami", None, k, m] for k, m in pairs])
    for (k, m), text in zip(pairs, said):
        deck = KAMI[k]["deck_size"] + len(MASTERS[m]["cards"])  # what "shuffles the deck (N cards)" says
        assert text == f"{KAMI[k]['name']} ({KAMI[k]['deck_size']} kami cards; deck {deck} with {MASTERS[m]['name']}'s 10)"
    assert said[0] == "Dragon (20 kami cards; deck 30 with Akiko's 10)"


# -- finding: the karma payment -------------------------------------------------------------------

def test_a_karma_payment_names_its_cost_each_cards_karma_and_why_it_cannot_be_called_off():
    s = scene(pl(master="kenta", kami="tiger", pos="0,0", karma=["tiger_15", "tiger_02", "tiger_23", "tiger_01"]),
              pl(master="rosamu", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:1")  # Spite, cost 2: one card
    d = doc_for(s.state, 0)
    assert {c["type"] for c in d["legal_commands"]} == {"pay_card"}  # the engine offers no cancel here
    said = run([["prompt", d]] + [["label", d, c] for c in d["legal_commands"]])
    assert said[0] == ("Pay 2 karma for Spite: choose 1 card from your karma pool (each button shows its karma; karma "
                       "above the cost is lost). Spite is already played as your tome action, so its cost must be paid "
                       "now: a karma ability cannot be taken back.")
    assert said[1:] == ["Pay with Shadow Dance (karma 4)", "Pay with Feline Grace (karma 6)",
                        "Pay with Prowl Echo (karma 3)", "Pay with Bared Fangs (karma 2)"]


def test_a_two_card_payment_says_cards_and_then_how_many_are_left():
    s = scene(pl(master="rosamu", pos="0,0", spread=3, karma=["tiger_23", "tiger_15", "tiger_01", "dragon_01"]),
              pl(master="kenta", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:7")  # Prayer Beads, cost 5: two cards (4 + 3, 4 + 2, ...)
    first = run([["prompt", doc_for(s.state, 0)]])[0]
    assert first.startswith("Pay 5 karma for Prayer Beads: choose 2 cards from your karma pool")
    s.when(0, "pay_card", card=hid(s, 0, "tiger_01", "karma"))  # karma 2: 3 or 4 must follow
    assert P(s, 0)["karma"] and prompt(s)["kind"] == "pay"
    assert run([["prompt", doc_for(s.state, 0)]])[0].startswith(
        "Pay 5 karma for Prayer Beads: choose 1 more card (2 in all) from your karma pool")


# -- finding: who plays with whom ------------------------------------------------------------------

# rules: Yashima core, "Playing a Team Game" (team-mates sit across the table: each panel names them)
def test_each_panel_names_the_team_mates_in_three_against_three_and_three_teams_of_two():
    threes = fold(ENGINE, ENGINE.setup({"teams": True}, 6, Rng(b"t", "setup")))
    twos = fold(ENGINE, ENGINE.setup({"teams": True, "team_size": 2}, 6, Rng(b"t", "setup")))
    alone = fold(ENGINE, ENGINE.setup({}, 6, Rng(b"t", "setup")))
    said = run([["team", doc_for(threes, 0), 0], ["team", doc_for(threes, 0), 1], ["team", doc_for(twos, 4), 1],
                ["team", doc_for(twos, 4), 2], ["team", doc_for(alone, 0), 0]])
    assert said == ["Team A (your team) · with aiko and kaito", "Team B · with ren and yuki",
                    "Team B (your team) · with you", "Team C · with yuki", ""]


def test_three_winners_read_as_one_list():
    assert run([["and", None, ["alice (you)", "Bot 3", "Bot 5"]], ["and", None, ["hanzo", "aiko"]], ["and", None, ["ren"]]]) \
        == ["alice (you), Bot 3 and Bot 5", "hanzo and aiko", "ren"]


# -- finding: team-mates cannot be told from opponents on the map --------------------------------

# rules: Yashima core, "Playing a Team Game" (team-mates sit across the table; the map's key names each team)
def test_the_map_key_names_each_team_and_a_free_for_all_has_none():
    threes = fold(ENGINE, ENGINE.setup({"teams": True}, 6, Rng(b"t", "setup")))
    twos = fold(ENGINE, ENGINE.setup({"teams": True, "team_size": 2}, 6, Rng(b"t", "setup")))
    fours = fold(ENGINE, ENGINE.setup({"teams": True}, 4, Rng(b"t", "setup")))
    alone = fold(ENGINE, ENGINE.setup({}, 6, Rng(b"t", "setup")))
    assert run([["teams", doc_for(threes, 0)], ["teams", doc_for(twos, 4)], ["teams", doc_for(fours, 1)], ["teams", doc_for(alone, 0)]]) == [
        "Team A: hanzo (you), aiko, kaito · Team B: tomoko, ren, yuki",
        "Team A: hanzo, ren · Team B: tomoko, kaito (you) · Team C: aiko, yuki",
        "Team A: hanzo, aiko · Team B: tomoko (you), ren",
        ""]


# -- finding: a finished game still waits for a restoration --------------------------------------

def test_a_panel_waits_for_a_restoration_only_while_the_game_goes_on():
    state = fold(ENGINE, ENGINE.setup({}, 3, Rng(b"r", "setup")))
    going = doc_for(state, 0)
    going["view"]["players"][1]["pending"] = True
    over = json.loads(json.dumps(going))
    over["status"] = {"finished": True, "awaiting": [], "winners": [0]}
    assert run([["restore", going, 1], ["restore", over, 1], ["restore", going, 2]]) == ["waiting to restore", "", ""]


def test_a_panel_shows_the_destiny_choice_only_while_the_game_goes_on():
    state = fold(ENGINE, ENGINE.setup({}, 3, Rng(b"r", "setup")))
    going = doc_for(state, 0)
    going["view"].update(phase="destiny", destiny={"0": "move", "1": "chosen"})
    over = json.loads(json.dumps(going))
    over["status"] = {"finished": True, "awaiting": [], "winners": [0]}
    assert run([["destiny", going, 0], ["destiny", going, 1], ["destiny", going, 2], ["destiny", over, 1], ["destiny", over, 0]]) == [
        "your destiny token: move", "destiny token chosen", "", "", ""]


# -- finding: a space named only by coordinates the map does not show --------------------------

def test_a_space_is_named_by_its_terrain_and_the_label_the_map_draws():
    # given a map with a road, an arduous and a splice point space
    s = scene(pl(pos="0,0"), pl(master="rosamu", kami="dragon", pos="3,-3"),
              terrain={"0,1": "road", "1,0": "arduous", "1,-1": "splice_point"})
    d = doc_for(s.state, 0)
    # then the board names each as the engine does (terrain, then the hex's label); off the map, coordinates
    assert run([["space", d, "0,1"], ["space", d, "1,0"], ["space", d, "1,-1"], ["space", d, "99,99"]]) == [
        "the road space H8", "the arduous space I7", "the splice point space I6", "(99,99)"]
    assert run([["label_of", d, c] for c in ("0,1", "1,0", "1,-1", "99,99")]) == ["H8", "I7", "I6", ""]


# -- finding: prompts that assumed a mouse ------------------------------------------------------

def _setup_doc_placing_a_miniature():
    """The document of the first seat asked to place its miniature in a seeded setup."""
    state = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"choose-not-click", "setup")))
    for step in range(200):
        st = ENGINE.status(state)
        if st.awaiting == [SYSTEM]:
            seat, cmd = SYSTEM, ENGINE.system_command(state)
        else:
            seat = st.awaiting[0]
            legal = ENGINE.legal_commands(state, seat)
            if any(c["type"] == "place_miniature" for c in legal):
                return doc_for(state, seat)
            cmd = legal[0]
        state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(b"cnc", str(step))), state)
    raise AssertionError("setup never asked for a miniature")


def test_the_prompts_say_choose_for_a_click_a_tap_and_the_keyboard_alike():
    # given the prompts that point at the map: deploying, moving and dodging
    moving = scene(pl(pos="1,1", facing=0), pl(master="rosamu", kami="dragon", pos="3,-3"))
    moving.when(0, "move_action")
    dodging = scene(pl(pos="0,0", hand=["plain"]), pl(master="rosamu", kami="dragon", pos="0,-1", facing=3, hand=["dodge"]))
    attack(dodging, 0, "plain")
    dodging.when(1, "defend", card=hid(dodging, 1, "dodge"))
    said = run([["prompt", _setup_doc_placing_a_miniature()], ["prompt", doc_for(moving.state, 0)], ["prompt", doc_for(dodging.state, 1)]])
    # then each says what to choose, not where to click (Enter, Space and a tap do it as well)
    assert said[0] == "Setup: choose a highlighted space of your board for your miniature, then its facing."
    assert re.fullmatch(r"Moving: choose a highlighted space \(speed left \d+\), or an arrow around your miniature "
                        r"to end the move facing that way\.", said[1]), said[1]
    assert said[2].startswith("DODGE: choose a space to move to."), said[2]
    # and no word the board shows a player (prompts, help titles, the map's key, names) says click
    source = re.sub(r"/\*.*?\*/", "", BOARD_JS.read_text(), flags=re.S)
    source = re.sub(r"(^|\s)//[^\n]*", "", source, flags=re.M)
    source = re.sub(r'\bonclick\b|addEventListener\("click"', "", source)
    assert not re.findall(r".{0,40}\bclick.{0,20}", source, flags=re.I)
