"""Act 2 characters (Akane, Byakuei, Hanako, Takashi): setup and every skill, levels 1-5.

Dice in ``forced`` are consumed in pool order (weapon dice, then the test die): green 2→1,
6→2; orange 3→1, 6→2; red 6→4; purple 6→3; test 1 fail, 2 blank, 3 hit, 6 critical.
Akane: Kodachi (fast green+test, strong purple+orange+test), power 0, Shinobi Armor (armor 1,
defense 1). Byakuei: Bo Staff (range 2, fast orange+test), power 0, Celestial Armor (2, 0).
Hanako: Tanto (fast green+orange+test), power 1, Ronin Robe (2, 1). Takashi: Naginata (range 2,
fast green+test, strong red+green+test), power 1, Ceremonial Armor (2, 1). Kappa: health 5,
defense 1, armor 0.
"""

from games.engines.harakiri import ENGINE, act2_values, rules
from games.kernel import SYSTEM, Rng, RuleViolation, fold

from .helpers import arena, find, open_rows, run_system, scenario

ACT2 = ["akane", "byakuei", "hanako", "takashi"]
FAR2 = {"akane": "0,9", "byakuei": "3,9", "hanako": "6,9", "takashi": "9,9"}


def ki(**slots):
    return {"supply": [], "slots": slots, "exhausted": 0}


def doc2(characters=None, enemies=None, **kw):
    chars = {c: {"sq": sq} for c, sq in FAR2.items()}
    for c, spec in (characters or {}).items():
        chars[c] = {**chars[c], **spec}
    d = {"scenario": arena(open_rows()), "characters": chars, "enemies": enemies or {}, "clear_enemies": True,
         "options": {"characters": ACT2}}
    d.update(kw)
    return d


def turn(who, characters, enemies=None, **kw):
    chars = {who: {"ap": 4}}
    for c, spec in characters.items():
        chars[c] = {**chars.get(c, {}), **spec}
    return scenario(doc2(chars, enemies, activate=f"char:{who}", **kw))


def kappa(at, **kw):
    return {"type": "kappa", "color": kw.pop("color", "red"), "at": at, **kw}


def legal(s, type_):
    return [c["args"] for c in s.legal(0) if c["type"] == type_]


def choose(s, option):
    opts = s.state["pending"]["options"]
    return s.when(0, "choose", option=opts.index(option))


# -- setup -----------------------------------------------------------------------------------------------


def test_act2_party_setup_and_options():
    # rules: Harakiri, "The Characters" (Act 2: Akane, Byakuei, Hanako, Takashi; starting boards
    # are the project's provisional choice, docs/games/harakiri.md "Act 2 characters")
    s = fold(ENGINE, ENGINE.setup({"characters": ACT2}, 2, Rng(b"seed", "setup")))
    ch = s["characters"]
    assert list(ch) == ACT2 and s["roster"] == ACT2
    assert [ch[c]["health"] for c in ACT2] == [9, 10, 9, 11]
    assert [ch[c]["skills"] for c in ACT2] == [["my_loyal_friend"], ["additional_help"], ["nemesis"],
                                               ["intimidation"]]
    assert s["control"] == {"akane": 0, "byakuei": 1, "hanako": 0, "takashi": 1}
    assert all(ch[c]["sq"] for c in ACT2)
    assert ENGINE.view_for(s, 0)["yastun_lad"] == []
    assert all(v["playable"] for v in ENGINE.content()["characters"].values())
    default = fold(ENGINE, ENGINE.setup({}, 1, Rng(b"seed", "setup")))
    assert list(default["characters"]) == ["akira", "hattori", "hikaru", "tomoe"]
    for bad in ({"characters": ["akane", "akane", "hanako", "takashi"]}, {"characters": ["akane", "byakuei"]},
                {"characters": ["akane", "byakuei", "hanako", "nobody"]}, {"characters": "akane"},
                {"characters": ACT2, "control": {"akira": 0, "hattori": 0, "hikaru": 0, "tomoe": 0}},
                {"characters": ACT2, "party": {"akira": {}}},
                {"characters": ACT2, "party": {"akane": {"skills": ["roll"]}}}):
        try:
            ENGINE.validate_options(bad, 1)
        except RuleViolation as v:
            assert v.code == "bad_options"
        else:
            raise AssertionError(bad)
    mixed = fold(ENGINE, ENGINE.setup({"characters": ["akira", "akane", "hikaru", "takashi"]}, 1,
                                      Rng(b"seed", "setup")))
    assert list(mixed["characters"]) == ["akira", "akane", "hikaru", "takashi"]


# -- Akane ------------------------------------------------------------------------------------------------


def test_my_loyal_friend_places_and_moves_yastun_lad_onto_an_enemy():
    # rules: Harakiri, "Akane", My loyal friend: "when the skill is reactivated, place it adjacent
    # to Akane, and then you may move it up to 4 squares"; "once per turn"; "If he shares a space
    # with an enemy, place Yastun Lad's token on top of the enemy's board"
    s = turn("akane", {"akane": {"sq": "2,2", "attrs": {"knowledge": 1},
                                 "ki": {"supply": [2], "slots": {}, "exhausted": 0}}}, {"k": kappa("6,2")})
    assert legal(s, "lad") == []  # the skill is not active yet
    s.when(0, "place_ki", die=0, skill="my_loyal_friend")
    dests = [a["to"] for a in legal(s, "lad")]
    assert "7,2" in dests and "8,2" not in dests  # adjacent square 3,2, then up to 4 squares
    assert "2,2" not in dests  # never on a character
    s.when(0, "lad", to="6,2")
    assert s.state["characters"]["akane"]["lad"] == {"sq": "6,2", "on": "k"}
    assert ENGINE.view_for(s.state, 0)["yastun_lad"] == [{"owner": "akane", "sq": "6,2", "on": "k"}]
    assert legal(s, "lad") == []  # once per turn
    assert act2_values.lad_maluses(s.state, "k") == (1, 0)  # Ki 1-3: -1 damage only
    # "When the skill becomes exhausted, return the Yastun Lad token to Akane's reserve"
    s.when(0, "withdraw_ki", skill="my_loyal_friend")
    assert ENGINE.view_for(s.state, 0)["yastun_lad"] == []
    try:
        s.when(0, "lad", to="5,2")
    except RuleViolation as v:
        assert v.code == "illegal_command"
    else:
        raise AssertionError("Yastun Lad moved while the skill is exhausted")


def test_yastun_lad_weakens_the_enemy_and_moves_with_it():
    # rules: Harakiri, "Akane", My loyal friend: "4-6 additionally, the enemy will have -1 defense";
    # "1-3 the enemy attacks with -1 damage"; "Yastun moves with them whenever they move"
    chars = {"akane": {"sq": "0,0", "ki": ki(my_loyal_friend=5), "lad": {"sq": "3,0", "on": "k"}}}
    s = scenario(doc2(chars, {"k": kappa("3,0")}, activate="color:red", oracle={"color": "green"},
                      forced=[1, 6, 6, 3]))
    assert rules.estat(s.state, "k", "defense") == 0
    s.when(SYSTEM, "activate_enemy", enemy="k")
    choose(s, {"target": "akane", "square": "1,0"})  # the kappa moves next to Akane, then attacks
    # green 2 + orange 2 = 4 hits - defense 1 - armor 1 = 2, Yastun Lad -1 = 1
    assert s.state["characters"]["akane"]["health"] == 9 - 1
    assert act2_values.lad_square(s.state, "akane") == "1,0"


def test_self_taught_regains_a_ki_die_on_a_defeat():
    # rules: Harakiri, "Akane", Self Taught: "If you defeat the target, you regain 1 Ki die."
    s = turn("akane", {"akane": {"sq": "2,2", "level": 2, "skills": ["my_loyal_friend", "self_taught"],
                                 "ki": {"supply": [], "slots": {"self_taught": 2}, "exhausted": 1}}},
             {"k": kappa("3,2", health=1)}, forced=[6, 3, 5])
    s.when(0, "attack", target="k", mode="fast", skill="self_taught")
    assert "k" not in s.state["enemies"]
    assert s.state["characters"]["akane"]["ki"] == {"supply": [5], "slots": {"self_taught": 2}, "exhausted": 0}


def test_recovery_discards_one_condition_by_the_ki_die():
    # rules: Harakiri, "Akane", Recovery: "3-4 discard 1 of your conditions; 5-6 discard 1 of your
    # conditions or 1 ally's conditions up to range 2"
    chars = {"akane": {"sq": "2,2", "level": 2, "skills": ["my_loyal_friend", "recovery"], "ki": ki(recovery=5),
                       "conditions": {"bleeding": 2, "poisoned": 1}},
             "byakuei": {"sq": "4,2", "conditions": {"blinded": 1}}}
    s = turn("akane", chars)
    s.when(0, "technique", skill="recovery", who="byakuei", condition="blinded")
    assert s.state["characters"]["byakuei"]["conditions"]["blinded"] == 0
    assert s.state["characters"]["akane"]["ap"] == 3
    s.when(0, "technique", skill="recovery", who="akane", condition="bleeding")
    assert s.state["characters"]["akane"]["conditions"]["bleeding"] == 0
    assert s.state["characters"]["akane"]["conditions"]["poisoned"] == 1
    low = turn("akane", {**chars, "akane": {**chars["akane"], "ki": ki(recovery=3)}})
    assert {a["who"] for a in legal(low, "technique") if a["skill"] == "recovery"} == {"akane"}
    none = turn("akane", {**chars, "akane": {**chars["akane"], "ki": ki(recovery=2)}})
    assert not [a for a in legal(none, "technique") if a["skill"] == "recovery"]


def test_one_for_each_gives_a_free_fast_attack_after_a_defeat():
    # rules: Harakiri, "Akane", One for each: "If you defeat the target, you can perform a fast
    # attack against another enemy adjacent to you, at no cost in action points."
    s = turn("akane", {"akane": {"sq": "2,2", "level": 3, "skills": ["my_loyal_friend", "one_for_each"],
                                 "ki": ki(one_for_each=3)}},
             {"a": kappa("3,2", health=1), "b": kappa("1,2", color="blue")}, forced=[6, 3, 6, 3])
    s.when(0, "attack", target="a", mode="fast", skill="one_for_each")
    assert s.state["pending"]["kind"] == "one_for_each"
    choose(s, {"target": "b"})
    assert s.state["enemies"]["b"]["health"] == 5 - 1  # green 2 - defense 1
    assert s.state["characters"]["akane"]["ap"] == 3  # only the first attack was paid


def test_patch_repairs_one_armor_at_the_end_of_the_turn():
    # rules: Harakiri, "Akane", Patch: "you repair 1 armor at the end of your turn ... The counter
    # can never exceed the initial value of the equipped armor."
    s = turn("akane", {"akane": {"level": 3, "skills": ["my_loyal_friend", "patch"], "ki": ki(patch=3),
                                 "armor": 0}})
    s.when(0, "end_activation")
    assert s.state["characters"]["akane"]["armor"] == 1
    full = turn("akane", {"akane": {"level": 3, "skills": ["my_loyal_friend", "patch"], "ki": ki(patch=3)}})
    full.when(0, "end_activation")
    assert full.state["characters"]["akane"]["armor"] == 1  # Shinobi Armor: 1


def test_bite_is_yastun_lads_attack_by_the_ki_die():
    # rules: Harakiri, "Akane", Bite: "3-4 (fast attack); 5-6 (strong attack). Apply damage and
    # defense of the objective as usual. This is not considered an attack ... can be performed
    # multiple times per round and cannot use the focus die."
    chars = {"akane": {"sq": "0,0", "level": 4, "skills": ["my_loyal_friend", "bite"],
                       "ki": ki(my_loyal_friend=2, bite=5), "lad": {"sq": "5,5", "on": "k"}}}
    s = turn("akane", chars, {"k": kappa("5,5")}, forced=[6, 6, 3])
    assert legal(s, "technique").count({"skill": "bite"}) == 1
    s.when(0, "technique", skill="bite")
    # strong Kodachi: purple 3 + orange 2 = 5 hits - defense 1 (no power: not Akane's attack)
    assert s.state["enemies"]["k"]["health"] == 1
    assert not s.state["turn"]["attacked"] and {"skill": "bite"} in legal(s, "technique")
    away = turn("akane", {"akane": {**chars["akane"], "lad": {"sq": "5,4", "on": None}}}, {"k": kappa("5,5")})
    assert {"skill": "bite"} not in legal(away, "technique")  # not on an enemy's board


def test_adrenaline_adds_attribute_points_until_the_end_of_the_turn():
    # rules: Harakiri, "Akane", Adrenaline: "2-3 you gain 1 attribute point; 4-6 you gain 2 ...
    # you cannot exceed the limit of 3 points per attribute type."
    s = turn("akane", {"akane": {"sq": "2,2", "level": 4, "skills": ["my_loyal_friend", "adrenaline"],
                                 "ki": ki(adrenaline=4), "attrs": {"power": 2}}},
             {"k": kappa("3,2")}, forced=[6, 3])
    opts = [a["attrs"] for a in legal(s, "technique") if a["skill"] == "adrenaline"]
    assert ["power", "dexterity"] in opts and ["power", "power"] not in opts  # 2 + 2 > 3
    s.when(0, "technique", skill="adrenaline", attrs=["power", "dexterity"])
    assert rules.attr(s.state, "akane", "power") == 3 and rules.attr(s.state, "akane", "dexterity") == 2
    s.when(0, "attack", target="k", mode="fast")
    assert s.state["enemies"]["k"]["health"] == 5 - (2 + 3 - 1)
    s.when(0, "end_activation")
    assert rules.attr(s.state, "akane", "power") == 2 and s.state["characters"]["akane"]["attrs"]["power"] == 2


def test_lightnings_dance_moves_then_one_roll_against_every_enemy_met():
    # rules: Harakiri, "Akane", Lightning's Dance: "Spend 3 action points. Perform a movement action
    # as usual, including movement, and exert ... make a single attack roll as if you attacked all
    # enemies that were adjacent to you throughout your movement."
    s = turn("akane", {"akane": {"sq": "2,2", "level": 5, "skills": ["my_loyal_friend", "lightnings_dance"],
                                 "ki": ki(lightnings_dance=4)}},
             {"a": kappa("3,3"), "b": kappa("6,1", color="blue"), "c": kappa("9,9", color="green")},
             forced=[6, 3])
    s.when(0, "technique", skill="lightnings_dance")
    assert s.state["characters"]["akane"]["ap"] == 1 and {} in legal(s, "exert")
    s.when(0, "step", to="3,2")
    s.when(0, "step", to="4,2")
    s.when(0, "step", to="5,2")
    s.when(0, "end_move")
    assert s.state["enemies"]["a"]["health"] == 4 and s.state["enemies"]["b"]["health"] == 4
    assert s.state["enemies"]["c"]["health"] == 5
    assert not legal(s, "attack") and not legal(s, "move")


def test_full_of_resources_akane_regains_ki_dice():
    # rules: Harakiri, "Akane", Full of resources: "1-2 regain 2 Ki dice; 3-4 regain 3 Ki dice; 5-6
    # regain 4 Ki dice. Your Ki dice can never exceed the maximum of your current level."
    s = turn("akane", {"akane": {"level": 5, "skills": ["my_loyal_friend", "full_of_resources_akane"],
                                 "ki": {"supply": [], "slots": {"full_of_resources_akane": 5}, "exhausted": 4}}},
             forced=[1, 2, 3, 4])
    s.when(0, "end_activation")
    assert s.state["characters"]["akane"]["ki"] == {"supply": [1, 2, 3, 4],
                                                    "slots": {"full_of_resources_akane": 5}, "exhausted": 0}


# -- Byakuei ------------------------------------------------------------------------------------------------


def test_additional_help_adds_damage_by_extra_arms():
    # rules: Harakiri, "Byakuei", Additional Help: "1-3 you have 1 extra arm and add +1 damage; 4-6
    # you have 2 extra arms and add +2 damage"
    s = turn("byakuei", {"byakuei": {"sq": "2,2", "ki": ki(additional_help=4)}}, {"k": kappa("4,2")},
             forced=[6, 3])
    s.when(0, "attack", target="k", mode="fast")
    assert s.state["enemies"]["k"]["health"] == 5 - (2 - 1 + 2)


def test_necessary_sacrifice_trades_a_condition_for_shared_health():
    # rules: Harakiri, "Byakuei", Necessary Sacrifice: "You gain 1 random negative condition. Then,
    # roll a die. Regain that amount of health, which you can distribute among yourself and your
    # allies up to range 2."
    s = turn("byakuei", {"byakuei": {"sq": "2,2", "level": 2, "skills": ["additional_help", "necessary_sacrifice"],
                                     "ki": ki(necessary_sacrifice=2), "health": 5},
                         "akane": {"sq": "3,2", "health": 5}}, forced=[2, 4])
    s.when(0, "technique", skill="necessary_sacrifice")
    assert s.state["characters"]["byakuei"]["conditions"]["poisoned"] == 1  # die 2: poisoned
    assert s.state["pending"]["kind"] == "necessary_sacrifice"
    choose(s, {"health": {"byakuei": 1, "akane": 3}})
    assert s.state["characters"]["byakuei"]["health"] == 6 and s.state["characters"]["akane"]["health"] == 8


def test_good_for_both_heals_and_cleanses_an_ally_on_a_defeat():
    # rules: Harakiri, "Byakuei", Good for both: "If you defeat your target, you gain 1 health and
    # one ally up to range 2 can discard all their negative conditions."
    s = turn("byakuei", {"byakuei": {"sq": "2,2", "level": 2, "skills": ["additional_help", "good_for_both"],
                                     "ki": ki(good_for_both=2), "health": 5},
                         "hanako": {"sq": "2,4", "conditions": {"bleeding": 2, "downed": 1}}},
             {"k": kappa("3,2", health=1)}, forced=[6, 3])
    s.when(0, "attack", target="k", mode="fast", skill="good_for_both")
    assert s.state["characters"]["byakuei"]["health"] == 6
    choose(s, {"ally": "hanako"})
    assert s.state["characters"]["hanako"]["conditions"] == {"bleeding": 0, "poisoned": 0, "blinded": 0,
                                                             "downed": 0, "blessed": 0}


def test_ill_change_it_transfers_conditions_to_an_enemy():
    # rules: Harakiri, "Byakuei", I'll change it: "Discard negative conditions from yourself or an
    # ally up to range 2 and provoke them on an enemy up to range 2 ...: 4-5 transfer 1 condition;
    # 6 transfer 2 conditions."
    chars = {"byakuei": {"sq": "2,2", "level": 3, "skills": ["additional_help", "ill_change_it"],
                         "ki": ki(ill_change_it=6)},
             "hanako": {"sq": "2,3", "conditions": {"bleeding": 2, "poisoned": 1}}}
    s = turn("byakuei", chars, {"k": kappa("4,2")})
    s.when(0, "technique", skill="ill_change_it", source="hanako", target="k", conditions=["bleeding", "poisoned"])
    assert s.state["characters"]["hanako"]["conditions"]["bleeding"] == 0
    assert s.state["characters"]["hanako"]["conditions"]["poisoned"] == 0
    assert s.state["enemies"]["k"]["conditions"]["bleeding"] == 1
    assert s.state["enemies"]["k"]["conditions"]["poisoned"] == 1
    low = turn("byakuei", {**chars, "byakuei": {**chars["byakuei"], "ki": ki(ill_change_it=5)}}, {"k": kappa("4,2")})
    assert all(len(a["conditions"]) == 1 for a in legal(low, "technique") if a["skill"] == "ill_change_it")
    none = turn("byakuei", {**chars, "byakuei": {**chars["byakuei"], "ki": ki(ill_change_it=3)}}, {"k": kappa("4,2")})
    assert not [a for a in legal(none, "technique") if a["skill"] == "ill_change_it"]


def test_more_additional_help_protects_by_extra_arm():
    # rules: Harakiri, "Byakuei", More Additional Help: "each extra arm obtained by the "Additional
    # Help" skill grants you +1 health and +1 defense to each attack" (read: per arm, +1 defense
    # and 1 damage less from each attack)
    chars = {"byakuei": {"sq": "0,0", "level": 3, "skills": ["additional_help", "more_additional_help"],
                         "ki": ki(additional_help=3, more_additional_help=3), "armor": 0}}
    s = scenario(doc2(chars, {"k": kappa("1,0")}, activate="color:red", oracle={"color": "green"},
                      forced=[1, 6, 6, 3]))
    assert rules.char_defense(s.state, "byakuei") == 1
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # 4 hits - defense 1 - armor 0 = 3, one arm soaks 1
    assert s.state["characters"]["byakuei"]["health"] == 10 - 2


def test_powered_hit_adds_damage_per_extra_arm():
    # rules: Harakiri, "Byakuei", Powered Hit: "When attacking, add 1 damage for each extra arm you
    # have active."
    s = turn("byakuei", {"byakuei": {"sq": "2,2", "level": 4, "skills": ["additional_help", "powered_hit"],
                                     "ki": ki(additional_help=5, powered_hit=3)}},
             {"k": kappa("3,2", health=9)}, forced=[6, 3])
    s.when(0, "attack", target="k", mode="fast", skill="powered_hit")
    assert s.state["enemies"]["k"]["health"] == 9 - (2 - 1 + 2 + 2)


def test_come_together_swaps_two_cards_not_yet_activated():
    # rules: Harakiri, "Byakuei", Come together: "Swap 2 initiative cards (allies or enemies) from the
    # initiative queue who have not yet been activated. Your current activation card cannot be
    # included in the effect."
    queue = ["char:akane", "char:byakuei", "color:red", "char:hanako", "char:takashi"]
    s = turn("byakuei", {"byakuei": {"level": 4, "skills": ["additional_help", "come_together"],
                                     "ki": ki(come_together=3)}}, {"k": kappa("5,5")}, queue=queue)
    swaps = [a["swap"] for a in legal(s, "technique") if a["skill"] == "come_together"]
    assert all("char:akane" not in p and "char:byakuei" not in p for p in swaps)
    s.when(0, "technique", skill="come_together", swap=["color:red", "char:takashi"])
    assert s.state["initiative"]["queue"] == ["char:akane", "char:byakuei", "char:takashi", "char:hanako",
                                              "color:red"]


def test_come_here_pulls_the_enemy_and_ignores_its_defense():
    # rules: Harakiri, "Byakuei", Come here: "You can only use fast attacks for this attack. Place an
    # enemy that is up to range 3 away from you next to you. Add power to your damage and ignore the
    # enemy's defense; their armor will be taken into account."
    s = turn("byakuei", {"byakuei": {"sq": "2,2", "level": 5, "skills": ["additional_help", "come_here"],
                                     "ki": ki(come_here=4), "attrs": {"power": 1}}},
             {"k": kappa("5,2"), "far": kappa("9,2", color="blue")}, forced=[6, 3])
    opts = [a for a in legal(s, "attack") if a["skill"] == "come_here"]
    assert {a["mode"] for a in opts} == {"fast"} and {a["target"] for a in opts} == {"k"}
    s.when(0, "attack", target="k", mode="fast", focus=False, skill="come_here", to="3,2")
    assert s.state["enemies"]["k"]["sq"] == "3,2"
    assert s.state["enemies"]["k"]["health"] == 5 - (2 + 1 + 1)  # orange 2 + power 1, no defense, + power


def test_hits_rain_attacks_once_per_extra_arm_outside_the_attack_action():
    # rules: Harakiri, "Byakuei", Hits Rain: "Spend 2 action points. You can perform 1 attack for each
    # extra arm you have active ... The attacks can have 2 different targets. This is not considered
    # an attack action"
    s = turn("byakuei", {"byakuei": {"sq": "2,2", "level": 5, "skills": ["additional_help", "hits_rain"],
                                     "ki": ki(additional_help=5, hits_rain=4)}},
             {"a": kappa("3,2"), "b": kappa("2,3", color="blue")}, forced=[6, 3, 6, 3])
    assert not [a for a in legal(s, "technique") if a["skill"] == "hits_rain" and len(a["targets"]) > 2]
    s.when(0, "technique", skill="hits_rain", targets=["a", "b"], focus=False)
    assert s.state["enemies"]["a"]["health"] == 2 and s.state["enemies"]["b"]["health"] == 2  # 2 - 1 + 2
    assert s.state["characters"]["byakuei"]["ap"] == 2 and legal(s, "attack")
    one_arm = turn("byakuei", {"byakuei": {"sq": "2,2", "level": 5, "skills": ["additional_help", "hits_rain"],
                                           "ki": ki(additional_help=2, hits_rain=4)}}, {"a": kappa("3,2")})
    assert all(len(a["targets"]) == 1 for a in legal(one_arm, "technique") if a["skill"] == "hits_rain")


# -- Hanako ---------------------------------------------------------------------------------------------------


def test_nemesis_marks_an_enemy_and_aggregates_effects():
    # rules: Harakiri, "Hanako", Nemesis: "1-2 +1 damage to your attack; 3-4 additionally, you can
    # reroll a die other than the test die; 5-6 additionally, provoke a negative condition of your
    # choice. If you reactivate this skill, you can change the marker"
    s = turn("hanako", {"hanako": {"sq": "2,2", "ki": {"supply": [5], "slots": {}, "exhausted": 0}}},
             {"k": kappa("3,2"), "o": kappa("1,2", color="blue")}, forced=[2, 3, 3, 6])
    s.when(0, "place_ki", die=0, skill="nemesis")
    assert {a["target"] for a in legal(s, "nemesis")} == {"k", "o"}
    s.when(0, "nemesis", target="k")
    assert legal(s, "nemesis") == []  # moved again only when reactivated
    s.when(0, "attack", target="k", mode="fast")
    assert {"die": 0, "with": "nemesis"} in [c["args"] for c in s.legal(0) if c["type"] == "reroll_die"]
    assert {"die": 2, "with": "nemesis"} not in [c["args"] for c in s.legal(0) if c["type"] == "reroll_die"]
    s.when(0, "reroll_die", die=0, **{"with": "nemesis"})  # green 1 -> 2
    assert s.state["enemies"]["k"]["health"] == 5 - (2 + 1 + 1 - 1 + 1)
    choose(s, {"condition": "downed"})
    assert s.state["enemies"]["k"]["conditions"]["downed"] == 1


def test_voracious_blade_against_an_enemy_that_has_not_activated():
    # rules: Harakiri, "Hanako", Voracious Blade: "as long as the enemy has not yet activated this
    # round. With 3-4, add +1 damage; with 5-6, add +2 damage."
    chars = {"hanako": {"sq": "2,2", "level": 2, "skills": ["nemesis", "voracious_blade"],
                        "ki": ki(voracious_blade=5)}}
    s = turn("hanako", chars, {"k": kappa("3,2"), "o": kappa("1,2", color="blue")},
             queue=["color:blue", "char:hanako", "color:red"], forced=[2, 3, 3])
    s.when(0, "attack", target="k", mode="fast")
    assert s.state["enemies"]["k"]["health"] == 5 - (1 + 1 + 1 - 1 + 2)
    s2 = turn("hanako", chars, {"k": kappa("3,2"), "o": kappa("1,2", color="blue")},
              queue=["color:blue", "char:hanako", "color:red"], forced=[2, 3, 3])
    s2.when(0, "attack", target="o", mode="fast")  # blue already activated
    assert s2.state["enemies"]["o"]["health"] == 5 - 2


def test_deadly_rolls_the_test_die_twice_and_keeps_the_better():
    # rules: Harakiri, "Hanako", Deadly: "Perform an attack rolling the test die twice and choosing
    # the best result between the two."
    s = turn("hanako", {"hanako": {"sq": "2,2", "level": 2, "skills": ["nemesis", "deadly"], "ki": ki(deadly=2)}},
             {"k": kappa("3,2")}, forced=[2, 3, 1, 6])
    s.when(0, "attack", target="k", mode="fast", skill="deadly")
    assert s.state["enemies"]["k"]["health"] == 5 - 3  # the critical is kept: defense ignored


def test_blood_thirsty_two_attacks_for_three_action_points():
    # rules: Harakiri, "Hanako", Blood Thirsty: "Spend 3 action points to perform 2 attacks against
    # the same enemy or different enemies."
    s = turn("hanako", {"hanako": {"sq": "2,2", "level": 3, "skills": ["nemesis", "blood_thirsty"],
                                   "ki": ki(blood_thirsty=3)}},
             {"a": kappa("3,2"), "b": kappa("1,2", color="blue")}, forced=[2, 3, 3, 2, 3, 3])
    s.when(0, "technique", skill="blood_thirsty", targets=["a", "b"], focus=False)
    assert s.state["enemies"]["a"]["health"] == 3 and s.state["enemies"]["b"]["health"] == 3
    assert s.state["characters"]["hanako"]["ap"] == 1 and not legal(s, "attack")
    tired = turn("hanako", {"hanako": {"sq": "2,2", "level": 3, "skills": ["nemesis", "blood_thirsty"],
                                       "ki": ki(blood_thirsty=3), "ap": 0, "conditions": {"downed": 1}}},
                   {"a": kappa("3,2")})  # downed: 2 action points this activation
    assert not [a for a in legal(tired, "technique") if a["skill"] == "blood_thirsty"]


def test_craft_improvement_adds_damage_to_items():
    # rules: Harakiri, "Hanako", Craft Improvement: "your items that deal damage will add extra
    # damage based on the value of the Ki die ...: 3-4 add +2 damage; 5-6 add +3 damage."
    s = turn("hanako", {"hanako": {"sq": "2,2", "level": 3, "skills": ["nemesis", "craft_improvement"],
                                   "ki": ki(craft_improvement=5), "items": [{"id": "fire_powder", "uses": None}]}},
             {"k": kappa("4,2", health=9)})
    s.when(0, "use_item", slot=0, target="k")
    assert s.state["enemies"]["k"]["health"] == 9 - (2 + 3)


def test_smell_the_blood_adds_damage_per_condition_of_the_target():
    # rules: Harakiri, "Hanako", Smell the blood: "Add 1 damage to your next attack for each negative
    # condition your target has."
    s = turn("hanako", {"hanako": {"sq": "2,2", "level": 4, "skills": ["nemesis", "smell_the_blood"],
                                   "ki": ki(smell_the_blood=3)}},
             {"k": kappa("3,2", health=9, conditions={"bleeding": 1, "poisoned": 1})}, forced=[2, 3, 3])
    s.when(0, "attack", target="k", mode="fast", skill="smell_the_blood")
    assert s.state["enemies"]["k"]["health"] == 9 - (2 + 1 - 1 + 2)


def test_cautious_gains_temporary_armor_at_the_end_of_the_turn():
    # rules: Harakiri, "Hanako", Cautious: "at the end of your turn, gain armor ...: 2-4 +1 armor;
    # 5-6 +2 armor. Use +1 tokens ...; these are discarded at the end of the round."
    s = turn("hanako", {"hanako": {"level": 4, "skills": ["nemesis", "cautious"], "ki": ki(cautious=5)}},
             queue=["char:hanako"])
    s.when(0, "end_activation")
    run_system(s)
    assert s.state["round"] == 2 and s.state["characters"]["hanako"]["armor_bonus"] == 0
    s2 = turn("hanako", {"hanako": {"level": 4, "skills": ["nemesis", "cautious"], "ki": ki(cautious=5)}},
              {"k": kappa("5,5")})
    s2.when(0, "end_activation")
    assert s2.state["characters"]["hanako"]["armor_bonus"] == 2
    assert rules.char_armor(s2.state, "hanako") == 4


def test_you_and_me_makes_attacks_on_the_nemesis_cheaper():
    # rules: Harakiri, "Hanako", You and Me: "your attacks against the enemy marked with Nemesis cost
    # 1 action point less, with 0 being the minimum."
    s = turn("hanako", {"hanako": {"sq": "2,2", "level": 5, "skills": ["nemesis", "you_and_me"], "ap": 0,
                                   "conditions": {"downed": 1}, "ki": ki(nemesis=1, you_and_me=4), "nemesis": "k",
                                   "weapons": ["ronin_katana", "ronin_tanto"], "equipped": "ronin_katana"}},
             {"k": kappa("3,2"), "o": kappa("1,2", color="blue")}, forced=[2, 3, 3])
    s.when(0, "meditate")  # the 2 action points of a downed activation are spent
    s.when(0, "swap_weapon")
    assert {a["target"] for a in legal(s, "attack")} == {"k"}
    s.when(0, "attack", target="k", mode="fast")
    s.when(0, "resolve_attack")  # the meditation reroll is not used
    assert s.state["characters"]["hanako"]["ap"] == 0
    assert s.state["enemies"]["k"]["health"] == 5 - (2 + 1 - 1 + 1)


def test_duel_to_death_rewards_defeating_the_nemesis():
    # rules: Harakiri, "Hanako", Duel to Death: "If you defeat the enemy marked with Nemesis with
    # this attack, you regain 4 health, gain 1 karma, and can transfer all your negative conditions to
    # 1 target (enemy or ally) up to range 3."
    s = turn("hanako", {"hanako": {"sq": "2,2", "level": 5, "skills": ["nemesis", "duel_to_death"], "health": 3,
                                   "ki": ki(duel_to_death=4), "nemesis": "k",
                                   "conditions": {"bleeding": 1, "poisoned": 1}}},
             {"k": kappa("3,2", health=1), "o": kappa("4,4", color="blue")}, forced=[6, 6, 3])
    s.when(0, "attack", target="k", mode="fast", skill="duel_to_death")
    hanako = s.state["characters"]["hanako"]
    assert hanako["health"] == 3 - 1 + 4 and hanako["karma"] == 1  # bleeding at the start of the turn
    choose(s, {"target": "o"})
    assert s.state["characters"]["hanako"]["conditions"]["bleeding"] == 0
    assert s.state["enemies"]["o"]["conditions"]["bleeding"] == 1
    assert s.state["enemies"]["o"]["conditions"]["poisoned"] == 1


# -- Takashi ---------------------------------------------------------------------------------------------------


def test_intimidation_imposes_the_tiebreaker_on_every_enemy():
    # rules: Harakiri, "Takashi", Intimidation: "you may choose at the start of the round the
    # tiebreaker condition that all enemies must apply. The condition replaces any they may have and
    # can be (+/-) health or (+/-) defense."
    chars = {"takashi": {"sq": "0,0", "ki": ki(intimidation=1)},
             "hanako": {"sq": "4,1"}, "byakuei": {"sq": "6,1"}}  # defense 1 (9 health) / 0 (10 health)
    s = scenario(doc2(chars, {"k": kappa("5,1")}, initiative=["color:red"]))
    s.when(SYSTEM, "draw_oracle")
    assert s.state["pending"]["kind"] == "intimidation"
    choose(s, {"priority": "+defense"})
    while s.state["pending"]:
        s.when(0, "choose", option=0)
    assert s.state["round_effects"][0]["priority"] == "+defense"
    ev = []
    for _ in range(3):
        if ENGINE.status(s.state).awaiting == [SYSTEM]:
            ev += s.when(SYSTEM, ENGINE.system_command(s.state)["type"], **ENGINE.system_command(s.state)["args"])
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "hanako"  # +health would pick Byakuei


def test_inspiration_rewards_takashi_when_an_ally_defeats_an_enemy():
    # rules: Harakiri, "Takashi", Inspiration: "every time an ally up to range 3 defeats an enemy,
    # aggregate effects until the end of the round ...: 3-4 +1 damage; 5-6 additionally +1 damage and
    # +1 defense."
    s = turn("akane", {"akane": {"sq": "2,2"},
                       "takashi": {"sq": "4,2", "level": 2, "skills": ["intimidation", "inspiration"],
                                   "ki": ki(inspiration=5)}},
             {"k": kappa("1,2", health=1)}, forced=[6, 3])
    s.when(0, "attack", target="k", mode="fast")
    assert s.state["characters"]["takashi"]["inspired"] == {"round": 1, "damage": 2, "defense": 1}
    assert rules.char_defense(s.state, "takashi") == 2


def test_upward_cut_adds_a_die_to_a_fast_attack():
    # rules: Harakiri, "Takashi", Upward Cut: "Add 1 die ...: 3-4 fast attack die; 5-6 strong attack
    # die. Can only be a fast attack." (the weapon's first die of that attack: Naginata green / red)
    s = turn("takashi", {"takashi": {"sq": "2,2", "level": 2, "skills": ["intimidation", "upward_cut"],
                                     "ki": ki(upward_cut=5)}}, {"k": kappa("3,2", health=9)}, forced=[2, 3, 6])
    assert {a["mode"] for a in legal(s, "attack") if a["skill"] == "upward_cut"} == {"fast"}
    s.when(0, "attack", target="k", mode="fast", skill="upward_cut")
    assert s.state["enemies"]["k"]["health"] == 9 - (1 + 4 + 1 - 1)


def test_reborn_strength_gives_armor_to_the_others_within_range_3():
    # rules: Harakiri, "Takashi", Reborn Strength: "The other characters, up to range 3, gain 1 armor.
    # A character's armor can never be more than 4."
    s = turn("takashi", {"takashi": {"sq": "2,2", "level": 3, "skills": ["intimidation", "reborn_strength"],
                                     "ki": ki(reborn_strength=3), "armor": 1},
                         "hanako": {"sq": "4,4", "armor": 2}, "akane": {"sq": "2,3", "armor": 4},
                         "byakuei": {"sq": "9,9", "armor": 0}})
    s.when(0, "technique", skill="reborn_strength")
    ch = s.state["characters"]
    assert [ch[c]["armor"] for c in ("hanako", "akane", "byakuei", "takashi")] == [3, 4, 0, 1]


def test_fluid_tactic_adds_damage_by_the_ki_die():
    # rules: Harakiri, "Takashi", Fluid Tactic: "4-5 if the oracle is red, gain 2+ damage, if it is
    # green, add 2+ damage; 6 ... +3 damage" (both colours read as the same bonus)
    s = turn("takashi", {"takashi": {"sq": "2,2", "level": 3, "skills": ["intimidation", "fluid_tactic"],
                                     "ki": ki(fluid_tactic=6)}}, {"k": kappa("3,2")}, forced=[2, 3],
             oracle={"color": "red"})
    s.when(0, "attack", target="k", mode="fast")
    assert s.state["enemies"]["k"]["health"] == 5 - (1 + 1 - 1 + 3)


def test_team_hit_counts_allies_and_yastun_lad_within_range_2():
    # rules: Harakiri, "Takashi", Team Hit: "Add +1 damage for each ally (not just characters) that is
    # up to range 2. Remember that Yastun Lad and allied Wanderers are considered allies."
    s = turn("takashi", {"takashi": {"sq": "2,2", "level": 4, "skills": ["intimidation", "team_hit"],
                                     "ki": ki(team_hit=3)},
                         "akane": {"sq": "1,1", "ki": ki(my_loyal_friend=1), "lad": {"sq": "3,1", "on": None}},
                         "hanako": {"sq": "2,4"}, "byakuei": {"sq": "9,9"}},
             {"k": kappa("3,2", health=9)}, forced=[2, 3])
    s.when(0, "attack", target="k", mode="fast", skill="team_hit")
    assert s.state["enemies"]["k"]["health"] == 9 - (1 + 1 - 1 + 3)  # Akane, Hanako, Yastun Lad


def test_tactical_retreat_moves_an_ally_3_squares():
    # rules: Harakiri, "Takashi", Tactical Retreat: "An ally up to range 5 can move 3 squares. This is
    # not a movement action"
    s = turn("takashi", {"takashi": {"sq": "2,2", "level": 4, "skills": ["intimidation", "tactical_retreat"],
                                     "ki": ki(tactical_retreat=3)}, "hanako": {"sq": "6,2"}})
    opts = [a for a in legal(s, "technique") if a["skill"] == "tactical_retreat"]
    assert {a["ally"] for a in opts} == {"hanako"}  # the others are beyond range 5
    assert {"skill": "tactical_retreat", "ally": "hanako", "to": "9,2"} in opts
    assert {"skill": "tactical_retreat", "ally": "hanako", "to": "6,6"} not in opts
    s.when(0, "technique", skill="tactical_retreat", ally="hanako", to="9,2")
    assert s.state["characters"]["hanako"]["sq"] == "9,2" and legal(s, "move")


def test_the_last_word_counts_creatures_activated_before():
    # rules: Harakiri, "Takashi", The Last Word: "Add +1 damage for each creature (both ally and
    # enemy) that has activated before your turn."
    s = turn("takashi", {"takashi": {"sq": "2,2", "level": 5, "skills": ["intimidation", "the_last_word"],
                                     "ki": ki(the_last_word=4)}},
             {"k": kappa("3,2"), "b1": kappa("8,8", color="blue"), "b2": kappa("8,6", color="blue")},
             queue=["char:akane", "color:blue", "char:takashi", "color:red"], forced=[2, 3])
    s.when(0, "attack", target="k", mode="fast", skill="the_last_word")
    assert s.state["enemies"]["k"]["health"] == 5 - (1 + 1 - 1 + 3)  # Akane and two blue kappas


def test_new_breath_lets_an_activated_ally_activate_again():
    # rules: Harakiri, "Takashi", New Breath: "An ally that has already activated gains 1 Ki die and
    # may activate again after you. Additionally, it can attack and move as usual"
    s = turn("takashi", {"takashi": {"level": 5, "skills": ["intimidation", "new_breath"], "ki": ki(new_breath=4)},
                         "akane": {"ki": {"supply": [], "slots": {}, "exhausted": 1}, "ap": 1}},
             {"k": kappa("5,5")}, queue=["char:akane", "char:takashi", "color:red"], forced=[4])
    assert [a["ally"] for a in legal(s, "technique") if a["skill"] == "new_breath"] == ["akane"]
    s.when(0, "technique", skill="new_breath", ally="akane")
    assert s.state["characters"]["akane"]["ki"]["supply"] == [4]
    assert s.state["initiative"]["queue"] == ["char:akane", "char:takashi", "char:akane", "color:red"]
    s.when(0, "end_activation")
    assert s.state["turn"]["who"] == "akane" and s.state["characters"]["akane"]["ap"] == 4
    assert legal(s, "move")
