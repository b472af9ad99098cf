"""Optional Rule: Replace the Red Die in the Adventure Phase (option ``blue_die``): a combat test rolls
the blue die for each red die of the weapon; without the option nothing changes."""

from games.engines.harakiri.adventure import describe
from games.engines.harakiri.adventure.content import DICE
from games.engines.harakiri.adventure.engine import ENGINE
from games.engines.harakiri.engine import ENGINE as HARAKIRI
from games.kernel.scenario import Scenario

from .helpers import doc, kachi, of_type, scripted


def _tomoe_attacks(blue_die: bool | None) -> Scenario:
    """Tomoe (naginata: combat tests roll red and green, + power 1) in her activation at Nara, facing
    a kachi of combat 4; ``blue_die`` None: a match set up without the option."""
    document = doc(characters={"tomoe": {"ap": 3, "activated": True}},
                   flow={"stage": "activation", "sub": None, "active": "tomoe"}, round=1,
                   enemies={"k": kachi("nara", {"character": "tomoe"}, combat=4, hits=0)})
    if blue_die is not None:
        document["options"]["blue_die"] = blue_die
    return Scenario(ENGINE, document)


def test_with_the_option_a_combat_test_rolls_the_blue_die_for_the_red():
    # rules: Harakiri, "Optional Rule: Replace the Red Die": "The new blue attack die ... and the red
    # die have the same average, so one can be substituted for the other" (and "Combat Tests": roll
    # the dice of the equipped weapon's strong attack)
    # given Tomoe with the naginata (red and green) and the blue die in place of the red
    s = scripted(_tomoe_attacks(True), [0, 4])  # first faces: blue 1 (the red's would be 0), green 2
    # when she attacks the kachi (combat 4)
    events = s.when(0, "attack", enemy="k", helpers=[])
    # then the test shows a blue die and counts its 1: 1 + 2 + power 1 = 4, a success
    test = of_type(events, "CombatTested")[0]
    assert test["dice"] == [{"die": "blue", "value": 1}, {"die": "green", "value": 2}]
    assert (test["total"], test["success"]) == (4, True)
    assert "k" not in s.state["enemies"]
    words = describe.describe(next(e for e in events if e["type"] == "CombatTested"), 0, ())
    assert "1 (blue die) + 2 + 1 = 4" in words
    assert ENGINE.view_for(s.state, 0)["blue_die"] is True


def test_without_the_option_the_red_die_is_rolled():
    # rules: Harakiri, "Optional Rule: Replace the Red Die" (an optional rule: off by default)
    for option in (False, None):
        # given the same attack and faces, the option off or the match set up before it existed
        s = _tomoe_attacks(option)
        if option is None:
            s.state.pop("blue_die")
        scripted(s, [0, 4])
        # when she attacks, then the red die's first face is a blank: 0 + 2 + 1 = 3, a failure
        test = of_type(s.when(0, "attack", enemy="k", helpers=[]), "CombatTested")[0]
        assert test["dice"] == [{"die": "red", "value": 0}, {"die": "green", "value": 2}]
        assert (test["total"], test["success"]) == (3, False)


def test_the_blue_die_only_replaces_the_red():
    # rules: Harakiri, "Optional Rule: Replace the Red Die": the blue die results run 1 to 3
    assert sorted({f["i"] for f in DICE["attack"]["blue"]}) == [1, 2, 3]
    # Hikaru's bo (green, orange) has no red die: nothing changes
    s = Scenario(ENGINE, {**doc(characters={"hikaru": {"ap": 3, "activated": True}},
                                flow={"stage": "activation", "sub": None, "active": "hikaru"}, round=1,
                                enemies={"k": kachi("hikone", {"character": "hikaru"}, combat=9, hits=0)})})
    s.state["blue_die"] = True
    scripted(s, [5, 5])
    test = of_type(s.when(0, "attack", enemy="k", helpers=[]), "CombatTested")[0]
    assert [d["die"] for d in test["dice"]] == ["green", "orange"]


def test_the_harakiri_facade_takes_the_option_for_an_adventure_phase():
    # rules: Harakiri, "Optional Rule: Replace the Red Die" (a match option of both phases)
    HARAKIRI.validate_options({"phase": "adventure", "chapter": 1, "blue_die": True}, 1)
    schema = HARAKIRI.options_schema["then"]["properties"]
    assert schema["blue_die"] == {"type": "boolean"}
