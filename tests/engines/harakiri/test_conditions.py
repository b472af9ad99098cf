"""Negative and positive conditions."""

from games.engines.harakiri import combat
from games.engines.harakiri.state import W
from games.kernel import Rng

from .helpers import arena, doc, open_rows, scenario


def _w(characters=None, enemies=None):
    s = scenario(doc(arena(open_rows()), characters, enemies))
    return W(s.state, Rng(b"x", "y"))


def test_bleeding_deals_1_per_token_at_activation_start():
    # rules: Harakiri, "Negative Conditions": bleeding, accumulating
    s = scenario(doc(arena(open_rows()), {"akira": {"conditions": {"bleeding": 2}}}, activate="char:akira"))
    assert s.state["characters"]["akira"]["health"] == 11 - 2


def test_downed_character_gets_2_action_points_and_discards_it():
    # rules: Harakiri, "Negative Conditions": downed
    s = scenario(doc(arena(open_rows()), {"akira": {"ap": 0, "conditions": {"downed": 1}}}, activate="char:akira"))
    assert s.state["characters"]["akira"]["ap"] == 2
    assert s.state["characters"]["akira"]["conditions"]["downed"] == 0


def test_poisoned_and_bleeding_stack_blinded_and_downed_do_not():
    # rules: Harakiri, "Negative Conditions"
    w = _w()
    for cond in ("poisoned", "poisoned", "bleeding", "bleeding", "blinded", "blinded", "downed", "downed"):
        combat.give_condition(w, "akira", cond)
    assert w.s["characters"]["akira"]["conditions"] == {"bleeding": 2, "poisoned": 2, "blinded": 1, "downed": 1,
                                                        "blessed": 0}


def test_blessed_token_negates_a_negative_condition():
    # rules: Harakiri, "Positive Conditions": Blessed Protection
    w = _w({"akira": {"conditions": {"blessed": 1}}})
    combat.give_condition(w, "akira", "poisoned")
    assert w.s["characters"]["akira"]["conditions"]["poisoned"] == 0
    assert w.s["characters"]["akira"]["conditions"]["blessed"] == 0


def test_gaining_blessed_with_a_negative_condition_removes_both():
    # rules: Harakiri, "Positive Conditions": "If a character with a negative condition gains a
    # Blessed token, remove both"
    w = _w({"akira": {"conditions": {"bleeding": 1}}})
    combat.bless(w, "akira")
    assert w.s["characters"]["akira"]["conditions"]["bleeding"] == 0
    assert w.s["characters"]["akira"]["conditions"]["blessed"] == 0


def test_conditions_only_on_characters_and_minions():
    # rules: Harakiri, "Conditions": not on Servants, Wanderers, Chosens or Resistors
    w = _w(enemies={"ut": {"kind": "servant", "type": "undertaker", "at": "5,5"},
                    "k": {"type": "kachi", "color": "red", "at": "6,6"}})
    assert not combat.give_condition(w, "ut", "bleeding")
    assert combat.give_condition(w, "k", "bleeding")


def test_enemy_bleeding_at_activation_and_downed_lowers_defense():
    # rules: Harakiri, "Negative Conditions": bleeding at the start of each activation; downed
    # creatures have -1 defense
    from games.engines.harakiri import rules
    from games.kernel import SYSTEM

    s = scenario(doc(arena(open_rows()), {}, {"k": {"type": "kachi", "color": "red", "at": "6,6",
                                                    "conditions": {"bleeding": 1, "downed": 1}}},
                     activate="color:red", oracle={"color": "green"}))
    assert rules.estat(s.state, "k", "defense") == 0
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert s.state["enemies"]["k"]["health"] == 3


def test_blessed_token_is_kept_when_a_second_blinded_could_not_be_gained():
    # rules: Harakiri, "Positive Conditions": the blessed token is discarded when the character
    # "would gain a negative condition"; "Negative Conditions": "Only 1 Blinded token can be gained
    # per creature", so an already blinded character gains nothing and keeps its blessed token
    w = _w({"akira": {"conditions": {"blessed": 1, "blinded": 1}}})
    assert not combat.give_condition(w, "akira", "blinded")
    assert w.s["characters"]["akira"]["conditions"]["blessed"] == 1
    assert w.s["characters"]["akira"]["conditions"]["blinded"] == 1


def test_no_condition_from_an_attack_that_a_dosojin_kami_mode_makes_harmless():
    # rules: Harakiri, "Conditions": "Negative conditions cannot be imposed as an effect of an attack
    # that causes no damage"; Dosojin Kami Mode: "you are immune to all types of damage". The kachi's
    # SLICE THEM rolls 2 damage against Tomoe (red oracle, roll 4: green 2 + orange 2, test hit,
    # focus -1), none of which she receives, so she does not start bleeding
    from games.kernel import SYSTEM

    chars = {"tomoe": {"sq": "1,0", "kami": "dosojin", "affinity": 6, "health": 4,
                       "kami_mode": {"kami": "dosojin", "turns_done": 0, "round": 1}}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "red"}, forced=[4, 6, 6, 3, 2]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    tomoe = s.state["characters"]["tomoe"]
    assert tomoe["health"] == 4
    assert tomoe["conditions"]["bleeding"] == 0
