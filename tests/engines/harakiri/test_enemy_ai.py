"""Enemy activation: tables, lines, targets, priority, movement, attacks (rulebook examples)."""

from games.engines.harakiri import ENGINE, enemy_ai, rules
from games.kernel import SYSTEM

from .helpers import arena, doc, find, kappa_example_doc, open_rows, run_system, scenario


def test_kappa_example_cannot_pass_diagonally_past_tomoe():
    # rules: Harakiri, "Resolving Enemy Movement", the kappa example: it cannot reach Akira
    # because it cannot move diagonally past Tomoe's square; of the eligible characters Tomoe
    # has the most health; the players choose among the squares needing the fewest moves (2)
    s = scenario(kappa_example_doc())
    s.when(SYSTEM, "activate_enemy", enemy="kappa")
    p = s.state["pending"]
    assert p["kind"] == "enemy_square" and p["by"] == "party"
    assert {o["target"] for o in p["options"]} == {"tomoe"}
    assert sorted(o["square"] for o in p["options"]) == ["1,2", "2,2"]
    assert s.status.awaiting == [0]
    ev = s.when(0, "choose", option=[o["square"] for o in p["options"]].index("2,2"))
    assert s.state["enemies"]["kappa"]["sq"] == "2,2"
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "tomoe"


def test_enemy_squares_tie_on_the_fewest_moves_not_on_the_cheapest_path():
    # rules: Harakiri, "Resolving Enemy Movement": "move them along a path of adjacent squares,
    # equal to or less than their movement" and "choose the square that requires the enemy to
    # move the fewest number of times". Akaname (movement 4) on 2,3, Tomoe on 1,0, deep mud on 1,2
    # (leaving it costs 3): 0,1 takes 2 moves through the mud (4 points) - its cheapest path (3
    # points) takes 3 moves - so it ties with 1,1 and 2,1 (2 moves each) and the players choose
    rows = open_rows()
    rows[2] = ".s" + rows[2][2:]
    scen = arena(rows)
    scen["zones"]["arena"]["special"] = {"name": "Deep mud", "move_cost": 2}
    s = scenario(doc(scen, {"tomoe": {"sq": "1,0", "health": 10}},
                     {"a": {"type": "akaname", "color": "red", "at": "2,3"}},
                     activate="color:red", oracle={"color": "green"}, forced=[4]))
    s.when(SYSTEM, "activate_enemy", enemy="a")
    p = s.state["pending"]
    assert p["kind"] == "enemy_square"
    assert sorted(o["square"] for o in p["options"]) == ["0,1", "1,1", "2,1"]
    s.when(0, "choose", option=[o["square"] for o in p["options"]].index("0,1"))
    assert s.state["enemies"]["a"]["sq"] == "0,1"


def test_kachi_example_falls_to_line_3():
    # rules: Harakiri, "Resolving Enemy Movement", the kachi example: green oracle, a 6; line 1
    # has no adjacent target, line 2 has no other kachi to SUPPORT; line 3 moves adjacent to
    # the least-health character (Tomoe) and attacks with SLICE THEM
    chars = {"tomoe": {"sq": "3,2", "health": 6}, "hikaru": {"sq": "3,0", "health": 8}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[6]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="kachi")
    if s.state["pending"]:  # several squares with the fewest moves: the party picks one
        assert s.state["pending"]["kind"] == "enemy_square"
        assert {o["target"] for o in s.state["pending"]["options"]} == {"tomoe"}
        ev += s.when(0, "choose", option=0)
    chosen = find(ev, "EnemyLineChosen")
    assert chosen[0]["line"] == 3 and chosen[0]["target"] == "tomoe"
    rolled = find(ev, "EnemyAttackRolled")[0]
    assert rolled["skill"] == "SLICE THEM" and rolled["target"] == "tomoe"


def test_kachi_line_2_supports_another_kachi():
    # rules: Harakiri, the kachi example, line 2 (SUPPORT: move adjacent to another kachi)
    chars = {"tomoe": {"sq": "4,3", "health": 6}}
    enemies = {"kachi": {"type": "kachi", "color": "red", "at": "0,0"},
               "kachi2": {"type": "kachi", "color": "blue", "at": "3,1"}}
    s = scenario(doc(arena(open_rows()), chars, enemies, activate="color:red", oracle={"color": "green"},
                     forced=[6]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="kachi")
    if s.state["pending"]:
        ev += s.when(0, "choose", option=0)
    assert find(ev, "EnemyLineChosen")[0]["line"] == 2


def test_undertaker_attacks_adjacent_tomoe_over_akira_first_in_initiative():
    # rules: Harakiri, "Resolving Enemy Attacks", the Undertaker example: line 1 (MACHETE)
    # prioritises the target first in initiative (Akira) but attacks adjacent, so Tomoe
    chars = {"akira": {"sq": "7,5"}, "tomoe": {"sq": "5,6"}}
    queue = ["char:akira", "enemy:ut", "char:tomoe", "char:hattori", "char:hikaru"]
    s = scenario(doc(arena(open_rows()), chars, {"ut": {"kind": "servant", "type": "undertaker", "at": "5,5"}},
                     activate="enemy:ut", queue=queue, oracle={"color": "green"}, forced=[1]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="ut")
    chosen = find(ev, "EnemyLineChosen")[0]
    assert chosen["line"] == 1 and chosen["target"] == "tomoe"
    assert find(ev, "EnemyAttackRolled")[0]["skill"] == "MACHETE"


def test_first_in_initiative_priority_picks_akira_when_both_adjacent():
    # rules: Harakiri, "Resolving Enemy Lines": the priority icon decides between eligible targets
    chars = {"akira": {"sq": "6,5"}, "tomoe": {"sq": "5,6"}}
    queue = ["char:akira", "enemy:ut", "char:tomoe", "char:hattori", "char:hikaru"]
    s = scenario(doc(arena(open_rows()), chars, {"ut": {"kind": "servant", "type": "undertaker", "at": "5,5"}},
                     activate="enemy:ut", queue=queue, oracle={"color": "green"}, forced=[2]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="ut")
    assert find(ev, "EnemyLineChosen")[0]["target"] == "akira"


def test_health_ties_are_decided_by_the_party():
    # rules: Harakiri, "Golden Rules": the kachi example with Akira and Tomoe at the same health
    chars = {"akira": {"sq": "1,0", "health": 8}, "tomoe": {"sq": "0,1", "health": 8}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1]))
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    p = s.state["pending"]
    assert p["kind"] == "enemy_target" and sorted(o["target"] for o in p["options"]) == ["akira", "tomoe"]
    ev = s.when(0, "choose", option=[o["target"] for o in p["options"]].index("tomoe"))
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "tomoe"


def test_resistors_are_priority_targets():
    # rules: Harakiri, "Resolving Enemy Lines": Resistors with a resistance token take priority
    chars = {"tomoe": {"sq": "1,0"}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     resistors={"villager": {"at": "0,1", "tokens": 2}},
                     activate="color:red", oracle={"color": "green"}, forced=[1]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="kachi")
    assert find(ev, "EnemyLineChosen")[0]["target"] == "villager"
    assert s.state["resistors"]["villager"]["tokens"] == 1
    assert not find(ev, "EnemyAttackRolled")  # no dice: one resistance token is removed


def test_last_resistance_token_defeats_the_resistor():
    # rules: Harakiri, "Resolving Attacks against Resistors"
    s = scenario(doc(arena(open_rows()), {}, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     resistors={"villager": {"at": "0,1", "tokens": 1}},
                     activate="color:red", oracle={"color": "green"}, forced=[1]))
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    assert "villager" not in s.state["resistors"]


def test_blinded_enemy_against_a_resistor_misses_on_1_to_3():
    # rules: Harakiri, "Resolving Attacks against Resistors" / "Negative Conditions": blinded
    s = scenario(doc(arena(open_rows()), {}, {"kachi": {"type": "kachi", "color": "red", "at": "0,0",
                                                        "conditions": {"blinded": 1}}},
                     resistors={"villager": {"at": "0,1", "tokens": 2}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    assert s.state["resistors"]["villager"]["tokens"] == 2
    assert s.state["enemies"]["kachi"]["conditions"]["blinded"] == 0


def test_allied_wanderer_is_treated_as_a_resistor_by_enemies():
    # rules: Harakiri, "Servants and Wanderers": allied Wanderers are priority targets
    chars = {"tomoe": {"sq": "1,0", "health": 3}}
    enemies = {"kachi": {"type": "kachi", "color": "red", "at": "0,0"},
               "daimyo": {"kind": "wanderer", "type": "daimyo", "at": "0,1", "allied": True}}
    s = scenario(doc(arena(open_rows()), chars, enemies, activate="color:red", oracle={"color": "green"},
                     forced=[1, 6, 6, 3]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="kachi")
    assert find(ev, "EnemyLineChosen")[0]["target"] == "daimyo"
    assert s.state["enemies"]["daimyo"]["health"] < 10


def test_allied_wanderer_activates_against_enemies_and_leaves_no_head():
    # rules: Harakiri, "Servants and Wanderers": wanderers activate like servants; wanderers
    # do not drop heads when defeated
    enemies = {"kachi": {"type": "kachi", "color": "red", "at": "5,5", "health": 1},
               "daimyo": {"kind": "wanderer", "type": "daimyo", "at": "3,3", "allied": True}}
    s = scenario(doc(arena(open_rows()), {}, enemies, activate="enemy:daimyo", oracle={"color": "green"},
                     forced=[1, 6, 6, 3]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="daimyo")
    assert find(ev, "EnemyLineChosen")[0]["target"] == "kachi"
    assert "kachi" not in s.state["enemies"]
    s2 = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2", "ap": 4}},
                      {"w": {"kind": "wanderer", "type": "daimyo", "at": "3,2", "health": 1}},
                      activate="char:akira", forced=[6, 6, 3]))
    s2.when(0, "attack", target="w", mode="strong")
    assert "w" not in s2.state["enemies"] and s2.state["heads"] == []


def test_red_oracle_uses_the_aggressive_table():
    # rules: Harakiri, "Enemy Activation": Minions read the aggressive behaviour with a red card
    s = scenario(doc(arena(open_rows()), {"tomoe": {"sq": "3,0"}},
                     {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "red"}, forced=[2]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="kachi")
    if s.state["pending"]:
        ev += s.when(0, "choose", option=0)
    act = find(ev, "EnemyActivated")[0]
    assert act["table"] == "aggressive" and act["roll"] == 2
    assert "focus" in [d["die"] for d in find(ev, "EnemyAttackRolled")[0]["dice"]]


def test_chosen_draws_from_its_ai_deck_and_reshuffles_when_empty():
    # rules: Harakiri, "Chosen": draw the top AI card; if empty shuffle the discards first
    s = scenario(doc(arena(open_rows()), {"tomoe": {"sq": "3,0"}},
                     {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "8,8"}},
                     activate="enemy:hunter", oracle={"color": "green"}))
    deck = list(s.state["enemies"]["hunter"]["ai"]["deck"])
    ev = s.when(SYSTEM, "activate_enemy", enemy="hunter")
    assert find(ev, "AICardDrawn")[0]["card"] == deck[0]
    hunter = s.state["enemies"]["hunter"]
    assert len(hunter["ai"]["deck"]) == len(deck) - 1 and hunter["ai"]["discard"] == [deck[0]]


def test_chosen_ai_deck_reshuffles():
    # rules: Harakiri, "Chosen": "If the Chosen deck is empty, first shuffle all discarded"
    s = scenario(doc(arena(open_rows()), {"tomoe": {"sq": "3,0"}},
                     {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "8,8"}},
                     activate="enemy:hunter", oracle={"color": "green"}))
    from games.engines.harakiri.state import apply
    from games.kernel import event

    hunter = s.state["enemies"]["hunter"]
    s.state = apply(s.state, event("EnemyChanged", {"who": "hunter", "set": {
        "ai": {"deck": [], "discard": ["dh_hunt", "dh_retreat"]}}}))
    ev = s.when(SYSTEM, "activate_enemy", enemy="hunter")
    shuffled = find(ev, "AIDeckShuffled")[0]
    assert sorted(shuffled["deck"]) == ["dh_hunt", "dh_retreat"]
    assert find(ev, "AICardDrawn")[0]["card"] == shuffled["deck"][0]
    assert hunter  # unchanged input


def test_enemy_critical_fail_offers_a_counter_attack():
    # rules: Harakiri, "Counter Attacks" (from the attacked character to the active enemy)
    chars = {"tomoe": {"sq": "1,0", "health": 10}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 1, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    p = s.state["pending"]
    assert p["kind"] == "counter_attack" and p["by"] == s.state["control"]["tomoe"]
    assert s.state["characters"]["tomoe"]["health"] == 10
    ev = s.when(0, "choose", option=1)  # counter, no focus: yumi fast orange (6 -> 2) + test 3
    atk = find(ev, "AttackRolled")[0]["attack"]
    assert atk["counter"] and atk["mode"] == "fast"
    assert s.state["enemies"]["kachi"]["health"] == 4 - (2 + 1 - 1 - 1)


def test_a_meditation_token_rerolls_a_die_of_a_counter_attack():
    # rules: Harakiri, "Counter Attacks": "The character may not use either attack or technique
    # skills during this attack" - and "Meditate": "After performing an attack roll, discard 1
    # meditation token to reroll a single die (test die excluded)": meditation is no skill
    chars = {"tomoe": {"sq": "1,0", "health": 10, "meditation": 1}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 1, 1, 3, 6]))
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    s.when(0, "choose", option=1)  # counter, no focus: yumi fast orange 1 (no impact) + test 3
    assert s.state["attack"]["counter"] and s.status.awaiting == [s.state["control"]["tomoe"]]
    assert ENGINE.legal_commands(s.state, 0) == [{"type": "reroll_die", "args": {"die": 0, "with": "meditation"}},
                                                 {"type": "resolve_attack", "args": {}}]
    assert s.state["work"][0]["op"] == "enemy"  # the kachi's activation waits for the attack
    s.when(0, "reroll_die", **{"die": 0, "with": "meditation"})  # orange 6: 2 impacts
    assert s.state["characters"]["tomoe"]["meditation"] == 0
    assert s.state["enemies"]["kachi"]["health"] == 4 - (2 + 1 - 1 - 1)
    assert not s.state["attack"] and not [w for w in s.state["work"] if w["op"] == "enemy"]


def test_enemies_end_movement_on_empty_squares_and_downed_enemies_attack_adjacent_only():
    # rules: Harakiri, "Resolving Enemy Movement" and "Negative Conditions": downed enemies
    # only attack adjacent targets with their printed dice; the token goes after activating
    chars = {"tomoe": {"sq": "2,0", "health": 10}}
    s = scenario(doc(arena(open_rows()), chars,
                     {"ash": {"type": "ashigaru", "color": "red", "at": "0,0", "conditions": {"downed": 1}}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="ash")
    assert sorted(o["square"] for o in s.state["pending"]["options"]) == ["1,0", "1,1"]
    ev += s.when(0, "choose", option=0)
    chosen = find(ev, "EnemyLineChosen")[0]
    assert chosen["line"] == 2  # line 1 (attack at range 2 without moving) needs adjacency when downed
    assert s.state["enemies"]["ash"]["conditions"]["downed"] == 0
    assert s.state["enemies"]["ash"]["sq"] != "2,0"


def test_a_downed_enemy_still_needs_line_of_sight_to_its_adjacent_target():
    # rules: Harakiri, "Negative Conditions": downed enemies "can only attack adjacent targets" - a
    # further limit on "Resolving Enemy Attacks. To resolve an attack, find a target in LOS and in
    # range". The line from the kachi on 0,0 to Tomoe on 1,1 touches the corners of the walls on
    # 1,0 and 0,1 (2 occupied squares: no LOS), so line 1 (attack without moving) cannot be
    # resolved; boxed in, it falls to line 3 (move toward, no attack)
    rows = open_rows()
    rows[0] = ".#" + rows[0][2:]
    rows[1] = "#" + rows[1][1:]
    s = scenario(doc(arena(rows), {"tomoe": {"sq": "1,1", "health": 10}},
                     {"k": {"type": "kachi", "color": "red", "at": "0,0", "conditions": {"downed": 1}}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="k")
    assert find(ev, "EnemyLineChosen")[0]["line"] == 3
    assert not find(ev, "EnemyAttackRolled")
    assert s.state["characters"]["tomoe"]["health"] == 10


import pytest

from games.engines.harakiri import content as _content


@pytest.mark.parametrize("minion", sorted(_content.ENEMIES_DOC["minions"]))
@pytest.mark.parametrize("color", ["green", "red"])
def test_every_minion_board_resolves_a_line(minion, color):
    # rules: Harakiri, "Enemy Activation" (Minions): a line that can be fully resolved is read
    chars = {"tomoe": {"sq": "4,4", "health": 9}, "akira": {"sq": "6,2", "health": 11}}
    s = scenario(doc(arena(open_rows()), chars, {"m": {"type": minion, "color": "red", "at": "1,1"}},
                     activate="color:red", oracle={"color": color}))
    ev = s.when(SYSTEM, "activate_enemy", enemy="m")
    for _ in range(5):
        if not s.state["pending"]:
            break
        ev += s.when(s.status.awaiting[0], "choose", option=0)
    chosen = find(ev, "EnemyLineChosen")
    assert chosen and chosen[0]["line"] is not None
    assert s.state["turn"] is None or s.state["turn"].get("card") != "color:red"


def test_spectral_enemy_never_attacks_from_inside_a_wall_and_cannot_be_targeted_there():
    # rules: Harakiri, "Spectral Movement": "A creature with spectral movement that ends its movement
    # on 1 occupied square, like inside a wall of stone, cannot target or be targeted by any attack or
    # skill." The onryō (move 4, range 3) reaches no square within range 3 of Tomoe outside the wall
    # (x 2-4), so its line 1 (range 3 + attack) cannot be fully resolved; line 2 (toward) may end inside.
    rows = ["..###....."] * 10
    chars = {"tomoe": {"sq": "7,0"}, "akira": {"sq": "9,9", "health": 1}, "hikaru": {"sq": "8,9", "health": 1},
             "hattori": {"sq": "7,9", "health": 1}}  # Tomoe is line 2's +health target
    s = scenario(doc(arena(rows), chars, {"o": {"type": "onryo", "color": "purple", "at": "0,0"}},
                     activate="color:purple", oracle={"color": "green"}, forced=[4, 6, 6]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="o")
    assert not find(ev, "EnemyAttackRolled")
    p = s.state["pending"]
    assert p["kind"] == "enemy_square" and {o["square"] for o in p["options"]} == {"4,0", "4,1", "4,2", "4,3"}
    ev = s.when(0, "choose", option=0)
    assert find(ev, "EnemyLineChosen")[0]["line"] == 2 and not find(ev, "EnemyAttackRolled")
    st = s.state
    assert st["enemies"]["o"]["sq"] == "4,0"
    assert not enemy_ai.can_hit(st, "o", "tomoe", 3, "4,0")
    assert not rules.can_attack(st, "tomoe", "o", 3) and "o" not in rules.targetable_shogun(st)
    assert not enemy_ai.plan_line(st, "o", {"n": 1, "move": None, "attack": {"skill": None}})


def test_away_moves_to_the_squares_farthest_from_the_target():
    # rules: Harakiri, "Resolving Enemy Movement": "When the condition is away, the enemy moves to a
    # square where the range to their target is as large as possible." The kabuki (move 3, range 2)
    # reaches nobody for line 1 (range 2 + attack), so line 2 (away) moves it: row 0 is 9 from row 9
    s = scenario(doc(arena(open_rows()), {}, {"kb": {"type": "kabuki", "color": "red", "at": "5,3"}},
                     activate="color:red", oracle={"color": "green"}, forced=[4]))
    s.when(SYSTEM, "activate_enemy", enemy="kb")
    p = s.state["pending"]
    assert p["kind"] == "enemy_square"
    assert sorted(o["square"] for o in p["options"]) == [f"{x},0" for x in range(2, 9)]
    ev = s.when(0, "choose", option=0)
    assert find(ev, "EnemyLineChosen")[0]["line"] == 2 and s.state["enemies"]["kb"]["sq"] == "2,0"


def test_range_x_needs_range_and_line_of_sight_from_the_end_square():
    # rules: Harakiri, "Resolving Enemy Movement": "When the condition is range (X), the enemy must be
    # able to move toward or away from the target so that it is within range (X) and Line Of Sight."
    # The ashigaru (move 2) has three squares at range 2 of Tomoe; the obstacle at 3,0 blocks LOS from
    # 2,0 and 2,1 (through it) but not from 2,2 (a single corner), so it takes 2,2 without asking.
    rows = ["...o......"] + ["." * 10] * 9
    chars = {"tomoe": {"sq": "4,0"}}
    s = scenario(doc(arena(rows), chars, {"a": {"type": "ashigaru", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[4, 1, 1]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="a")
    assert s.state["pending"] is None
    chosen = find(ev, "EnemyLineChosen")[0]
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "tomoe", "2,2")
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "tomoe"
