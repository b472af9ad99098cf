"""Chosen and wanderer passive skills, AI cards that remain in play, empowered cards, the
"next in initiative" priority and the loss of Kami skills (the Blood Oni's GROWING HATE)."""

import pytest

from games.engines.harakiri import ENGINE, rules
from games.kernel import SYSTEM, Command, Rng, RuleViolation, fold

from .helpers import arena, doc, find, open_rows, run_system, scenario
from .test_random_play import VETERANS, VETERANS_2, play

QUEUE = ["enemy:oni", "char:akira", "char:tomoe", "char:hattori", "char:hikaru"]
# Akira (Inari, affinity 6, below half health) has a kami attack skill and Kami Mode on offer.
# Tomoe has the most health and Hikaru the least, so only "next in initiative" picks Akira.
PARTY = {"akira": {"sq": "8,8", "health": 4, "kami": "inari", "affinity": 6},
         "tomoe": {"sq": "2,7", "health": 10}, "hattori": {"sq": "5,8", "health": 6},
         "hikaru": {"sq": "1,4", "health": 3}}
LATER_DECK = ["bo_maul", "bo_stalk", "bo_frenzy"]


def _oni(forced, ai, oni=None, characters=None, queue=QUEUE, activate="enemy:oni"):
    chars = {c: dict(spec) for c, spec in PARTY.items()}
    for c, spec in (characters or {}).items():
        chars[c] = {**chars.get(c, {}), **spec}
    enemies = {"oni": {"kind": "chosen", "type": "blood_oni", "at": "5,4", "ai": ai, **(oni or {})}}
    return scenario(doc(arena(open_rows()), chars, enemies, activate=activate, queue=queue,
                        oracle={"color": "green"}, forced=forced))


def _activate(s, enemy="oni"):
    ev = s.when(SYSTEM, "activate_enemy", enemy=enemy)
    while s.state["pending"] and s.state["pending"]["kind"] == "enemy_square":
        assert {o["target"] for o in s.state["pending"]["options"]} == {"akira"}
        ev += s.when(0, "choose", option=0)
    return ev


def _kami_commands(s, seat=0):
    return [c for c in s.legal(seat) if c["type"] == "kami_mode"
            or (c["type"] == "attack" and (c["args"].get("skill") or "").endswith("_l3"))]


def _to_akiras_turn(s):
    run_system(s)
    assert s.state["turn"]["kind"] == "character" and s.state["turn"]["who"] == "akira"


def test_blood_oni_example_empowered_hate_next_in_initiative_and_no_kami_skills():
    # rules: Harakiri, "Resolving Attacks against Characters and Wanderers", the Blood Oni
    # example: "The Blood Oni draws the Hate card. There is already a Hate card set aside due to
    # the GROWING HATE passive skill ... so the empowered version of the card is resolved. ...
    # The priority target for this line is the character next in Initiative, which is Akira,
    # and so the Blood Oni moves to him and attacks him, also rolling the test die. If the
    # attack deals damage, because of GROWING HATE, Akira cannot use Kami skills for the rest
    # of this combat. ... both Hate cards remain in play and the Blood Oni's activation ends."
    s = _oni([2, 2, 5], {"deck": ["bo_hate_2"] + LATER_DECK, "in_play": ["bo_hate_1"]})
    ev = _activate(s)
    assert find(ev, "AICardDrawn") == [{"who": "oni", "card": "bo_hate_2", "empowered": True}]
    assert find(ev, "EnemyActivated")[0]["empowered"] is True
    line = find(ev, "EnemyLineChosen")[0]
    assert line["line"] == 1 and line["target"] == "akira"
    oni = s.state["enemies"]["oni"]
    assert oni["sq"] != "5,4" and rules.grid.adjacent(s.state, oni["sq"], "8,8")
    rolled = find(ev, "EnemyAttackRolled")[0]
    assert rolled["target"] == "akira" and rolled["skill"] == "BLOOD FURY"  # the empowered line
    assert [d["die"] for d in rolled["dice"]] == ["red", "purple", "test"]
    # 1 + 1 hits against defense 1 + armor 2: 0, then BLOOD FURY +2
    assert find(ev, "AttackResolved")[0]["damage"] == 2
    assert s.state["characters"]["akira"]["health"] == 2
    assert oni["kami_barred"] == ["akira"]
    assert oni["ai"]["in_play"] == ["bo_hate_1", "bo_hate_2"] and oni["ai"]["discard"] == []
    assert find(ev, "WorkDone")  # the activation ended after line 1
    _to_akiras_turn(s)
    commands = s.legal(0)
    assert any(c["type"] == "attack" and c["args"]["target"] == "oni" for c in commands)
    assert _kami_commands(s) == []
    assert s.rejects(0, "kami_mode").code == "illegal_command"
    assert s.rejects(0, "attack", target="oni", mode="fast", focus=False, skill="inari_l3").code == "illegal_command"


def test_missed_attack_keeps_kami_skills():
    # rules: Harakiri, the Blood Oni example: "If the attack deals damage" -- a blank test die
    # fails the attack, so Akira keeps his Kami skills (same scene as the example)
    s = _oni([2, 2, 2], {"deck": ["bo_hate_2"] + LATER_DECK, "in_play": ["bo_hate_1"]})
    _activate(s)
    assert s.state["characters"]["akira"]["health"] == 4
    assert "kami_barred" not in s.state["enemies"]["oni"]
    _to_akiras_turn(s)
    kinds = {c["type"] for c in _kami_commands(s)}
    assert kinds == {"kami_mode", "attack"}


def test_first_hate_is_not_empowered_and_is_set_aside():
    # rules: Harakiri, the Blood Oni example: the empowered version needs a Hate card already
    # set aside; "Hate cards remain in play until the combat finishes" instead of the discard pile
    s = _oni([2, 2, 2], {"deck": ["bo_hate_1", "bo_hate_2"] + LATER_DECK})
    ev = _activate(s)
    assert find(ev, "AICardDrawn")[0]["empowered"] is False
    assert find(ev, "EnemyAttackRolled")[0]["skill"] == "CLAWS"
    ai = s.state["enemies"]["oni"]["ai"]
    assert ai["in_play"] == ["bo_hate_1"] and ai["discard"] == []
    view = ENGINE.view_for(s.state, 0)["enemies"]["oni"]["ai"]
    assert view == {"deck": 4, "discard": [], "in_play": ["bo_hate_1"]}


def test_other_cards_go_to_the_discard_pile():
    # rules: Harakiri, "Chosen": "Discard the drawn Chosen card." (a card without the flag)
    s = _oni([2, 2, 2, 2], {"deck": LATER_DECK, "in_play": ["bo_hate_1"]})
    ev = _activate(s)
    assert find(ev, "AICardDrawn")[0]["card"] == "bo_maul"
    ai = s.state["enemies"]["oni"]["ai"]
    assert ai["discard"] == ["bo_maul"] and ai["in_play"] == ["bo_hate_1"]


def test_reshuffle_leaves_the_cards_in_play_out():
    # rules: Harakiri, "Chosen": "If the Chosen deck is empty, first shuffle all discarded Chosen
    # AI cards to form a new deck" -- the Hate cards are in play, not discarded
    s = _oni([2, 2, 2, 2], {"deck": [], "discard": ["bo_stalk", "bo_maul", "bo_frenzy"],
                            "in_play": ["bo_hate_1", "bo_hate_2"]})
    ev = _activate(s)
    shuffled = find(ev, "AIDeckShuffled")[0]["deck"]
    assert sorted(shuffled) == sorted(LATER_DECK)
    ai = s.state["enemies"]["oni"]["ai"]
    assert ai["in_play"] == ["bo_hate_1", "bo_hate_2"]
    assert sorted(ai["deck"] + ai["discard"]) == sorted(LATER_DECK)
    redacted = ENGINE.redact_event({"type": "AIDeckShuffled", "payload": find(ev, "AIDeckShuffled")[0]}, 0)
    assert redacted["payload"]["deck"] == 3


def test_next_in_initiative_reads_on_past_the_played_cards():
    # rules: Harakiri, the Blood Oni example: "the character next in Initiative" -- the card right
    # after the active one, not the first of the queue (Tomoe's card, already played, is first)
    queue = ["char:tomoe", "enemy:oni", "char:hikaru", "char:akira", "char:hattori"]
    s = _oni([2, 2, 2], {"deck": ["bo_hate_1"] + LATER_DECK}, queue=queue)
    ev = s.when(SYSTEM, "activate_enemy", enemy="oni")
    while s.state["pending"]:
        ev += s.when(0, "choose", option=0)
    assert find(ev, "EnemyLineChosen")[0]["target"] == "hikaru"


def test_downed_blood_oni_attack_still_bars_kami_skills():
    # rules: Harakiri, "Conditions", Downed: "Downed enemies ... can only attack adjacent targets,
    # using their printed dice only, without any attack or technique skill effect added. Passive
    # skills still apply." -- no BLOOD FURY, but GROWING HATE still takes the Kami skills
    s = _oni([6, 6, 5], {"deck": ["bo_hate_2"] + LATER_DECK, "in_play": ["bo_hate_1"]},
             oni={"at": "7,7", "conditions": {"downed": 1}}, characters={"akira": {"health": 5}})
    ev = _activate(s)
    rolled = find(ev, "EnemyAttackRolled")[0]
    assert rolled["target"] == "akira" and rolled["skill"] is None
    assert "focus" not in [d["die"] for d in rolled["dice"]]
    assert find(ev, "AttackResolved")[0]["damage"] == (4 + 3) - (1 + 2)  # printed dice only
    assert s.state["enemies"]["oni"]["kami_barred"] == ["akira"]
    _to_akiras_turn(s)
    assert _kami_commands(s) == []


def test_blood_oni_counter_attack_still_bars_kami_skills():
    # rules: Harakiri, "Counter Attacks" (from the attacked enemy to the active character): "Use
    # only the attack dice shown on the enemy board and disregard any enemy skills or abilities
    # (except passive skills, which do still apply)."
    # katana fast: green, test = fail (critical fail); the Oni's red 6, purple 2, test 5
    s = _oni([6, 1, 6, 2, 5], {"deck": LATER_DECK, "in_play": ["bo_hate_1"]},
             characters={"akira": {"sq": "5,5", "ap": 4}}, activate="char:akira",
             queue=["char:akira", "enemy:oni", "char:tomoe", "char:hattori", "char:hikaru"])
    assert _kami_commands(s)
    ev = s.when(0, "attack", target="oni", mode="fast", focus=False, skill=None)
    rolled = find(ev, "EnemyAttackRolled")[0]
    assert rolled["counter"] and rolled["skill"] is None
    assert s.state["characters"]["akira"]["health"] == 4 - ((4 + 1) - (1 + 2))
    assert s.state["enemies"]["oni"]["kami_barred"] == ["akira"]
    assert s.status.awaiting == [0]  # Akira's activation continues, without Kami skills
    assert _kami_commands(s) == []


def test_growing_hate_needs_a_hate_card_in_play():
    # rules: Harakiri, the Blood Oni example: Kami skills are lost "because of GROWING HATE" while
    # Hate is in play (provisional board text); with no Hate card in play the damage is plain
    # STALK (-health) on Akira: red 1 + purple 1 against defense 1 + armor 2, CLAWS +1
    s = _oni([2, 2, 5], {"deck": ["bo_stalk", "bo_maul", "bo_frenzy"]}, characters={"akira": {"health": 2}})
    ev = _activate(s)
    assert find(ev, "AttackResolved")[0]["target"] == "akira"
    assert s.state["characters"]["akira"]["health"] == 1
    assert "kami_barred" not in s.state["enemies"]["oni"]
    _to_akiras_turn(s)
    assert {c["type"] for c in _kami_commands(s)} == {"kami_mode", "attack"}


def test_kami_skills_return_when_the_combat_ends():
    # rules: Harakiri, the Blood Oni example: "for the rest of this combat" -- defeating the Blood
    # Oni ends the combat (its Hate cards leave play with it), so Akira's Kami skills come back
    s = _oni([2, 2, 5, 6, 6], {"deck": ["bo_hate_2"] + LATER_DECK, "in_play": ["bo_hate_1"]},
             oni={"health": 1})
    _activate(s)
    _to_akiras_turn(s)
    assert _kami_commands(s) == []
    s.when(0, "attack", target="oni", mode="fast", focus=False, skill=None)  # green 6 + test 6
    assert "oni" not in s.state["enemies"]
    assert any(c["type"] == "kami_mode" for c in s.legal(0))


def test_demon_hunter_instinct_adds_damage_against_a_conditioned_target():
    # rules: Harakiri, "Skills": "For enemies, skills are always in effect"; the Demon Hunter's
    # passive HUNTER'S INSTINCT (provisional board): +1 damage against a target with a negative
    # condition -- its RELENTLESS card: no skill, red 6 + purple 6 + test 5 + focus -1
    def hunt(conditions):
        chars = {"tomoe": {"sq": "5,6", "health": 10, "conditions": conditions},
                 "akira": {"health": 5}, "hattori": {"health": 5}, "hikaru": {"health": 5}}
        s = scenario(doc(arena(open_rows()), chars,
                         {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "5,5",
                                     "ai": {"deck": ["dh_relentless"]}}},
                         activate="enemy:hunter", oracle={"color": "green"}, forced=[6, 6, 5, 2]))
        ev = s.when(SYSTEM, "activate_enemy", enemy="hunter")
        while s.state["pending"]:
            ev += s.when(0, "choose", option=0)
        assert find(ev, "AttackResolved")[0]["target"] == "tomoe"  # the most health
        return find(ev, "AttackResolved")[0]["damage"]

    plain = hunt({})
    assert plain == (4 + 3) - (1 + 2 - 1)  # Tomoe's ceremonial armor: defense 1, armor 2
    assert hunt({"poisoned": 1}) == plain + 1  # the target's poison does not lower the hunter's hits
    assert hunt({"blinded": 1}) == plain + 1


def test_demon_hunter_instinct_applies_to_its_counter_attack():
    # rules: Harakiri, "Counter Attacks" (from the attacked enemy to the active character):
    # "disregard any enemy skills or abilities (except passive skills, which do still apply)"
    def counter(conditions):
        chars = {"akira": {"sq": "5,6", "ap": 4, "health": 11, "conditions": conditions}}
        s = scenario(doc(arena(open_rows()), chars,
                         {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "5,5"}},
                         activate="char:akira", forced=[6, 1, 6, 6, 5]))
        ev = s.when(0, "attack", target="hunter", mode="fast", focus=False, skill=None)
        assert find(ev, "EnemyAttackRolled")[0]["counter"]
        return find(ev, "AttackResolved")[-1]["damage"]

    assert counter({}) == (4 + 3) - (1 + 2)  # Akira's ronin robe: defense 1, armor 2
    assert counter({"poisoned": 1}) == counter({}) + 1  # Akira's poison lowers only his own hits


def test_daimyo_retinue_defense_next_to_an_ally():
    # rules: Harakiri, "Skills": "For enemies, skills are always in effect"; the Daimyō's passive
    # RETINUE (provisional board): +1 defense while adjacent to an ally. An allied Daimyō's allies
    # are the characters; an enemy Daimyō's are the Shōgun's creatures
    def daimyo_defense(allied, at, extra=None):
        s = scenario(doc(arena(open_rows()), {"akira": {"sq": "5,6"}},
                         {"d": {"kind": "wanderer", "type": "daimyo", "at": at, "allied": allied}, **(extra or {})}))
        return rules.estat(s.state, "d", "defense")

    assert daimyo_defense(True, "0,0") == 1
    assert daimyo_defense(True, "5,5") == 2
    assert daimyo_defense(False, "5,5") == 1  # Akira is not an ally of a hostile Daimyō
    assert daimyo_defense(False, "0,0", {"k": {"type": "kachi", "color": "red", "at": "1,1"}}) == 2
    assert daimyo_defense(True, "0,0", {"k": {"type": "kachi", "color": "red", "at": "1,1"}}) == 1


def test_daimyo_retinue_reduces_an_enemy_attack():
    # rules: Harakiri, "Damage" (damage = hits - defense - armor) with RETINUE's +1 defense: a
    # kachi attacking the allied Daimyō standing next to Akira deals 1 damage less
    def hit(akira_sq):
        s = scenario(doc(arena(open_rows()), {"akira": {"sq": akira_sq}},
                         {"d": {"kind": "wanderer", "type": "daimyo", "at": "5,5", "allied": True},
                          "k": {"type": "kachi", "color": "red", "at": "6,5"}},
                         activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 5]))
        ev = s.when(SYSTEM, "activate_enemy", enemy="k")
        while s.state["pending"]:
            ev += s.when(0, "choose", option=0)
        res = [r for r in find(ev, "AttackResolved") if r.get("target") == "d"]
        return res[0]["damage"]

    assert hit("4,5") == hit("0,9") - 1


@pytest.mark.parametrize("seed", range(6))
def test_random_play_with_the_blood_oni_on_the_red_bridge(seed):
    """Random play from a scenario document: the Blood Oni beside the Demon Hunter on the Red
    Bridge, against kami-wielding veterans, so Hate cards pile up in play and Kami skills get
    barred while every listed command stays accepted and the log folds back to the state."""
    document = {"scenario": "act1_burning_village", "reveal": ["bridge"], "seats": 1 + seed % 4,
                "options": {"round_cap": 8, "party": VETERANS if seed % 2 else VETERANS_2},
                "characters": {"akira": {"sq": "30,3"}, "hattori": {"sq": "30,4"}, "hikaru": {"sq": "31,4"},
                               "tomoe": {"sq": "31,3"}},
                "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "35,3", "health": 6},
                            "oni": {"kind": "chosen", "type": "blood_oni", "at": "37,1"}},
                "clear_enemies": True}
    state, stats, n = play(500 + seed, 1, smart=seed % 2 == 0, document=document)
    assert state["phase"] == "ended"
    oni = state["enemies"].get("oni")
    if oni:  # still in play at the end: its Hate cards are never in the deck and discard at once
        ai = oni["ai"]
        assert sorted(ai["deck"] + ai["discard"] + ai["in_play"]) == sorted(
            c["id"] for c in ENGINE.content()["enemies"]["chosen"]["blood_oni"]["ai_deck"])
        assert all(c.startswith("bo_hate") for c in ai["in_play"])


def test_blood_oni_lair_skirmish_sets_up_the_blood_oni_first_in_initiative():
    # rules: Harakiri, "Chosen" (its AI cards shuffled into a facedown deck on its board) and
    # "Determining the Initiative" step 3 ("Chosen Ones will always activate first")
    state = fold(ENGINE, ENGINE.setup({"scenario": "blood_oni_lair"}, 1, Rng(b"lair", "setup")))
    oni = state["enemies"]["oni"]
    assert oni["kind"] == "chosen" and oni["type"] == "blood_oni"
    assert sorted(oni["ai"]["deck"]) == ["bo_frenzy", "bo_hate_1", "bo_hate_2", "bo_maul", "bo_stalk"]
    assert oni["ai"]["discard"] == [] and oni["ai"]["in_play"] == []
    assert state["objective"]["enemy"] == "oni"
    for step in range(20):  # the oracle, the events, the initiative (and the party's optional swap)
        if state.get("turn"):
            break
        seat = ENGINE.status(state).awaiting[0]
        cmd = ENGINE.system_command(state) if seat == SYSTEM else ENGINE.legal_commands(state, seat)[0]
        command = Command(type=cmd["type"], args=cmd["args"], seat=seat)
        state = fold(ENGINE, ENGINE.decide(state, command, Rng(b"lair", f"{step}")), state)
    assert state["turn"]["card"] == "enemy:oni"
    assert state["initiative"]["queue"][0] == "enemy:oni"


@pytest.mark.parametrize("seed", range(4))
def test_random_play_of_the_blood_oni_lair(seed):
    state, stats, n = play(600 + seed, 1 + seed % 4, options={"scenario": "blood_oni_lair",
                                                             "party": VETERANS if seed % 2 else {}},
                           smart=seed % 2 == 0)
    assert state["phase"] == "ended" and state["result"] in ("victory", "failure", "round_cap")


def test_scenario_document_refuses_foreign_or_repeated_ai_cards():
    # a scenario document places a chosen's own AI cards, each once (docs, "Scenario documents")
    for ai in ({"deck": ["dh_hunt"]}, {"deck": ["bo_maul"], "in_play": ["bo_maul"]}):
        document = doc(arena(open_rows()), {}, {"oni": {"kind": "chosen", "type": "blood_oni", "at": "5,5", "ai": ai}})
        with pytest.raises(RuleViolation) as err:
            ENGINE.scenario(document)
        assert err.value.code == "bad_scenario"
