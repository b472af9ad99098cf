"""Round structure: oracle, events, malice, initiative, activations, Ki reduction, AP."""

import json

from games.kernel import SYSTEM

from .helpers import arena, doc, find, open_rows, run_system, scenario

EVENTS = {"green": [{"id": "g1", "name": "Calm", "effects": []},
                    {"id": "g2", "name": "Sting", "effects": [{"type": "damage", "who": "characters", "amount": 1}]}],
          "red": [{"id": "r1", "name": "Fury", "effects": [{"type": "initiative", "who": "enemies", "advance": 1}]}]}


def _round_start(events=EVENTS, oracle=None, characters=None, enemies=None, **kw):
    d = doc(arena(open_rows(), events=events), characters, enemies, oracle=oracle or {"deck": ["oracle_g1", "oracle_r1"]},
            **kw)
    return scenario(d)


def test_oracle_card_is_drawn_and_one_event_revealed_per_zone_with_miniatures():
    # rules: Harakiri, "1. Oracle Deck, Events and Malice": draw the oracle card; reveal the
    # next event of the matching colour for each zone with a miniature
    s = _round_start()
    ev = s.when(SYSTEM, "draw_oracle")
    assert find(ev, "OracleDrawn")[0]["color"] == "green"
    revealed = find(ev, "EventRevealed")
    assert [(r["zone"], r["deck"], r["event"]) for r in revealed] == [("arena", "green", "g1")]
    assert s.state["zones"]["arena"]["events"]["green"] == ["g2"]


def test_event_effects_apply_to_creatures_in_the_zone():
    # rules: Harakiri, "Resolve Events": events apply to creatures in the zone when drawn
    events = {"green": [EVENTS["green"][1]], "red": []}
    s = _round_start(events=events, characters={"akira": {"health": 11}})
    s.when(SYSTEM, "draw_oracle")
    assert all(ch["health"] == ch["max_health"] - 1 for ch in s.state["characters"].values())


def test_no_event_left_raises_malice():
    # rules: Harakiri, "Malice": no event available for the zone: the malice token moves up
    s = _round_start(events={"green": [], "red": []})
    ev = s.when(SYSTEM, "draw_oracle")
    assert find(ev, "MaliceRaised")[0]["malice"] == 1 and s.state["malice"] == 1


def test_malice_6_ends_the_phase_in_failure():
    # rules: Harakiri, "Malice": reaching the 6 space ends the chapter in a failure
    s = _round_start(events={"green": [], "red": []}, malice=5, options={"failure_procedure": False})
    s.when(SYSTEM, "draw_oracle")
    assert s.status.finished and s.status.winners == [] and s.state["result"] == "failure"


def test_empty_oracle_deck_is_reshuffled_from_the_drawn_cards():
    # rules: Harakiri, "Draw Oracle Card": if the deck is ever empty, shuffle the drawn cards
    s = _round_start(oracle={"deck": [], "drawn": ["oracle_g2", "oracle_r2"]})
    ev = s.when(SYSTEM, "draw_oracle")
    assert sorted(find(ev, "OracleReshuffled")[0]["deck"]) == ["oracle_g2", "oracle_r2"]
    assert s.state["oracle"]["current"] in ("oracle_g2", "oracle_r2")


def test_drawing_the_last_oracle_card_reshuffles_the_drawn_cards_at_once():
    # rules: Harakiri, "Draw Oracle Card": "If the Oracle deck is ever empty, immediately shuffle all
    # previously drawn Oracle cards to form a new Oracle deck" - at once, not at the next draw, so
    # cards a zone revealed this round adds join that new deck ("reshuffle the entire Oracle deck")
    s = _round_start(oracle={"deck": ["oracle_r1"], "drawn": ["oracle_g1", "oracle_g2"]})
    ev = s.when(SYSTEM, "draw_oracle")
    assert s.state["oracle"]["current"] == "oracle_r1" and s.state["oracle"]["color"] == "red"
    assert sorted(find(ev, "OracleReshuffled")[0]["deck"]) == ["oracle_g1", "oracle_g2", "oracle_r1"]
    assert sorted(s.state["oracle"]["deck"]) == ["oracle_g1", "oracle_g2", "oracle_r1"]
    assert s.state["oracle"]["drawn"] == []


def test_scripted_purple_events_are_revealed_in_order():
    # rules: Harakiri, "Resolve Events": scripted (purple) events, the next one each round
    purple = {"purple": [{"id": "p1", "name": "One", "effects": []}, {"id": "p2", "name": "Two", "effects": []}]}
    s = _round_start(events=purple, oracle={"deck": ["oracle_r1", "oracle_g1"]})
    ev = s.when(SYSTEM, "draw_oracle")
    assert find(ev, "EventRevealed")[0]["event"] == "p1"
    assert s.state["zones"]["arena"]["events"]["purple"] == ["p2"]


def test_initiative_example_sixth_sense_servant_swap_and_chosen():
    # rules: Harakiri, "2. Determining the Initiative", the example: Hattori, Akira, Minion,
    # Hikaru, Tomoe, Servant; Sixth Sense moves Akira forward; the Servant advances 3; the
    # players swap Akira and Tomoe; the Chosen goes to the front
    # rules: Harakiri, "Akira", Sixth Sense: "this effect will not allow Akira to go in first position if there
    # is a Chosen Enemy"
    enemies = {"m": {"type": "kachi", "color": "red", "at": "8,0"},
               "ut": {"kind": "servant", "type": "undertaker", "at": "8,4"},
               "hunter": {"kind": "chosen", "type": "demon_hunter", "at": "8,8"}}
    chars = {"akira": {"ki": {"supply": [], "slots": {"sixth_sense": 3}, "exhausted": 0}}}
    s = _round_start(characters=chars, enemies=enemies,
                     initiative=["char:hattori", "char:akira", "color:red", "char:hikaru", "char:tomoe", "enemy:ut"])
    s.when(SYSTEM, "draw_oracle")
    p = s.state["pending"]
    assert p["kind"] == "sixth_sense" and p["by"] == s.state["control"]["akira"]
    s.when(0, "choose", option=p["options"].index({"move": -1}))
    assert s.state["initiative"]["queue"] == ["char:akira", "char:hattori", "enemy:ut", "color:red",
                                              "char:hikaru", "char:tomoe"]
    p = s.state["pending"]
    assert p["kind"] == "initiative_swap" and p["by"] == "party"
    s.when(0, "choose", option=p["options"].index({"swap": ["akira", "tomoe"]}))
    assert s.state["initiative"]["queue"] == ["enemy:hunter", "char:tomoe", "char:hattori", "enemy:ut",
                                              "color:red", "char:hikaru", "char:akira"]
    assert s.state["phase"] == "activation"
    assert s.state["turn"]["card"] == "enemy:hunter"  # the chosen activates first


def test_event_advancing_enemies_applies_before_skills():
    # rules: Harakiri, "2. Determining the Initiative": event effects first, left to right
    enemies = {"m": {"type": "kachi", "color": "red", "at": "8,0"}}
    s = _round_start(enemies=enemies, oracle={"deck": ["oracle_r1"]},
                     initiative=["char:hattori", "char:akira", "char:hikaru", "color:red", "char:tomoe"])
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=0)  # no swap
    assert s.state["initiative"]["queue"][:4] == ["char:hattori", "char:akira", "color:red", "char:hikaru"]


def test_no_swap_keeps_the_order_and_activations_go_left_to_right():
    # rules: Harakiri, "3. Activations"
    s = _round_start(initiative=["char:tomoe", "char:akira", "char:hikaru", "char:hattori"])
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=0)
    order = []
    for _ in range(4):
        order.append(s.state["turn"]["who"])
        s.when(0, "end_activation")
    assert order == ["tomoe", "akira", "hikaru", "hattori"]
    assert s.state["round"] == 2 and s.state["phase"] == "oracle"
    assert s.status.awaiting == [SYSTEM]


def test_action_points_gain_3_max_4_keep_1():
    # rules: Harakiri, "Character Activation": 3 action points per activation, at most 4, keep 1
    s = scenario(doc(arena(open_rows()), {"akira": {"ap": 0}}, activate="char:akira"))
    assert s.state["characters"]["akira"]["ap"] == 3
    s = scenario(doc(arena(open_rows()), {"akira": {"ap": 1}}, activate="char:akira"))
    assert s.state["characters"]["akira"]["ap"] == 4
    s.when(0, "meditate")
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["ap"] == 1


def test_reduce_ki_dice_and_reroll_when_all_exhausted():
    # rules: Harakiri, "Reduce Ki Dice"
    chars = {"akira": {"ki": {"supply": [], "slots": {"sixth_sense": 2}, "exhausted": 0}},
             "hikaru": {"ki": {"supply": [], "slots": {"healing": 1}, "exhausted": 0}}}
    s = scenario(doc(arena(open_rows()), chars, activate="char:hattori",
                     queue=["char:hattori"], forced=[5]))
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["ki"] == {"supply": [], "slots": {"sixth_sense": 1}, "exhausted": 0}
    assert s.state["characters"]["hikaru"]["ki"] == {"supply": [5], "slots": {}, "exhausted": 0}


def test_defeated_characters_are_skipped():
    # rules: Harakiri, "Defeated Characters": no further part in the phase
    s = scenario(doc(arena(open_rows()), {"akira": {"defeated": True, "sq": None, "health": 0}},
                     activate="char:tomoe", queue=["char:tomoe", "char:akira", "char:hikaru"]))
    s.when(0, "end_activation")
    assert s.state["turn"]["who"] == "hikaru"


FOG = {"green": [], "red": [{"id": "fog", "name": "Fog", "effects": [{"type": "initiative_reveal"}]},
                            {"id": "calm", "name": "Calm", "effects": []}]}


def test_an_event_reveals_the_initiative_card_by_card():
    # rules: Harakiri, "2. Determining the Initiative": "Some events may instruct to reveal the
    # initiative card by card"; "Akira", Sixth Sense: "If initiative is revealed card by card due
    # to an event, you cannot use this skill"
    from games.engines.harakiri import ENGINE

    enemies = {"m": {"type": "kachi", "color": "red", "at": "8,0"},
               "hunter": {"kind": "chosen", "type": "demon_hunter", "at": "8,8"}}
    chars = {"akira": {"ki": {"supply": [], "slots": {"sixth_sense": 3}, "exhausted": 0}}}
    order = ["char:tomoe", "char:akira", "color:red", "char:hikaru", "char:hattori"]
    s = _round_start(events=FOG, oracle={"deck": ["oracle_r1", "oracle_r2"]}, characters=chars, enemies=enemies,
                     initiative=order)
    ev = s.when(SYSTEM, "draw_oracle")
    # no Sixth Sense and no swap decision: only the Chosen is in front, the rest is face down
    assert s.state["pending"] is None and s.state["turn"]["card"] == "enemy:hunter"
    assert s.state["initiative"]["queue"] == ["enemy:hunter"]
    view = ENGINE.view_for(s.state, 0)["initiative"]
    assert view == {"queue": ["enemy:hunter"], "pos": 0, "deck": 5}
    seen = json.dumps([ENGINE.redact_event(e, 0) for e in ev])
    assert "char:tomoe" not in seen and "color:red" not in seen  # the face-down order never leaves
    while s.state["pending"] or s.status.awaiting == [SYSTEM]:  # the Chosen's activation
        s.when(0, "choose", option=0) if s.state["pending"] else run_system(s)
    assert s.state["initiative"]["queue"] == ["enemy:hunter", "char:tomoe"] and s.state["turn"]["who"] == "tomoe"
    assert ENGINE.view_for(s.state, 0)["initiative"]["deck"] == 4
    ev = s.when(0, "end_activation")
    assert find(ev, "InitiativeCardRevealed") == [{"card": "char:akira"}]
    assert s.state["initiative"]["queue"] == ["enemy:hunter", "char:tomoe", "char:akira"]
    s.when(0, "end_activation")
    while s.state["pending"] or s.status.awaiting == [SYSTEM]:  # the red kachi
        s.when(0, "choose", option=0) if s.state["pending"] else run_system(s)
    assert s.state["initiative"]["queue"][-2:] == ["color:red", "char:hikaru"]
    s.when(0, "end_activation")
    s.when(0, "end_activation")
    assert s.state["round"] == 2 and "deck" not in s.state["initiative"]


def test_without_the_event_the_initiative_is_placed_face_up_at_once():
    # rules: Harakiri, "2. Determining the Initiative", step 1 (the usual case)
    from games.engines.harakiri import ENGINE

    s = _round_start(events={"green": [], "red": [FOG["red"][1]]}, oracle={"deck": ["oracle_r1"]},
                     initiative=["char:tomoe", "char:akira", "char:hikaru", "char:hattori"])
    s.when(SYSTEM, "draw_oracle")
    assert s.state["pending"]["kind"] == "initiative_swap"
    assert "deck" not in ENGINE.view_for(s.state, 0)["initiative"]
    assert len(s.state["initiative"]["queue"]) == 4


def test_new_enemies_join_the_face_down_initiative_cards():
    # rules: Harakiri, "Add New Enemies": the new cards are shuffled with the ones not yet
    # activated (here still face down, revealed card by card)
    from games.engines.harakiri import ENGINE, flow
    from games.engines.harakiri.state import W
    from games.kernel import Rng

    s = _round_start(events=FOG, oracle={"deck": ["oracle_r1"]},
                     initiative=["char:tomoe", "char:akira", "char:hikaru", "char:hattori"])
    s.when(SYSTEM, "draw_oracle")
    assert s.state["turn"]["who"] == "tomoe"
    w = W(s.state, Rng(b"x", "y"))
    flow.spawn_enemy(w, "minion", "kachi", "red", "5,5")
    deck = w.s["initiative"]["deck"]
    assert sorted(deck) == ["char:akira", "char:hattori", "char:hikaru", "color:red"]
    assert w.s["initiative"]["queue"] == ["char:tomoe"]
    assert ENGINE.redact_event(w.events[-1], 0)["payload"]["deck"] == 4


def test_shockwave_sends_a_face_down_initiative_card_last():
    # rules: Harakiri, "Tomoe", Shockwave: the target's initiative card goes to the back of the
    # queue, even while the queue is still revealed card by card
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "4,2", "health": 9}}
    chars = {"tomoe": {"sq": "2,2", "level": 2, "skills": ["military_discipline", "shockwave"],
                       "ki": {"supply": [], "slots": {"shockwave": 2}, "exhausted": 0}, "attrs": {"power": 2}}}
    s = _round_start(events=FOG, oracle={"deck": ["oracle_r1"]}, characters=chars, enemies=enemies,
                     initiative=["char:tomoe", "color:red", "char:akira", "char:hikaru", "char:hattori"],
                     forced=[6, 6, 3])
    s.when(SYSTEM, "draw_oracle")
    assert s.state["initiative"]["deck"][0] == "color:red"
    s.when(0, "attack", target="foe", mode="strong", skill="shockwave")  # 2 + 2 + 2 - 1 = 5
    assert s.state["initiative"]["deck"] == ["char:akira", "char:hikaru", "char:hattori", "color:red"]
    s.when(0, "end_activation")
    assert s.state["turn"]["who"] == "akira"


def test_a_ki_die_reduced_below_the_skill_requirement_switches_the_skill_off():
    # rules: Harakiri, "Character Skills, Kami Skills, and Enemy Skills": the requirement "is to have
    # a Ki die in their action slot that meets or exceeds the written Ki requirement" and skills "are
    # in effect at all times as long as their requirements are met"; "Reduce Ki Dice". Stab needs 2:
    # its 2 becomes a 1 at the end of the round, which stays in the slot but no longer allows Stab
    from games.engines.harakiri import rules

    akira = {"level": 2, "skills": ["sixth_sense", "stab"], "ki": {"supply": [], "slots": {"stab": 2}, "exhausted": 0}}
    s = scenario(doc(arena(open_rows()), {"akira": akira}, activate="char:hattori", queue=["char:hattori"]))
    assert rules.skill_active(s.state, "akira", "stab")
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["ki"]["slots"] == {"stab": 1}
    assert not rules.skill_active(s.state, "akira", "stab")
    reduced = dict(akira, sq="2,2", ap=4, ki={"supply": [], "slots": {"stab": 1}, "exhausted": 0})
    s = scenario(doc(arena(open_rows()), {"akira": reduced}, {"foe": {"type": "ashigaru", "color": "red", "at": "3,2"}},
                     activate="char:akira"))
    attacks = [c["args"] for c in s.legal(0) if c["type"] == "attack"]
    assert attacks and not any(a["skill"] == "stab" for a in attacks)
