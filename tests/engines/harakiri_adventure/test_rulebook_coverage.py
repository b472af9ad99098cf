"""Rulebook passages of the Adventure Phase that had no scenario test of their own (the coverage audit,
docs/games/harakiri-adventure.md): each test cites the passage it checks, as given / when / then."""

from .helpers import activation, advance, of_type


# rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": "It is not necessary to interact
# with the missions following their numbers."
def test_mission_2_can_be_revealed_while_mission_1_is_still_face_down():
    # given chapter 1, mission 1's token still in Iga, and Tomoe at the Amaterasu shrine, mission 2's token
    s = activation("tomoe", characters={"tomoe": {"location": "amaterasu_shrine"}})
    assert s.state["missions"]["1"]["token"] == "iga" and s.state["missions"]["1"]["status"] != "active"
    # when she interacts with mission 2's token
    assert {"type": "interact_mission", "args": {"mission": 2}} in s.legal(0)
    s.when(0, "interact_mission", mission=2)
    # then mission 2 is active and mission 1 is untouched
    assert s.state["missions"]["2"]["status"] == "active" and s.state["missions"]["2"]["starter"] == "tomoe"
    assert s.state["missions"]["1"]["token"] == "iga"


# rules: Harakiri, "Travel by Sea": "Moving from one port to another counts as a 1 location movement"; "Travel
# Events": "if they spent 2 or more movement points moving over land ... draws a travel event"
def test_one_step_over_land_and_a_crossing_by_sea_draw_no_travel_event():
    # given Hattori in Hikone with 12 coins
    s = activation("hattori", characters={"hattori": {"location": "hikone", "coins": 12}}, decks={"travel": ["te_a05"]})
    s.when(0, "travel", group=[])
    # when he walks the road to Nagoya (1 movement point over land) and sails to Ise
    s.when(0, "move", to="nagoya")
    s.when(0, "sail", to="ise")
    travel = s.state["flow"]["travel"]
    assert (travel["land"], travel["locations"]) == (1, 2)  # the crossing is one location, not land
    ended = s.when(0, "end_travel")
    # then no travel event is due: only 1 movement point was spent over land; his activation goes on
    assert of_type(ended, "TravelEnded")[0]["event_due"] is False
    assert s.status.awaiting == [0] and s.state["decks"]["travel"] == ["te_a05"]


def test_a_second_step_over_land_after_the_crossing_draws_the_travel_event():
    # given the same crossing, then the road from Ise to Matsusaka (2 movement points over land in all)
    s = activation("hattori", characters={"hattori": {"location": "hikone", "coins": 12, "kami": "hachiman"}},
                   decks={"travel": ["te_a05"]})
    s.when(0, "travel", group=[])
    s.when(0, "exert")  # 3 + dexterity 1 + 1: the crossing costs 3
    s.when(0, "move", to="nagoya")
    s.when(0, "sail", to="ise")
    s.when(0, "move", to="matsusaka")
    s.when(0, "end_travel")
    # then the travel event is drawn, its green side: the crossing is no dangerous path
    drawn = of_type(advance(s), "TravelEventDrawn")
    assert drawn and drawn[0]["card"] == "te_a05" and drawn[0]["side"] == "green"


# rules: Harakiri, "Golden Rules": "If an effect forces a character to lose a resource of which they do not have
# enough (like coins, karma, armor or others), the character loses the amount they have available"
def test_a_checkpoint_fine_larger_than_the_purse_takes_what_there_is():
    # given Akira (knowledge 0) with 1 coin and the "Checkpoint" travel event (green: Knowledge(4), failure: -3 coins)
    s = activation("akira", characters={"akira": {"coins": 1}}, decks={"travel": ["te_a04"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "move", to="nara")
    s.when(0, "end_travel")
    # when the event's test die shows a 1 and the test fails
    events = advance(s, answers=[0])
    assert of_type(events, "TravelEventDrawn")[0]["card"] == "te_a04"
    # then he loses the 1 coin he has, and no more
    assert s.state["characters"]["akira"]["coins"] == 0


# rules: Harakiri, "Amaterasu", The Holy One: "regain up to 3 health. A character's health can never exceed their
# current level maximum."
def test_the_holy_one_heals_no_further_than_the_maximum():
    # given Hikaru (maximum 8) at 7 health in Amaterasu's shrine
    s = activation("hikaru", characters={"hikaru": {"location": "amaterasu_shrine", "health": 7, "kami": "amaterasu"}})
    # when he uses The Holy One at the sanctuary
    s.when(0, "interact_sanctuary", karma=0, kami=True)
    # then he stops at 8
    assert s.state["characters"]["hikaru"]["health"] == 8
