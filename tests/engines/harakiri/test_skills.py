"""Character skills, Ki dice, meditation, kami skills and Kami Mode."""

import pytest

from games.kernel import SYSTEM
from games.kernel.errors import RuleViolation

from .helpers import arena, doc, find, open_rows, scenario


def ki(**slots):
    return {"supply": [], "slots": slots, "exhausted": 0}


def _turn(who, characters, enemies=None, **kw):
    chars = {who: {"ap": 4}}
    for c, spec in characters.items():
        chars[c] = {**chars.get(c, {}), **spec}
    return scenario(doc(arena(open_rows()), chars, enemies, activate=f"char:{who}", **kw))


def test_place_ki_needs_the_requirement_and_withdraw_is_limited_by_knowledge():
    # rules: Harakiri, "Place Ki Dice" and "Withdrawing Ki Dice"
    s = _turn("akira", {"akira": {"level": 2, "skills": ["sixth_sense", "stab"],
                                  "ki": {"supply": [1, 4], "slots": {}, "exhausted": 0}}})
    legal = [c["args"] for c in s.legal(0) if c["type"] == "place_ki"]
    assert {"die": 0, "skill": "stab"} not in legal  # stab needs a 2+
    assert {"die": 1, "skill": "stab"} in legal and {"die": 0, "skill": "sixth_sense"} in legal
    s.when(0, "place_ki", die=1, skill="stab")
    assert s.state["characters"]["akira"]["ki"] == {"supply": [1], "slots": {"stab": 4}, "exhausted": 0}
    assert not any(c["type"] == "withdraw_ki" for c in s.legal(0))  # knowledge 0
    s2 = _turn("akira", {"akira": {"attrs": {"knowledge": 1}, "ki": {"supply": [2], "slots": {"sixth_sense": 3},
                                                                      "exhausted": 0}}})
    s2.when(0, "withdraw_ki", skill="sixth_sense")
    assert s2.state["characters"]["akira"]["ki"] == {"supply": [2], "slots": {}, "exhausted": 1}
    assert not any(c["type"] == "withdraw_ki" for c in s2.legal(0))


def test_reroll_ki_dice_costs_2():
    # rules: Harakiri, "Reroll Ki Dice"
    s = _turn("akira", {"akira": {"ki": {"supply": [1], "slots": {"sixth_sense": 1}, "exhausted": 1}}},
              forced=[6, 5, 4])
    s.when(0, "reroll_ki")
    assert s.state["characters"]["akira"]["ki"] == {"supply": [6, 5, 4], "slots": {}, "exhausted": 0}
    assert s.state["characters"]["akira"]["ap"] == 2


def test_healing_cleanses_and_heals_by_the_ki_die():
    # rules: Harakiri, "Hikaru", Healing: 3-4 regain 2 health
    s = _turn("hikaru", {"hikaru": {"sq": "2,2", "health": 5, "ki": ki(healing=3)},
                         "tomoe": {"sq": "3,2", "health": 4, "conditions": {"bleeding": 2, "poisoned": 1}}})
    s.when(0, "technique", skill="healing", ally="tomoe")
    assert s.state["characters"]["hikaru"]["health"] == 7
    assert s.state["characters"]["tomoe"]["health"] == 6
    assert s.state["characters"]["tomoe"]["conditions"]["bleeding"] == 0
    assert s.state["characters"]["hikaru"]["ap"] == 3


def test_military_discipline_adds_damage_and_makes_swapping_free():
    # rules: Harakiri, "Tomoe", Military Discipline
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "5,2"}}
    chars = {"tomoe": {"sq": "2,2", "ki": ki(military_discipline=1), "weapons": ["samurai_yumi", "samurai_naginata"]}}
    s = _turn("tomoe", chars, enemies, forced=[4, 3])  # orange 1 + power 1 - def 1 + 1
    s.when(0, "attack", target="foe", mode="fast")
    assert s.state["enemies"]["foe"]["health"] == 5 - 2
    s.when(0, "swap_weapon")
    assert s.state["characters"]["tomoe"]["equipped"] == "samurai_naginata"
    assert s.state["characters"]["tomoe"]["ap"] == 3
    s.when(0, "swap_weapon")  # free once per activation (project decision), then 1 AP
    assert s.state["characters"]["tomoe"]["ap"] == 2


def test_roll_moves_after_the_attack():
    # rules: Harakiri, "Hattori", Roll: extra movement by the Ki die, after the attack
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("hattori", {"hattori": {"sq": "2,2", "ki": ki(roll=4)}}, enemies, forced=[1, 2])
    s.when(0, "attack", target="foe", mode="fast", focus=False, skill="roll", roll="after")
    assert s.state["turn"]["rolling"] and s.state["turn"]["roll_mp"] == 2
    s.when(0, "step", to="1,2")
    s.when(0, "step", to="0,2")
    s.when(0, "end_move")
    assert s.state["characters"]["hattori"]["sq"] == "0,2"
    assert any(c["type"] == "move" for c in s.legal(0))  # Roll is not the movement action


def test_roll_before_the_attack():
    # rules: Harakiri, "Hattori", Roll: movement before the attack, then the attack
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "5,2"}}
    s = _turn("hattori", {"hattori": {"sq": "2,2", "ki": ki(roll=6)}}, enemies, forced=[6, 3])
    opts = [c["args"] for c in s.legal(0) if c["type"] == "attack" and c["args"].get("roll") == "before"]
    assert {"target": "foe", "mode": "fast", "focus": False, "skill": "roll", "roll": "before", "to": "4,2"} in opts
    s.when(0, "attack", target="foe", mode="fast", focus=False, skill="roll", roll="before", to="4,2")
    assert s.state["characters"]["hattori"]["sq"] == "4,2"
    assert s.state["enemies"]["foe"]["health"] == 5 - (2 - 1)


def test_metsubushi_blinds_on_damage():
    # rules: Harakiri, "Hattori", Metsubushi
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("hattori", {"hattori": {"sq": "2,2", "level": 2, "skills": ["roll", "metsubushi"],
                                      "ki": ki(metsubushi=2)}}, enemies, forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="metsubushi")
    assert s.state["enemies"]["foe"]["conditions"]["blinded"] == 1


def test_defensive_stance_reduces_damage_and_allows_fast_attacks_only():
    # rules: Harakiri, "Akira", Defensive Stance
    chars = {"akira": {"sq": "1,0", "level": 3, "skills": ["sixth_sense", "defensive_stance"],
                       "ki": ki(defensive_stance=3), "health": 11}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # 2 + 2 hits - 1 def - 2 armor = 1, KENJUTSU +1 = 2, Defensive Stance (3-4) -2 = 0
    assert s.state["characters"]["akira"]["health"] == 11
    s2 = _turn("akira", chars, {"k": {"type": "kachi", "color": "red", "at": "2,0"}})
    assert {c["args"]["mode"] for c in s2.legal(0) if c["type"] == "attack"} == {"fast"}


def test_dodgy_denies_the_focus_die():
    # rules: Harakiri, "Akira", Dodgy
    chars = {"akira": {"sq": "1,0", "level": 3, "skills": ["sixth_sense", "dodgy"], "ki": ki(dodgy=3)}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "red"}, forced=[1]))
    ev = s.when(SYSTEM, "activate_enemy", enemy="k")
    assert "focus" not in [d["die"] for d in find(ev, "EnemyAttackRolled")[0]["dice"]]


def test_kamis_assistance_raises_supply_dice():
    # rules: Harakiri, "Hikaru", Kami's Assistance
    s = _turn("hikaru", {"hikaru": {"level": 3, "skills": ["healing", "kamis_assistance"],
                                    "ki": {"supply": [2, 6], "slots": {"kamis_assistance": 3}, "exhausted": 0}}})
    s.when(0, "technique", skill="kamis_assistance")
    assert s.state["characters"]["hikaru"]["ki"]["supply"] == [3, 6]


def test_drain_spirit_heals_by_the_damage():
    # rules: Harakiri, "Hikaru", Drain Spirit
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("hikaru", {"hikaru": {"sq": "2,2", "health": 3, "level": 3, "skills": ["healing", "drain_spirit"],
                                    "ki": ki(drain_spirit=3)}}, enemies, forced=[6, 6, 3])
    s.when(0, "attack", target="foe", mode="strong", skill="drain_spirit")  # 2 + 2 - 1 = 3
    assert s.state["enemies"]["foe"]["health"] == 2 and s.state["characters"]["hikaru"]["health"] == 6


def test_shockwave_sends_the_target_to_the_back():
    # rules: Harakiri, "Tomoe", Shockwave
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "4,2", "health": 5},
               "b": {"type": "kappa", "color": "blue", "at": "8,8"}}
    queue = ["char:tomoe", "color:red", "color:blue", "char:akira"]
    s = _turn("tomoe", {"tomoe": {"sq": "2,2", "level": 2, "skills": ["military_discipline", "shockwave"],
                                  "ki": ki(shockwave=2), "attrs": {"power": 2}}}, enemies, queue=queue,
              forced=[6, 6, 3])
    s.when(0, "attack", target="foe", mode="strong", skill="shockwave")  # 2 + 2 + 2 - 1 = 5
    assert "foe" not in s.state["enemies"]
    s = _turn("tomoe", {"tomoe": {"sq": "2,2", "level": 2, "skills": ["military_discipline", "shockwave"],
                                  "ki": ki(shockwave=2), "attrs": {"power": 2}}}, enemies | {"foe": {
        "type": "kappa", "color": "red", "at": "4,2", "health": 9}}, queue=queue, forced=[6, 6, 3])
    s.when(0, "attack", target="foe", mode="strong", skill="shockwave")
    assert s.state["initiative"]["queue"] == ["char:tomoe", "color:blue", "char:akira", "color:red"]


def test_piercing_ignores_defense_and_armor_when_adjacent():
    # rules: Harakiri, "Tomoe", Piercing
    enemies = {"foe": {"type": "kachi", "color": "red", "at": "3,2", "plus": True}}
    s = _turn("tomoe", {"tomoe": {"sq": "2,2", "level": 4, "skills": ["military_discipline", "piercing"],
                                  "ki": ki(piercing=3)}}, enemies, forced=[4, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="piercing")  # orange 1 + power 1 = 2
    assert s.state["enemies"]["foe"]["health"] == 6 - 2


def test_teamwork_adds_damage_to_nearby_characters():
    # rules: Harakiri, "Tomoe", Teamwork
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    chars = {"akira": {"sq": "2,2"}, "tomoe": {"sq": "2,4", "level": 3, "skills": ["military_discipline", "teamwork"],
                                               "ki": ki(teamwork=3)}}
    s = _turn("akira", chars, enemies, forced=[6, 3])  # green 2 - def 1 + teamwork 1
    s.when(0, "attack", target="foe", mode="fast")
    assert s.state["enemies"]["foe"]["health"] == 5 - 2


def test_escort_repairs_armor_at_the_end_of_the_turn():
    # rules: Harakiri, "Tomoe", Escort
    chars = {"tomoe": {"sq": "2,2", "armor": 0, "level": 3, "skills": ["military_discipline", "escort"],
                       "ki": ki(escort=3)}, "akira": {"sq": "3,3", "armor": 1}, "hikaru": {"sq": "8,8", "armor": 0}}
    s = _turn("tomoe", chars)
    s.when(0, "end_activation")
    assert [s.state["characters"][c]["armor"] for c in ("tomoe", "akira", "hikaru")] == [1, 2, 0]


def test_meditation_rerolls_one_attack_die_but_not_the_test_die():
    # rules: Harakiri, "Meditate"
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("akira", {"akira": {"sq": "2,2", "meditation": 1}}, enemies, forced=[1, 3, 6])
    s.when(0, "attack", target="foe", mode="fast")
    assert s.state["attack"] and s.status.awaiting == [0]  # the roll is open: rerolls or resolve
    opts = [c["args"] for c in s.legal(0) if c["type"] == "reroll_die"]
    assert opts == [{"die": 0, "with": "meditation"}]
    s.when(0, "reroll_die", **{"die": 0, "with": "meditation"})
    assert s.state["characters"]["akira"]["meditation"] == 0
    assert s.state["enemies"]["foe"]["health"] == 5 - (2 - 1)


def test_ebisus_strike_rerolls_the_test_die():
    # rules: Harakiri, "Hikaru", Ebisu's Strike: any die, including the test die
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("hikaru", {"hikaru": {"sq": "2,2", "level": 2, "skills": ["healing", "ebisus_strike"],
                                    "ki": ki(ebisus_strike=2)}}, enemies, forced=[6, 2, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="ebisus_strike")
    s.when(0, "reroll_die", **{"die": 1, "with": "ebisu"})
    s.when(0, "resolve_attack")
    assert s.state["enemies"]["foe"]["health"] == 5 - (2 - 1)


def test_kami_destiny_forger_once_per_phase():
    # rules: Harakiri, "Amatsumara", Destiny Forger; kami skills once per phase
    chars = {"akira": {"kami": "amatsumara", "affinity": 3, "armor": 1, "health": 5}}
    s = _turn("akira", chars)
    s.when(0, "technique", skill="amatsumara_l3")
    assert s.state["characters"]["akira"]["armor"] == 2 and s.state["characters"]["akira"]["health"] == 7
    assert not any(c["args"].get("skill") == "amatsumara_l3" for c in s.legal(0))


def test_kami_skill_needs_affinity_3():
    # rules: Harakiri, "Character Skills, Kami Skills": meet the affinity requirement
    s = _turn("akira", {"akira": {"kami": "amatsumara", "affinity": 2}})
    assert not any(c["args"].get("skill") == "amatsumara_l3" for c in s.legal(0))


def test_protective_breeze_absorbs_the_first_2_damage():
    # rules: Harakiri, "Dosojin", Protective Breeze
    chars = {"akira": {"kami": "dosojin", "affinity": 3, "sq": "1,0"}}
    s = _turn("akira", chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
              queue=["char:akira", "color:red"], oracle={"color": "green"}, forced=[1, 6, 6, 6])
    s.when(0, "technique", skill="dosojin_l3")
    s.when(0, "end_activation")
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # critical: 4 hits, KENJUTSU +1 = 5, breeze -2 = 3
    assert s.state["characters"]["akira"]["health"] == 11 - 3


def test_relentless_strike_rerolls_the_test_die_for_1_ap():
    # rules: Harakiri, "Hachiman", Relentless Strike
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("akira", {"akira": {"sq": "2,2", "kami": "hachiman", "affinity": 3}}, enemies, forced=[6, 2, 3])
    s.when(0, "attack", target="foe", mode="fast")
    s.when(0, "reroll_die", **{"die": 1, "with": "relentless"})
    assert s.state["characters"]["akira"]["ap"] == 2
    assert s.state["enemies"]["foe"]["health"] == 4


def test_beasts_friend_doubles_the_damage():
    # rules: Harakiri, "Inari", The Beasts' Friend
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("akira", {"akira": {"sq": "2,2", "kami": "inari", "affinity": 3}}, enemies, forced=[6, 6, 3])
    s.when(0, "attack", target="foe", mode="strong", skill="inari_l3")  # 2+2-1 = 3, doubled 6
    assert "foe" not in s.state["enemies"]


def test_beasts_friend_does_not_double_the_yin_yang_damage():
    # rules: Harakiri, "Inari", The Beasts' Friend: "duplicate its damage. The effects of yin-yang, if
    # any, are not duplicated, as it is considered a single attack." Hattori's shuriken (yin-yang
    # +1 damage): orange fail 0 + orange success 1 + power vs the undertaker's defense and armor
    enemies = {"foe": {"kind": "servant", "type": "undertaker", "at": "4,2"}}
    chars = {"hattori": {"sq": "2,2", "kami": "inari", "affinity": 3, "weapons": ["ninja_shuriken"],
                         "equipped": "ninja_shuriken"}}
    s = _turn("hattori", chars, enemies, forced=[1, 5, 3])  # yin-yang fail + success; test hit
    ev = s.when(0, "attack", target="foe", mode="fast", skill="inari_l3")
    resolved = find(ev, "AttackResolved")[0]
    assert resolved["yinyang"]
    assert resolved["damage"]["foe"] % 2 == 1  # 2 x (the attack's damage) + 1, never 2 x (... + 1)
    assert resolved["damage"]["foe"] == 1


def test_protective_breeze_absorbs_the_first_source_of_any_damage_bleeding_too():
    # rules: Harakiri, "Dosojin", Protective Breeze: "Characters ignore the first 2 damage they receive
    # during this round. If the same character receives damage from multiple effects ... only the
    # first source would reduce their damage." Tomoe's 3 bleeding at her turn's start is the first
    chars = {"akira": {"kami": "dosojin", "affinity": 3, "sq": "1,0"},
             "tomoe": {"sq": "5,5", "conditions": {"bleeding": 3}}}
    s = _turn("akira", chars, queue=["char:akira", "char:tomoe"], oracle={"color": "green"})
    health = s.state["characters"]["tomoe"]["health"]
    s.when(0, "technique", skill="dosojin_l3")
    assert s.state["characters"]["tomoe"]["breeze"] == 2
    s.when(0, "end_activation")
    tomoe = s.state["characters"]["tomoe"]
    assert s.state["turn"]["who"] == "tomoe"
    assert tomoe["health"] == health - 1 and tomoe["breeze"] == 0


def test_kami_mode_conditions_and_end():
    # rules: Harakiri, "Activate Kami Mode Ability"
    chars = {"akira": {"kami": "dosojin", "affinity": 6, "health": 4}}
    s = _turn("akira", chars, queue=["char:akira", "char:tomoe"])
    assert any(c["type"] == "kami_mode" for c in s.legal(0))
    s.when(0, "kami_mode")
    assert not any(c["type"] == "kami_mode" for c in s.legal(0))
    s.when(0, "end_activation")  # first activation done
    assert not s.state["characters"]["akira"]["defeated"]
    healthy = _turn("akira", {"akira": {"kami": "dosojin", "affinity": 6, "health": 6}})
    assert not any(c["type"] == "kami_mode" for c in healthy.legal(0))  # 6 is not below 11 // 2 = 5


def test_kami_mode_ends_with_defeat_after_the_next_activation():
    # rules: Harakiri, "Activate Kami Mode Ability": defeated when it is no longer active
    chars = {"akira": {"kami": "dosojin", "affinity": 6, "health": 4,
                       "kami_mode": {"kami": "dosojin", "turns_done": 1, "round": 1}}}
    s = _turn("akira", chars, queue=["char:akira", "char:tomoe"])
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["defeated"]


def test_only_one_kami_mode_at_a_time():
    # rules: Harakiri, "Activate Kami Mode Ability": no other character has an active Kami Mode
    chars = {"akira": {"kami": "dosojin", "affinity": 6, "health": 4},
             "tomoe": {"kami_mode": {"kami": "inari", "turns_done": 0, "round": 1}}}
    s = _turn("akira", chars)
    assert not any(c["type"] == "kami_mode" for c in s.legal(0))


def test_unimplemented_skills_are_never_offered():
    # rules: Harakiri, "Appendix: Skills" (skills not implemented yet are listed as such)
    from games.engines.harakiri import ENGINE

    skills = {sk["id"]: sk["implemented"] for sk in ENGINE.content()["skills"]}
    missing = sorted(sk for sk, done in skills.items() if not done)
    s = _turn("hikaru", {"hikaru": {"sq": "2,2", "level": 5, "skills": ["healing"] + missing,
                                    "ki": {"supply": [6], "slots": {"healing": 6, **dict.fromkeys(missing, 6)},
                                           "exhausted": 0}}},
              {"foe": {"type": "kappa", "color": "red", "at": "3,2"}})
    assert any(c["type"] == "attack" for c in s.legal(0))
    assert any(c["args"].get("skill") == "healing" for c in s.legal(0))
    assert not any(c["args"].get("skill") in missing for c in s.legal(0))
    assert skills["sixth_sense"] and skills["multi_form"] and skills["star_rain"]


def _counter_ready_akira(forced, extra_enemies=None):
    chars = {"akira": {"sq": "1,0", "level": 2, "skills": ["sixth_sense", "counter_attack"],
                       "ki": ki(counter_attack=2)}}
    enemies = {"k": {"type": "kachi", "color": "red", "at": "0,0"}, **(extra_enemies or {})}
    s = _turn("akira", chars, enemies, queue=["char:akira", "color:red"], oracle={"color": "green"}, forced=forced)
    s.when(0, "attack", target="k", mode="strong", skill="counter_attack")  # blank: miss
    assert s.state["characters"]["akira"]["ap"] == 1 and s.state["characters"]["akira"]["counter_ready"]
    s.when(0, "end_activation")
    return s


def test_counter_attack_skill_strikes_back_once_when_damaged():
    # rules: Harakiri, "Akira", Counter Attack: 3 AP; "Until the end of your next turn, if you receive
    # damage, you may perform a counter attack against the attacker at no action point cost. You can
    # only activate the effect once, and only if the attacker is in your range."
    s = _counter_ready_akira([6, 1, 2, 1, 6, 6, 6, 6, 6, 3])
    ev = s.when(SYSTEM, "activate_enemy", enemy="k")
    # the kachi hits (6, 6, critical); "may": Akira's seat decides, inside the kachi's activation
    assert not find(ev, "AttackRolled")
    p = s.state["pending"]
    assert p["kind"] == "counter_attack_skill" and p["by"] == s.state["control"]["akira"]
    assert s.state["characters"]["akira"]["counter_ready"]["due"] == "k"
    ev = s.when(0, "choose", option=1)  # a fast attack (6, 3)
    rolled = find(ev, "AttackRolled")
    assert rolled and rolled[0]["attack"]["attacker"] == "akira" and rolled[0]["attack"]["counter"]
    assert s.state["characters"]["akira"]["counter_ready"] is None
    assert s.state["pending"] is None and not s.state["work"]


def test_counter_attack_skill_declined_stays_armed():
    # rules: Harakiri, "Akira", Counter Attack: "you may perform a counter attack" - declining is not
    # activating the effect, which lasts until the end of the next turn
    s = _counter_ready_akira([6, 1, 2, 1, 6, 6, 6, 6, 6, 3])
    s.when(SYSTEM, "activate_enemy", enemy="k")
    ev = s.when(0, "choose", option=0)
    assert not find(ev, "AttackRolled")
    ready = s.state["characters"]["akira"]["counter_ready"]
    assert ready and "due" not in ready


def test_counter_attack_skill_ends_on_damage_from_beyond_range():
    # rules: Harakiri, "Akira", Counter Attack: "If you receive damage beyond your range, the effect
    # ends." Akira's katana reaches 1; the ashigaru's line 1 hits him from range 2 (critical, 2 damage)
    s = _counter_ready_akira([6, 1, 2, 1, 1, 6, 6, 6], {"a": {"type": "ashigaru", "color": "red", "at": "3,0"}})
    ev = s.when(SYSTEM, "activate_enemy", enemy="a")
    assert find(ev, "AttackResolved")[-1]["damage"] == 2
    assert s.state["pending"] is None and not find(ev, "AttackRolled")
    assert s.state["characters"]["akira"]["counter_ready"] is None


def test_evade_adds_dexterity_to_defense_once_per_round():
    # rules: Harakiri, "Hattori", Evade
    chars = {"hattori": {"sq": "1,0", "level": 4, "skills": ["roll", "evade"], "ki": ki(evade=3),
                         "attrs": {"dexterity": 3}, "health": 9}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", queue=["color:red", "char:akira"], oracle={"color": "green"},
                     forced=[1, 6, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # 4 hits - (1 + 3) def - 1 armor = 0, + KENJUTSU 1
    assert s.state["characters"]["hattori"]["health"] == 8
    assert s.state["characters"]["hattori"]["evaded"]


def test_elusive_ignores_enemies_for_movement():
    # rules: Harakiri, "Hattori", Elusive
    chars = {"hattori": {"sq": "2,2", "level": 2, "skills": ["roll", "elusive"], "ki": ki(elusive=2)}}
    s = _turn("hattori", chars, {"k": {"type": "kachi", "color": "red", "at": "3,2"}})
    s.when(0, "move")
    legal = [c["args"]["to"] for c in s.legal(0) if c["type"] == "step"]
    assert "3,2" in legal and "3,3" in legal


def test_spiritual_protection_adds_spirit_to_defense():
    # rules: Harakiri, "Hikaru", Spiritual Protection
    chars = {"hikaru": {"sq": "1,0", "level": 5, "skills": ["healing", "spiritual_protection"],
                        "ki": ki(spiritual_protection=4), "attrs": {"spirit": 2}, "health": 8}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # 4 hits - (0 + 2) def - 2 armor = 0, + KENJUTSU 1
    assert s.state["characters"]["hikaru"]["health"] == 7


def test_full_of_resources_regains_ki_dice_at_the_end_of_the_turn():
    # rules: Harakiri, "Tomoe", Full of resources: 3-4 regain 3 Ki dice, never above the level
    chars = {"tomoe": {"level": 5, "skills": ["military_discipline", "full_of_resources"],
                       "ki": {"supply": [], "slots": {"full_of_resources": 4}, "exhausted": 4}}}
    s = _turn("tomoe", chars, queue=["char:tomoe", "char:akira"], forced=[2, 3, 4])
    s.when(0, "end_activation")
    assert s.state["characters"]["tomoe"]["ki"] == {"supply": [2, 3, 4], "slots": {"full_of_resources": 4},
                                                    "exhausted": 1}


def test_menacing_shadow_strong_attack_at_range_3_removes_the_initiative_card():
    # rules: Harakiri, "Hikaru", Menacing Shadow
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "5,2", "health": 9}}
    chars = {"hikaru": {"sq": "2,2", "level": 2, "skills": ["healing", "menacing_shadow"],
                        "ki": ki(menacing_shadow=2), "attrs": {"power": 2}}}
    s = _turn("hikaru", chars, enemies, queue=["char:hikaru", "color:red", "char:akira"], forced=[6, 6, 3])
    opts = [c["args"] for c in s.legal(0) if c["type"] == "attack"]
    assert all(o["mode"] == "strong" for o in opts if o["skill"] == "menacing_shadow")
    assert not any(o["skill"] is None for o in opts)  # the bo staff alone cannot reach range 3
    s.when(0, "attack", target="foe", mode="strong", skill="menacing_shadow")  # 2 + 2 + 2 - 1 = 5
    assert s.state["initiative"]["queue"] == ["char:hikaru", "char:akira"]


def test_energy_alteration_provokes_all_four_conditions():
    # rules: Harakiri, "Hattori", Energy Alteration
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}
    s = _turn("hattori", {"hattori": {"sq": "2,2", "level": 5, "skills": ["roll", "energy_alteration"],
                                      "ki": ki(energy_alteration=4)}}, enemies, forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="energy_alteration")
    assert s.state["enemies"]["foe"]["conditions"] == {"bleeding": 1, "poisoned": 1, "blinded": 1, "downed": 1,
                                                       "blessed": 0}


def test_divine_arrow_adds_power_again_with_a_ranged_weapon():
    # rules: Harakiri, "Tomoe", Divine Arrow
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "5,2"}}
    s = _turn("tomoe", {"tomoe": {"sq": "2,2", "level": 2, "skills": ["military_discipline", "divine_arrow"],
                                  "ki": ki(divine_arrow=2)}}, enemies, forced=[2, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="divine_arrow")  # 0 + 1 + 1 - 1 = 1
    assert s.state["enemies"]["foe"]["health"] == 4


def test_healing_wave_heals_characters_within_range_2():
    # rules: Harakiri, "Hikaru", Healing Wave
    chars = {"hikaru": {"sq": "2,2", "health": 5, "level": 4, "skills": ["healing", "healing_wave"],
                        "ki": ki(healing_wave=6)},
             "tomoe": {"sq": "4,4", "health": 4, "conditions": {"poisoned": 1}}, "akira": {"sq": "5,5", "health": 4}}
    s = _turn("hikaru", chars)
    s.when(0, "technique", skill="healing_wave")
    assert s.state["characters"]["hikaru"]["health"] == 8 and s.state["characters"]["tomoe"]["health"] == 8
    assert s.state["characters"]["tomoe"]["conditions"]["poisoned"] == 0
    assert s.state["characters"]["akira"]["health"] == 4


def test_salute_to_death_trades_health_for_karma_and_damage():
    # rules: Harakiri, "Shinigami", Salute to Death
    enemies = {"a": {"type": "kappa", "color": "red", "at": "8,8"}, "b": {"type": "kachi", "color": "blue",
                                                                        "at": "0,0", "health": 2}}
    s = _turn("akira", {"akira": {"kami": "shinigami", "affinity": 3}}, enemies)
    s.when(0, "technique", skill="shinigami_l3", amount=2)
    assert s.state["characters"]["akira"]["health"] == 9 and s.state["characters"]["akira"]["karma"] == 2
    assert s.state["enemies"]["a"]["health"] == 3 and "b" not in s.state["enemies"]


def test_salute_to_death_and_kami_modes_spare_a_spectral_enemy_inside_a_wall():
    # rules: Harakiri, "Spectral Movement": a spectral creature ending "inside a wall of stone, cannot
    # target or be targeted by any attack or skill"; Salute to Death ("deal 1 damage to all enemies, no
    # matter the range or LOS") and the Kami Mode skills of Amatsumara ("reduce all enemies' armor by
    # 1") and Amaterasu ("all enemies are dealt damage") lift range and LOS only, not that rule
    rows = ["#........."] + ["." * 10] * 9
    enemies = {"o": {"type": "onryo", "color": "purple", "at": "0,0", "plus": True},  # plus: health 6, armor 1
               "k": {"type": "kappa", "color": "red", "at": "8,8", "plus": True}}
    mode = {"turns_done": 0, "round": 1}

    def given(kami, **spec):
        chars = {"akira": {"ap": 4, "kami": kami, **spec}}
        return scenario(doc(arena(rows), chars, enemies, activate="char:akira", queue=["char:akira", "char:tomoe"]))

    s = given("shinigami", affinity=3)
    s.when(0, "technique", skill="shinigami_l3", amount=2)
    assert s.state["enemies"]["o"]["health"] == 6 and s.state["enemies"]["k"]["health"] < 7
    s = given("amatsumara", kami_mode={"kami": "amatsumara", **mode})
    s.when(0, "end_activation")
    assert s.state["enemies"]["o"]["armor_tokens"] == 0 and s.state["enemies"]["k"]["armor_tokens"] == 1
    s = given("amaterasu", kami_mode={"kami": "amaterasu", **mode})
    s.when(0, "end_activation")
    assert s.state["enemies"]["o"]["health"] == 6 and s.state["enemies"]["k"]["health"] < 7


def test_total_devastation_hits_a_random_enemy_within_range_5():
    # rules: Harakiri, "Amatsumikaboshi", Total Devastation
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = _turn("akira", {"akira": {"sq": "2,2", "kami": "amatsumikaboshi", "affinity": 3}}, enemies,
              forced=[1, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="amatsumikaboshi_l3")  # 0 - 1 -> 0, +6
    assert "foe" not in s.state["enemies"]


@pytest.mark.parametrize("seed", [b"td0", b"td1", b"td2", b"td3", b"td4", b"td5", b"td6", b"td7"])
def test_total_devastation_strikes_another_enemy_when_there_is_one(seed):
    # rules: Harakiri, "Amatsumikaboshi", Total Devastation: "the damage will not be received by your
    # target, but by another random enemy up to range 5. If there is only one enemy, that enemy will
    # receive the effect, even if it is the initial target."
    enemies = {"foe": {"kind": "servant", "type": "undertaker", "at": "3,2"},
               "other": {"kind": "servant", "type": "undertaker", "at": "5,2"},
               "far": {"kind": "servant", "type": "undertaker", "at": "9,9"}}
    s = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2", "kami": "amatsumikaboshi", "affinity": 3,
                                                    "ap": 4}}, enemies, activate="char:akira", forced=[1, 3]),
                 seed=seed)
    ev = s.when(0, "attack", target="foe", mode="fast", skill="amatsumikaboshi_l3")
    assert [n["victim"] for n in find(ev, "StateNote") if n.get("victim")] == ["other"]
    assert list(find(ev, "AttackResolved")[0]["damage"]) == ["other"]


def test_kami_modes_inari_damage_ryujin_action_points_izanami_reflection():
    # rules: Harakiri, "Kami Skills": Inari (+4 damage), Ryujin (4 action points, attributes 3),
    # Izanami (damage received is inflicted on the attacker as well)
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}
    mode = {"turns_done": 0, "round": 1}
    s = _turn("akira", {"akira": {"sq": "2,2", "kami": "inari", "kami_mode": {"kami": "inari", **mode}}},
              enemies, forced=[1, 3])
    s.when(0, "attack", target="foe", mode="fast")
    assert s.state["enemies"]["foe"]["health"] == 5
    s = _turn("akira", {"akira": {"ap": 0, "kami": "ryujin", "kami_mode": {"kami": "ryujin", **mode}}})
    assert s.state["characters"]["akira"]["ap"] == 4
    from games.engines.harakiri import rules
    assert rules.attr(s.state, "akira", "power") == 3 and rules.is_flying(s.state, "akira")
    chars = {"akira": {"sq": "1,0", "kami": "izanami", "kami_mode": {"kami": "izanami", **mode}}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0", "health": 4}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 6]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert s.state["characters"]["akira"]["health"] == 11 - 5 and "k" not in s.state["enemies"]


def test_kami_mode_shinigami_adds_a_damage_per_health_up_to_7():
    # rules: Harakiri, "Shinigami", Kami Mode: "add +1 damage to your attack for each health in your
    # supply, up to 7" (the fast attack alone deals 0: katana fail + test hit, as for Inari above)
    mode = {"kami": "shinigami", "turns_done": 0, "round": 1}
    for health, left in ((3, 9 - 3), (11, 9 - 7)):
        enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}
        s = _turn("akira", {"akira": {"sq": "2,2", "kami": "shinigami", "health": health, "kami_mode": mode}},
                  enemies, forced=[1, 3])
        s.when(0, "attack", target="foe", mode="fast")
        assert s.state["enemies"]["foe"]["health"] == left


def test_kami_mode_amatsumara_lowers_every_enemy_armor_at_the_end_of_the_turn():
    # rules: Harakiri, "Amatsumara", Kami Mode: "At the end of your turn and the next round, reduce all
    # enemies' armor by 1 ... A creature with armor 0 cannot receive -1 armor tokens."
    from games.engines.harakiri import rules

    enemies = {"armored": {"kind": "servant", "type": "undertaker", "at": "5,5"},
               "bare": {"type": "kappa", "color": "red", "at": "7,7"}}
    chars = {"akira": {"kami": "amatsumara", "kami_mode": {"kami": "amatsumara", "turns_done": 0, "round": 1}}}
    s = _turn("akira", chars, enemies, queue=["char:akira", "char:tomoe"])
    armor = rules.estat(s.state, "armored", "armor")
    assert armor > 0 and rules.estat(s.state, "bare", "armor") == 0
    s.when(0, "end_activation")
    assert s.state["enemies"]["armored"]["armor_tokens"] == 1
    assert rules.estat(s.state, "armored", "armor") == armor - 1
    assert s.state["enemies"]["bare"]["armor_tokens"] == 0


def test_items_once_per_round_consumables_discarded_uses_counted():
    # rules: Harakiri, "Use an Item"
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "4,2"}}
    chars = {"akira": {"sq": "2,2", "health": 5, "items": [{"id": "healing_potion", "uses": None},
                                                          {"id": "bandages", "uses": 2},
                                                          {"id": "fire_powder", "uses": None}],
                       "conditions": {"bleeding": 1}}}
    s = _turn("akira", chars, enemies)
    assert s.state["characters"]["akira"]["health"] == 4  # bleeding at the start of the activation
    s.when(0, "use_item", slot=1)  # bandages: bleeding removed, +1 health, one use left
    assert s.state["characters"]["akira"]["health"] == 5
    assert s.state["characters"]["akira"]["conditions"]["bleeding"] == 0
    assert s.state["characters"]["akira"]["items"][1] == {"id": "bandages", "uses": 1}
    assert not any(c["args"].get("slot") == 1 for c in s.legal(0) if c["type"] == "use_item")
    s.when(0, "use_item", slot=2, target="foe")  # fire powder: 2 damage, not an attack
    assert s.state["enemies"]["foe"]["health"] == 3
    assert [i["id"] for i in s.state["characters"]["akira"]["items"]] == ["healing_potion", "bandages"]
    assert not s.state["turn"]["attacked"]


def test_known_path_always_resurrects():
    # rules: Harakiri, "Izanami", Known Path (applies in the Exploration Phase)
    from games.engines.harakiri.aftermath import begin
    from games.engines.harakiri.flow import advance
    from games.engines.harakiri.state import W
    from games.kernel import Rng

    s = _turn("tomoe", {"akira": {"defeated": True, "sq": None, "health": 0, "kami": "izanami", "level": 2,
                                  "attrs": {"power": 1}}})
    w = W(s.state, Rng(b"x", "y"))
    begin(w)
    advance(w)
    rolled = [e["payload"] for e in w.events if e["type"] == "ResurrectionRolled"][0]
    assert rolled["known_path"] and rolled["passed"] and w.s["characters"]["akira"]["attrs"]["power"] == 1


def test_give_an_item_to_an_adjacent_character():
    # rules: Harakiri, "Interact": interacting with other adjacent characters (exchange items)
    chars = {"akira": {"sq": "2,2", "items": [{"id": "healing_potion", "uses": None}]}, "tomoe": {"sq": "3,3"}}
    s = _turn("akira", chars)
    s.when(0, "give", to="tomoe", slot=0)
    assert s.state["characters"]["akira"]["items"] == []
    assert s.state["characters"]["tomoe"]["items"][-1]["id"] == "healing_potion"
    assert s.state["characters"]["akira"]["ap"] == 3


def test_crescent_strike_hits_two_adjacent_enemies_with_one_roll():
    # rules: Harakiri, "Akira", Crescent Strike; "Golden Rules": roll once for several targets
    enemies = {"a": {"type": "kappa", "color": "red", "at": "3,2", "health": 9},
               "b": {"type": "kappa", "color": "blue", "at": "1,1", "health": 9}}
    s = _turn("akira", {"akira": {"sq": "2,2", "level": 4, "skills": ["sixth_sense", "crescent_strike"],
                                  "ki": ki(crescent_strike=3)}}, enemies, forced=[6, 6, 3])
    assert {"target": "a", "mode": "strong", "focus": False, "skill": "crescent_strike", "also": ["b"]} in [
        c["args"] for c in s.legal(0) if c["type"] == "attack"]
    ev = s.when(0, "attack", target="a", mode="strong", skill="crescent_strike", also=["b"])
    assert len(find(ev, "AttackRolled")) == 1
    assert s.state["enemies"]["a"]["health"] == 4 and s.state["enemies"]["b"]["health"] == 4  # 2 + 4 - 1


def test_arrows_mantle_hits_up_to_3_enemies_next_to_characters_at_minus_2():
    # rules: Harakiri, "Tomoe", Arrow's Mantle
    enemies = {"a": {"type": "kappa", "color": "red", "at": "5,5", "health": 9},
               "b": {"type": "kappa", "color": "blue", "at": "6,4", "health": 9},
               "c": {"type": "kappa", "color": "green", "at": "8,0", "health": 9}}
    chars = {"tomoe": {"sq": "2,2", "level": 5, "skills": ["military_discipline", "arrows_mantle"],
                       "ki": ki(arrows_mantle=4), "attrs": {"power": 3}}, "akira": {"sq": "5,4"}}
    s = _turn("tomoe", chars, enemies, forced=[6, 6, 3])
    opts = [c["args"] for c in s.legal(0) if c["type"] == "attack" and c["args"]["skill"] == "arrows_mantle"]
    assert all(o["target"] in ("a", "b") and set(o["also"]) <= {"a", "b"} for o in opts)
    s.when(0, "attack", target="a", mode="strong", skill="arrows_mantle", also=["b"])
    # 2 + 2 + 3 power - 1 defense = 6, -2 = 4
    assert s.state["enemies"]["a"]["health"] == 5 and s.state["enemies"]["b"]["health"] == 5


def test_concentration_makes_the_next_attack_critical_without_the_test_die():
    # rules: Harakiri, "Akira", Concentration
    enemies = {"foe": {"type": "kachi", "color": "red", "at": "3,2", "plus": True}}
    chars = {"akira": {"sq": "2,2", "level": 5, "skills": ["sixth_sense", "concentration"],
                       "ki": ki(concentration=4)}}
    s = _turn("akira", chars, enemies, forced=[6])
    s.when(0, "technique", skill="concentration")
    s.when(0, "attack", target="foe", mode="fast")  # green 2, critical: ignores defense and armor
    assert s.state["enemies"]["foe"]["health"] == 4 and s.state["enemies"]["foe"]["armor_tokens"] == 1
    assert not s.state["characters"]["akira"]["concentration"]


def test_slaughter_two_attacks_for_2_ap_the_second_only_if_the_target_survives():
    # rules: Harakiri, "Hattori", Slaughter
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}
    chars = {"hattori": {"sq": "2,2", "level": 3, "skills": ["roll", "slaughter"], "ki": ki(slaughter=3)}}
    s = _turn("hattori", chars, enemies, forced=[6, 3, 6, 3])
    ev = s.when(0, "attack", target="foe", mode="fast", skill="slaughter")
    assert len(find(ev, "AttackRolled")) == 2 and s.state["characters"]["hattori"]["ap"] == 2
    assert s.state["enemies"]["foe"]["health"] == 9 - 1 - 1
    s = _turn("hattori", chars, {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 1}}, forced=[6, 3])
    ev = s.when(0, "attack", target="foe", mode="fast", skill="slaughter")
    assert len(find(ev, "AttackRolled")) == 1


def test_hachimans_wrath_splits_damage_between_armor_and_health():
    # rules: Harakiri, "Akira", Hachiman's Wrath
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}
    chars = {"akira": {"sq": "2,2", "level": 5, "skills": ["sixth_sense", "hachimans_wrath"], "armor": 0,
                       "health": 5, "ki": ki(hachimans_wrath=4)}}
    s = _turn("akira", chars, enemies, forced=[6, 6, 3])  # 2 + 4 - 1 = 5 damage
    s.when(0, "attack", target="foe", mode="strong", skill="hachimans_wrath")
    p = s.state["pending"]
    assert p["kind"] == "hachimans_wrath" and p["options"] == [{"armor": k, "health": 5 - k} for k in range(3)]
    s.when(0, "choose", option=2)
    assert s.state["characters"]["akira"]["armor"] == 2 and s.state["characters"]["akira"]["health"] == 8


def test_relentless_vengeance_bonus_and_keep_one():
    # rules: Harakiri, "Tomoe", Relentless Vengeance
    chars = {"tomoe": {"sq": "2,2", "level": 4, "skills": ["military_discipline", "relentless_vengeance"],
                       "ki": ki(relentless_vengeance=3)}}
    s = _turn("tomoe", chars, {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 1}},
              queue=["char:tomoe", "char:akira"], forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast")
    assert s.state["characters"]["tomoe"]["vengeance"] == 2
    s.when(0, "end_activation")
    assert s.state["characters"]["tomoe"]["vengeance"] == 1


def test_distraction_lets_hattori_choose_the_next_enemy_target():
    # rules: Harakiri, "Hattori", Distraction
    chars = {"hattori": {"sq": "5,5", "level": 3, "skills": ["roll", "distraction"], "ki": ki(distraction=3)},
             "akira": {"sq": "1,0", "health": 11}, "tomoe": {"sq": "0,1", "health": 2}}
    s = _turn("hattori", chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
              queue=["char:hattori", "color:red"], oracle={"color": "green"}, forced=[4, 6, 6, 3])
    s.when(0, "technique", skill="distraction")
    s.when(0, "end_activation")
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = s.state["pending"]
    assert p["kind"] == "distraction" and p["by"] == s.state["control"]["hattori"]
    ev = s.when(0, "choose", option=[o["target"] for o in p["options"]].index("akira"))
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "akira"  # not Tomoe (-health)


def test_dragon_tail_swaps_two_initiative_cards():
    # rules: Harakiri, "Ryujin", Dragon Tail
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}
    s = _turn("akira", {"akira": {"sq": "2,2", "kami": "ryujin", "affinity": 3}}, enemies,
              queue=["char:tomoe", "char:akira", "color:red"], forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="ryujin_l3")
    p = s.state["pending"]
    assert p["kind"] == "ryujin_l3"
    s.when(0, "choose", option=p["options"].index({"swap": ["char:tomoe", "color:red"]}))
    assert s.state["initiative"]["queue"] == ["color:red", "char:akira", "char:tomoe"]
    s.when(0, "end_activation")
    assert s.state["turn"]["who"] == "tomoe"  # moved after Akira: she activates again


def test_susanoos_fury_puts_two_conditions_on_any_minion():
    # rules: Harakiri, "Susanoo", Susanoo's Fury
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9},
               "far": {"type": "kachi", "color": "blue", "at": "9,9"}}
    s = _turn("tomoe", {"tomoe": {"sq": "2,2", "affinity": 3}}, enemies, forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="susanoo_l3")
    p = s.state["pending"]
    s.when(0, "choose", option=p["options"].index({"minion": "far", "conditions": ["bleeding", "poisoned"]}))
    assert s.state["enemies"]["far"]["conditions"]["bleeding"] == 1
    assert s.state["enemies"]["far"]["conditions"]["poisoned"] == 1


def test_ryujin_kami_mode_goes_first_even_ahead_of_the_chosen():
    # rules: Harakiri, "Ryujin", Kami Mode
    from .test_round import _round_start

    enemies = {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "8,8"}}
    chars = {"hikaru": {"kami": "ryujin", "kami_mode": {"kami": "ryujin", "turns_done": 0, "round": 1}}}
    s = _round_start(characters=chars, enemies=enemies,
                     initiative=["char:hattori", "char:akira", "char:hikaru", "char:tomoe"])
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=0)
    assert s.state["initiative"]["queue"][:2] == ["char:hikaru", "enemy:hunter"]


def test_chained_slashes_attacks_every_enemy_passed_with_one_fast_roll():
    # rules: Harakiri, "Akira", Chained Slashes
    enemies = {"a": {"type": "kappa", "color": "red", "at": "3,1", "health": 9},
               "b": {"type": "kappa", "color": "blue", "at": "5,3", "health": 9}}
    chars = {"akira": {"sq": "2,2", "level": 4, "skills": ["sixth_sense", "chained_slashes"],
                       "ki": ki(chained_slashes=3)}}
    s = _turn("akira", chars, enemies, forced=[6, 3])
    s.when(0, "technique", skill="chained_slashes")
    assert s.state["characters"]["akira"]["ap"] == 1 and s.state["turn"]["chained"] == ["a"]
    s.when(0, "step", to="3,2")
    s.when(0, "step", to="4,2")
    assert s.state["turn"]["chained"] == ["a", "b"]
    ev = s.when(0, "end_move")
    assert len(find(ev, "AttackRolled")) == 1
    assert s.state["enemies"]["a"]["health"] == 8 and s.state["enemies"]["b"]["health"] == 8


def test_blinding_light_divides_4_damage_among_other_enemies_within_range_2():
    # rules: Harakiri, "Hikaru", Blinding Light
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 9},
               "x": {"type": "kachi", "color": "blue", "at": "4,4"}, "y": {"type": "kachi", "color": "green",
                                                                         "at": "0,0"}}
    chars = {"hikaru": {"sq": "2,2", "level": 4, "skills": ["healing", "blinding_light"], "ki": ki(blinding_light=3)}}
    s = _turn("hikaru", chars, enemies, forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="blinding_light")
    p = s.state["pending"]
    assert p["kind"] == "blinding_light" and {"damage": {"x": 1, "y": 3}} in p["options"]
    assert len(p["options"]) == 1 + 5
    s.when(0, "choose", option=p["options"].index({"damage": {"x": 1, "y": 3}}))
    assert s.state["enemies"]["x"]["health"] == 3 and s.state["enemies"]["y"]["health"] == 1


def test_star_rain_and_blinding_light_range_2_do_not_reach_another_height_level():
    # rules: Harakiri, "Range and Height Level": "To be able to attack a target at a different height,
    # the weapon or skill must have +3 range." Star Rain ("enemies within range 2 ... each target") and
    # Blinding Light ("other enemies within range 2 of you") are range-2 skills: "hi" stands on the
    # raised row 2 (x 2+), adjacent by range but one level up
    heights = ["0000000000"] * 2 + ["0011111111"] + ["0000000000"] * 7
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,1", "health": 9},
               "x": {"type": "kachi", "color": "blue", "at": "4,0"},
               "hi": {"type": "kachi", "color": "green", "at": "2,2"}}
    def given(who, spec, **kw):
        return scenario(doc(arena(open_rows(), heights=heights), {who: {"ap": 4, "sq": "2,1", **spec}}, enemies,
                            activate=f"char:{who}", **kw))

    s = given("hattori", {"level": 5, "skills": ["roll", "metsubushi", "slaughter", "evade", "star_rain"],
                          "ki": ki(star_rain=6)})
    groups = [c["args"]["targets"] for c in s.legal(0) if c["args"].get("skill") == "star_rain"]
    assert ["foe", "x"] in groups and not any("hi" in g for g in groups)
    s = given("hikaru", {"level": 4, "skills": ["healing", "blinding_light"], "ki": ki(blinding_light=3)},
              forced=[6, 3])
    s.when(0, "attack", target="foe", mode="fast", skill="blinding_light")
    options = s.state["pending"]["options"]
    assert {"damage": {"x": 4}} in options and not any("hi" in o["damage"] for o in options)


def test_blinding_light_spares_a_spectral_enemy_inside_a_wall():
    # rules: Harakiri, "Spectral Movement": a spectral creature ending "inside a wall of stone, cannot
    # target or be targeted by any attack or skill" -- Blinding Light's "other enemies within range 2"
    rows = ["." * 10, "." * 10, "...#......"] + ["." * 10] * 7
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,1", "health": 9},
               "o": {"type": "onryo", "color": "purple", "at": "3,2"}}
    chars = {"hikaru": {"sq": "2,1", "level": 4, "skills": ["healing", "blinding_light"], "ki": ki(blinding_light=3)}}
    s = scenario(doc(arena(rows), {"hikaru": {"ap": 4, **chars["hikaru"]}}, enemies, activate="char:hikaru",
                     forced=[6, 3]))
    s.when(0, "attack", target="foe", mode="fast", skill="blinding_light")
    assert not s.state["pending"] and s.state["enemies"]["o"]["health"] == 4


def test_yomis_servant_raises_a_defeated_minion_that_acts_after_you():
    # rules: Harakiri, "Izanami", Yomi's Servant
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "6,2"}}
    chars = {"akira": {"sq": "2,2", "kami": "izanami", "affinity": 3}}
    s = _turn("akira", chars, enemies, queue=["char:akira", "color:red"], oracle={"color": "green"},
              forced=[1, 6, 6, 3])
    s.state["defeated_enemies"] = [{"id": "old", "kind": "minion", "type": "kachi"}]
    s.when(0, "technique", skill="izanami_l3", minion="kachi", to="3,2")
    servant = [e for e, en in s.state["enemies"].items() if en.get("owner") == "akira"][0]
    assert s.state["enemies"][servant]["allied"] and "color:yomi" not in s.state["initiative"]["queue"]
    ev = s.when(0, "end_activation")
    if s.state["pending"]:
        assert s.state["pending"]["enemy"] == servant
        ev += s.when(0, "choose", option=0)
    chosen = find(ev, "EnemyLineChosen")
    assert chosen and chosen[0]["enemy"] == servant and chosen[0]["target"] == "foe"


def test_yomis_servant_leaves_the_table_when_its_owner_is_defeated():
    # rules: Harakiri, "Izanami", Yomi's Servant: "It ... activates at the end of your turn"; "Kami Skills":
    # "If a character is defeated, their skills, including Kami Mode, cease to have effect"; "Activate Kami
    # Mode Ability": when the Kami Mode is no longer active "they are immediately defeated". Akira defeats
    # the kachi, raises it as his servant, and his Kami Mode ends with this turn: the servant goes with him,
    # before the activation it would have had after his turn
    enemies = {"k": {"type": "kachi", "color": "red", "at": "3,2", "health": 1}}
    chars = {"akira": {"sq": "2,2", "kami": "izanami", "affinity": 6,
                       "kami_mode": {"kami": "izanami", "turns_done": 1, "round": 1}}}
    s = _turn("akira", chars, enemies, queue=["char:akira", "char:tomoe"], forced=[6, 6, 3])
    s.when(0, "attack", target="k", mode="strong")
    assert "k" not in s.state["enemies"]
    s.when(0, "technique", skill="izanami_l3", minion="kachi", to="3,2")
    servant = [e for e, en in s.state["enemies"].items() if en.get("owner") == "akira"][0]
    ev = s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["defeated"]
    assert servant not in s.state["enemies"]
    assert [p["who"] for p in find(ev, "CreatureRemoved")] == [servant]
    assert not [p for p in find(ev, "EnemyActivated") if p.get("enemy") == servant]
    assert s.state["turn"]["who"] == "tomoe"


def test_hachiman_kami_mode_line_attack_plus_2():
    # rules: Harakiri, "Hachiman", Kami Mode: all enemies in a straight line up to range 4, +2 damage
    enemies = {"a": {"type": "kappa", "color": "red", "at": "3,2", "health": 9},
               "b": {"type": "kappa", "color": "blue", "at": "5,2", "health": 9},
               "c": {"type": "kappa", "color": "green", "at": "7,2", "health": 9}}
    chars = {"akira": {"sq": "2,2", "kami": "hachiman", "kami_mode": {"kami": "hachiman", "turns_done": 0,
                                                                      "round": 1}}}
    s = _turn("akira", chars, enemies, forced=[6, 3])
    opts = [c["args"] for c in s.legal(0) if c["type"] == "attack" and c["args"]["skill"] == "hachiman_mode"]
    assert {"target": "a", "mode": "fast", "focus": False, "skill": "hachiman_mode", "also": ["b"]} in opts
    s.when(0, "attack", target="a", mode="fast", skill="hachiman_mode", also=["b"])
    # green 2 - defense 1 + 2
    assert s.state["enemies"]["a"]["health"] == 6 and s.state["enemies"]["b"]["health"] == 6
    assert s.state["enemies"]["c"]["health"] == 9


def test_susanoo_kami_mode_orders_the_next_initiative():
    # rules: Harakiri, "Susanoo", Kami Mode: next round the character decides the order,
    # the Chosen included, unmodified by other effects
    from .test_round import _round_start

    enemies = {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "8,8"},
               "ut": {"kind": "servant", "type": "undertaker", "at": "8,4"}}
    chars = {"tomoe": {"kami": "susanoo", "kami_mode": {"kami": "susanoo", "turns_done": 1, "round": 1}}}
    s = _round_start(characters=chars, enemies=enemies, round=2)
    s.when(SYSTEM, "draw_oracle")
    wanted = ["char:hikaru", "enemy:ut", "char:tomoe", "char:akira", "enemy:hunter", "char:hattori"]
    for card in wanted[:-1]:
        p = s.state["pending"]
        assert p["kind"] == "susanoo_order" and p["by"] == s.state["control"]["tomoe"]
        s.when(0, "choose", option=p["options"].index({"card": card}))
    assert s.state["initiative"]["queue"] == wanted
    assert s.state["turn"]["who"] == "hikaru"


def test_amatsumikaboshi_kami_mode_picks_enemy_targets_even_their_allies():
    # rules: Harakiri, "Amatsumikaboshi", Kami Mode
    chars = {"akira": {"sq": "1,0", "kami": "amatsumikaboshi",
                       "kami_mode": {"kami": "amatsumikaboshi", "turns_done": 0, "round": 1}}}
    enemies = {"k": {"type": "kachi", "color": "red", "at": "0,0"},
               "pal": {"type": "kappa", "color": "blue", "at": "0,1", "health": 9}}
    s = scenario(doc(arena(open_rows()), chars, enemies, activate="color:red", queue=["color:red", "color:blue"],
                     oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = s.state["pending"]
    assert p["kind"] == "amatsumikaboshi_target" and {"target": "pal"} in p["options"]
    ev = s.when(0, "choose", option=p["options"].index({"target": "pal"}))
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "pal"
    assert s.state["enemies"]["pal"]["health"] < 9 and s.state["characters"]["akira"]["health"] == 11


def test_ninja_shadow_removes_the_most_harmful_die_after_attacking():
    # rules: Harakiri, "Hattori", Ninja Shadow (the removal minimising the damage is applied)
    chars = {"hattori": {"sq": "2,1", "level": 4, "skills": ["roll", "ninja_shadow"], "ki": ki(ninja_shadow=3),
                         "health": 9}}
    enemies = {"k": {"type": "kachi", "color": "red", "at": "1,0", "health": 9}}
    s = _turn("hattori", chars, enemies, queue=["char:hattori", "color:red"], oracle={"color": "green"},
              forced=[2, 3, 1, 6, 6, 3])
    s.when(0, "technique", skill="ninja_shadow")
    s.when(0, "attack", target="k", mode="fast")  # green 0, hit: no damage
    s.when(0, "end_activation")
    ev = s.when(SYSTEM, "activate_enemy", enemy="k")
    removed = find(ev, "AttackDieRemoved")
    assert removed and removed[0]["die"]["i"] == 2
    # green 2 (removed) + orange 2 = 2 hits - 1 def - 1 armor = 0 + KENJUTSU 1
    assert s.state["characters"]["hattori"]["health"] == 8


def test_give_heads_and_coins_to_an_adjacent_character():
    # rules: Harakiri, "Interact": both can swap coins, Heads, items, equipment and other tokens
    chars = {"akira": {"sq": "2,2", "heads": 2, "coins": 7}, "tomoe": {"sq": "3,3"}}
    s = _turn("akira", chars)
    s.when(0, "give", to="tomoe", what="heads")
    s.when(0, "give", to="tomoe", what="coins")
    assert s.state["characters"]["akira"]["heads"] == 1 and s.state["characters"]["tomoe"]["heads"] == 1
    assert s.state["characters"]["akira"]["coins"] == 0 and s.state["characters"]["tomoe"]["coins"] == 7


def test_star_rain_damages_up_to_3_enemies_within_range_2_ignoring_defense_and_armor():
    # rules: Harakiri, "Hattori", Star Rain: choose up to 3 enemies within range 2, deal damage
    # to each ignoring defense and armor (amount: provisional Ki table, 5 -> 3)
    enemies = {"a": {"type": "kachi", "color": "red", "at": "3,2", "plus": True},
               "b": {"type": "kachi", "color": "blue", "at": "4,4", "plus": True},
               "far": {"type": "kachi", "color": "green", "at": "5,2", "plus": True}}
    chars = {"hattori": {"sq": "2,2", "level": 5, "skills": ["roll", "star_rain"], "ki": ki(star_rain=5)}}
    s = _turn("hattori", chars, enemies)
    groups = [c["args"]["targets"] for c in s.legal(0) if c["args"].get("skill") == "star_rain"]
    assert sorted(groups) == [["a"], ["a", "b"], ["b"]]  # "far" is at range 3
    s.when(0, "technique", skill="star_rain", targets=["a", "b"])
    assert s.state["enemies"]["a"]["health"] == 6 - 3 and s.state["enemies"]["b"]["health"] == 6 - 3
    assert s.state["enemies"]["far"]["health"] == 6
    assert s.state["characters"]["hattori"]["ap"] == 3 and not s.state["turn"]["attacked"]


def test_star_rain_needs_its_ki_die_and_refuses_enemies_beyond_range_2():
    # rules: Harakiri, "Hattori", Star Rain (a skill is used only with a Ki die in its slot)
    enemies = {"a": {"type": "kachi", "color": "red", "at": "3,2"}, "far": {"type": "kachi", "color": "blue",
                                                                           "at": "5,2"}}
    chars = {"hattori": {"sq": "2,2", "level": 5, "skills": ["roll", "star_rain"], "ki": ki(star_rain=4)}}
    s = _turn("hattori", chars, enemies)
    with pytest.raises(RuleViolation) as err:
        s.when(0, "technique", skill="star_rain", targets=["far"])
    assert err.value.code == "illegal_command"
    s.when(0, "technique", skill="star_rain", targets=["a"])  # Ki 4: 2 damage, kachi health 4
    assert s.state["enemies"]["a"]["health"] == 2
    idle = _turn("hattori", {"hattori": {**chars["hattori"], "ki": {"supply": [6], "slots": {}, "exhausted": 0}}},
                 enemies)
    assert not any(c["args"].get("skill") == "star_rain" for c in idle.legal(0) if c["type"] == "technique")


def test_divine_fire_hits_one_enemy_up_to_range_10_in_los_and_forbids_attacks_this_round():
    # rules: Harakiri, "Amaterasu", Divine Fire: an enemy up to range 10, LOS needed, damage
    # ignoring defense and armor (provisional amount 4); no attacks this round
    enemies = {"far": {"type": "kachi", "color": "red", "at": "9,9", "plus": True},
               "near": {"type": "kachi", "color": "blue", "at": "3,2"},
               "hidden": {"type": "kachi", "color": "green", "at": "2,6"}}
    chars = {"hikaru": {"sq": "2,2", "kami": "amaterasu", "affinity": 3}}
    s = _turn("hikaru", chars, enemies, squares={"2,4": {"z": "arena", "t": "obstacle", "h": 0}})
    targets = [c["args"]["target"] for c in s.legal(0) if c["args"].get("skill") == "amaterasu_l3"]
    assert targets == ["far", "near"]  # "hidden" is behind the obstacle
    s.when(0, "technique", skill="amaterasu_l3", target="far")
    assert s.state["enemies"]["far"]["health"] == 6 - 4
    assert s.state["characters"]["hikaru"]["kami_used"] == ["amaterasu_l3"]
    assert not any(c["type"] == "attack" for c in s.legal(0))  # not even the adjacent kachi


def test_divine_fire_is_refused_after_an_attack_this_round():
    # rules: Harakiri, "Amaterasu", Divine Fire: "You cannot perform any attacks this round
    # (even before activating this technique)"
    enemies = {"near": {"type": "kappa", "color": "blue", "at": "3,2", "health": 9}}
    s = _turn("hikaru", {"hikaru": {"sq": "2,2", "kami": "amaterasu", "affinity": 3}}, enemies, forced=[2, 3])
    assert any(c["args"].get("skill") == "amaterasu_l3" for c in s.legal(0))
    s.when(0, "attack", target="near", mode="fast")
    with pytest.raises(RuleViolation) as err:
        s.when(0, "technique", skill="amaterasu_l3", target="near")
    assert err.value.code == "illegal_command"


def test_amaterasu_kami_mode_heals_characters_and_damages_all_enemies_at_the_end_of_each_turn():
    # rules: Harakiri, "Amaterasu", Kami Mode: at the end of your turn and the next round, all
    # characters regain health and all enemies are dealt damage, no range or LOS limit
    # (provisional amounts: 2 and 2); "Activate Kami Mode Ability": defeated at the end
    enemies = {"a": {"type": "kachi", "color": "red", "at": "9,0", "plus": True},
               "b": {"type": "kappa", "color": "blue", "at": "0,0"}}
    chars = {"hikaru": {"kami": "amaterasu", "affinity": 6, "health": 3}, "tomoe": {"health": 5},
             "akira": {"health": 10}}
    s = _turn("hikaru", chars, enemies, queue=["char:hikaru", "char:tomoe", "char:akira"])
    s.when(0, "kami_mode")
    s.when(0, "end_activation")
    ch = s.state["characters"]
    assert (ch["hikaru"]["health"], ch["tomoe"]["health"], ch["akira"]["health"]) == (5, 7, 11)
    assert s.state["enemies"]["a"]["health"] == 4 and s.state["enemies"]["b"]["health"] == 3
    assert not ch["hikaru"]["defeated"]
    last = _turn("hikaru", {"hikaru": {"kami": "amaterasu", "affinity": 6, "health": 3,
                                       "kami_mode": {"kami": "amaterasu", "turns_done": 1, "round": 1}}},
                 {"b": {"type": "kappa", "color": "blue", "at": "0,0", "health": 2}},
                 queue=["char:hikaru", "char:tomoe"])
    last.when(0, "end_activation")
    assert "b" not in last.state["enemies"] and last.state["characters"]["hikaru"]["defeated"]


def test_amaterasu_kami_mode_waits_for_any_other_kami_mode():
    # rules: Harakiri, "Activate Kami Mode Ability": only one character at a time
    chars = {"hikaru": {"kami": "amaterasu", "affinity": 6, "health": 3},
             "akira": {"kami_mode": {"kami": "dosojin", "turns_done": 0, "round": 1}}}
    assert not any(c["type"] == "kami_mode" for c in _turn("hikaru", chars).legal(0))
    solo = _turn("hikaru", {"hikaru": {"kami": "amaterasu", "affinity": 6, "health": 3}})
    assert any(c["type"] == "kami_mode" for c in solo.legal(0))


def _multi_form_turn(forced=()):
    gone = {"defeated": True, "sq": None, "health": 0}
    chars = {"hikaru": {"sq": "0,5", "level": 5, "skills": ["healing", "multi_form"], "ki": ki(multi_form=4)},
             "akira": gone, "hattori": gone, "tomoe": gone}
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "5,5", "health": 9}}
    return _turn("hikaru", chars, enemies, queue=["char:hikaru", "color:red"], oracle={"color": "green"},
                 forced=list(forced))


def test_multi_form_double_acts_after_hikaru_is_targeted_but_immune_and_leaves_at_round_end():
    # rules: Harakiri, "Hikaru", Multi-Form: a second miniature adjacent; after your turn the
    # double's turn (3 movement, no skills, attacks with your weapon and attributes); enemies
    # target it as a character but it is immune to damage; removed at the end of the round
    from games.engines.harakiri import rules

    s = _multi_form_turn(forced=[6, 3, 1, 6, 6, 6])
    spots = [c["args"]["to"] for c in s.legal(0) if c["args"].get("skill") == "multi_form"]
    assert spots == ["0,4", "1,4", "1,5", "0,6", "1,6"]
    s.when(0, "technique", skill="multi_form", to="1,5")
    assert s.state["enemies"]["hikaru_double"]["sq"] == "1,5" and s.state["characters"]["hikaru"]["ap"] == 3
    assert not rules.los(s.state, "5,5", "0,5", "shogun")  # it blocks the enemies' LOS like a character
    assert rules.los(s.state, "0,5", "5,5", "party")
    assert not any(c["args"].get("skill") == "multi_form" for c in s.legal(0))  # one double at a time
    s.when(0, "end_activation")
    assert s.state["turn"]["kind"] == "double" and s.status.awaiting == [0]
    assert {c["type"] for c in s.legal(0)} == {"move", "end_activation"}  # the foe is out of range 2
    s.when(0, "move")
    assert s.state["turn"]["mp"] == 3
    for sq in ("2,5", "3,5", "4,5"):
        s.when(0, "step", to=sq)
    s.when(0, "end_move")
    s.when(0, "attack", target="foe", mode="fast")  # orange 2 + power 0 - defense 1
    assert s.state["enemies"]["foe"]["health"] == 8
    assert s.state["characters"]["hikaru"]["ap"] == 1  # the double spends no action points
    ev = s.when(0, "end_activation")
    ev += s.when(SYSTEM, "activate_enemy", enemy="foe")
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "hikaru_double"  # critical: 4 hits
    assert any("immune" in n["note"] for n in find(ev, "StateNote"))
    assert s.state["characters"]["hikaru"]["health"] == s.state["characters"]["hikaru"]["max_health"]
    assert "hikaru_double" not in s.state["enemies"] and s.state["round"] == 2


def test_multi_form_double_cannot_use_skills_or_attack_twice_and_goes_with_its_owner():
    # rules: Harakiri, "Hikaru", Multi-Form: the double "cannot activate skills"; "Kami Skills":
    # if a character is defeated, their skills cease to have effect
    from games.engines.harakiri.combat import defeat_character
    from games.engines.harakiri.state import W
    from games.kernel import Rng

    s = _multi_form_turn(forced=[2, 3])
    s.when(0, "technique", skill="multi_form", to="1,5")
    s.when(0, "end_activation")
    with pytest.raises(RuleViolation) as err:
        s.when(0, "technique", skill="healing", ally=None)
    assert err.value.code == "illegal_command"
    s.when(0, "move")
    s.when(0, "step", to="2,5")
    s.when(0, "step", to="3,5")
    s.when(0, "end_move")
    s.when(0, "attack", target="foe", mode="fast")
    assert [c["type"] for c in s.legal(0)] == ["end_activation"]
    w = W(s.state, Rng(b"x", "y"))
    defeat_character(w, "hikaru")
    assert "hikaru_double" not in w.s["enemies"]
    idle = _turn("hikaru", {"hikaru": {"level": 5, "skills": ["healing", "multi_form"],
                                       "ki": {"supply": [6], "slots": {}, "exhausted": 0}}})
    assert not any(c["args"].get("skill") == "multi_form" for c in idle.legal(0) if c["type"] == "technique")


def test_divine_fire_also_bars_the_counter_attack_on_an_enemy_critical_fail():
    # rules: Harakiri, "Amaterasu", Divine Fire: "You cannot perform any attacks this round";
    # "Counter Attacks": a critical fail lets the target counter attack
    enemies = {"k": {"type": "kachi", "color": "red", "at": "0,0"},
               "far": {"type": "kappa", "color": "blue", "at": "6,6", "health": 9}}

    def kachi_fails(use_divine_fire):
        s = _turn("hikaru", {"hikaru": {"sq": "1,0", "kami": "amaterasu", "affinity": 3}}, enemies,
                  queue=["char:hikaru", "color:red", "color:blue"], oracle={"color": "green"}, forced=[1, 6, 6, 1])
        if use_divine_fire:
            s.when(0, "technique", skill="amaterasu_l3", target="far")
        s.when(0, "end_activation")
        s.when(SYSTEM, "activate_enemy", enemy="k")  # the test die fails: a critical fail
        return s.state["pending"]

    assert kachi_fails(False)["kind"] == "counter_attack"
    assert kachi_fails(True) is None


def test_yomis_servant_ties_are_decided_by_its_owner():
    # rules: Harakiri, "Izanami", Yomi's Servant: "If there are multiple targets available with the
    # same priority, you decide who to attack" - Tomoe's seat (1), not the party leader (seat 0)
    enemies = {"a": {"type": "kappa", "color": "red", "at": "4,1"}, "b": {"type": "kappa", "color": "blue", "at": "4,3"}}
    chars = {"tomoe": {"sq": "2,2", "ap": 4, "kami": "izanami", "affinity": 3}}
    s = scenario(doc(arena(open_rows()), chars, enemies, seats=2, activate="char:tomoe",
                     queue=["char:tomoe", "color:red", "color:blue"], oracle={"color": "green"}, forced=[1]))
    s.state["defeated_enemies"] = [{"id": "old", "kind": "minion", "type": "kachi"}]
    s.when(1, "technique", skill="izanami_l3", minion="kachi", to="3,2")
    s.when(1, "end_activation")
    p = s.state["pending"]
    assert p["kind"] == "enemy_target" and sorted(o["target"] for o in p["options"]) == ["a", "b"]
    assert p["by"] == 1 and s.status.awaiting == [1]
