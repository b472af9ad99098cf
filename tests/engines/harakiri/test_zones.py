"""Zones: surveying through doors and interaction points, travelling, spawn points."""

from games.kernel import SYSTEM

from games.engines.harakiri import ENGINE

from .helpers import arena, doc, find, open_rows, scenario

FAR_GATE = {"akira": "0,1", "hattori": "0,2", "hikaru": "0,3", "tomoe": "0,4"}


def _village(characters, activate="char:akira", **kw):
    chars = {c: {"sq": sq} for c, sq in FAR_GATE.items()}
    for c, spec in characters.items():
        chars[c] = {**chars[c], **spec}
    d = {"scenario": "act1_burning_village", "characters": chars, "activate": activate}
    d.update(kw)
    return scenario(d)


def test_opening_a_door_surveys_the_next_zone_and_the_activation_continues():
    # rules: Harakiri, "Zone Setup" (Surveying) and "Interact" (doors)
    s = _village({"akira": {"sq": "7,2", "ap": 4}},
                 queue=["char:akira", "color:red", "char:hattori", "char:hikaru", "color:blue", "char:tomoe"])
    ev = s.when(0, "interact", door="gate_door")
    assert s.state["doors"]["gate_door"]["open"]
    assert "courtyard" in s.state["zones"] and "12,4" in s.state["squares"]
    assert {"undertaker", "court_ashigaru_orange"} <= set(s.state["enemies"])
    q = s.state["initiative"]["queue"]
    assert q[0] == "char:akira"  # the current activation stays
    assert {"enemy:undertaker", "color:orange"} <= set(q[1:])
    assert s.state["turn"]["who"] == "akira" and s.state["characters"]["akira"]["ap"] == 3
    assert find(ev, "OracleCardsAdded")  # the courtyard adds a red oracle card
    # the door square is regular terrain now: Akira can walk through it
    s.when(0, "move")
    s.when(0, "step", to="8,2")
    assert s.state["characters"]["akira"]["sq"] == "8,2"


def test_interaction_point_surveys_a_new_tile_and_is_removed():
    # rules: Harakiri, "Zone Setup" (Surveying): "Hattori has interacted with the interaction
    # point A and has revealed a new zone"
    s = _village({"hattori": {"sq": "14,1", "ap": 4}}, activate="char:hattori", reveal=["courtyard"])
    s.when(0, "interact", point="A")
    assert "A" not in s.state["points"]
    assert "shrine" in s.state["zones"] and s.state["squares"]["13,-5"]["h"] == 1
    assert {"shrine_kappa_yellow", "shrine_onryo_purple", "daimyo"} <= set(s.state["enemies"])
    assert s.state["enemies"]["daimyo"]["allied"]
    assert s.state["turn"]["who"] == "hattori"


def test_travelling_removes_old_zones_places_characters_and_ends_the_round():
    # rules: Harakiri, "Zone Setup" (Travel)
    s = _village({"hikaru": {"sq": "13,-6", "ap": 4}}, activate="char:hikaru", reveal=["courtyard", "shrine"])
    round_before = s.state["round"]
    s.when(0, "interact", point="B")
    while s.state["pending"] and s.state["pending"]["kind"] == "travel_start":
        s.when(0, "choose", option=0)
    st = s.state
    assert [z for z, zs in st["zones"].items() if zs["active"]] == ["bridge"]
    assert all(sq["z"] == "bridge" for sq in st["squares"].values())
    assert set(st["enemies"]) == {"hunter", "bridge_kachi_green"}
    assert st["enemies"]["bridge_kachi_green"]["plus"]
    assert sorted(ch["sq"] for ch in st["characters"].values()) == sorted(["30,3", "30,4", "31,4", "31,3"])
    assert st["round"] == round_before + 1 and st["phase"] == "oracle" and s.status.awaiting == [SYSTEM]


def test_travelling_lets_the_party_choose_each_characters_start_square():
    # rules: Harakiri, "Zone Setup" (Travel): "Place the characters in play on any square
    # indicated as the starting location" -- the players choose, not the roster order
    s = _village({"hikaru": {"sq": "13,-6", "ap": 4}}, activate="char:hikaru", reveal=["courtyard", "shrine"],
                 options={"party_vote": True}, seats=2)
    s.when(s.status.awaiting[0], "interact", point="B")
    p = s.state["pending"]
    assert p["kind"] == "travel_start" and p["by"] == "party" and sorted(s.status.awaiting) == [0, 1]
    assert p["options"] == [{"who": "akira", "sq": sq} for sq in ["30,3", "30,4", "31,4", "31,3"]]
    assert {"type": "choose", "args": {"option": 3}} in ENGINE.legal_commands(s.state, 0)
    for seat in (0, 1):  # Akira on the last start square
        s.when(seat, "choose", option=3)
    p = s.state["pending"]
    assert p["kind"] == "travel_start" and [o["who"] for o in p["options"]] == ["hattori"] * 3
    assert "31,3" not in [o["sq"] for o in p["options"]]
    for who_sq in (1, 0):  # Hattori on 30,4, then Hikaru on 30,3; Tomoe takes the square left
        for seat in (0, 1):
            s.when(seat, "choose", option=who_sq)
    st = s.state
    assert {c: ch["sq"] for c, ch in st["characters"].items()} == {
        "akira": "31,3", "hattori": "30,4", "hikaru": "30,3", "tomoe": "31,4"}
    assert not st["pending"] and st["phase"] == "oracle" and s.status.awaiting == [SYSTEM]


def test_spawn_on_the_spawn_point_or_the_closest_free_square():
    # rules: Harakiri, "Spawn Points"
    spawn_event = {"green": [{"id": "sp", "name": "Spawn", "effects": [
        {"type": "spawn", "enemy": "kachi", "kind": "minion", "color": "green", "spawn": "blue"}]}], "red": []}
    scen = arena(open_rows(), events=spawn_event, spawns={"blue": "5,5"})
    s = scenario(doc(scen, {}, oracle={"deck": ["oracle_g1"]}))
    s.when(SYSTEM, "draw_oracle")
    assert s.state["enemies"]["kachi_green_1"]["sq"] == "5,5"
    # occupied spawn point: the closest free squares, the party chooses among ties
    s = scenario(doc(scen, {"akira": {"sq": "5,5"}}, oracle={"deck": ["oracle_g1"]}))
    s.when(SYSTEM, "draw_oracle")
    p = s.state["pending"]
    assert p["kind"] == "spawn_square" and len(p["options"]) == 8
    s.when(0, "choose", option=0)
    assert s.state["enemies"]["kachi_green_1"]["sq"] == p["options"][0]["sq"]


def test_spawn_is_ignored_when_no_miniature_is_available():
    # rules: Harakiri, "Spawn Points": no available miniature, ignore the spawn effect
    spawn_event = {"green": [{"id": "sp", "name": "Spawn", "effects": [
        {"type": "spawn", "enemy": "kachi", "kind": "minion", "color": "green", "spawn": "blue"}]}], "red": []}
    scen = arena(open_rows(), events=spawn_event, spawns={"blue": "5,5"})
    s = scenario(doc(scen, {}, {"k": {"type": "kachi", "color": "green", "at": "8,8"}},
                     oracle={"deck": ["oracle_g1"]}))
    ev = s.when(SYSTEM, "draw_oracle")
    assert find(ev, "EventEffectSkipped") and set(s.state["enemies"]) == {"k"}


def test_new_enemies_during_activations_are_shuffled_in_after_the_current_card():
    # rules: Harakiri, "Add New Enemies"
    s = _village({"akira": {"sq": "7,2", "ap": 4}},
                 queue=["char:hattori", "char:akira", "color:red", "char:hikaru"])
    assert s.state["initiative"]["pos"] == 1
    s.when(0, "interact", door="gate_door")
    q = s.state["initiative"]["queue"]
    assert q[:2] == ["char:hattori", "char:akira"]
    assert sorted(q[2:]) == sorted(["color:red", "char:hikaru", "enemy:undertaker", "color:orange"])


def test_a_chosen_surveyed_mid_round_activates_right_after_the_current_card():
    # rules: Harakiri, "2. Determining the Initiative": "Chosen Ones will always activate first", and
    # "Add New Enemies": new cards go "after the current activation" - the Demon Hunter the palace yard
    # reveals comes right after Akira's card; the kabuki's new colour card is shuffled in with the rest
    chars = {"akira": {"sq": "7,1", "ap": 4}, "hattori": {"sq": "0,2"}, "hikaru": {"sq": "0,3"}, "tomoe": {"sq": "0,4"}}
    s = scenario({"scenario": "act1_kyoto_gates", "characters": chars, "activate": "char:akira",
                  "queue": ["char:akira", "color:red", "char:hattori", "char:hikaru", "color:blue", "char:tomoe"]})
    s.when(0, "interact", point="A")
    q = s.state["initiative"]["queue"]
    assert q[:2] == ["char:akira", "enemy:hunter"]
    assert sorted(q[2:]) == sorted(["color:red", "char:hattori", "char:hikaru", "color:blue", "char:tomoe",
                                    "color:green"])
    assert s.state["turn"]["who"] == "akira"  # the current activation goes on


def _door_to_hall(adventure):
    rows = ["........#", "........D", "........#"]
    hall = {"name": "Hall", "origin": [9, 0], "rows": ["...", "...", "..."], "enemies": [],
            "events": {"green": [], "red": []}, "spawns": {}, "doors": [], "points": [], "resistors": [],
            "oracle": {"success": {"green": 1}, "failure": {"red": 2}}}
    d = doc(arena(rows, doors=[{"id": "exit", "at": "8,1", "survey": "hall"}], extra_zones={"hall": hall}),
            {"akira": {"sq": "7,1", "ap": 3}}, activate="char:akira", options={"adventure": adventure},
            oracle={"deck": [], "drawn": []})
    return scenario(d)


def test_a_surveyed_zone_adds_the_oracle_cards_of_the_last_adventure_phases_result():
    # rules: Harakiri, "1. Oracle Deck, Events and Malice": "The campaign book will specify the amount
    # of each kind of Oracle cards (green and red) that are added to the Oracle deck each time a zone is
    # revealed, depending on the success or failure of the last Adventure Phase"
    won = _door_to_hall("success")
    ev = won.when(0, "interact", door="exit")
    assert find(ev, "OracleCardsAdded")[0]["added"] == 1 and won.state["oracle"]["deck"] == ["oracle_g1"]
    lost = _door_to_hall("failure")
    ev = lost.when(0, "interact", door="exit")
    assert find(ev, "OracleCardsAdded")[0]["added"] == 2
    assert sorted(lost.state["oracle"]["deck"]) == ["oracle_r1", "oracle_r2"]


def test_surveying_builds_the_new_zones_event_decks_and_leaves_the_others_as_they_are():
    # rules: Harakiri, "1. Oracle Deck, Events and Malice" (Select Exploration Events): "At the start of every
    # chapter and when revealing a new zone through surveying or travelling, follow these steps to create the
    # event deck for each of the current active zones that are on the map" - every zone on the table has its
    # own decks (green and red, or purple), built when it comes on the table; a zone already there keeps its
    # decks (the event it revealed does not come back: only the Failure's step 4 resets events), and the new
    # zone gets its decks although no miniature stands in it yet
    rows = ["........#", "........D", "........#"]
    hall = {"name": "Hall", "origin": [9, 0], "rows": ["...", "...", "..."], "enemies": [], "start": [],
            "events": {"green": [{"id": "h_g1", "name": "Echo", "effects": []}],
                       "red": [{"id": "h_r1", "name": "Draft", "effects": []}]},
            "spawns": {}, "doors": [], "points": [], "resistors": [], "oracle": {"green": 0, "red": 0}}
    events = {"green": [{"id": "g1", "name": "Calm", "effects": []}, {"id": "g2", "name": "Still", "effects": []}],
              "red": [{"id": "r1", "name": "Fury", "effects": []}]}
    chars = {"akira": {"sq": "7,1"}, "hattori": {"sq": "0,0"}, "hikaru": {"sq": "0,1"}, "tomoe": {"sq": "0,2"}}
    s = scenario(doc(arena(rows, events=events, doors=[{"id": "exit", "at": "8,1", "survey": "hall"}],
                           extra_zones={"hall": hall}), chars,
                     oracle={"deck": ["oracle_g1", "oracle_g2"]},
                     initiative=["char:akira", "char:hattori", "char:hikaru", "char:tomoe"]))
    s.when(SYSTEM, "draw_oracle")  # the arena reveals its first green event
    s.when(0, "choose", option=0)  # no initiative swap
    assert s.state["turn"]["who"] == "akira"
    ev = s.when(0, "interact", door="exit")
    assert [p["zone"] for p in find(ev, "ZoneRevealed")] == ["hall"]
    zones = s.state["zones"]
    assert zones["arena"]["events"] == {"green": ["g2"], "red": ["r1"]} and zones["arena"]["revealed"] == ["g1"]
    assert zones["hall"]["events"] == {"green": ["h_g1"], "red": ["h_r1"]} and zones["hall"]["revealed"] == []
