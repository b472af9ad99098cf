"""Hidden information (hands, deck order), event redaction and robustness of decide."""

import json

import pytest

from games.engines.yokai import ENGINE
from games.kernel import Command, Rng, RuleViolation, fold

from .helpers import mon, scene


def canary_scene():
    return scene(
        monsters=[mon("1,1", "kodama", 1, lp=1), mon("1,0", "kodama", 0, lp=3)],
        hands={"0": [{"card": "gaki", "id": "CANARY-HAND-0"}], "1": [{"card": "kappa", "id": "CANARY-HAND-1"}]},
        decks={
            "0": [{"card": "onibi", "id": f"CANARY-DECK-0-{i}"} for i in range(6)],
            "1": [{"card": "nue", "id": f"CANARY-DECK-1-{i}"} for i in range(6)],
        },
    )


# rules: Yokai Battle, "Preparation of the decks" (decks face down) and "Opening drawing ritual" (hands are private)
def test_view_hides_other_hands_and_every_deck():
    s = canary_scene()
    for seat, mine, theirs in ((0, "CANARY-HAND-0", "CANARY-HAND-1"), (1, "CANARY-HAND-1", "CANARY-HAND-0")):
        text = json.dumps(ENGINE.view_for(s.state, seat))
        assert mine in text and theirs not in text and "CANARY-DECK" not in text
        assert '"onibi"' not in text and '"nue"' not in text  # deck contents
        assert ('"kappa"' in text) == (seat == 1) and ('"gaki"' in text) == (seat == 0)  # hand contents
        view = ENGINE.view_for(s.state, seat)
        assert [p["deck_count"] for p in view["players"]] == [6, 6]
        assert [p["hand_count"] for p in view["players"]] == [1, 1]
    spectator = json.dumps(ENGINE.view_for(s.state, None))
    assert "CANARY" not in spectator and '"kappa"' not in spectator and '"gaki"' not in spectator
    assert "CANARY-HAND-0" not in json.dumps(ENGINE.view_for(s.state, True))


# rules: Yokai Battle, "Draw phase and turn closure" (drawn cards are seen by their owner only)
def test_drawn_cards_are_redacted_for_others():
    s = canary_scene()
    events = s.when(0, "end_turn")
    drawn = [e for e in events if e["type"] == "CardsDrawn"]
    assert drawn
    for ev in events:
        for seat in (1, None):
            assert "CANARY-DECK" not in json.dumps(ENGINE.redact_event(ev, seat))
    own = json.dumps([ENGINE.redact_event(e, 0) for e in drawn])
    assert "CANARY-DECK-0-0" in own
    assert all(ENGINE.redact_event(e, 1)["payload"]["count"] == e["payload"]["count"] for e in drawn)
    loaded = s.events[0]
    assert loaded["type"] == "ScenarioLoaded"
    assert "CANARY-HAND-0" not in json.dumps(ENGINE.redact_event(loaded, 1))
    assert "CANARY-DECK" not in json.dumps(ENGINE.redact_event(loaded, 0))


# rules: Yokai Battle, "Preparation of the decks" (nobody knows the shuffled order, the owner neither)
def test_game_started_is_redacted():
    events = ENGINE.setup({}, 3, Rng(b"redact", "setup"))
    state = fold(ENGINE, events)
    for seat in (0, 1, 2, None):
        text = json.dumps([ENGINE.redact_event(e, seat) for e in events]) + json.dumps(ENGINE.view_for(state, seat))
        for owner, player in enumerate(state["players"]):
            for c in player["deck"]:
                assert c["id"] not in text
            for c in player["hand"]:
                assert (c["id"] in text) == (owner == seat)


# rules: Yokai Battle, "Combat phase" (any malformed command is refused with a RuleViolation, never a crash)
@pytest.mark.parametrize(
    "type_, args",
    [
        ("summon", {"card": None, "terrain": None, "orientation": None}),
        ("summon", {"card": ["x"], "terrain": {"a": 1}, "orientation": ["vertical"]}),
        ("summon", {"card": "CANARY-HAND-0", "terrain": "a,b", "orientation": "vertical"}),
        ("summon", {"card": "CANARY-HAND-0", "terrain": "01,1", "orientation": "vertical"}),
        ("summon", {"card": "CANARY-HAND-0", "terrain": "-1,0", "orientation": "vertical"}),
        ("summon", {}),
        ("attack", {"attacker": 5, "defender": [1]}),
        ("attack", {"attacker": "1,0", "defender": "1,1", "extra": 1}),
        ("attack", {"attacker": "1,0"}),
        ("transfer_lp", {"source": "1,0", "target": "1,1", "amount": "3"}),
        ("transfer_lp", {"source": None, "target": None, "amount": None}),
        ("choose_target", {"target": "1,1"}),
        ("end_turn", {"now": True}),
        ("dance", {}),
        (None, {}),
        ("summon", None),
        ("summon", "card"),
    ],
)
def test_bad_commands_are_rule_violations(type_, args):
    s = canary_scene()
    with pytest.raises(RuleViolation):
        ENGINE.decide(s.state, Command(type=type_, args=args, seat=0), s.rng())
    for seat in (True, "0", None, 7, -1):
        with pytest.raises(RuleViolation):
            ENGINE.decide(s.state, Command(type="end_turn", args={}, seat=seat), s.rng())


# rules: Yokai Battle, "Combat phase" (malformed target choices are refused too)
@pytest.mark.parametrize("target", [None, "9,9", 1.5, True, ["1,0"], {"x": 1}, 0])
def test_bad_targets_are_rule_violations(target):
    s = canary_scene()
    s.when(0, "attack", attacker="1,0", defender="1,1")  # the Kodama dies: seat 1 picks a player
    with pytest.raises(RuleViolation):
        ENGINE.decide(s.state, Command(type="choose_target", args={"target": target if target != 0 else 1}, seat=1), s.rng())


# rules: Yokai Battle, "Combat phase" (a scenario document that does not describe a position is refused)
@pytest.mark.parametrize(
    "doc",
    [
        {"seats": 5},
        {"seats": 2, "teams": True},
        {"board": [["lava"]]},
        {"monsters": [{"at": "9,9", "card": "gaki", "owner": 0}]},
        {"monsters": [{"at": "0,0", "card": "dragon", "owner": 0}]},
        {"hands": {"0": ["gaki"], "5": []}},
        {"hands": {"0": [{"card": "gaki", "id": "x"}, {"card": "gaki", "id": "x"}]}},
        {"chakra": -1},
        {"no_draw": {"0": "always"}},
        {"mystery": 1},
        {"set_aside": 3},
        {"monsters": [{"at": ["0,0"], "card": {"k": 1}, "owner": 0}]},
        {"monsters": [{"at": "0,0", "card": ["gaki"], "owner": 0}]},
        {"hands": {"0": [{"card": ["gaki"]}]}},
        {"discards": {"0": [["gaki"]]}},
        {"chakra": [1, 2]},
        {"turn": 2},
        [],
    ],
)
def test_bad_scenarios(doc):
    with pytest.raises(RuleViolation) as exc:
        ENGINE.scenario(doc)
    assert exc.value.code == "bad_scenario"


# the documented example scenario loads
def test_documented_scenario_example():
    import pathlib
    import re

    text = (pathlib.Path(__file__).parents[3] / "docs" / "games" / "yokai.md").read_text()
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    state = fold(ENGINE, ENGINE.scenario(example))
    assert state["monsters"]["1,2"]["doubled"] is True and state["monsters"]["1,1"]["lp"] == 3
    assert state["players"][1]["no_draw"] == "next" and state["chakra"] == [4, 1]
    assert state["players"][0]["hand"][1] == {"id": "my-gaki", "card": "gaki"}


# the state is JSON-shaped and evolve never mutates its input
def test_state_round_trips_and_evolve_is_pure():
    events = ENGINE.setup({"teams": True}, 4, Rng(b"json", "setup"))
    state = fold(ENGINE, events)
    assert json.loads(json.dumps(state)) == state
    frozen = json.dumps(state, sort_keys=True)
    rng = Rng(b"json", "play")
    for _ in range(30):
        seat = ENGINE.status(state).awaiting[0]
        command = ENGINE.bot_command(state, seat, rng)
        new_events = ENGINE.decide(state, Command(command["type"], command["args"], seat), rng)
        assert json.dumps(state, sort_keys=True) == frozen
        state = fold(ENGINE, new_events, state)
        assert json.loads(json.dumps(state)) == state
        frozen = json.dumps(state, sort_keys=True)
        if state["finished"]:
            break
