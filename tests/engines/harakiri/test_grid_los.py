"""Adjacency, range, line of sight and heights."""

from games.engines.harakiri import grid, rules

from .helpers import arena, doc, open_rows, scenario


def _state(rows=None, heights=None, characters=None, enemies=None, **kw):
    return scenario(doc(arena(rows or open_rows(), heights=heights), characters, enemies, **kw)).state


def test_adjacency_includes_diagonals():
    # rules: Harakiri, "Adjacency"
    s = _state()
    assert grid.adjacent(s, "4,4", "5,5")
    assert grid.adjacent(s, "4,4", "4,5")
    assert not grid.adjacent(s, "4,4", "6,4")


def test_different_heights_are_not_adjacent():
    # rules: Harakiri, "Height Levels": squares at different heights are not adjacent
    heights = ["0000000000"] * 4 + ["0000011111"] + ["0000000000"] * 5
    s = _state(heights=heights)
    assert not grid.adjacent(s, "4,4", "5,4")
    assert grid.adjacent(s, "5,4", "6,4")


def test_range_counts_squares_excluding_origin():
    # rules: Harakiri, "Determining Range": "Hattori is range 5 from the kappa"
    assert grid.range_between("0,5", "5,2") == 5
    assert grid.range_between("0,5", "0,5") == 0
    assert grid.range_between("2,2", "3,3") == 1


def _hattori_board():
    rows = open_rows()
    rows[4] = "o" + rows[4][1:]  # obstacle at 0,4
    rows[5] = "..#" + rows[5][3:]  # inaccessible at 2,5
    return _state(rows=rows, characters={"hattori": {"sq": "0,5"}, "tomoe": {"sq": "1,6"}},
                  enemies={"kappa_top": {"type": "kappa", "color": "red", "at": "3,2"},
                           "kappa_bottom": {"type": "kappa", "color": "blue", "at": "4,3"},
                           "onryo": {"type": "onryo", "color": "purple", "at": "6,3"},
                           "kappa_tomoe": {"type": "kappa", "color": "green", "at": "2,7"}})


def test_hattori_sees_the_top_kappa_past_one_corner():
    # rules: Harakiri, "Determining Line of Sight (LOS)": touching the corner of exactly 1
    # occupied (obstacle) square keeps the LOS
    s = _hattori_board()
    occ = grid.terrain_los_occupied(s, "0,5", "3,2") | rules.occupied_for(s, "party")
    blk = grid.los_blockers(s, "0,5", "3,2", occ - {"3,2"})
    assert blk == {"through": [], "corners": ["0,4"]}
    assert rules.los(s, "0,5", "3,2", "party")


def test_hattori_cannot_see_the_onryo_past_two_corners():
    # rules: Harakiri, "Determining Line of Sight (LOS)": the line touches the corners of the
    # inaccessible terrain and of the square with the bottom kappa
    s = _hattori_board()
    occ = grid.terrain_los_occupied(s, "0,5", "6,3") | rules.occupied_for(s, "party")
    blk = grid.los_blockers(s, "0,5", "6,3", occ - {"6,3"})
    assert blk["through"] == [] and sorted(blk["corners"]) == ["2,5", "4,3"]
    assert not rules.los(s, "0,5", "6,3", "party")


def test_allies_do_not_block_characters_los():
    # rules: Harakiri, "Determining Line of Sight (LOS)": "as the allies do not obstruct LOS,
    # Hattori does see the kappa adjacent to Tomoe"
    s = _hattori_board()
    assert rules.los(s, "0,5", "2,7", "party")
    # ...while for an enemy the character's square is occupied
    assert not rules.los(s, "2,7", "0,5", "shogun")


def test_line_through_an_occupied_square_is_blocked():
    # rules: Harakiri, "Determining Line of Sight (LOS)": "If the traced line goes through any
    # occupied squares, there is no line of sight"
    rows = open_rows()
    rows[2] = "..o" + rows[2][3:]
    s = _state(rows=rows)
    assert not rules.los(s, "0,2", "5,2", "party")
    assert rules.los(s, "0,3", "5,3", "party")


def test_obstacles_do_not_block_between_heights_but_inaccessible_does():
    # rules: Harakiri, "Line of Sight (LOS) and Height Level"; "Inaccessible Terrain"
    heights = ["1110000000"] + ["0000000000"] * 9
    rows = open_rows()
    rows[0] = "...o#....."
    s = _state(rows=rows, heights=heights)
    assert rules.los(s, "2,0", "5,0", "party") is False  # the wall at 4,0 still blocks
    rows[0] = "...o......"
    s = _state(rows=rows, heights=heights)
    assert rules.los(s, "2,0", "5,0", "party")  # obstacle ignored from another height
    assert not rules.los(_state(rows=rows), "2,0", "5,0", "party")  # same height: blocked


def test_attacking_another_height_needs_range_3():
    # rules: Harakiri, "Range and Height Level": the weapon or skill must have +3 range
    heights = ["1100000000"] + ["0000000000"] * 9
    s = _state(heights=heights)
    assert not rules.in_range(s, "1,0", "2,0", 1)
    assert rules.in_range(s, "1,0", "2,0", 3)


def test_resistors_block_los_and_spawn_points_do_not():
    # rules: Harakiri, "Resistors" (interrupt the LOS); "Spawn Points" (do not block)
    s = _state(resistors={"civilian": {"at": "2,2", "tokens": 1}})
    assert not rules.los(s, "0,2", "4,2", "party")
    assert not rules.los(s, "0,2", "4,2", "shogun")
    s = scenario(doc(arena(open_rows(), spawns={"blue": "2,2"}))).state
    assert rules.los(s, "0,2", "4,2", "party")
