"""Rounds, chakra points and the draw phase."""

from games.engines.yokai import ENGINE

from .helpers import grid, mon, scene, types


# rules: Yokai Battle, "Addition and distribution of chakra points (CPs)" ("Players start the game with 2 CP. Then they add 1 CP for each new round ... until they reach 10")
def test_chakra_meter_grows_each_round_up_to_10():
    # given round 1 with the meter at 2
    s = scene(round=1, meter=2, chakra=2, decks={"0": ["gaki"] * 40, "1": ["gaki"] * 40})
    seen = []
    # when 12 rounds are played (both players end their turns)
    for _ in range(12):
        seen.append((s.state["round"], s.state["meter"], list(s.state["chakra"])))
        s.when(0, "end_turn")
        s.when(1, "end_turn")
    # then the meter goes 2, 3, ... 10 and stays at 10
    assert [m for _, m, _ in seen] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert [r for r, _, _ in seen] == list(range(1, 13))
    assert all(ch == [m, m] for _, m, ch in seen)


# rules: Yokai Battle, "End of the round" ("the player's remaining CPs are reset to 0 ... Players' CPs are not cumulative")
def test_chakra_not_cumulative():
    # given round 3 (meter 4), seat 0 has spent nothing, seat 1 spent 3
    s = scene(round=3, meter=4, chakra={"0": 4, "1": 1})
    # when the round ends
    s.when(0, "end_turn")
    events = s.when(1, "end_turn")
    # then the remaining points were reset to 0 and everybody gets the new meter value only
    assert types(events)[-3:] == ["RoundEnded", "RoundStarted", "TurnStarted"]
    assert s.state["chakra"] == [5, 5]
    assert s.state["round"] == 4


# rules: Yokai Battle, "Combat phase" ("spend their chakra points (CPs) to either summon their monsters or to attack")
def test_chakra_spent_during_the_turn():
    s = scene(hands={"0": [{"card": "onibi", "id": "o"}]}, chakra=5)
    s.when(0, "summon", card="o", terrain="0,0", orientation="vertical")
    assert s.state["chakra"] == [2, 5]


# rules: Yokai Battle, "Draw phase and turn closure" ("draw one card after each end of their turns. If they have less than 5 cards ... draw cards repeatedly to bring their number of cards to 5")
def test_turn_closure_draws_one_then_up_to_five():
    # given seat 0 with 1 card in hand and 10 in the deck
    s = scene(hands={"0": ["gaki"], "1": ["gaki"] * 6})
    # when seat 0 closes its turn
    events = s.when(0, "end_turn")
    drawn = [e["payload"] for e in events if e["type"] == "CardsDrawn"]
    # then it draws 1 card, then 3 more to reach 5, and the next player plays
    assert [(d["reason"], d["count"]) for d in drawn] == [("turn", 1), ("refill", 3)]
    assert len(s.state["players"][0]["hand"]) == 5 and len(s.state["players"][0]["deck"]) == 6
    assert s.status.awaiting == [1]
    # when seat 1 (6 cards) closes its turn / then it draws exactly one card (no hand limit)
    s.when(1, "end_turn")
    assert len(s.state["players"][1]["hand"]) == 7


# rules: Yokai Battle, "Draw phase and turn closure" (the refill is allowed, not forced: it stops at an empty deck)
def test_refill_stops_when_the_deck_runs_out():
    s = scene(hands={"0": []}, decks={"0": ["gaki", "kappa"], "1": ["gaki"]})
    s.when(0, "end_turn")
    assert not s.status.finished
    assert len(s.state["players"][0]["hand"]) == 2 and s.state["players"][0]["deck"] == []


# rules: Yokai Battle, "Course of a round" ("A player's turn includes a combat phase, draw phase and turn closure")
def test_turn_is_combat_then_draw():
    # given seat 0 in its combat phase with a summonable card
    s = scene(hands={"0": [{"card": "kodama", "id": "k"}]}, decks={"0": ["gaki"] * 5, "1": ["gaki"] * 5})
    # then it may summon, attack or end; nothing is drawn before the turn is closed
    assert {c["type"] for c in s.legal(0)} == {"summon", "end_turn"}
    s.when(0, "summon", card="k", terrain="0,0", orientation="vertical")
    assert len(s.state["players"][0]["deck"]) == 5
    assert s.legal(1) == [] and s.rejects(1, "end_turn").code == "not_your_turn"
    s.when(0, "end_turn")
    assert len(s.state["players"][0]["deck"]) == 0 and s.status.awaiting == [1]
    # a new turn resets the summon count
    assert s.state["summons"] == 0


# rules: Yokai Battle, "Summoning of monster cards" ("A monster cannot change its position after being summoned")
def test_monsters_never_move():
    s = scene(monsters=[mon("1,1", "onibi", 0)], board=grid("fire"))
    assert not any(c["type"] not in ("summon", "attack", "transfer_lp", "end_turn") for c in s.legal(0))
    assert s.rejects(0, "move", monster="1,1", to="0,0").code == "unknown_command"
    for _ in range(3):
        s.when(0, "end_turn")
        s.when(1, "end_turn")
    assert list(s.state["monsters"]) == ["1,1"]
    assert ENGINE.status(s.state).phase == "combat"
