"""Character attacks: dice, test die, damage, yin-yang, critical, heights, heads, counters."""

from .helpers import arena, doc, find, open_rows, scenario, types

KATANA_STRONG = ["green", "red", "test"]


def _akira_vs(enemy, forced, characters=None, heights=None, **kw):
    chars = {"akira": {"sq": "2,2", "ap": 4}}
    for c, spec in (characters or {}).items():
        chars[c] = {**chars.get(c, {}), **spec}
    d = doc(arena(open_rows(), heights=heights), chars, {"foe": {"at": "3,2", "color": "red", **enemy}},
            activate="char:akira", forced=forced, **kw)
    return scenario(d)


def test_akira_stab_example_deals_4():
    # rules: Harakiri, "Attack": "the amount of hits is 5, and so damage is 4 (4+1-1)" and the
    # katana's yin-yang effect grants 1 karma for 3+ damage with a success and a fail rolled
    s = _akira_vs({"type": "ashigaru"}, [1, 6, 3],
                  characters={"akira": {"level": 2, "skills": ["sixth_sense", "stab"], "attrs": {"power": 1},
                                        "ki": {"supply": [], "slots": {"stab": 2}, "exhausted": 0}}})
    ev = s.when(0, "attack", target="foe", mode="strong", focus=False, skill="stab")
    assert s.state["enemies"]["foe"]["health"] == 5 - 4
    assert find(ev, "AttackResolved")[0]["damage"] == {"foe": 4}
    assert s.state["characters"]["akira"]["karma"] == 1
    assert s.state["characters"]["akira"]["ap"] == 2
    assert s.state["enemies"]["foe"]["armor_tokens"] == 0  # a plain hit on the test die


def test_attack_without_stab_subtracts_defense_and_armor():
    # rules: Harakiri, "Damage and Yin-Yang Effects": Damage = Hits - Defense - Armor
    s = _akira_vs({"type": "ashigaru"}, [2, 5, 4])  # green 1 + red 3 = 4 hits, +0 power
    s.when(0, "attack", target="foe", mode="strong")
    assert s.state["enemies"]["foe"]["health"] == 5 - (4 - 1 - 1)


def test_blank_test_die_fails_the_attack():
    # rules: Harakiri, "Attack": a blank side fails, no damage
    s = _akira_vs({"type": "ashigaru"}, [6, 6, 2])
    s.when(0, "attack", target="foe", mode="strong")
    assert s.state["enemies"]["foe"]["health"] == 5
    assert s.state["turn"]["attacked"]


def test_critical_fail_lets_the_enemy_counter_attack():
    # rules: Harakiri, "Counter Attacks" (from the attacked enemy to the active character)
    # katana strong: green, red, test=fail; then the ashigaru's green, green, test
    s = _akira_vs({"type": "ashigaru"}, [6, 6, 1, 6, 6, 3])
    ev = s.when(0, "attack", target="foe", mode="strong")
    rolled = find(ev, "EnemyAttackRolled")
    assert rolled and rolled[0]["counter"] and rolled[0]["skill"] is None
    assert "focus" not in [d["die"] for d in rolled[0]["dice"]]
    # 2 + 2 hits against Akira's defense 1 and armor 2 -> 1 damage; the activation continues
    assert s.state["characters"]["akira"]["health"] == 10
    assert s.status.awaiting == [0]


def test_critical_success_ignores_defense_and_armor_and_breaks_armor():
    # rules: Harakiri, "Damage and Yin-Yang Effects" (critical success) and the -1 armor token
    s = _akira_vs({"type": "kachi", "plus": True}, [2, 2, 6])  # 1 + 1 hits, critical
    s.when(0, "attack", target="foe", mode="strong")
    foe = s.state["enemies"]["foe"]
    assert foe["health"] == 6 - 2
    assert foe["armor_tokens"] == 1


def test_attack_from_above_adds_one_hit():
    # rules: Harakiri, "Height Levels": an attack from a greater height adds +1 to its hits
    heights = ["0000000000"] * 2 + ["0010000000"] + ["0000000000"] * 7
    chars = {"tomoe": {"sq": "2,2", "ap": 4}}
    d = doc(arena(open_rows(), heights=heights), chars, {"foe": {"type": "kappa", "color": "red", "at": "6,2"}},
            activate="char:tomoe", forced=[2, 3])  # yumi fast: orange (0), test hit
    s = scenario(d)
    s.when(s.status.awaiting[0], "attack", target="foe", mode="fast")
    # 0 impacts + 1 power + 1 from above - defense 1 - armor 0 = 1, +1 Military Discipline needs a Ki die
    assert s.state["enemies"]["foe"]["health"] == 5 - 1


def test_poisoned_attacker_rolls_one_less():
    # rules: Harakiri, "Negative Conditions": poisoned gives -1 to all combat rolls
    s = _akira_vs({"type": "kappa"}, [5, 5, 3], characters={"akira": {"conditions": {"poisoned": 1}}})
    s.when(0, "attack", target="foe", mode="strong")  # 2 + 3 - 1 = 4 hits - 1 def = 3
    assert s.state["enemies"]["foe"]["health"] == 5 - 3


def test_blinded_attacker_misses_on_1_to_3_and_discards_the_token():
    # rules: Harakiri, "Negative Conditions": blinded
    s = _akira_vs({"type": "kappa"}, [2, 6, 6, 3], characters={"akira": {"conditions": {"blinded": 1}}})
    s.when(0, "attack", target="foe", mode="strong")
    assert s.state["enemies"]["foe"]["health"] == 5
    assert s.state["characters"]["akira"]["conditions"]["blinded"] == 0


def test_focus_die_minus_one_face_reduces_protection():
    # rules: Harakiri, "Create Dice Pool": the focus die (faces: Fail, -1, -1, -1,
    # Fail + ignore counterattack, -1)
    s = _akira_vs({"type": "ashigaru"}, [2, 5, 4, 2])  # 4 hits, focus -1
    s.when(0, "attack", target="foe", mode="strong", focus=True)
    assert s.state["enemies"]["foe"]["health"] == 5 - 3


def test_focus_fail_ignore_counterattack():
    # rules: Harakiri, "Adventure Phase Iconography": focus "Fail + ignore counterattack"
    s = _akira_vs({"type": "ashigaru"}, [6, 6, 3, 5])
    ev = s.when(0, "attack", target="foe", mode="strong", focus=True)
    assert s.state["enemies"]["foe"]["health"] == 5
    assert not find(ev, "EnemyAttackRolled")


def test_defeated_minion_leaves_a_head_that_can_be_retrieved():
    # rules: Harakiri, "Attack" (heads) and "Retrieve 1 Head Token"
    s = _akira_vs({"type": "kachi", "health": 1}, [6, 6, 3])
    s.when(0, "attack", target="foe", mode="strong")
    assert "foe" not in s.state["enemies"]
    assert s.state["heads"] == [{"sq": "3,2", "boss": False}]
    s.when(0, "retrieve_head", index=0)
    assert s.state["characters"]["akira"]["heads"] == 1 and s.state["heads"] == []


def test_attack_once_per_activation_and_only_in_range_and_los():
    # rules: Harakiri, "Attack": only once per activation, target within range and LOS
    s = _akira_vs({"type": "kappa"}, [1, 1, 2])
    assert any(c["type"] == "attack" for c in s.legal(0))
    s.when(0, "attack", target="foe", mode="fast")
    assert not any(c["type"] == "attack" for c in s.legal(0))
    assert s.rejects(0, "attack", target="foe", mode="fast").code == "illegal_command"
    far = scenario(doc(arena(open_rows()), {"akira": {"sq": "0,0"}},
                       {"foe": {"type": "kappa", "color": "red", "at": "5,5"}}, activate="char:akira"))
    assert not any(c["type"] == "attack" for c in far.legal(0))


def _hattori_strong(foe):
    # kodachi strong: purple fail (0) + orange success (1) + test hit; power 2 -> 3 hits; the
    # kodachi's yin-yang effect provokes bleeding
    chars = {"hattori": {"sq": "2,2", "ap": 4, "attrs": {"power": 2}}}
    d = doc(arena(open_rows()), chars, {"foe": {"color": "red", "at": "3,2", **foe}},
            activate="char:hattori", forced=[1, 5, 3])
    s = scenario(d)
    s.when(0, "attack", target="foe", mode="strong")
    return s.state["enemies"]["foe"]


def test_no_condition_from_an_attack_that_deals_no_damage():
    # rules: Harakiri, "Conditions": negative conditions cannot be imposed as an effect of an
    # attack that causes no damage
    assert _hattori_strong({"type": "kachi", "plus": True})["conditions"]["bleeding"] == 0  # 3 - 1 - 2 = 0
    hurt = _hattori_strong({"type": "kappa"})  # 3 - 1 - 0 = 2 damage
    assert hurt["health"] == 3 and hurt["conditions"]["bleeding"] == 1


def test_no_conditions_on_servants():
    # rules: Harakiri, "Conditions": not on Servants, Wanderers, Chosens or Resistors
    hurt = _hattori_strong({"type": "undertaker", "kind": "servant"})
    assert hurt["health"] == 14 - 0 and hurt["conditions"]["bleeding"] == 0  # 3 - 2 - 1 = 0
    chars = {"hattori": {"sq": "2,2", "ap": 4, "attrs": {"power": 3}}}
    s = scenario(doc(arena(open_rows()), chars, {"foe": {"type": "undertaker", "kind": "servant", "at": "3,2"}},
                     activate="char:hattori", forced=[1, 5, 3]))
    s.when(0, "attack", target="foe", mode="strong")
    assert s.state["enemies"]["foe"]["health"] == 13
    assert s.state["enemies"]["foe"]["conditions"]["bleeding"] == 0


def test_enemy_counter_attack_uses_the_highest_range_of_its_board():
    # rules: Harakiri, "Counter Attacks": the target enemy may attack the active character "if they
    # are within the enemy's range (use the highest range available)" - the hive demon's board has
    # range 2 but one of its lines attacks at range 3, so it strikes back at Tomoe 3 squares away.
    # Yumi fast: orange, test=fail; then the demon's green, green, test: 2 + 2 hits - 1 - 2 = 1
    d = doc(arena(open_rows()), {"tomoe": {"sq": "0,2", "ap": 4}},
            {"demon": {"type": "hive_demon", "color": "red", "at": "3,2"}},
            activate="char:tomoe", forced=[3, 1, 6, 6, 3])
    s = scenario(d)
    ev = s.when(0, "attack", target="demon", mode="fast")
    rolled = find(ev, "EnemyAttackRolled")
    assert rolled and rolled[0]["counter"] and rolled[0]["target"] == "tomoe"
    assert s.state["characters"]["tomoe"]["health"] == 10 - 1


def test_downed_enemy_counter_attacks_only_an_adjacent_character():
    # rules: Harakiri, "Negative Conditions": "Downed enemies and Wanderers can only attack adjacent
    # targets" - a downed ashigaru (range 2) does not counter Hikaru's critical fail from 2 squares
    d = doc(arena(open_rows()), {"hikaru": {"sq": "1,2", "ap": 4}},
            {"foe": {"type": "ashigaru", "color": "red", "at": "3,2", "conditions": {"downed": 1}}},
            activate="char:hikaru", forced=[3, 1, 6, 6, 3])
    s = scenario(d)
    ev = s.when(0, "attack", target="foe", mode="fast")
    assert find(ev, "AttackFinished")[0]["summary"]["outcome"] == "critical_fail"
    assert not find(ev, "EnemyAttackRolled")
    assert s.state["characters"]["hikaru"]["health"] == 8



def test_a_rerolled_die_neither_creates_nor_keeps_the_yin_yang_effect():
    # rules: Harakiri, "Damage and Yin-Yang Effects": "If you want to keep the yin-yang effect, at
    # least one of each initial die (success and fail) has to be kept". Katana strong (green, red,
    # test), power 3, test die critical: 4 damage, so the katana's yin-yang would give 1 karma.
    def attack(forced, reroll):
        s = _akira_vs({"type": "ashigaru"}, forced, characters={"akira": {"meditation": 1, "attrs": {"power": 3}}})
        ev = s.when(0, "attack", target="foe", mode="strong")
        if reroll:
            ev = s.when(0, "reroll_die", die=1, **{"with": "meditation"})
        else:
            ev += s.when(0, "resolve_attack")
        return s, ev, find(ev, "AttackResolved")[0]

    # the same dice as in 1 and 2, none rerolled: green success + red fail, the effect applies
    s, _, resolved = attack([4, 1, 6], reroll=False)
    assert resolved["yinyang"] and s.state["characters"]["akira"]["karma"] == 1
    # 1. green success + red plain, the red rerolled into its fail face: a reroll creates no yin-yang
    s, ev, resolved = attack([4, 2, 6, 1], reroll=True)
    assert [d.get("y") for d in find(ev, "AttackDieRerolled")[0]["attack"]["dice"][:2]] == ["success", "fail"]
    assert resolved == {"attacker": "akira", "damage": {"foe": 4}, "critical": True, "yinyang": False}
    assert s.state["characters"]["akira"]["karma"] == 0
    # 2. green success + red fail, the red fail rerolled (a fail again): the initial fail die is not kept
    s, _, resolved = attack([4, 1, 6, 1], reroll=True)
    assert not resolved["yinyang"] and s.state["characters"]["akira"]["karma"] == 0


def test_a_critical_test_die_breaks_armor_even_when_the_focus_die_fails_the_attack():
    # rules: Harakiri, "Attack": "If you rolled the test die and obtained a fail or critical success, add
    # a -1 armor token as well after applying the damage, even if the attack caused no damage". Katana
    # strong with the focus die: green, red, test die critical (6), then the focus die fails it
    # 1. focus "Fail": a critical fail (the ashigaru's counter attack rolls a blank test die)
    s = _akira_vs({"type": "ashigaru"}, [2, 2, 6, 1, 6, 6, 2])
    ev = s.when(0, "attack", target="foe", mode="strong", focus=True)
    assert find(ev, "AttackFinished")[0]["summary"]["outcome"] == "critical_fail"
    assert s.state["enemies"]["foe"]["health"] == 5 and s.state["enemies"]["foe"]["armor_tokens"] == 1
    # 2. focus "Fail + ignore counterattack": a plain fail
    s = _akira_vs({"type": "ashigaru"}, [2, 2, 6, 5])
    ev = s.when(0, "attack", target="foe", mode="strong", focus=True)
    assert find(ev, "AttackFinished")[0]["summary"]["outcome"] == "fail" and not find(ev, "EnemyAttackRolled")
    assert s.state["enemies"]["foe"]["health"] == 5 and s.state["enemies"]["foe"]["armor_tokens"] == 1
