"""Character movement: move, exert, diagonals, allies, terrain, heights."""

from games.engines.harakiri import grid, rules

from .helpers import arena, doc, find, open_rows, scenario


def _mover(rows=None, heights=None, characters=None, enemies=None, who="hikaru", **kw):
    chars = {who: {"sq": "2,2", "ap": 4}}
    for c, spec in (characters or {}).items():
        chars[c] = {**chars.get(c, {}), **spec}
    return scenario(doc(arena(rows or open_rows(), heights=heights), chars, enemies,
                        activate=f"char:{who}", **kw))


def steps(s, seat=0):
    return sorted(c["args"]["to"] for c in s.legal(seat) if c["type"] == "step")


def test_move_gives_3_plus_dexterity_and_exert_adds_3():
    # rules: Harakiri, "Move and Exert"
    s = _mover(who="hattori")  # dexterity 1
    s.when(0, "move")
    assert s.state["turn"]["mp"] == 4 and s.state["characters"]["hattori"]["ap"] == 3
    s.when(0, "exert")
    assert s.state["turn"]["mp"] == 7 and s.state["characters"]["hattori"]["ap"] == 2
    s.when(0, "step", to="3,3")
    assert s.state["characters"]["hattori"]["sq"] == "3,3" and s.state["turn"]["mp"] == 6


def test_move_only_once_per_activation():
    # rules: Harakiri, "Move and Exert": this action may only be taken once per activation
    s = _mover()
    s.when(0, "move")
    s.when(0, "step", to="2,3")
    s.when(0, "end_move")
    assert not any(c["type"] == "move" for c in s.legal(0))
    assert s.rejects(0, "move").code == "illegal_command"


def test_no_diagonal_step_past_an_enemy_square():
    # rules: Harakiri, "Move and Exert" (the Hikaru example): no diagonal move if an occupied
    # square is adjacent to both squares
    s = _mover(enemies={"kachi": {"type": "kachi", "color": "red", "at": "3,2"}})
    s.when(0, "move")
    legal = steps(s)
    assert "3,3" not in legal and "3,1" not in legal and "3,2" not in legal
    assert "2,3" in legal and "1,1" in legal


def test_characters_pass_through_allies_but_do_not_end_there():
    # rules: Harakiri, "Move and Exert": move through squares with other characters, finish on
    # an empty square; allies do not hinder diagonals
    s = _mover(characters={"tomoe": {"sq": "3,2"}})
    s.when(0, "move")
    assert "3,2" in steps(s) and "3,3" in steps(s)
    s.when(0, "step", to="3,2")
    assert not any(c["type"] == "end_move" for c in s.legal(0))
    assert not any(c["type"] == "end_activation" for c in s.legal(0))
    s.when(0, "step", to="4,2")
    s.when(0, "end_move")
    assert s.state["characters"]["hikaru"]["sq"] == "4,2"


def test_difficult_terrain_costs_2_to_leave():
    # rules: Harakiri, "Difficult Terrain (purple)": moving out costs an additional point
    rows = open_rows()
    rows[2] = "..~" + rows[2][3:]
    s = _mover(rows=rows, characters={"hikaru": {"sq": "2,2"}})
    s.when(0, "move")
    s.when(0, "step", to="3,2")
    assert s.state["turn"]["mp"] == 3 - 2


def test_crossing_difficult_terrain_counts():
    # rules: Harakiri, "Difficult Terrain": crossing costs 2 even without ending there
    rows = open_rows()
    rows[2] = "...~" + rows[2][4:]
    s = _mover(rows=rows)
    s.when(0, "move")
    s.when(0, "step", to="3,2")  # 1
    s.when(0, "step", to="4,2")  # 2 (leaving difficult)
    assert s.state["turn"]["mp"] == 0


def test_obstacles_and_walls_cannot_be_entered():
    # rules: Harakiri, "Obstacles (yellow)" and "Inaccessible Terrain (red)"
    rows = open_rows()
    rows[2] = "...o" + rows[2][4:]
    rows[3] = "..#" + rows[3][3:]
    rows[2] = "..." + "o" + rows[2][4:]
    s = _mover(rows=rows)
    s.when(0, "move")
    legal = steps(s)
    assert "3,2" not in legal and "2,3" not in legal
    assert "3,3" not in legal and "3,1" not in legal  # diagonals past the obstacle / the wall
    assert "2,1" in legal and "1,2" in legal and "1,3" not in legal


def test_heights_need_stairs():
    # rules: Harakiri, "Ladders/Stairs"
    heights = ["0000000000"] * 2 + ["0011111111"] + ["0000000000"] * 7
    rows = open_rows()
    rows[2] = ".S" + rows[2][2:]
    s = _mover(rows=rows, heights=heights, characters={"hikaru": {"sq": "1,3"}})
    s.when(0, "move")
    assert "2,2" not in steps(s)  # different height, not from a regular square
    s.when(0, "step", to="1,2")  # the stairs, lowest level
    assert "2,2" in steps(s)


def test_spectral_onryo_moves_through_walls():
    # rules: Harakiri, "Spectral Movement"
    rows = open_rows()
    rows[1] = "##########"
    s = scenario(doc(arena(rows), {"tomoe": {"sq": "0,0"}},
                     {"onryo": {"type": "onryo", "color": "purple", "at": "3,3"}}))
    mover = rules.mover_for(s.state, "onryo")
    assert mover["spectral"]
    reach = grid.reachable(s.state, "3,3", 4, mover, rules.occupied_for(s.state, "shogun"))
    assert "3,0" in reach
    walker = grid.reachable(s.state, "3,3", 4, {}, rules.occupied_for(s.state, "shogun"))
    assert "3,0" not in walker


def test_interact_does_not_interrupt_the_movement():
    # rules: Harakiri, "Interact": interacting with a door does not interrupt the movement
    rows = open_rows()
    rows[2] = "....D" + rows[2][5:]
    scen = arena(rows, doors=[{"id": "d", "at": "4,2"}])
    s = scenario(doc(scen, {"hikaru": {"sq": "2,2", "ap": 4}}, activate="char:hikaru"))
    s.when(0, "move")
    s.when(0, "step", to="3,2")
    s.when(0, "interact", door="d")
    assert s.state["doors"]["d"]["open"] and s.state["turn"]["moving"]
    s.when(0, "step", to="4,2")
    assert s.state["characters"]["hikaru"]["sq"] == "4,2"


def test_flying_tengu_crosses_obstacles_and_heights_but_not_walls():
    # rules: Harakiri, "Flying Movement"
    rows = open_rows()
    rows[2] = "oooooooooo"
    rows[5] = "##########"
    heights = ["0000000000"] * 3 + ["1111111111"] + ["0000000000"] * 6
    s = scenario(doc(arena(rows, heights=heights), {}, {"t": {"type": "tengu", "color": "red", "at": "3,0"}}))
    mover = rules.mover_for(s.state, "t")
    assert mover["flying"]
    reach = grid.reachable(s.state, "3,0", 4, mover, rules.occupied_for(s.state, "shogun"))
    assert "3,3" in reach and "3,4" in reach and "3,6" not in reach
    walker = grid.reachable(s.state, "3,0", 4, {}, rules.occupied_for(s.state, "shogun"))
    assert "3,3" not in walker


def test_item_limits_when_giving():
    # rules: Harakiri, "Equipment and Item Limits"
    full = [{"id": "healing_potion", "uses": None}] * 5
    s = _mover(who="akira", characters={"akira": {"sq": "2,2", "items": [{"id": "holy_water", "uses": None},
                                                                        {"id": "jirobo_omamori", "uses": None}]},
                                        "tomoe": {"sq": "3,2", "items": full}})
    gives = [c["args"] for c in s.legal(0) if c["type"] == "give" and "slot" in c["args"]]
    assert gives == [{"to": "tomoe", "slot": 1}]  # only the special omamori fits


def test_spectral_movement_changes_height_only_by_stairs():
    # rules: Harakiri, "Height Levels": "Squares at different heights can only be moved between by using
    # a ladder or stairs"; "Flying Movement" may "move between squares at different heights as if they
    # were adjacent", while "Spectral Movement" only moves "through any kind of terrain"
    heights = ["0000011111"] * 10
    rows = open_rows()
    rows[8] = "....S....."  # stairs at 4,8, the lower level
    s = scenario(doc(arena(rows, heights=heights), {}, {"o": {"type": "onryo", "color": "purple", "at": "4,4"}}))
    st = s.state
    spectral, flying = rules.mover_for(st, "o"), {"flying": True}
    assert grid.step_cost(st, "4,4", "5,4", spectral, set()) is None
    assert grid.step_cost(st, "4,4", "5,4", flying, set()) == 1
    reach = grid.reachable(st, "4,4", 5, spectral, set())  # 4 steps down to the stairs, 1 up
    assert {q for q in reach if grid.height(st, q) == 1} == {"5,7", "5,8", "5,9"}
