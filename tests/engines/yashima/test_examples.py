"""The rulebook's worked two-player game (Akiko + Tiger vs Rosamu + Dragon), played as scenarios."""

from games.engines.yashima.queries import tome_pages

from .helpers import P, attack, defs, hid, pl, prompt, scene

A, FRONT = "0,0", "0,-1"


# rules: Yashima core, "Example Two Player Game" round 2 turn 3 and round 4 turn 3 (CHAIN into further attacks without a token)
def test_chain_into_further_attacks():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, hand=["rosamu_01", "rosamu_04", "dragon_03", "mulan_10"],
                 deck=["low"] + ["plain"] * 9),
              pl(master="akiko", kami="tiger", pos="0,-2", facing=3, deck=["plain"] * 20))
    attack(s, 0, "rosamu_01")  # Coil Whip, CHAIN
    assert s.state["pool"]["attack"] == 0
    s.when(0, "use_effect", effect="CHAIN")  # reveals "low": under the deck
    assert prompt(s)["kind"] == "chain_followup"
    offered = {c["args"]["card"] for c in s.legal(0) if c["type"] == "chain_attack"}
    assert offered == {hid(s, 0, "rosamu_04"), hid(s, 0, "dragon_03")}  # karma 6 or higher only
    s.when(0, "chain_attack", card=hid(s, 0, "rosamu_04"), facing=0)  # Falling Tree, also CHAIN
    assert s.state["pool"]["attack"] == 0
    s.when(0, "use_effect", effect="CHAIN")
    assert prompt(s)["kind"] == "chain_followup"
    s.when(0, "chain_attack", card=hid(s, 0, "dragon_03"), facing=0)  # Dragon's Path
    while prompt(s) and prompt(s)["kind"] == "optional_effect":
        s.when(0, "skip_effect", effect=prompt(s)["cmds"][0]["args"]["effect"])
    assert prompt(s) is None
    assert defs(P(s, 0)["hand"]) == ["mulan_10"]
    assert "end_turn" in [c["type"] for c in s.legal(0)]


# rules: Yashima core, "Example Two Player Game" round 1 turn 1 (FOCUS using the relic terrain to turn pages; only one page chosen)
def test_relic_focus_turns_one_page():
    s = scene(pl(master="rosamu", kami="dragon", pos=A), pl(master="akiko", kami="tiger", pos="3,-3"), terrain={"1,0": "relic"})
    s.when(0, "focus")
    s.when(0, "relic_turn", master=0, delta=1)
    assert P(s, 0)["tome"]["spread"] == 1 and len(P(s, 0)["karma"]) == 1


# rules: Yashima core, "Example Two Player Game" round 1 turn 3 (pay 8 to IMPRINT "One With All"; the attack token is taken unused)
def test_imprint_one_with_all():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=1, karma=["seven", "mid"]), pl(master="akiko", kami="tiger", pos="3,-3"))
    s.when(0, "take_token", token="attack")
    s.when(0, "ability", src="page:2")
    s.when(0, "pay_card", card=hid(s, 0, "mid", "karma"))
    assert P(s, 0)["deck"][-1]["d"] == "tome:rosamu:0:back" and P(s, 0)["karma"] == []


# rules: Yashima core, "Example Two Player Game" round 1 turn 2 (Rain of Fire: pay 2 karma to BURN two spaces)
def test_rain_of_fire():
    s = scene(pl(pos=A, karma=["mid"]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:1")
    s.when(0, "choose_space", cell="1,1")
    s.when(0, "choose_space", cell="2,1")
    assert s.state["spst"] == {"1,1": {"BURN": [0]}, "2,1": {"BURN": [0]}}
    assert prompt(s) is None


# rules: Yashima core, "Example Two Player Game" round 2 turn 4 (Fire Whip: 4 damage to Rosamu, who has BURN)
def test_fire_whip_needs_burn():
    s = scene(pl(pos=A, spread=1, karma=["mid"]), pl(master="rosamu", kami="dragon", pos="0,-2", statuses={"BURN": 1}),
              pl(master="kenta", pos="0,-3"))
    s.when(0, "ability", src="page:2")
    assert len(P(s, 1)["deck"]) == 6 and len(P(s, 2)["deck"]) == 10


# rules: Yashima core, "Example Two Player Game" round 2 turn 1 (Beggar's Alms: draw three, then three on top of the deck)
def test_beggars_alms():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=1, tome_out=[0], karma=["mid"], hand=["seven"],
                 deck=["low", "mid", "high", "plain"]), pl(master="akiko", kami="tiger", pos="3,-3"))
    s.when(0, "ability", src="page:3")
    assert len(P(s, 0)["hand"]) == 4 and prompt(s)["kind"] == "put_on_top"
    for d in ("low", "mid", "high"):
        s.when(0, "put_on_top", card=hid(s, 0, d))
    assert defs(P(s, 0)["deck"])[:3] == ["high", "mid", "low"] and defs(P(s, 0)["hand"]) == ["seven"]


# rules: Yashima core, "Example Two Player Game" round 4 turn 1 (Overwhelming Insight deals Akiko 3 damage)
def test_overwhelming_insight():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=2, karma=["mid", "low", "low", "low"]),
              pl(master="akiko", kami="tiger", pos="0,-3", facing=3))
    s.when(0, "ability", src="page:5")  # cost 4: the "mid" card pays; 3 cards stay in the pool
    assert defs(P(s, 0)["karma"]) == ["low", "low", "low"]
    assert len(P(s, 1)["deck"]) == 7


# rules: Yashima core, "Example Two Player Game" round 2 turn 1 (moving through a burning space picks up BURN)
def test_moving_picks_up_burn():
    s = scene(pl(master="rosamu", kami="dragon", pos=A), pl(master="akiko", kami="tiger", pos="3,-3"),
              space_statuses={"0,1": {"BURN": 1}})
    s.when(0, "move_action")
    for cell in ("0,1", "0,2", "0,3"):
        s.when(0, "step", to=cell)
    s.when(0, "end_move", facing=0)
    assert P(s, 0)["st"] == {"BURN": [1]} and s.state["spst"] == {}
    assert s.state["turn"]["token"] == "move"


# rules: Yashima core, "Example Two Player Game" round 2 turn 2 (Bared Fangs for 6; Rosamu DODGEs with Dragon Strike)
def test_bared_fangs_dodged_by_dragon_strike():
    s = scene(pl(pos=A, hand=["tiger_01"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["dragon_01"]))
    attack(s, 0, "tiger_01")
    s.when(1, "defend", card=hid(s, 1, "dragon_01"))
    s.when(1, "dodge_to", to="-1,-1")
    assert prompt(s)["kind"] == "optional_effect"  # Bared Fangs' DRAW; no damage was dealt
    assert len(P(s, 1)["deck"]) == 10 - 2  # the DODGE EXERT and one more for leaving Akiko's side


def _answer_first(s, seat, kinds):
    """Answer ``seat``'s prompts of the given kinds with their first listed option."""
    while prompt(s) and prompt(s)["seat"] == seat and prompt(s)["kind"] in kinds:
        first = prompt(s)["cmds"][0]
        s.when(seat, first["type"], **first["args"])


def _rosamu_tome_action(s, page):
    """Rosamu plays the karma ability on ``page``: it must be face up (and affordable) as the tome lies."""
    assert {"type": "ability", "args": {"src": f"page:{page}"}} in s.legal(0), [p for p, _, _ in tome_pages(s.state, 0)]
    s.when(0, "ability", src=f"page:{page}")
    _answer_first(s, 0, ("pay", "put_on_top"))
    _answer_first(s, 1, ("lose",))


def _end_turn(s, seat, token):
    s.when(seat, "take_token", token=token)
    s.when(seat, "end_turn")


def _next_round(s):
    s.when(0, "choose_token", token="attack")
    s.when(1, "choose_token", token="move")
    s.when(0, "end_reconcile")
    s.when(1, "end_reconcile")  # initiative follows: Rosamu's "seven" beats Akiko's "low"
    assert s.state["phase"] == "battle" and s.state["turn"]["seat"] == 0


# rules: Yashima core, "Example Two Player Game" - Rosamu's whole tome sequence, played from the start with
# page turns only where the example makes them: R1T1 relic FOCUS turning one page, R1T3 IMPRINT "One With
# All" (8), R2T1 "Beggar's Alms", R2T3 DELVE, R3T1/R3T3 "Stupor", R4T1 "Overwhelming Insight", R4T3 "Stupor",
# R5T1 "Overwhelming Insight"; Akiko's relic FOCUS turns (R3T2, R4T4) turn her own tome
def test_rosamu_tome_sequence_of_the_example():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, deck=["seven"] * 30, karma=["seven"] * 12),
              pl(master="akiko", kami="tiger", pos="2,0", facing=4, deck=["low"] * 30),
              terrain={"1,0": "relic"}, pool={"move": 2, "attack": 2})
    # round 1
    s.when(0, "focus")
    s.when(0, "relic_turn", master=0, delta=1)  # "decides to only turn 1 page"
    _end_turn(s, 0, "move")
    _end_turn(s, 1, "move")
    s.when(0, "take_token", token="attack")  # the attack action is taken and not used
    _rosamu_tome_action(s, 2)  # One With All, IMPRINT, cost 8
    assert defs(P(s, 0)["deck"])[-1] == "tome:rosamu:0:back"
    s.when(0, "end_turn")
    _end_turn(s, 1, "attack")
    # round 2
    _next_round(s)
    _rosamu_tome_action(s, 3)  # Beggar's Alms
    _end_turn(s, 0, "move")
    s.when(1, "delve", dir=1)
    _end_turn(s, 1, "attack")
    s.when(0, "delve", dir=1)
    _end_turn(s, 0, "attack")
    _end_turn(s, 1, "move")
    # round 3
    _next_round(s)
    _rosamu_tome_action(s, 4)  # Stupor
    _end_turn(s, 0, "attack")
    s.when(1, "focus")
    s.when(1, "relic_turn", master=1, delta=2)
    _end_turn(s, 1, "attack")
    _rosamu_tome_action(s, 4)  # Stupor
    _end_turn(s, 0, "move")
    _end_turn(s, 1, "move")
    # round 4
    _next_round(s)
    life = len(P(s, 1)["deck"]) + len(P(s, 1)["hand"])
    _rosamu_tome_action(s, 5)  # Overwhelming Insight
    assert len(P(s, 1)["deck"]) + len(P(s, 1)["hand"]) < life
    _end_turn(s, 0, "attack")
    _end_turn(s, 1, "attack")
    _rosamu_tome_action(s, 4)  # Stupor
    _end_turn(s, 0, "move")
    s.when(1, "focus")
    s.when(1, "relic_turn", master=1, delta=2)
    _end_turn(s, 1, "move")
    # round 5
    _next_round(s)
    _rosamu_tome_action(s, 5)  # Overwhelming Insight
    assert [p for p, _, _ in tome_pages(s.state, 0)] == [4, 5] and P(s, 0)["tome"]["out"] == [0]
