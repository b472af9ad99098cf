"""Rulebook passages of the Exploration Phase that had no scenario test of their own (the coverage
audit, docs/games/harakiri.md "Rules decisions"): each test cites the passage it checks, as
given / when / then."""

import pytest

from games.engines.harakiri import ENGINE, act2_values, content, rules
from games.kernel import SYSTEM
from games.kernel.errors import RuleViolation

from .helpers import arena, doc, find, open_rows, scenario


def _turn(who, characters, enemies=None, **kw):
    chars = {who: {"ap": 4}}
    for c, spec in characters.items():
        chars[c] = {**chars.get(c, {}), **spec}
    return scenario(doc(arena(open_rows(), **kw.pop("arena", {})), chars, enemies, activate=f"char:{who}", **kw))


# rules: Harakiri, "Golden Rules": "As a general rule, and especially when revealing exploration event
# effects, the "Enemy" tag is applied to the creatures the characters fight against, including Minions,
# Servants, Chosens and Wanderers (if that is the case)"
def test_an_event_on_enemies_strikes_minions_and_hostile_wanderers_but_not_allied_ones():
    # given a zone whose green event deals 1 damage to the enemies, with a kachi, a hostile Daimyō
    # and an allied Daimyō in it
    events = {"green": [{"id": "g1", "name": "Rockfall", "effects": [{"type": "damage", "who": "enemies",
                                                                        "amount": 1}]}], "red": []}
    enemies = {"kachi": {"type": "kachi", "color": "red", "at": "0,0"},
               "foe_lord": {"kind": "wanderer", "type": "daimyo", "at": "5,0"},
               "ally_lord": {"kind": "wanderer", "type": "daimyo", "at": "7,0", "allied": True}}
    s = scenario(doc(arena(open_rows(), events=events), {}, enemies, oracle={"deck": ["oracle_g1"]}))
    before = {e: en["health"] for e, en in s.state["enemies"].items()}
    chars_before = {c: ch["health"] for c, ch in s.state["characters"].items()}
    # when the round's oracle card is drawn and the event resolved
    s.when(SYSTEM, "draw_oracle")
    # then the kachi and the hostile wanderer take the damage; the allied wanderer and the characters do not
    after = {e: en["health"] for e, en in s.state["enemies"].items()}
    assert after["kachi"] == before["kachi"] - 1 and after["foe_lord"] == before["foe_lord"] - 1
    assert after["ally_lord"] == before["ally_lord"]
    assert {c: ch["health"] for c, ch in s.state["characters"].items()} == chars_before


# rules: Harakiri, "Resistors": "If a Resistor has no resistance tokens from the start, it cannot be
# targeted by enemies."
def test_a_resistor_without_resistance_tokens_is_not_an_enemy_target():
    # given a kachi whose line (green, a 1: the healthiest adjacent) could strike a villager without
    # resistance tokens or Tomoe, both adjacent
    chars = {"tomoe": {"sq": "1,0"}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                     resistors={"villager": {"at": "0,1", "tokens": 0}},
                     activate="color:red", oracle={"color": "green"}, forced=[1]))
    # when the kachi activates
    ev = s.when(SYSTEM, "activate_enemy", enemy="kachi")
    # then it attacks Tomoe, never the villager, who stays on the table
    assert find(ev, "EnemyLineChosen")[0]["target"] == "tomoe"
    assert "villager" in s.state["resistors"]


# rules: Harakiri, "Ending the Exploration Phase": "When the Exploration Phase ends, discard all condition
# tokens, both positive and negative, and the meditation tokens"; "Victory": "Before continuing on to
# the next chapter, all characters regain all their Ki dice. Current health value remains the same for
# the upcoming chapter."
def test_a_victory_discards_conditions_and_meditation_regains_ki_dice_and_keeps_health():
    # given Akira, wounded, poisoned, blessed, with a meditation token and an exhausted Ki die, next
    # to the altar whose interaction wins the phase
    scen = arena(open_rows(), points=[{"id": "altar", "at": "3,2", "action": {"type": "objective"}}],
                 objective={"type": "interact", "text": "Reach the altar"})
    akira = {"sq": "2,2", "ap": 4, "health": 5, "meditation": 1,
             "conditions": {"bleeding": 0, "poisoned": 2, "blinded": 0, "downed": 0, "blessed": 1},
             "ki": {"supply": [], "slots": {}, "exhausted": 1}}
    s = scenario(doc(scen, {"akira": akira}, activate="char:akira"))
    # when he interacts with the altar
    s.when(0, "interact", point="altar")
    # then the phase is won, his tokens are gone, his Ki die is back and his health unchanged
    ch = s.state["characters"]["akira"]
    assert s.state["result"] == "victory"
    assert set(ch["conditions"].values()) == {0} and ch["meditation"] == 0
    assert len(ch["ki"]["supply"]) == ch["level"] and ch["ki"]["exhausted"] == 0
    assert ch["health"] == 5


# rules: Harakiri, "Attack": "If the active character's equipped weapon has neither a fast nor a strong
# attack, you may not choose that option."
def test_a_weapon_without_a_strong_attack_offers_only_the_fast_one():
    # given Akira with the Tanto (a fast attack, no strong one) next to a kachi
    s = _turn("akira", {"akira": {"sq": "2,2", "weapons": ["ronin_tanto"], "equipped": "ronin_tanto"}},
              {"kachi": {"type": "kachi", "color": "red", "at": "3,2"}})
    # then only fast attacks are offered, and a strong one is refused
    modes = {c["args"]["mode"] for c in s.legal(0) if c["type"] == "attack"}
    assert modes == {"fast"}
    with pytest.raises(RuleViolation):
        s.when(0, "attack", target="kachi", mode="strong", focus=False, skill=None)


# rules: Harakiri, "Attack": "Each attack action can only be modified by one attack skill"; "Appendix:
# Kami Skills": "if one Kami skill is used, the character cannot use their own, and vice versa"
def test_an_attack_takes_one_attack_skill_and_after_it_no_other_is_offered():
    # given Akira with Stab ready and Hachiman's level 3+ skill (affinity 3) next to a kachi
    s = _turn("akira", {"akira": {"sq": "2,2", "level": 2, "skills": ["sixth_sense", "stab"], "kami": "hachiman",
                                  "affinity": 3, "ki": {"supply": [], "slots": {"stab": 4}, "exhausted": 0}}},
              {"kachi": {"type": "kachi", "color": "red", "at": "3,2", "health": 20}}, forced=[1, 1, 1])
    attacks = [c["args"] for c in s.legal(0) if c["type"] == "attack"]
    # then every offered attack names at most one skill
    assert {a["skill"] for a in attacks} >= {None, "stab"}
    assert all(a["skill"] is None or isinstance(a["skill"], str) for a in attacks)
    # when he attacks with Stab, then no attack (with his own skill or a Kami one) is offered again
    s.when(0, "attack", target="kachi", mode="fast", focus=False, skill="stab")
    assert not any(c["type"] == "attack" for c in s.legal(0))


# rules: Harakiri, "Activate Kami Mode Ability": "the active character's current health is less than half
# of their maximum health value (rounded down); the active character has a Kami affinity of 6"
@pytest.mark.parametrize("health, affinity, offered", [(5, 6, False), (4, 6, True), (4, 5, False)])
def test_kami_mode_needs_health_below_half_the_maximum_rounded_down_and_affinity_6(health, affinity, offered):
    # given Akira (maximum health 11: half rounded down is 5) with Dosojin
    s = _turn("akira", {"akira": {"kami": "dosojin", "affinity": affinity, "health": health}})
    # then Kami Mode is offered only below 5 health and at affinity 6
    assert any(c["type"] == "kami_mode" for c in s.legal(0)) is offered


# rules: Harakiri, "Conditions": "When removing a negative condition, remove all tokens of that type."
def test_removing_bleeding_removes_every_bleeding_token():
    # given Akira bleeding twice (one token already dealt its damage at the start of his activation)
    chars = {"akira": {"sq": "2,2", "health": 9, "items": [{"id": "bandages", "uses": 2}],
                       "conditions": {"bleeding": 2, "poisoned": 0, "blinded": 0, "downed": 0, "blessed": 0}}}
    s = _turn("akira", chars)
    assert s.state["characters"]["akira"]["conditions"]["bleeding"] == 2
    # when he uses the bandages, which remove bleeding
    s.when(0, "use_item", slot=0)
    # then both bleeding tokens are gone
    assert s.state["characters"]["akira"]["conditions"]["bleeding"] == 0


# rules: Harakiri, "2. Determining the Initiative": "If more than one event modifies the Initiative, apply it
# from left to right if the effect advances the Initiative, and from right to left when the effect delays
# the Initiative."
def test_an_event_delaying_the_characters_moves_their_cards_from_right_to_left():
    # given a red event delaying every character's initiative card by 1, and the cards shuffled into
    # Hattori, Akira, minions (red), Tomoe, Hikaru
    events = {"green": [], "red": [{"id": "r1", "name": "Fog", "effects": [{"type": "initiative",
                                                                              "who": "characters", "delay": 1}]}]}
    s = scenario(doc(arena(open_rows(), events=events), {}, {"m": {"type": "kachi", "color": "red", "at": "8,0"}},
                     oracle={"deck": ["oracle_r1"]},
                     initiative=["char:hattori", "char:akira", "color:red", "char:tomoe", "char:hikaru"]))
    # when the round starts
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=0)  # no characters' swap
    # then, from the right: Hikaru (last) cannot move, Tomoe passes behind him, Akira and then Hattori
    # each move back one, so the minions activate first (from the left, each delayed card would only
    # undo the move of the one before it, and the order would not change)
    assert s.state["initiative"]["queue"] == ["color:red", "char:hattori", "char:akira", "char:hikaru", "char:tomoe"]


# rules: Harakiri, "Damage and Yin-Yang Effects": "If you rolled both a success symbol and a fail symbol on
# your attack dice, and the equipped weapon has a yin-yang icon effect, you may resolve it, even if the roll
# does not cause any hits, unless the effect provokes a condition"
def test_a_yin_yang_armor_break_applies_even_when_the_attack_deals_no_damage():
    # given Hikaru (power 0) with the Bo, whose yin-yang effect breaks armor, next to a kachi (defense 1,
    # armor 1); strong attack: green fail (0), orange success (1), test die hit
    s = _turn("hikaru", {"hikaru": {"sq": "2,2"}}, {"foe": {"type": "kachi", "color": "red", "at": "3,2"}},
              forced=[1, 5, 3])
    assert s.state["characters"]["hikaru"]["equipped"] == "monk_bo"
    # when he attacks
    ev = s.when(0, "attack", target="foe", mode="strong", focus=False, skill=None)
    # then no damage is dealt, yet the yin-yang effect puts a -1 armor token on the kachi
    assert find(ev, "AttackResolved")[0]["damage"] == {"foe": 0}
    assert s.state["enemies"]["foe"]["armor_tokens"] == 1


# rules: Harakiri, "Damage" (enemy attacks): "if you rolled the test die and it's showing a fail or critical
# success, move the cube on the target's armor track down by 1 after the attack has been resolved. If the
# target was a Wanderer allied with the characters, add one -1 armor token to its board."
def test_an_enemys_failed_test_die_puts_a_minus_1_armor_token_on_an_allied_wanderer():
    # given a kachi next to the allied Daimyō (armor 1), its priority target; green, a 1: line 1; its
    # attack dice green, orange and the test die showing a fail
    enemies = {"kachi": {"type": "kachi", "color": "red", "at": "0,0"},
               "daimyo": {"kind": "wanderer", "type": "daimyo", "at": "0,1", "allied": True}}
    s = scenario(doc(arena(open_rows()), {}, enemies, activate="color:red", oracle={"color": "green"},
                     forced=[1, 2, 2, 1]))
    # when the kachi activates
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    # then the attack fails and the Daimyō's board takes a -1 armor token
    daimyo = s.state["enemies"]["daimyo"]
    assert daimyo["health"] == 10 and daimyo["armor_tokens"] == 1


# rules: Harakiri, "Golden Rules": "If an effect forces a character to lose a resource of which they do not
# have enough (like coins, karma, armor or others), the character loses the amount they have available"
def test_a_character_without_armor_left_loses_no_more_armor():
    # given Tomoe, her armor track at 0, next to a kachi whose attack (green, a 1: line 1) rolls a fail
    # on the test die
    chars = {"tomoe": {"sq": "1,0", "armor": 0}}
    s = scenario(doc(arena(open_rows()), chars, {"kachi": {"type": "kachi", "color": "red", "at": "0,0"}},
                 activate="color:red", oracle={"color": "green"}, forced=[1, 2, 2, 1]))
    # when the kachi activates
    s.when(SYSTEM, "activate_enemy", enemy="kachi")
    # then her armor stays at 0 (she loses what she has: nothing)
    assert s.state["characters"]["tomoe"]["armor"] == 0


# rules: Harakiri, "Minions": "When a zone setup instructs you to use the "+" upgraded version, any Minion of
# that type played later in the current chapter will use the upgraded version as well."
def test_a_kachi_spawned_after_a_plus_kachi_was_set_up_is_upgraded_too():
    # given a zone set up with a "+" kachi and a red event spawning a (plain) kachi at the green spawn point
    events = {"green": [], "red": [{"id": "r1", "name": "Hatchlings", "effects": [
        {"type": "spawn", "enemy": "kachi", "kind": "minion", "color": "green", "spawn": "green"}]}]}
    scen = arena(open_rows(), events=events, spawns={"green": "5,5"})
    scen["zones"]["arena"]["enemies"] = [{"ref": "big", "kind": "minion", "type": "kachi", "color": "red",
                                          "at": "0,0", "plus": True}]
    s = scenario(doc(scen, clear_enemies=False, oracle={"deck": ["oracle_r1"]}))
    assert s.state["enemies"]["big"]["plus"]
    # when the event spawns the new kachi
    ev = s.when(SYSTEM, "draw_oracle")
    # then it uses the upgraded board as well
    spawned = find(ev, "EnemySpawned")[0]["enemy"]
    assert spawned["type"] == "kachi" and spawned["plus"] and spawned["sq"] == "5,5"


# rules: Harakiri, "Interact": "Spend 1 action point to interact with an interaction point in the current or
# adjacent square"; "Opened door (green) tokens cannot be interacted with."
def test_interaction_points_are_reached_from_an_adjacent_square_and_an_open_door_is_done_with():
    # given Hikaru on 2,2, a closed door on 4,2 and an interaction point on 5,5
    rows = open_rows()
    rows[2] = "....D" + rows[2][5:]
    scen = arena(rows, doors=[{"id": "d", "at": "4,2"}],
                 points=[{"id": "p", "at": "5,5", "action": {"type": "none"}, "text": "A shrine"}])
    s = scenario(doc(scen, {"hikaru": {"sq": "2,2", "ap": 4}}, activate="char:hikaru"))
    interactions = [c["args"] for c in s.legal(0) if c["type"] == "interact"]
    # then neither is in reach from two squares away
    assert {"door": "d"} not in interactions and {"point": "p"} not in interactions
    # when he steps next to the door, then he can open it, and once open it offers nothing more
    s.when(0, "move")
    s.when(0, "step", to="3,2")
    assert {"door": "d"} in [c["args"] for c in s.legal(0) if c["type"] == "interact"]
    s.when(0, "interact", door="d")
    assert {"door": "d"} not in [c["args"] for c in s.legal(0) if c["type"] == "interact"]
    with pytest.raises(RuleViolation):
        s.when(0, "interact", door="d")


# rules: Harakiri, "Character Activation": "Once a character starts an action, they must complete it fully
# before taking another action, except for Interact, Use an item, or any of the following free actions"
def test_no_attack_in_the_middle_of_a_move_but_an_interaction_is_allowed():
    # given Akira moving, next to a kappa and to an interaction point
    scen = arena(open_rows(), points=[{"id": "p", "at": "4,3", "action": {"type": "none"}, "text": "A shrine"}])
    s = scenario(doc(scen, {"akira": {"sq": "2,2", "ap": 4}}, {"foe": {"type": "kappa", "color": "red", "at": "4,2"}},
                     activate="char:akira"))
    s.when(0, "move")
    s.when(0, "step", to="3,2")
    # then he may not attack before the move is over, but he may interact and move on
    assert not any(c["type"] == "attack" for c in s.legal(0))
    s.when(0, "interact", point="p")
    assert s.state["turn"]["moving"]
    s.when(0, "step", to="3,3")
    assert s.state["characters"]["akira"]["sq"] == "3,3"


# rules: Harakiri, "Resolve Events": "Event effects, unless otherwise stated, are only active for the round in
# which they are drawn."
def test_an_events_extra_enemy_movement_ends_with_the_round():
    # given a red event giving the enemies in the zone 1 extra movement, and a kachi (movement 3)
    events = {"green": [], "red": [{"id": "r1", "name": "Bloodlust", "effects": [{"type": "enemy_movement",
                                                                                    "amount": 1}]}]}
    s = scenario(doc(arena(open_rows(), events=events), {}, {"k": {"type": "kachi", "color": "red", "at": "8,0"}},
                     oracle={"deck": ["oracle_r1", "oracle_r2"]}))
    # when the event is drawn, then the kachi moves 4 this round
    s.when(SYSTEM, "draw_oracle")
    assert rules.estat(s.state, "k", "movement") == 4
    # when the round is played out
    for _ in range(40):
        if s.state["round"] == 2:
            break
        if SYSTEM in s.status.awaiting:
            cmd = ENGINE.system_command(s.state)
            s.when(SYSTEM, cmd["type"], **cmd["args"])
        elif s.state["pending"]:
            s.when(0, "choose", option=0)
        else:
            s.when(0, "end_activation")
    # then the next round starts without it
    assert s.state["round"] == 2 and "k" in s.state["enemies"]
    assert rules.estat(s.state, "k", "movement") == 3


# rules: Harakiri, "Negative Conditions": "Downed: downed creatures have -1 defense (minimum 0)."
def test_a_downed_enemy_without_defense_takes_no_extra_damage():
    # given a downed akaname (defense 0, armor 0, health 3) next to Akira (power 0); katana fast: green
    # 1 impact, test die hit
    s = _turn("akira", {"akira": {"sq": "2,2"}},
              {"foe": {"type": "akaname", "color": "red", "at": "3,2", "conditions": {"downed": 1}}}, forced=[2, 3])
    # when he attacks
    s.when(0, "attack", target="foe", mode="fast", focus=False, skill=None)
    # then the damage is the 1 hit: the defense stays at 0, it does not become -1
    assert s.state["enemies"]["foe"]["health"] == 2


# rules: Harakiri, "Meditate": "The maximum amount of meditation tokens a character can have at any given
# moment is 1."
def test_a_character_holding_a_meditation_token_cannot_meditate_again():
    # given Akira with 4 action points, without a meditation token
    s = _turn("akira", {"akira": {"sq": "2,2"}})
    assert any(c["type"] == "meditate" for c in s.legal(0))
    # when he meditates, then he holds 1 token and meditating is offered no more
    s.when(0, "meditate")
    assert s.state["characters"]["akira"]["meditation"] == 1
    assert not any(c["type"] == "meditate" for c in s.legal(0))
    with pytest.raises(RuleViolation):
        s.when(0, "meditate")


# rules: Harakiri, "Failure", step 3: "If any character has acquired a specific token during the Exploration
# Phase, they keep it in their supply."
def test_heads_taken_before_a_failure_stay_in_the_supply():
    # given Akira holding a head and a boss head retrieved in this phase, and the Malice at 5 with no
    # event left in the zone
    s = scenario(doc(arena(open_rows(), events={"green": [], "red": []}), {"akira": {"heads": 1, "boss_heads": 1}},
                     malice=5, oracle={"deck": ["oracle_g1"]}))
    # when the round's missing event raises the Malice to 6 and the failure procedure runs
    s.when(SYSTEM, "draw_oracle")
    while s.state["pending"] and s.state["pending"]["kind"] in ("market", "blacksmith"):
        p = s.state["pending"]
        s.when(p["by"], "choose", option=p["options"].index({"done": True}))
    # then the phase goes on after the failure and Akira still holds both
    assert s.state["failures"] == 1 and not s.status.finished
    akira = s.state["characters"]["akira"]
    assert (akira["heads"], akira["boss_heads"]) == (1, 1)


# rules: Harakiri, "Attributes" (Key Concepts): "Spirit: the character's inner strength. It reduces the
# probability of suffering an attribute loss when resurrecting and allows condition removal." with "Negative
# Conditions", bleeding: "It can only be removed using skills or items" (decision in docs/games/harakiri.md)
def test_a_high_spirit_alone_removes_no_condition():
    # given Hikaru, spirit 3, bleeding and poisoned, at the start of his activation
    chars = {"hikaru": {"sq": "2,2", "health": 8, "attrs": {"spirit": 3},
                        "conditions": {"bleeding": 1, "poisoned": 1, "blinded": 0, "downed": 0, "blessed": 0}}}
    s = _turn("hikaru", chars)
    # then the bleeding has dealt its damage and both conditions stay: spirit is no removal by itself
    hikaru = s.state["characters"]["hikaru"]
    assert hikaru["health"] == 7
    assert hikaru["conditions"]["bleeding"] == 1 and hikaru["conditions"]["poisoned"] == 1
    # when he ends his activation, then they are still there
    s.when(0, "end_activation")
    assert s.state["characters"]["hikaru"]["conditions"]["bleeding"] == 1


# rules: Harakiri, "Resolving Enemy Lines": "Sometimes a line can add another priority icon. If that is the case,
# the priority icon included in the resolved line takes priority over the general one." and "Healing effects on
# the enemy are not considered mandatory to consider a line fully resolved." (decision in docs/games/harakiri.md)
def test_enemy_boards_give_priority_per_line_and_no_line_heals():
    # given every enemy board of the content
    boards = {**content.ENEMIES_DOC["minions"], **content.ENEMIES_DOC["servants"],
              **content.ENEMIES_DOC["wanderers"], **content.ENEMIES_DOC["chosen"]}

    def lines(board):
        for table in ("normal", "aggressive"):
            for entry in board.get(table, []):
                yield from entry["lines"]
        yield from board.get("lines", [])
        for card in board.get("ai_deck", []):
            yield from card["lines"]
            yield from card.get("empowered", {}).get("lines", [])

    # then no board carries a general priority a line would override: each line names its own (or none)
    assert not [k for k, b in boards.items() if "priority" in b]
    every = [ln for b in boards.values() for ln in lines(b)]
    assert every and all(set(ln) <= {"n", "die", "priority", "move", "attack"} for ln in every)
    # and no line or enemy skill heals, so no line waits on a healing target
    assert not [k for k, b in boards.items() for sk in b.get("skills", {}).values() if "heal" in str(sk).lower()]


# rules: Harakiri, "Spawn Points": "Spawn points cannot be interacted with."; "Exploration Phase Setup", step 14:
# "Malice starts at 0."
def test_a_spawn_point_next_to_a_character_offers_no_interaction_and_malice_starts_at_0():
    # given Akira next to the red spawn point
    s = _turn("akira", {"akira": {"sq": "2,2"}}, arena={"spawns": {"red": "3,2"}})
    # then nothing is offered to interact with, and the Malice track is at 0
    assert not any(c["type"] == "interact" for c in s.legal(0))
    assert s.state["malice"] == 0


# rules: Harakiri, "Resistors": "The Exploration Phase setup will indicate whether Resistors can be interacted
# with or not" (decision in docs/games/harakiri.md: the project's scenarios mark none as such; a
# non-playable character to talk to is an interaction point)
def test_a_resistor_next_to_a_character_offers_no_interaction():
    # given Akira next to a villager resistor with 2 resistance tokens
    s = _turn("akira", {"akira": {"sq": "2,2"}}, resistors={"villager": {"at": "3,2", "tokens": 2}})
    # then no interaction is offered, and the villager cannot be attacked either
    assert not any(c["type"] == "interact" for c in s.legal(0))
    assert not any(c["type"] == "attack" and c["args"]["target"] == "villager" for c in s.legal(0))


# rules: Harakiri, "Attack": "All weapons have a range of at least 1"
def test_every_weapon_reaches_at_least_range_1():
    assert all(w["range"] >= 1 for w in content.WEAPONS.values())


# rules: Harakiri, "Akira", Sixth Sense: "Note that in the first round of the phase, you won't have it available"
def test_sixth_sense_is_not_offered_in_the_first_round_of_the_phase():
    # given the Burning Village set up from scratch, Akira with Sixth Sense and his Ki dice in his supply
    s = scenario({"scenario": "act1_burning_village"})
    akira = s.state["characters"]["akira"]
    assert s.state["round"] == 1 and "sixth_sense" in akira["skills"] and akira["ki"]["slots"] == {}
    # when the first round's oracle card is drawn and the initiative built
    s.when(SYSTEM, "draw_oracle")
    # then the first decision is the characters' swap: Sixth Sense is never offered
    assert s.state["pending"]["kind"] == "initiative_swap"


def _skill_ki(**slots):
    return {"supply": [], "slots": slots, "exhausted": 0}


# rules: Harakiri, "Akira", Crescent Strike: "If you only have one adjacent enemy, it does not receive 2 attacks."
def test_crescent_strike_on_a_lone_adjacent_enemy_strikes_it_once():
    # given Akira with Crescent Strike ready and a single kappa next to him (green 2, red 4, test die hit)
    s = _turn("akira", {"akira": {"sq": "2,2", "level": 4, "skills": ["sixth_sense", "crescent_strike"],
                                  "ki": _skill_ki(crescent_strike=3)}},
              {"a": {"type": "kappa", "color": "red", "at": "3,2", "health": 9}}, forced=[6, 6, 3])
    # then every Crescent Strike offered names that kappa alone
    opts = [c["args"] for c in s.legal(0) if c["type"] == "attack" and c["args"]["skill"] == "crescent_strike"]
    assert opts and all(o["target"] == "a" and o["also"] == [] for o in opts)
    # when he strikes, then it takes the damage of one attack: 2 + 4 - 1 defense = 5
    s.when(0, "attack", target="a", mode="strong", focus=False, skill="crescent_strike", also=[])
    assert s.state["enemies"]["a"]["health"] == 9 - 5


# rules: Harakiri, "Tomoe", Relentless Vengeance: "For each enemy you defeat this turn, you gain 2 damage extra, but
# you can never have more than 4 damage."
def test_relentless_vengeance_never_rises_above_4():
    # given Tomoe already at the 4 extra damage of two defeated enemies, next to a kappa with 1 health left
    chars = {"tomoe": {"sq": "2,2", "level": 4, "skills": ["military_discipline", "relentless_vengeance"],
                       "ki": _skill_ki(relentless_vengeance=3), "vengeance": 4}}
    s = _turn("tomoe", chars, {"foe": {"type": "kappa", "color": "red", "at": "3,2", "health": 1}}, forced=[6, 3])
    # when she defeats it
    s.when(0, "attack", target="foe", mode="fast", focus=False, skill=None)
    assert "foe" not in s.state["enemies"]
    # then her extra damage stays at 4
    assert s.state["characters"]["tomoe"]["vengeance"] == 4


# rules: Harakiri, "Hikaru", Kami's Assistance: "Increases the value of all your Ki dice in reserve by 1. Remember
# that this does not include those that are active or exhausted."
def test_kamis_assistance_leaves_slotted_and_exhausted_dice_alone():
    # given Hikaru with a 2 and a 4 in reserve, a 3 on Kami's Assistance, a 5 on Healing and one exhausted die
    s = _turn("hikaru", {"hikaru": {"level": 4, "skills": ["healing", "kamis_assistance"],
                                    "ki": {"supply": [2, 4], "slots": {"kamis_assistance": 3, "healing": 5},
                                           "exhausted": 1}}})
    # when he uses it
    s.when(0, "technique", skill="kamis_assistance")
    # then only the reserve rises
    assert s.state["characters"]["hikaru"]["ki"] == {"supply": [3, 5], "slots": {"kamis_assistance": 3, "healing": 5},
                                                     "exhausted": 1}


# rules: Harakiri, "Tomoe", Escort: "Remember that the value of armor can never exceed the base value of the
# equipped armor."
def test_escort_repairs_no_armor_past_the_armor_cards_value():
    # given Tomoe with Escort and Akira beside her, his Ronin Robe (armor 2) already at 2
    chars = {"tomoe": {"sq": "2,2", "armor": 1, "level": 3, "skills": ["military_discipline", "escort"],
                       "ki": _skill_ki(escort=3)}, "akira": {"sq": "3,3", "armor": 2}}
    s = _turn("tomoe", chars)
    assert s.state["characters"]["akira"]["armor_card"] == "ronin_robe"
    # when her turn ends
    s.when(0, "end_activation")
    # then she repairs 1 and Akira stays at his robe's 2
    assert s.state["characters"]["tomoe"]["armor"] == 2 and s.state["characters"]["akira"]["armor"] == 2


# rules: Harakiri, "Izanami", Kami Mode: "You can only apply this if you have health available. If you are
# defeated, the surplus damage cannot be inflicted."
def test_izanami_kami_mode_reflects_no_more_than_the_health_the_character_had():
    # given Akira in Izanami's Kami Mode with 2 health left, next to a kachi (health 4) whose attack (green,
    # a 1: line 1) deals 5
    chars = {"akira": {"sq": "1,0", "health": 2, "kami": "izanami",
                       "kami_mode": {"kami": "izanami", "turns_done": 0, "round": 1}}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0", "health": 4}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 6]))
    # when the kachi strikes him down
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # then he is defeated and the kachi takes only the 2 he had, not the 5
    assert s.state["characters"]["akira"]["defeated"]
    assert s.state["enemies"]["k"]["health"] == 2


# rules: Harakiri, "Takashi", Intimidation: "The skill must be active at the start of the round to apply the effect."
def test_intimidation_readied_during_the_round_imposes_no_tiebreaker_until_the_next():
    # given Takashi (Act 2 party) in his activation, Intimidation without a Ki die at the start of the round
    chars = {c: {"sq": sq} for c, sq in {"akane": "0,9", "byakuei": "3,9", "hanako": "6,9", "takashi": "2,2"}.items()}
    chars["takashi"].update({"ap": 4, "ki": {"supply": [4], "slots": {}, "exhausted": 0}})
    s = scenario({"scenario": arena(open_rows()), "characters": chars, "enemies": {}, "clear_enemies": True,
                  "options": {"characters": ["akane", "byakuei", "hanako", "takashi"]}, "activate": "char:takashi"})
    # when he places a Ki die on it now
    s.when(0, "place_ki", die=0, skill="intimidation")
    # then no tiebreaker is asked for or imposed this round
    assert not s.state["pending"] and act2_values.intimidation(s.state) is None


# rules: Harakiri, "Akira", Chained Slashes: "Spend 3 action points and move up to 3 squares plus modifiers (you
# cannot exert)."
def test_chained_slashes_movement_cannot_be_exerted():
    # given Akira (4 action points) starting Chained Slashes
    s = _turn("akira", {"akira": {"sq": "2,2", "level": 4, "skills": ["sixth_sense", "chained_slashes"],
                                  "ki": _skill_ki(chained_slashes=3)}},
              {"a": {"type": "kappa", "color": "red", "at": "3,1", "health": 9}})
    s.when(0, "technique", skill="chained_slashes")
    # then, with an action point left, he is offered no exert during that move
    assert s.state["characters"]["akira"]["ap"] == 1 and s.state["turn"]["rolling"]
    assert s.state["turn"]["roll_mp"] == 3 + 1  # 3 + dexterity
    assert not any(c["type"] == "exert" for c in s.legal(0))


# rules: Harakiri, "Hattori", Elusive: "While this skill is active, enemies do not hinder your movement. However,
# you must end your movement on an empty square."
def test_elusive_passes_an_enemy_square_but_cannot_stop_on_it():
    # given Hattori with Elusive, a kachi right next to him
    s = _turn("hattori", {"hattori": {"sq": "2,2", "level": 2, "skills": ["roll", "elusive"],
                                      "ki": _skill_ki(elusive=2)}},
              {"k": {"type": "kachi", "color": "red", "at": "3,2"}})
    s.when(0, "move")
    # when he steps onto the kachi's square, then he may go on but may not end his move there
    s.when(0, "step", to="3,2")
    assert any(c["type"] == "step" for c in s.legal(0))
    assert not any(c["type"] in ("end_move", "end_activation") for c in s.legal(0))
    s.when(0, "step", to="4,2")
    assert any(c["type"] == "end_move" for c in s.legal(0))


# rules: Harakiri, "Hattori", Evade: "you can add your dexterity value to your defense when defending against an
# attack. You can only do this once per round."
def test_evade_protects_against_the_first_attack_of_the_round_only():
    # given Hattori (dexterity 3, Evade, Shinobi Armor: defense 1, armor 1) next to two kachi; each attack
    # rolls green 2, orange 2 and a hit (4 hits, +1 KENJUTSU)
    chars = {"hattori": {"sq": "1,1", "level": 4, "skills": ["roll", "evade"], "ki": _skill_ki(evade=3),
                         "attrs": {"dexterity": 3}, "health": 9}}
    enemies = {"k1": {"type": "kachi", "color": "red", "at": "0,0"}, "k2": {"type": "kachi", "color": "blue", "at": "2,2"}}
    s = scenario(doc(arena(open_rows()), chars, enemies, activate="color:red", queue=["color:red", "color:blue"],
                     oracle={"color": "green"}, forced=[1, 6, 6, 3, 1, 6, 6, 3]))
    # when the first attacks: 4 - (1 + 3) - 1 = 0, + 1
    s.when(SYSTEM, "activate_enemy", enemy="k1")
    assert s.state["characters"]["hattori"]["health"] == 8
    # and then the second, the same round: 4 - 1 - 1 = 2, + 1
    s.when(SYSTEM, "activate_enemy", enemy="k2")
    assert s.state["characters"]["hattori"]["health"] == 8 - 3


# rules: Harakiri, "Amatsumikaboshi", Kami Mode: "determine the target of the attacks performed by enemies. The new
# target must be within their range. The attacker's allies can also be valid targets for the attack."
def test_amatsumikaboshi_kami_mode_offers_only_targets_within_the_attackers_range():
    # given Akira in Amatsumikaboshi's Kami Mode next to a kachi (range 1), a kappa beside it and another far off
    chars = {"akira": {"sq": "1,0", "kami": "amatsumikaboshi",
                       "kami_mode": {"kami": "amatsumikaboshi", "turns_done": 0, "round": 1}}}
    enemies = {"k": {"type": "kachi", "color": "red", "at": "0,0"},
               "pal": {"type": "kappa", "color": "blue", "at": "0,1", "health": 9},
               "far": {"type": "kappa", "color": "green", "at": "6,6", "health": 9}}
    s = scenario(doc(arena(open_rows()), chars, enemies, activate="color:red",
                     queue=["color:red", "color:blue", "color:green"], oracle={"color": "green"}, forced=[1, 6, 6, 3]))
    # when the kachi attacks
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # then Akira's seat picks among Akira and the kappa beside it, never the one out of its range
    p = s.state["pending"]
    assert p["kind"] == "amatsumikaboshi_target"
    assert sorted(o["target"] for o in p["options"]) == ["akira", "pal"]


# rules: Harakiri, "Hattori", Evade: "The maximum applicable defense will always be 6." with "Hikaru", Spiritual
# Protection: "each character, including you, up to range 2, add their spirit value to their defense" (decision in
# docs/games/harakiri.md: the cap holds for the whole defense of an attack Evade is used against)
def test_evade_caps_the_whole_defense_at_6_even_with_spiritual_protection():
    # given Hattori (Night Mail: defense 2, armor track at 0; dexterity 3, spirit 3) evading, with Hikaru's
    # Spiritual Protection in range: 2 + 3 + 3 = 8, capped at 6. The Undertaker rolls a 5 (line 3, the
    # healthiest adjacent, BURY with the focus die): red 4, green 2, test die hit, focus -1
    chars = {"hattori": {"sq": "1,1", "health": 9, "level": 4, "skills": ["roll", "evade"], "ki": _skill_ki(evade=3),
                         "attrs": {"dexterity": 3, "spirit": 3}, "armor_card": "ninja_night_mail", "armor": 0},
             "hikaru": {"sq": "3,1", "health": 3, "level": 5, "skills": ["healing", "spiritual_protection"],
                        "ki": _skill_ki(spiritual_protection=4)},
             "akira": {"health": 1}, "tomoe": {"health": 1}}
    s = scenario(doc(arena(open_rows()), chars, {"ut": {"kind": "servant", "type": "undertaker", "at": "0,0"}},
                     activate="enemy:ut", oracle={"color": "green"}, forced=[5, 6, 5, 3, 2]))
    # when it attacks Hattori
    ev = s.when(SYSTEM, "activate_enemy", enemy="ut")
    assert find(ev, "EnemyAttackRolled")[0]["target"] == "hattori"
    # then 6 hits - (6 - 1 focus) = 1 damage gets through (8 defense would have stopped it), and BURY's bleeding
    hattori = s.state["characters"]["hattori"]
    assert hattori["health"] == 8 and hattori["conditions"]["bleeding"] == 1


# rules: Harakiri, "Hattori", Distraction: "You cannot choose a target that would prevent the enemy from performing
# its attack."
def test_distraction_offers_only_targets_the_enemy_can_attack():
    # given Hattori's Distraction ready for the next enemy, a kachi whose line (green, a 4: line 1, no movement)
    # attacks an adjacent character, Akira and Tomoe next to it and Hattori himself far away
    chars = {"hattori": {"sq": "5,5", "level": 3, "skills": ["roll", "distraction"], "ki": _skill_ki(distraction=3)},
             "akira": {"sq": "1,0", "health": 11}, "tomoe": {"sq": "0,1", "health": 2}}
    s = _turn("hattori", chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
              queue=["char:hattori", "color:red"], oracle={"color": "green"}, forced=[4, 6, 6, 3])
    s.when(0, "technique", skill="distraction")
    s.when(0, "end_activation")
    # when the kachi activates
    s.when(SYSTEM, "activate_enemy", enemy="k")
    # then Hattori's seat chooses between Akira and Tomoe only
    p = s.state["pending"]
    assert p["kind"] == "distraction" and sorted(o["target"] for o in p["options"]) == ["akira", "tomoe"]


# rules: Harakiri, "Resistors": "If a Resistor is a living creature and loses all of its resistance tokens, it is
# removed from play." and "Resistors are usually Non-Playable Characters like civilians, but can also be other
# elements like doors, mechanisms, etc." (decision in docs/games/harakiri.md)
def test_a_mechanism_without_resistance_left_stays_on_its_square_but_is_no_target():
    # given a kachi next to a mechanism (no living creature) with 1 resistance token and to Tomoe
    s = scenario(doc(arena(open_rows()), {"tomoe": {"sq": "1,0"}},
                     {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     resistors={"winch": {"at": "0,1", "tokens": 1, "living": False}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 1]))
    # when the kachi attacks it (resistors first)
    ev = s.when(SYSTEM, "activate_enemy", enemy="k")
    assert find(ev, "EnemyLineChosen")[0]["target"] == "winch"
    # then the mechanism keeps its square without tokens: still occupied, no longer a target
    assert s.state["resistors"]["winch"]["tokens"] == 0
    assert "0,1" in rules.occupied_for(s.state, "shogun")


def test_a_living_resistor_without_resistance_left_is_removed_from_play():
    # given the same kachi next to a villager (a living creature) with 1 resistance token
    s = scenario(doc(arena(open_rows()), {"tomoe": {"sq": "1,0"}},
                     {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     resistors={"villager": {"at": "0,1", "tokens": 1}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 1]))
    # when the kachi attacks it, then the villager is removed from play
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert "villager" not in s.state["resistors"]


# rules: Harakiri, "Akane", My loyal friend: "Yastun Lad is an ally; he is not considered a character and does not
# have a miniature, so if he is the only creature in an area, no event is revealed."
def test_yastun_lad_alone_in_a_zone_reveals_no_event_there():
    # given the Act 2 party in the arena and a second zone on the table where only Yastun Lad stands
    beyond = {"name": "Beyond", "origin": [10, 0], "rows": ["...", "...", "..."], "enemies": [], "spawns": {},
              "events": {"green": [{"id": "b1", "name": "Echo", "effects": []}], "red": []},
              "doors": [], "points": [], "resistors": [], "oracle": {"green": 0, "red": 0}}
    scen = arena(open_rows(), events={"green": [{"id": "a1", "name": "Calm", "effects": []}], "red": []},
                 extra_zones={"beyond": beyond})
    chars = {c: {"sq": sq} for c, sq in {"akane": "0,9", "byakuei": "3,9", "hanako": "6,9", "takashi": "9,9"}.items()}
    chars["akane"].update({"skills": ["my_loyal_friend"], "ki": _skill_ki(my_loyal_friend=4),
                           "lad": {"sq": "11,1", "on": None}})
    s = scenario({"scenario": scen, "characters": chars, "enemies": {}, "clear_enemies": True, "reveal": ["beyond"],
                  "options": {"characters": ["akane", "byakuei", "hanako", "takashi"]},
                  "oracle": {"deck": ["oracle_g1"]}})
    assert "beyond" in s.state["zones"]
    # when the round's oracle card is drawn
    ev = s.when(SYSTEM, "draw_oracle")
    # then only the arena reveals an event; the Lad's zone neither reveals one nor raises the Malice
    assert [e["zone"] for e in find(ev, "EventRevealed")] == ["arena"]
    assert s.state["malice"] == 0 and s.state["zones"]["beyond"]["events"]["green"] == ["b1"]


# rules: Harakiri, "2. Determining the Initiative": "Apply any event or skill effects to the Initiative queue" - an
# event's initiative effect that names nobody moves the characters' cards, like every effect without a "who"
def test_an_initiative_event_naming_nobody_moves_the_characters_cards():
    # given a red event advancing initiative cards by 1 without saying whose, and the minions between Akira and
    # the other characters
    events = {"green": [], "red": [{"id": "r1", "name": "Haste", "effects": [{"type": "initiative", "advance": 1}]}]}
    s = scenario(doc(arena(open_rows(), events=events), {}, {"m": {"type": "kachi", "color": "red", "at": "8,0"}},
                     oracle={"deck": ["oracle_r1"]},
                     initiative=["char:akira", "color:red", "char:hattori", "char:hikaru", "char:tomoe"]))
    # when the round starts
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=0)  # no characters' swap
    # then, left to right, Hattori passes the minions and the others follow him
    assert s.state["initiative"]["queue"] == ["char:akira", "char:hattori", "char:hikaru", "char:tomoe", "color:red"]
