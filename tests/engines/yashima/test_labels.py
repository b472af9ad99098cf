"""Human labels in the view: prompt titles, one label per listed command, the commands unchanged."""

import ast
from pathlib import Path

import pytest

from games.engines.yashima import ENGINE, labels, views
from games.kernel import SYSTEM, Command, Rng, fold

from .helpers import attack, hid, pl, prompt, scene
from .test_clocks import _prompt_kinds_in_source

A, FRONT = "0,0", "0,-1"


def test_defense_prompt_has_a_title_and_a_label_per_command():
    s = scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="tiger", pos=FRONT, facing=3, hand=["tiger_03", "plain"]))
    attack(s, 0, "seven")
    v = ENGINE.view_for(s.state, 1)
    pr = v["prompts"]["main"]
    assert pr["cmds"] == ENGINE.legal_commands(s.state, 1) == prompt(s)["cmds"]  # commands untouched
    assert pr["title"] == "Akiko (seat 0) attacks you with seven for 7: defend?"
    assert pr["labels"] == ["Defend with Averting Swipe (BLOCK)", "No defense"]
    assert v["choices"] == {"title": pr["title"], "options": [
        {"label": "Defend with Averting Swipe (BLOCK)", "command": {"type": "defend", "args": {"card": hid(s, 1, "tiger_03")}}},
        {"label": "No defense", "command": {"type": "no_defense", "args": {}}}],
        "on_timeout": 1}  # what a run-out clock takes: no defense
    other = ENGINE.view_for(s.state, 0)
    assert other["prompts"]["main"] == {"seat": 1, "kind": "defense"}  # no labels of another seat's prompt
    assert other["choices"] is None
    assert ENGINE.view_for(s.state, None)["choices"] is None


def test_turn_choices_label_every_legal_command_in_order():
    s = scene(pl(pos=A, hand=["seven"], karma=["low"]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    v = ENGINE.view_for(s.state, 0)
    assert [o["command"] for o in v["choices"]["options"]] == s.legal(0)
    by_cmd = {(o["command"]["type"], str(o["command"]["args"])): o["label"] for o in v["choices"]["options"]}
    assert by_cmd[("attack", str({"card": hid(s, 0, "seven"), "facing": 2}))] == "Attack with seven, facing lower right"
    assert by_cmd[("take_token", str({"token": "move"}))] == "Take the move token without using it"
    assert by_cmd[("focus", "{}")] == "FOCUS (tome action)"
    assert v["choices"]["title"].startswith("Your turn")


def _command_types_in_source():
    types = set()
    for path in Path(labels.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("C", "_norm") and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                types.add(node.args[0].value)
    return types


def test_every_command_type_has_a_label_and_every_prompt_kind_a_title():
    types = _command_types_in_source()
    assert len(types) > 50
    assert types - {"proceed"} <= set(labels.LABELS), sorted(types - {"proceed"} - set(labels.LABELS))
    kinds = _prompt_kinds_in_source() | {"feint", "relocate"}
    assert kinds <= set(labels.TITLES), sorted(kinds - set(labels.TITLES))


@pytest.mark.parametrize("seed,seats", [(11, 2), (12, 4)])
def test_labels_in_random_play_are_plain_text_and_never_change_the_commands(seed, seats):
    rng = Rng(f"labels-{seed}".encode(), "walk")
    state = fold(ENGINE, ENGINE.setup({"round_cap": 3}, seats, Rng(f"lab{seed}".encode(), "setup")))
    for step in range(3000):
        st = ENGINE.status(state)
        if st.finished:
            return
        if st.awaiting == [SYSTEM]:
            seat, cmd = SYSTEM, ENGINE.system_command(state)
        else:
            for who in st.awaiting:
                v = ENGINE.view_for(state, who)
                legal = ENGINE.legal_commands(state, who)
                assert [o["command"] for o in v["choices"]["options"]] == legal
                assert legal[v["choices"]["on_timeout"]] == ENGINE.timeout_command(state, who)
                pr = views._own_prompt(state, who)
                for o in v["choices"]["options"]:
                    # the command type's own label, computed without falling back, naming known things
                    typ, args = o["command"]["type"], o["command"]["args"]
                    assert o["label"] == labels.LABELS[typ](state, who, args, pr)
                    assert "unknown" not in o["label"], o
                for pr in v["prompts"].values():
                    if pr["seat"] == who:
                        assert pr["title"] and len(pr["labels"]) == len(pr["cmds"])
            seat = rng.choice(st.awaiting)
            cmd = ENGINE.bot_command(state, seat, rng)
        state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(b"lab", f"{step}")), state)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("kind,info,expected", [
    ("pay", {"cost": 5, "cards": 2}, "Pay 5 karma with 2 cards"),
    ("pay", {"cost": 2, "cards": 1, "left": 1, "src": "page:1"}, "Pay 2 karma for Rain of Fire with 1 card"),
    ("pay", {"cost": 4, "cards": 1, "left": 1, "src": "frost"}, "Pay 4 karma for removing FROST with 1 card"),
    ("move", {"speed_left": 3}, "Move: 3 speed left"),
    ("explode", {"status": "BLAZE"}, "EXPLODE: choose the BLAZE to explode"),
    ("relic", {}, "Relic: turn a master's tome up to two pages?"),
    ("no_such_kind", {}, "No such kind"),
])
def test_prompt_titles_fill_in_the_prompts_info(kind, info, expected):
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert labels.title(s.state, {"seat": 0, "kind": kind, "cmds": [], "info": info}) == expected


# rules: Yashima core, "Tome Actions" Karma Ability ("pay the karma cost and then follow the instructions"; rules decision 5)
def test_a_payment_names_its_ability_and_each_cards_karma_and_offers_no_way_back():
    s = scene(pl(master="kenta", pos=A, karma=["mid", "high", "low"]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:1")  # Spite, cost 2: one card, any of karma 2 or more
    pr = ENGINE.view_for(s.state, 0)["prompts"]["main"]
    assert pr["kind"] == "pay" and pr["info"] == {"cost": 2, "cards": 1, "left": 1, "src": "page:1"}
    assert pr["title"] == "Pay 2 karma for Spite with 1 card"
    assert pr["labels"] == ["Pay with mid (karma 4)", "Pay with high (karma 7)"]
    assert {c["type"] for c in s.legal(0)} == {"pay_card"}  # the ability is played: nothing takes it back


def test_a_two_card_payment_counts_down_the_cards_left():
    s = scene(pl(master="rosamu", pos=A, spread=3, karma=["plain", "mid", "block", "clash"]),
              pl(master="kenta", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:7")  # Prayer Beads, cost 5: two cards
    assert ENGINE.view_for(s.state, 0)["prompts"]["main"]["title"] == "Pay 5 karma for Prayer Beads with 2 cards"
    s.when(0, "pay_card", card=hid(s, 0, "block", "karma"))
    pr = ENGINE.view_for(s.state, 0)["prompts"]["main"]
    assert pr["title"] == "Pay 5 karma for Prayer Beads with 2 cards (1 more to choose)"
    assert pr["labels"] == ["Pay with plain (karma 3)", "Pay with mid (karma 4)"]


def test_spaces_are_written_as_the_history_writes_them():
    # given a road space the board labels J7
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"2,-1": "road"})
    assert ENGINE.content()["geometry"]["labels"]["2,-1"] == "J7"
    # then a step there reads as the history and the board name it, not by its coordinates
    assert labels.label(s.state, 0, {"type": "step", "args": {"to": "2,-1"}}) == "Step to the road space J7"
