"""Engine contract: legality, seats, hidden information, content, purity of evolve."""

import copy
import json

from games.engines.harakiri import ENGINE, content
from games.kernel import SYSTEM, Command, Rng, RuleViolation, fold

from .helpers import arena, doc, open_rows, scenario


def _setup(seats=2, **opts):
    return fold(ENGINE, ENGINE.setup(opts, seats, Rng(b"seed", "setup")))


def test_setup_starting_characters():
    # rules: Harakiri, "Adventure Phase Setup" steps 2, 6, 7 and 9; "Exploration Phase Setup"
    s = _setup()
    ch = s["characters"]
    assert [ch[c]["health"] for c in ("akira", "hattori", "hikaru", "tomoe")] == [11, 9, 8, 10]
    assert [ch[c]["skills"] for c in ("akira", "hattori", "hikaru", "tomoe")] == [
        ["sixth_sense"], ["roll"], ["healing"], ["military_discipline"]]
    assert ch["akira"]["attrs"]["dexterity"] == 1 and ch["hikaru"]["attrs"]["spirit"] == 1
    assert ch["tomoe"]["attrs"]["power"] == 1 and ch["hattori"]["attrs"]["dexterity"] == 1
    assert [ch[c]["armor_card"] for c in ("akira", "hattori", "hikaru", "tomoe")] == [
        "ronin_robe", "shinobi_armor", "celestial_armor", "ceremonial_armor"]
    assert all(len(c["ki"]["supply"]) == 1 and c["ap"] == 4 for c in ch.values())
    assert s["malice"] == 0 and s["control"] == {"akira": 0, "hattori": 1, "hikaru": 0, "tomoe": 1}


def test_options_validation():
    for bad in ({"control": {"akira": 0, "hattori": 0, "hikaru": 0, "tomoe": 0}},
                {"party": {"akira": {"level": 9}}}, {"party": {"nobody": {}}}, {"leader": 3}):
        try:
            ENGINE.validate_options(bad, 2)
        except RuleViolation as v:
            assert v.code == "bad_options"
        else:
            raise AssertionError(bad)


def test_wrong_seat_unknown_command_and_bad_args_are_rule_violations():
    s = _setup()
    rng = Rng(b"x", "y")
    for cmd, code in ((Command("draw_oracle", {}, 0), "not_your_turn"),
                      (Command("fly", {}, SYSTEM), "unknown_command"),
                      (Command("draw_oracle", [], SYSTEM), "bad_args"),
                      (Command("activate_enemy", {"enemy": 5}, SYSTEM), "illegal_command")):
        try:
            ENGINE.decide(s, cmd, rng)
        except RuleViolation as v:
            assert v.code == code, (cmd, v.code)
        else:
            raise AssertionError(cmd)


def test_garbage_args_never_raise_other_exceptions():
    s = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2"}}, {"k": {"type": "kachi", "color": "red",
                                                                         "at": "3,2"}}, activate="char:akira"))
    for args in ({"target": None}, {"to": [1, 2]}, {"die": "x", "skill": {}}, {"slot": 99}, {"option": -1}):
        for t in ("attack", "step", "place_ki", "use_item", "choose", "interact", "technique"):
            try:
                ENGINE.decide(s.state, Command(t, args, 0), Rng(b"x", "y"))
            except RuleViolation:
                pass


def test_evolve_does_not_mutate_its_input():
    s = _setup()
    before = copy.deepcopy(s)
    events = ENGINE.decide(s, Command("draw_oracle", {}, SYSTEM), Rng(b"x", "y"))
    state = s
    for ev in events:
        state = ENGINE.evolve(state, ev)
    assert s == before and state != s


def test_hidden_deck_orders_never_reach_clients():
    s = _setup()
    view = ENGINE.view_for(s, 0)
    assert isinstance(view["oracle"]["deck"], int)
    assert all(isinstance(n, int) for z in view["zones"].values() for n in z["events"].values())
    assert "zones_def" not in view and "forced" not in view
    ev = ENGINE.setup({}, 1, Rng(b"seed", "setup"))[0]
    red = ENGINE.redact_event(ev, 0)
    assert isinstance(red["payload"]["state"]["oracle"]["deck"], int)
    json.dumps(view)
    hunter = scenario(doc(arena(open_rows()), {}, {"h": {"kind": "chosen", "type": "demon_hunter", "at": "5,5"}}))
    assert isinstance(ENGINE.view_for(hunter.state, None)["enemies"]["h"]["ai"]["deck"], int)


def test_content_pack_is_provisional_and_schema_valid():
    pack = ENGINE.content()
    assert json.loads(json.dumps(pack)) == pack
    assert pack["provisional"] is True
    assert set(pack["dice"]["attack"]) == {"orange", "green", "purple", "red", "blue"}
    assert len(pack["kami"]) == 10 and len(pack["skills"]) == 72
    assert {"kachi", "kappa", "ashigaru", "onryo"} <= set(pack["enemies"]["minions"])
    assert len(pack["enemies"]["servants"]) == 2 and set(pack["enemies"]["chosen"]) == {"demon_hunter", "blood_oni"}
    assert len(pack["enemies"]["wanderers"]) == 1
    for name in ("dice", "characters", "equipment", "items", "skills", "kami", "enemies", "oracle"):
        content.validate(json.loads((content.ROOT / f"{name}.json").read_text()))
    bad = json.loads((content.ROOT / "dice.json").read_text())
    bad["test"] = bad["test"][:3]
    try:
        content.validate(bad)
    except Exception as exc:
        assert type(exc).__name__ == "ValidationError"
    else:
        raise AssertionError("schema accepted a 3-face test die")


def test_scenario_document_for_the_village_is_complete():
    # the Act 1 scenario: at least 3 zones, events per zone, a door, a surveying point, a spawn
    # point, a resistor and an objective
    scen = content.SCENARIOS["act1_burning_village"]
    zones = scen["zones"]
    assert len(zones) >= 3
    assert all(z["events"] for z in zones.values())
    assert any(z["doors"] for z in zones.values())
    assert any(p["action"]["type"] == "survey" for z in zones.values() for p in z["points"])
    assert any(z["spawns"] for z in zones.values()) and any(z["resistors"] for z in zones.values())
    assert scen["objective"]["type"] == "defeat"


def test_zone_reset_and_reveal_events_hide_event_decks():
    from games.kernel import event

    ev = event("ZoneReset", {"zone": "gate", "enemies": {}, "doors": {}, "points": {}, "resistors": {},
                             "zone_state": {"active": True, "events": {"green": ["a", "b"], "red": ["c"]},
                                            "revealed": []}})
    red = ENGINE.redact_event(ev, 0)
    assert red["payload"]["zone_state"]["events"] == {"green": 2, "red": 1}


def test_timeout_ends_the_activation():
    s = scenario(doc(arena(open_rows()), {"tomoe": {"weapons": ["samurai_yumi", "samurai_naginata"]}},
                     activate="char:tomoe"))
    assert ENGINE.timeout_command(s.state, 0) == {"type": "end_activation", "args": {}}
    s.when(0, "move")
    assert ENGINE.timeout_command(s.state, 0) == {"type": "end_move", "args": {}}


def test_bad_scenario_documents_are_rule_violations():
    for bad in ({"scenario": "nope"}, {"scenario": {"kind": "scenario", "provisional": True}},
                {"characters": {"akira": 5}}, {"activate": "char:nobody"}):
        try:
            ENGINE.scenario(bad)
        except RuleViolation as v:
            assert v.code == "bad_scenario"
        else:
            raise AssertionError(bad)
