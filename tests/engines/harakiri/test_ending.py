"""Ending the Exploration Phase: victory (resurrection, level increase), failure, party votes."""

import pytest

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM, Command, Rng, RuleViolation

from .helpers import arena, doc, find, open_rows, scenario


def _bridge(characters, forced, **kw):
    chars = {"akira": {"sq": "30,3"}, "hattori": {"sq": "30,4"}, "hikaru": {"sq": "31,4"}, "tomoe": {"sq": "31,3"}}
    for c, spec in characters.items():
        chars[c] = {**chars[c], **spec}
    d = {"scenario": "act1_burning_village", "reveal": ["bridge"], "characters": chars,
         "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "38,1", "health": 1}},
         "activate": "char:tomoe", "forced": forced}
    d.update(kw)
    return scenario(d)


def test_defeating_the_objective_enemy_wins_with_resurrection_and_level_increase():
    # rules: Harakiri, "Victory", "Defeated Characters" (resurrection Spirit test) and "Level
    # Increase"
    s = _bridge({"tomoe": {"sq": "37,2", "ap": 4}, "akira": {"defeated": True, "sq": None, "health": 0}},
                forced=[6, 6, 1])  # yumi fast: orange 2, test critical; Akira's resurrection roll: 1
    s.when(0, "attack", target="hunter", mode="fast")
    st = s.state
    assert st["phase"] == "aftermath"
    assert st["characters"]["tomoe"]["boss_heads"] == 1  # the objective's head goes to the supply
    assert not st["characters"]["akira"]["defeated"] and st["characters"]["akira"]["health"] == 11
    # failed test (1 + spirit 0 < level 1), but Akira's only point is his initial dexterity
    assert st["characters"]["akira"]["attrs"]["dexterity"] == 1
    for _ in range(20):
        p = s.state["pending"]
        if not p:
            break
        assert p["kind"] in ("level_attribute", "level_skill")
        s.when(0, "choose", option=0)
    st = s.state
    assert st["result"] == "victory" and s.status.finished and s.status.winners == [0]
    assert all(ch["level"] == 2 for ch in st["characters"].values())
    assert st["characters"]["akira"]["max_health"] == 12 and st["characters"]["akira"]["health"] == 12
    assert all(len(ch["skills"]) == 2 for ch in st["characters"].values())
    assert all(len(ch["ki"]["supply"]) == 2 for ch in st["characters"].values())
    party = [e for e in s.events if e["type"] == "PhaseEnded"][0]["payload"]["party"]
    assert party["akira"]["level"] == 2  # hand-over to the next chapter
    again = ENGINE.setup({"party": party}, 1, Rng(b"next", "chapter"))
    assert again[0]["payload"]["state"]["characters"]["akira"]["level"] == 2


def test_failed_resurrection_loses_a_chosen_attribute_point():
    # rules: Harakiri, "Defeated Characters": lose an attribute point of the player's choice
    s = _bridge({"tomoe": {"sq": "37,2", "ap": 4},
                 "akira": {"defeated": True, "sq": None, "health": 0, "level": 2,
                           "attrs": {"power": 1, "knowledge": 1}}},
                forced=[6, 6, 1])
    s.when(0, "attack", target="hunter", mode="fast")
    p = s.state["pending"]
    assert p["kind"] == "lose_attribute" and p["by"] == s.state["control"]["akira"]
    # the initial dexterity point cannot be lost
    assert p["options"] == [{"attribute": "power"}, {"attribute": "knowledge"}]
    s.when(0, "choose", option=1)
    assert s.state["characters"]["akira"]["attrs"] == {"power": 1, "dexterity": 1, "spirit": 0, "knowledge": 0}


def test_all_characters_defeated_is_a_failure():
    # rules: Harakiri, "Ending the Exploration Phase": all characters defeated
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "1,0", "health": 1}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert s.state["result"] == "failure" and s.status.finished and s.status.winners == []


def test_kami_mode_last_survivor_fails_the_chapter():
    # rules: Harakiri, "Activate Kami Mode Ability": the only remaining character in Kami Mode
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "37,2", "ap": 4, "health": 2, "kami_mode": {"kami": "inari", "turns_done": 0, "round": 1}}
    s = _bridge(chars, forced=[6, 3])  # orange 2 + power 1 + Inari Kami Mode 4 - 4 = 3
    s.when(0, "attack", target="hunter", mode="fast")
    assert s.state["result"] == "failure"


def test_party_vote_majority_with_the_leader_breaking_ties():
    # decision (docs): with party_vote every seat votes; majority wins, the leader breaks ties
    d = doc(arena(open_rows()), {}, seats=2, options={"party_vote": True, "leader": 1},
            oracle={"deck": ["oracle_g1"]}, initiative=["char:akira", "char:hattori", "char:hikaru", "char:tomoe"])
    s = scenario(d)
    s.when(SYSTEM, "draw_oracle")
    assert s.state["pending"]["kind"] == "initiative_swap" and sorted(s.status.awaiting) == [0, 1]
    opts = s.state["pending"]["options"]
    s.when(0, "choose", option=opts.index({"swap": ["akira", "hattori"]}))
    assert s.status.awaiting == [1]
    assert s.rejects(0, "choose", option=0).code == "not_your_turn"
    s.when(1, "choose", option=0)  # 1 vote each: the leader's (seat 1: no swap) wins
    assert s.state["initiative"]["queue"][:2] == ["char:akira", "char:hattori"]


def test_without_vote_the_leader_decides():
    d = doc(arena(open_rows()), {}, seats=3, oracle={"deck": ["oracle_g1"]})
    s = scenario(d)
    s.when(SYSTEM, "draw_oracle")
    assert s.status.awaiting == [0]
