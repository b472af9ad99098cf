"""Restoration and winning the game."""

from games.engines.yashima import queries
from games.engines.yashima.content import MASTERS

from .helpers import P, attack, defs, hid, pl, prompt, scene

A, FRONT = "0,0", "0,-1"


def end_of_round(*players, **kw):
    return scene(*players, phase="end_of_round", **kw)


# rules: Yashima core, "Restoration and Winning the Game" (no life: hand and deck empty -> restoration soon; extra damage lost)
def test_depletion_enters_restoration_and_extra_damage_is_lost():
    s = scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 3),
              pl(master="kenta", pos="3,-3"))
    attack(s, 0, "seven")
    assert P(s, 1)["pending"] and len(P(s, 1)["discard"]) == 3


# rules: Yashima core, "Restoration" ("You cannot take any additional damage during the current round until after you restore")
def test_no_damage_while_waiting_to_restore():
    s = scene(pl(pos=A, hand=["plain"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=[], hand=[], pending=True),
              pl(master="kenta", pos="3,-3"))
    attack(s, 0, "plain")
    assert P(s, 1)["discard"] == [] and prompt(s) is None


# rules: Yashima core, "Restoration" (the waiting master's space stays occupied and locks adjacent opponents in combat)
def test_waiting_master_still_occupies_and_locks():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FRONT, deck=[], hand=[], pending=True), pl(master="kenta", pos="3,-3"))
    s.when(0, "move_action")
    steps = {c["args"]["to"] for c in s.legal(0) if c["type"] == "step"}
    assert FRONT not in steps
    s.when(0, "step", to="0,1")
    assert len(P(s, 0)["discard"]) == 1


def restoring(**kw):
    p1 = dict(master="rosamu", kami="dragon", pos="3,-3", deck=[], hand=[], pending=True, karma=["low", "mid"],
              discard=["plain"] * 12, statuses={"BURN": 1, "SPIRIT": 1}, equip=["tome:rosamu:3:front"], spread=2)
    p1.update(kw)
    s = end_of_round(pl(pos=A), pl(**p1), pl(master="kenta", pos="-3,3"))
    from games.kernel import SYSTEM
    s.when(SYSTEM, "proceed")
    return s


def finish(s):
    if prompt(s) and prompt(s)["kind"] == "restore_statuses":
        s.when(1, "restore_keep_statuses")
    if prompt(s) and prompt(s)["kind"] == "restore_equipment":
        s.when(1, "restore_keep_equipment")


# rules: Yashima core, "Restoration" step 1 ("Discard all cards in your karma pool")
def test_restoration_step1_karma_discarded():
    s = restoring()
    assert P(s, 1)["karma"] == [] and defs(P(s, 1)["discard"])[-2:] == ["low", "mid"]


# rules: Yashima core, "Restoration" step 2 ("Remove any number of statuses from yourself")
def test_restoration_step2_statuses():
    s = restoring()
    assert prompt(s)["kind"] == "restore_statuses" and prompt(s)["seat"] == 1
    s.when(1, "restore_remove_status", status="BURN")
    s.when(1, "restore_keep_statuses")
    assert P(s, 1)["st"] == {"SPIRIT": [1]} and s.state["supply"]["BURN"] == 14


# rules: Yashima core, "Restoration" step 3 (remove any number of equipment cards, returning them to the tome; keep the rest)
def test_restoration_step3_equipment():
    s = restoring()
    s.when(1, "restore_keep_statuses")
    assert prompt(s)["kind"] == "restore_equipment"
    s.when(1, "restore_unequip", card=P(s, 1)["equip"][0]["id"])
    assert P(s, 1)["equip"] == [] and P(s, 1)["tome"]["out"] == []
    s2 = restoring()
    s2.when(1, "restore_keep_statuses")
    s2.when(1, "restore_keep_equipment")
    assert defs(P(s2, 1)["equip"]) == ["tome:rosamu:3:front"]


# rules: Yashima core, "Restoration" step 4 (the discard pile becomes the new battle deck)
def test_restoration_step4_new_deck():
    s = restoring(statuses={}, equip=[])
    restored = MASTERS["rosamu"]["avatar"]["restored"]
    assert P(s, 1)["discard"] == []
    assert len(P(s, 1)["deck"]) + len(P(s, 1)["hand"]) + len(P(s, 1)["karma"]) == 14
    assert len(P(s, 1)["hand"]) == restored["hand"]


# rules: Yashima core, "Restoration" step 5 ("Flip your avatar card to the restored side")
def test_restoration_step5_restored_side():
    s = restoring(statuses={}, equip=[])
    assert P(s, 1)["restored"] and not P(s, 1)["pending"]
    assert queries.stats(s.state, 1) == MASTERS["rosamu"]["avatar"]["restored"]


# rules: Yashima core, "Restoration" step 6 (karma pool = restored karma value from the top of the deck)
def test_restoration_step6_karma():
    s = restoring(statuses={}, equip=[])
    assert len(P(s, 1)["karma"]) == MASTERS["rosamu"]["avatar"]["restored"]["karma"]


# rules: Yashima core, "Restoration" step 7 (draw up to the restored hand size) and "Do not turn any pages"
def test_restoration_step7_hand_and_no_page_turns():
    s = restoring(equip=[], statuses={"SPIRIT": 1})
    s.when(1, "restore_keep_statuses")
    assert len(P(s, 1)["hand"]) == MASTERS["rosamu"]["avatar"]["restored"]["hand"] + 1  # SPIRIT kept: HAND +1
    assert P(s, 1)["tome"]["spread"] == 2
    assert s.state["phase"] == "destiny" and s.state["round"] == 2


# rules: Yashima core, "Restoration" step 4 (core: turn the discard pile over) -- option restore_shuffle=false
def test_restoration_turn_over_option():
    s = end_of_round(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3", deck=[], hand=[], pending=True, discard=["low", "mid", "high", "plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain", "plain"]),
                     pl(master="kenta", pos="-3,3"), options={"restore_shuffle": False})
    from games.kernel import SYSTEM
    s.when(SYSTEM, "proceed")
    restored = MASTERS["rosamu"]["avatar"]["restored"]
    assert defs(P(s, 1)["karma"])[:3] == ["low", "mid", "high"][:restored["karma"]]


# rules: Yashima core, "Restoration" ("if you again have no more remaining cards ... and have already entered restoration, you are killed")
def test_second_depletion_kills():
    s = scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"], restored=True, statuses={"BLIND": 1}),
              pl(master="kenta", pos="3,-3"))
    attack(s, 0, "seven")
    assert P(s, 1)["dead"] and P(s, 1)["pos"] is None and P(s, 1)["st"] == {}
    assert s.state["supply"]["BLIND"] == 8


# rules: Yashima core, "Restoration and Winning the Game" (no life = no cards in hand AND battle deck; a second time:
# killed) and Fairytale "Attack Action Breakdown" 1.3.4 (the attack lies revealed on the table, in neither zone):
# a restored attacker whose last cards a RIPOSTE takes is killed; the attack still resolves and its card is USEd
def test_attacker_emptied_by_riposte_during_the_attack_is_killed():
    s = scene(pl(pos=A, hand=["plain"], deck=["low", "low"], restored=True),
              pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["riposte"]), pl(master="kenta", pos="3,-3"))
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "riposte"))  # 3 damage to the attacker, who has 2 cards left
    assert P(s, 0)["dead"] and P(s, 0)["pos"] is None
    assert len(P(s, 1)["discard"]) == 3  # riposte + 2 damage (4 - 2 prevented)
    assert s.state["turn"]["seat"] == 1


# rules: Yashima core, "Restoration and Winning" (end of turn: all opponents restored or about to -> you win)
# rules: Yashima Fairytale, "Game objective" ("If at the end of the turn all your opponents have been restored, you win!")
def test_two_player_win_at_end_of_turn():
    s = scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 3))
    attack(s, 0, "seven")
    assert not s.status.finished
    s.when(0, "end_turn")
    assert s.status.finished and s.status.winners == [0] and s.state["result"]["reason"] == "last_standing"


# rules: Yashima core, "Restoration and Winning" (all masters restored or about to -> tie)
def test_tie():
    s = scene(pl(pos=A, hand=["seven"], restored=True), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 3))
    attack(s, 0, "seven")
    s.when(0, "end_turn")
    assert s.status.finished and s.status.winners == [] and s.state["result"]["reason"] == "tie"


# rules: Yashima core, "Restoration and Winning" (a restored master still plays but no longer counts as standing)
def test_three_player_game_continues_until_one_stands():
    s = scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 3),
              pl(master="kenta", pos="3,-3"))
    attack(s, 0, "seven")
    s.when(0, "end_turn")
    assert not s.status.finished and s.state["turn"]["seat"] == 2


# rules: Yashima core, "Playing a Team Game" (the winning team is the last one with at least one master standing)
# rules: Yashima Fairytale, "Playing a Team Game" ("the winning team being the last one with a master who hasn't restored")
def test_team_win():
    s = scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 3),
              pl(master="kenta", pos="3,-3", restored=True), pl(master="hikaru", kami="phoenix", pos="-3,3", restored=True),
              teams=[0, 1, 0, 1])
    attack(s, 0, "seven")
    s.when(0, "end_turn")
    assert s.status.finished and s.status.winners == [0, 2]


# rules: project option round_cap (a clean end for bots and tests)
def test_round_cap():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), pool={"move": 1, "attack": 0}, options={"round_cap": 1})
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert s.status.finished and s.state["result"] == {"winners": [], "reason": "round_cap"}


# rules: Yashima core, "Restoration" (a killed master is out of the game: no space, no tokens in the destiny step)
def test_killed_master_leaves_the_board_and_the_token_count():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FRONT, dead=True), pl(master="kenta", pos="3,-3"), phase="destiny")
    from games.engines.yashima import queries as qq
    P(s, 1)["pos"] = None
    assert s.status.awaiting == [0, 2]
    s.when(0, "choose_token", token="move")
    s.when(2, "choose_token", token="move")
    assert s.state["pool"] == {"move": 3, "attack": 1}
    assert qq.occupant(s.state, FRONT) is None


# rules: Yashima core, "Locked In Combat" + "Restoration" (a restored master EXERTing its last card mid-move is killed; the move ends)
def test_killed_mid_move_ends_the_turn():
    s = scene(pl(pos=A, deck=["plain"], restored=True), pl(master="rosamu", kami="dragon", pos=FRONT),
              pl(master="kenta", pos="3,-3"))
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")  # leaving Rosamu costs the last card
    assert P(s, 0)["dead"] and P(s, 0)["pos"] is None
    assert s.state["turn"]["seat"] == 1 and not s.state["stacks"]["main"]


# rules: Yashima core, "3. Initiative Step" ("Place the top card of your battle deck face up into your karma
# pool") and "Restoration and Winning the Game" ("If you have no life remaining (no cards in hand AND battle
# deck) you will soon enter restoration. Skip each turn you would have for the remainder of the current
# round"): the initiative winner whose card was their last takes no turn - no RANCOR removed, no PLAGUE card
# of theirs played - and the next master to the left begins
def test_initiative_winner_left_without_life_skips_the_turn():
    from games.kernel import SYSTEM

    s = scene(pl(pos=A, deck=["high"], hand=[], discard=["plague"], statuses={"RANCOR": 1}),
              pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"], hand=["plain"], statuses={"PLAGUE": 1}),
              pl(master="kenta", pos="-3,3", deck=["low", "plain"], hand=["plain"]), phase="initiative")
    s.when(SYSTEM, "proceed")
    assert s.state["last_init"] == 0 and P(s, 0)["pending"]
    assert s.state["phase"] == "battle" and s.state["turn"]["seat"] == 1 and s.status.awaiting == [1]
    assert P(s, 0)["st"] == {"RANCOR": [0]} and defs(P(s, 0)["discard"]) == ["plague"]
    assert P(s, 1)["discard"] == []  # no PLAGUE damage: seat 0's turn never started


# rules: Yashima core, "3. Initiative Step" ("The player who reveals the card with the highest karma value wins
# the initiative"; "In the rare case that all players are EXHAUSTED, the player who won initiative last round
# wins"), BURN ("Otherwise they take 1 damage") and "Restoration and Winning the Game" ("you are killed! ...
# You are out of the game"): a restored master killed by BURN after revealing the highest karma does not win
# the initiative; among the masters still in the game, all EXHAUSTED, last round's winner does
def test_master_killed_during_the_initiative_step_cannot_win_it():
    from games.kernel import SYSTEM

    s = scene(pl(pos=A, deck=["mid"], hand=[], restored=True, statuses={"BURN": 1}),
              pl(master="rosamu", kami="dragon", pos="3,-3", deck=[], hand=["plain"]),
              pl(master="kenta", pos="-3,3", deck=[], hand=["plain"]), phase="initiative", last_init=2)
    s.when(SYSTEM, "proceed")
    assert P(s, 0)["dead"]
    assert s.state["last_init"] == 2 and s.state["turn"]["seat"] == 2
