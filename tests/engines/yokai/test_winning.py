"""How to win: conquest of 5 terrains, or an opponent drawing from an empty deck; team play."""

from .helpers import grid, lp, mon, scene

ROWS4 = (3, 4, 4, 4)


def four_of(owner, squares=("0,0", "0,1", "0,2", "1,0")):
    return [mon(p, "kodama", owner, lp=3) for p in squares]


# rules: Yokai Battle, "How to win" ("You have to conquer 5 terrain cards by summoning 5 of your monsters onto them")
# rules: Yokai Battle, "How to read a monster card" ("Each player has a set of 4 life-counter discs"): a component, not a
# limit on monsters in play (docs/games/yokai.md, decision 32): the 5th monster is summoned like the others
def test_fifth_monster_without_a_fight_wins():
    s = scene(monsters=four_of(0), hands={"0": [{"card": "gaki", "id": "g"}]})
    s.when(0, "summon", card="g", terrain="2,2", orientation="vertical")
    assert s.status.finished and s.status.winners == [0]
    assert s.state["result"]["reason"] == "conquest"
    assert s.legal(0) == [] and s.legal(1) == []
    assert s.rejects(1, "end_turn").code == "game_over"


# rules: Yokai Battle, "How to win" ("After you've summoned your 5th monster, it either survives and its player wins the game, or dies and the game continues")
def test_fifth_monster_dying_in_its_fight_does_not_win():
    s = scene(monsters=four_of(0) + [mon("2,1", "daki", 1, lp=8)], hands={"0": [{"card": "gaki", "id": "g"}]})
    s.when(0, "summon", card="g", terrain="2,2", orientation="vertical")
    assert not s.status.finished  # the summoning fight is still to come
    s.when(0, "attack", attacker="2,2", defender="2,1")
    assert "2,2" not in s.state["monsters"] and not s.status.finished
    assert s.status.awaiting == [0]


# rules: Yokai Battle, "How to win" (the 5th monster survives its summoning fight)
def test_fifth_monster_surviving_its_fight_wins():
    s = scene(monsters=four_of(0) + [mon("2,1", "daki", 1, lp=8)], hands={"0": [{"card": "onikuma", "id": "o"}]})
    s.when(0, "summon", card="o", terrain="2,2", orientation="vertical")
    s.when(0, "attack", attacker="2,2", defender="2,1")
    assert lp(s, "2,2") > 0 and s.status.finished and s.status.winners == [0]


# rules: Yokai Battle, "How to win" (it must survive the whole summoning, including the enemy's "when killed" ability)
def test_fifth_monster_killed_by_a_death_ability_does_not_win():
    board = grid("wood", r2c1="fire")
    s = scene(board=board, monsters=four_of(0) + [mon("2,1", "akuro_jin_no_hi", 1, lp=1)],
              hands={"0": [{"card": "gaki", "id": "g"}]})
    s.when(0, "summon", card="g", terrain="2,2", orientation="vertical")
    s.when(0, "attack", attacker="2,2", defender="2,1")
    assert not s.status.finished and s.status.awaiting == [1]
    s.when(1, "choose_target", target="2,2")
    assert "2,2" not in s.state["monsters"] and not s.status.finished


# rules: Yokai Battle, "How to win" ("Have the opposing players draw a card when their deck is empty")
def test_drawing_from_an_empty_deck_loses():
    s = scene(decks={"0": [], "1": ["gaki"]})
    s.when(0, "end_turn")
    assert s.status.finished and s.status.winners == [1]
    assert s.state["result"] == {"reason": "deck_out", "loser": 0}


# rules: Yokai Battle, "How to win" (every man for himself with 3 or 4 players: the player who must draw from an empty deck loses, every opponent wins)
def test_deck_out_free_for_all():
    s = scene(seats=3, board=grid("wood", (3, 4, 4)), turn=1, decks={"0": ["gaki"], "1": [], "2": ["gaki"]})
    s.when(1, "end_turn")
    assert s.status.winners == [0, 2]


# rules: Yokai Battle, "Game mode" ("cooperation 2 VS 2") and "Ability caption" (team play): the team wins
def test_team_conquest_and_team_deck_out():
    board = grid("wood", ROWS4)
    s = scene(seats=4, teams=True, board=board, turn=2, monsters=four_of(2), hands={"2": [{"card": "gaki", "id": "g"}]})
    s.when(2, "summon", card="g", terrain="3,3", orientation="vertical")
    assert s.status.winners == [0, 2]
    s = scene(seats=4, teams=True, board=board, turn=1, decks={"0": ["gaki"], "1": [], "2": ["gaki"], "3": ["gaki"]})
    s.when(1, "end_turn")
    assert s.status.winners == [0, 2]


# rules: Yokai Battle, "How to win" ("summoning 5 of your monsters"): a team-mate's monsters are not yours
def test_team_mates_monsters_do_not_count():
    board = grid("wood", ROWS4)
    monsters = four_of(2, ("0,0", "0,1", "0,2")) + four_of(0, ("3,0",))
    s = scene(seats=4, teams=True, board=board, monsters=monsters, hands={"0": [{"card": "gaki", "id": "g"}]})
    s.when(0, "summon", card="g", terrain="3,3", orientation="vertical")
    assert not s.status.finished
