"""Travel: movement points, exert, roads and paths, travel events, group travel and travel by sea."""

from games.kernel import SYSTEM

from .helpers import activation, advance, of_type, types


def legal_moves(s, seat=0):
    return sorted(c["args"]["to"] for c in s.legal(seat) if c["type"] == "move")


def test_travel_gives_3_plus_dexterity_movement_points_for_1_action_point():
    # rules: Harakiri, "Travel": The active character gains movement points equal to 3 + dexterity + any applicable modifier
    s = activation("akira", characters={"akira": {"kami": "hachiman"}})  # dexterity 1
    s.when(0, "travel", group=[])
    assert s.state["flow"]["travel"]["mp"] == 4 and s.state["characters"]["akira"]["ap"] == 2
    assert legal_moves(s) == ["inari_shrine", "kyoto"]


def test_exert_spends_an_action_point_for_1_extra_movement_point():
    # rules: Harakiri, "Travel": They may exert, by spending an additional action point to gain 1 extra movement point, any number of times
    s = activation("hikaru", characters={"hikaru": {"kami": "hachiman"}})  # dexterity 0
    s.when(0, "travel", group=[])
    s.when(0, "exert")
    s.when(0, "exert")
    assert s.state["flow"]["travel"]["mp"] == 5 and s.state["characters"]["hikaru"]["ap"] == 0
    assert {"type": "exert", "args": {}} not in s.legal(0)


def test_each_move_costs_1_movement_point_and_spare_points_are_lost():
    # rules: Harakiri, "Travel": spending 1 movement point each time. Once the movement is done ... spare movement points are lost
    s = activation("akira", decks={"travel": ["te_a05"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    assert s.state["characters"]["akira"]["location"] == "kyoto" and s.state["flow"]["travel"]["mp"] == 3
    s.when(0, "end_travel")
    assert s.state["flow"]["travel"] is None


def test_travel_only_once_per_activation():
    # rules: Harakiri, "Actions": a character may only travel once each activation
    s = activation("akira")
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "end_travel")
    assert not [c for c in s.legal(0) if c["type"] == "travel"]
    assert s.rejects(0, "travel", group=[]).code == "illegal_command"


def test_no_movement_points_no_move():
    s = activation("hikaru", characters={"hikaru": {"kami": "hachiman", "location": "kyoto"}})
    s.when(0, "travel", group=[])
    for to in ("nara", "iga", "tsu"):
        s.when(0, "move", to=to)
    assert legal_moves(s) == [] and s.rejects(0, "move", to="matsusaka").code == "illegal_command"


def test_only_imperial_roads_draws_the_green_side_from_the_bottom_by_the_player_to_the_left():
    # rules: Harakiri, "Travel Events": the player to the left ... draws a travel event from the bottom of the deck ... only over imperial roads, resolve the green side
    s = activation("akira", seats=2, decks={"travel": ["te_a01", "te_a05"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "move", to="nara")
    s.when(0, "end_travel")
    assert s.status.awaiting == [SYSTEM]
    events = advance(s)
    drawn = of_type(events, "TravelEventDrawn")[0]
    assert drawn["card"] == "te_a05" and drawn["side"] == "green" and drawn["drawn_by"] == 1
    assert s.state["characters"]["akira"]["karma"] == 1
    # rules: Harakiri, "Travel Events": place the card on top of the travel events deck
    assert s.state["decks"]["travel"] == ["te_a05", "te_a01"]
    assert s.status.awaiting == [0]


def test_one_dangerous_path_draws_the_red_side():
    # rules: Harakiri, "Travel Events": If the character's movement was over 1 or more dangerous paths, resolve the red side
    s = activation("tomoe", decks={"travel": ["te_a05"]})  # Nara
    s.when(0, "travel", group=[])
    s.when(0, "move", to="iga")  # dangerous path
    s.when(0, "move", to="tsu")
    s.when(0, "end_travel")
    events = advance(s)
    assert of_type(events, "TravelEventDrawn")[0]["side"] == "red"
    assert s.state["characters"]["tomoe"]["health"] == 8  # Poisoned well: 2 damage


def test_moving_only_1_location_draws_no_travel_event():
    # rules: Harakiri, "Travel Events": If the character has moved only 1 location by the end of their travel action, do not draw any travel event
    s = activation("akira")
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    events = s.when(0, "end_travel")
    assert of_type(events, "TravelEnded")[0]["event_due"] is False and s.status.awaiting == [0]


def test_a_decision_waits_for_the_active_characters_player_and_requirements_apply():
    # rules: Harakiri, "Travel Events": If the event includes a decision or a test, do not read the resolution text until it has been resolved
    s = activation("akira", decks={"travel": ["te_a03"]}, characters={"akira": {"coins": 1}})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "move", to="nara")
    s.when(0, "end_travel")
    advance(s)
    assert s.state["choice"]["character"] == "akira" and s.status.awaiting == [0]
    assert s.legal(0) == [{"type": "choose", "args": {"option": 1}}]  # 2 coins needed for the offering
    s.when(0, "choose", option=1)
    assert s.status.awaiting == [SYSTEM]
    advance(s)
    assert s.state["flow"]["event"] is None and s.state["decks"]["travel"] == ["te_a03"]


def test_a_test_in_a_travel_event_rolls_the_test_die_plus_the_attribute():
    # rules: Harakiri, "Attribute Tests": rolling 1 test die and adding their relevant attribute score
    s = activation("tomoe", decks={"travel": ["te_a01"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="iga")
    s.when(0, "move", to="tsu")
    s.when(0, "end_travel")
    events = advance(s, answers=[0])  # test die face 1: 1 + dexterity 0 < 4
    test = of_type(events, "TestRolled")[0]
    assert (test["attribute"], test["roll"], test["total"], test["success"]) == ("dexterity", 1, 1, False)
    assert s.state["characters"]["tomoe"]["health"] == 9  # 3 hits - armor 2


def test_delayed_loses_the_remaining_action_points_and_ends_the_turn():
    # rules: Harakiri, "Delayed Characters": the character loses all remaining action point tokens and ends the turn immediately
    s = activation("tomoe", decks={"travel": ["te_a02"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="iga")
    s.when(0, "move", to="tsu")
    s.when(0, "end_travel")
    events = advance(s)
    assert "CharacterDelayed" in [e["type"] for e in events]
    assert of_type(events, "ActivationEnded")[0]["character"] == "tomoe"
    assert s.state["characters"]["tomoe"]["ap"] == 0 and s.status.phase == "characters"


def test_a_removed_travel_event_leaves_the_deck_for_the_campaign():
    # rules: Harakiri, "Travel Events": Some travel events are removed after use ... will not be used for the remainder of the campaign
    s = activation("akira", decks={"travel": ["te_a05", "te_1"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "move", to="nara")
    s.when(0, "end_travel")
    advance(s)
    assert s.state["travel_removed"] == ["te_1"] and s.state["decks"]["travel"] == ["te_a05"]


def test_adding_numbered_events_reshuffles_the_deck():
    # rules: Harakiri, "Travel Events": Whenever any effect adds or removes cards from the travel events deck, shuffle the deck
    s = activation("akira", decks={"travel": ["te_a05"]}, queue=[{"effects": [{"do": "add_travel_events", "codes": ["1"]}], "ctx": {"character": None, "source": "mission"}}])
    events = advance(s)
    shuffled = of_type(events, "TravelDeckShuffled")[0]
    assert "te_1" in shuffled["order"] and "A" in shuffled["codes"] and "1" in shuffled["codes"]


def test_razed_cities_cannot_be_entered_or_crossed():
    # rules: Harakiri, "Captured and Razed Cities": Characters may not enter (or go through) razed city locations during "travel" actions
    s = activation("akira", cities={"captured": [], "razed": ["kyoto"]})
    s.when(0, "travel", group=[])
    assert legal_moves(s) == ["inari_shrine"]
    assert s.rejects(0, "move", to="kyoto").code == "bad_args"


def test_travel_by_sea_costs_3_movement_points_and_10_coins_to_a_port_on_the_same_sea():
    # rules: Harakiri, "Travel by Sea": the active character must spend 3 movement points and 10 coins ... Choose any location with a port adjacent to that sea
    s = activation("akira", characters={"akira": {"location": "nagoya", "coins": 12, "kami": "hachiman"}})
    s.when(0, "travel", group=[])
    assert [c["args"]["to"] for c in s.legal(0) if c["type"] == "sail"] == ["ise"]
    s.when(0, "sail", to="ise")
    assert s.state["characters"]["akira"]["location"] == "ise" and s.state["characters"]["akira"]["coins"] == 2
    assert s.state["flow"]["travel"]["mp"] == 1
    assert not [c for c in s.legal(0) if c["type"] == "sail"]  # neither 3 movement points nor 10 coins


def test_no_sea_travel_with_fewer_than_10_coins():
    # rules: Harakiri, "Travel by Sea": If the active character has fewer than 10 coins ... they may not travel by sea
    s = activation("akira", characters={"akira": {"location": "nagoya", "coins": 9}})
    s.when(0, "travel", group=[])
    assert not [c for c in s.legal(0) if c["type"] == "sail"]


def test_group_travel_uses_the_lowest_dexterity_and_costs_each_member_an_action_point():
    # rules: Harakiri, "Group Travel": The group gains movement points equal to 3 + dexterity of the character with the lowest dexterity ... may not exert
    s = activation("hattori", characters={"hattori": {"kami": "hachiman"}})  # Hikaru is in Hikone too
    assert {"type": "travel", "args": {"group": ["hikaru"]}} in s.legal(0)
    s.when(0, "travel", group=["hikaru"])
    assert s.state["flow"]["travel"]["mp"] == 3
    assert {"type": "exert", "args": {}} not in s.legal(0)
    s.when(0, "move", to="nagoya")
    s.when(0, "move", to="kuwana")
    events = s.when(0, "end_travel")
    assert of_type(events, "TravelEnded")[0]["event_due"] is False  # no travel event for a group
    assert s.state["characters"]["hikaru"]["location"] == "kuwana" and s.state["characters"]["hikaru"]["traveled"]


def test_hikaru_and_hattori_travel_by_sea_as_a_group():
    # rules: Harakiri, "Group Travel by Sea" example: Hikaru's dexterity is 2 ... the group gains 5 movement points ... Nagoya, then 3 movement points and 10 coins to travel by sea to Ise, and then 1 to arrive at the temple ... no travel event ... having 2 action points
    s = activation("hikaru", characters={"hikaru": {"attributes": {"dexterity": 2}, "coins": 4},
                                         "hattori": {"attributes": {"dexterity": 2}, "coins": 8}})
    s.when(0, "travel", group=["hattori"])
    assert s.state["flow"]["travel"]["mp"] == 5
    s.when(0, "move", to="nagoya")
    s.when(0, "sail", to="ise")
    s.when(0, "move", to="amatsumikaboshi_temple")
    events = s.when(0, "end_travel")
    assert of_type(events, "TravelEnded")[0]["event_due"] is False
    chars = s.state["characters"]
    assert chars["hikaru"]["location"] == chars["hattori"]["location"] == "amatsumikaboshi_temple"
    assert chars["hikaru"]["coins"] + chars["hattori"]["coins"] == 2
    s.when(0, "end_activation")
    # rules: Harakiri, "Group Travel": Once a group travel action ends, the active character will continue their activation. Then, other group members will complete their activations.
    assert [c["args"]["character"] for c in s.legal(0) if c["type"] == "activate"] == ["hattori"]
    s.when(0, "activate", character="hattori")
    assert s.state["characters"]["hattori"]["ap"] == 2
    assert not [c for c in s.legal(0) if c["type"] == "travel"]


def test_only_characters_who_have_neither_activated_nor_travelled_may_join_a_group():
    # rules: Harakiri, "Group Travel": other characters that have not either yet activated or already traveled by group this round
    s = activation("hattori", characters={"hikaru": {"activated": True}})
    assert [c["args"]["group"] for c in s.legal(0) if c["type"] == "travel" and not c["args"].get("kami")] == [[]]
    s = activation("hattori", characters={"hikaru": {"traveled": True}})
    assert [c["args"]["group"] for c in s.legal(0) if c["type"] == "travel" and not c["args"].get("kami")] == [[]]
    assert s.rejects(0, "travel", group=["hikaru"]).code == "bad_args"


def _landslide(blessed):
    """Tomoe over two dangerous paths (Iga, Tsu): the red "Landslide" (1 damage, delayed)."""
    s = activation("tomoe", characters={"tomoe": {"blessed": blessed}}, decks={"travel": ["te_a02"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="iga")
    s.when(0, "move", to="tsu")
    s.when(0, "end_travel")
    return s, advance(s)


def test_a_blessed_token_can_be_discarded_to_avoid_being_delayed():
    # rules: Harakiri, "Delayed Characters": This effect is considered a negative condition. Therefore, it can be avoided if the active character discards a blessed token.
    s, _ = _landslide(blessed=1)
    assert [o["label"] for o in s.state["choice"]["options"]] == ["Discard a blessed token: not delayed",
                                                                  "Keep the blessed token: delayed"]
    s.when(0, "choose", option=0)
    events = advance(s)
    assert "CharacterDelayed" not in types(events)
    assert s.state["characters"]["tomoe"]["blessed"] == 0 and s.state["characters"]["tomoe"]["ap"] == 2
    assert s.status.phase == "activation" and s.status.awaiting == [0]


def test_keeping_the_blessed_token_or_having_none_means_delayed():
    s, _ = _landslide(blessed=1)
    s.when(0, "choose", option=1)
    advance(s)
    assert s.state["characters"]["tomoe"]["blessed"] == 1 and s.status.phase == "characters"
    s, events = _landslide(blessed=0)
    assert s.state["choice"] is None and "CharacterDelayed" in types(events)


def test_a_travel_event_can_grant_a_blessed_token():
    # rules: Harakiri, "Adventure Phase Iconography": Blessed 1x/2x (tokens)
    s = activation("akira", decks={"travel": ["te_a09"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "move", to="nara")  # imperial roads: the green side, "Temple bell"
    s.when(0, "end_travel")
    advance(s)
    assert s.state["characters"]["akira"]["blessed"] == 1


def test_a_skills_trait_adds_its_bonus_to_the_test_it_names():
    # rules: Harakiri, "Travel Events" (Traits): there will be a pre-condition, which if satisfied, will result in a bonus to the dice test, offer new options, or even automatic success
    for traits, success in (([], False), (["vigilant"], True)):  # Ambush: Dexterity(4), "vigilant" +2
        s = activation("akira", characters={"akira": {"traits": traits, "location": "kyoto"}}, decks={"travel": ["te_a01"]})
        s.when(0, "travel", group=[])
        s.when(0, "move", to="nara")
        s.when(0, "move", to="iga")  # a dangerous path: the red side
        s.when(0, "end_travel")
        test = of_type(advance(s, answers=[0, 0]), "TestRolled")[0]  # the test die shows 1
        assert (test["roll"], test["success"]) == (1, success), traits
        assert test["modifier"] == 1 + (2 if traits else 0)


def test_an_items_trait_counts_while_the_character_can_use_it():
    # rules: Harakiri, "Travel Events" (Traits): ... or even automatic success
    for knowledge, auto in ((1, True), (0, False)):  # Travel Papers need knowledge 1
        s = activation("akira", characters={"akira": {"items": ["jirobo_omamori", "travel_papers"],
                                                      "attributes": {"knowledge": knowledge}}},
                       decks={"travel": ["te_a04"]})
        s.when(0, "travel", group=[])
        s.when(0, "move", to="kyoto")
        s.when(0, "move", to="nara")  # the green "Checkpoint": Knowledge(4), trait "papers"
        s.when(0, "end_travel")
        test = of_type(advance(s, answers=[0]), "TestRolled")[0]
        assert (test["trait"], test["roll"] is None, test["success"]) == (("papers", True, True) if auto else (None, False, False))


def test_a_trait_can_offer_a_new_option_in_a_decision():
    for traits, enabled in (([], False), (["leadership"], True)):
        s = activation("akira", characters={"akira": {"traits": traits}}, decks={"travel": ["te_a08"]})
        s.when(0, "travel", group=[])
        s.when(0, "move", to="kyoto")
        s.when(0, "move", to="nara")
        s.when(0, "end_travel")
        advance(s)
        assert s.state["choice"]["options"][2]["enabled"] is enabled


def test_the_players_of_the_nominated_characters_agree_to_a_group_travel_first():
    # rules: Harakiri, "Group Travel": the active character nominates, in agreement with the other players, 1 or more other characters in the same location
    s = activation("hattori", seats=2, characters={"akira": {"location": "hikone"}})  # Hattori: seat 1; Akira, Hikaru: seat 0
    s.when(1, "travel", group=["akira", "hikaru"])
    assert s.status.awaiting == [0] and s.state["characters"]["hattori"]["ap"] == 3  # nothing spent yet
    assert s.legal(0) == [{"type": "answer_group", "args": {"agree": True}}, {"type": "answer_group", "args": {"agree": False}}]
    assert s.rejects(1, "move", to="nagoya").code == "not_your_turn"
    s.when(0, "answer_group", agree=True)
    assert s.state["flow"]["travel"]["group"] == ["akira", "hikaru"] and s.status.awaiting == [1]
    assert s.state["characters"]["hattori"]["ap"] == 2 and s.state["characters"]["hikaru"]["traveled"]
    s = activation("hattori", seats=2)
    s.when(1, "travel", group=["hikaru"])
    s.when(0, "answer_group", agree=False)  # refused: Hattori travels alone
    assert s.state["flow"]["travel"]["group"] == [] and not s.state["characters"]["hikaru"]["traveled"]
    s = activation("hattori", seats=1)
    s.when(0, "travel", group=["hikaru"])  # one player controls both: no one else to ask
    assert s.state["flow"]["travel"]["group"] == ["hikaru"]
