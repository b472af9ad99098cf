"""Enemies with bases larger than one square: the stairs/ladders rule (docs/games/harakiri.md,
"Movement, range and LOS")."""

from games.engines.harakiri import content, grid, rules

from .helpers import arena, doc, open_rows, scenario


def _stairs_arena(enemies):
    heights = ["0000000000"] * 2 + ["0011111111"] + ["0000000000"] * 7
    rows = open_rows()
    rows[2] = ".S" + rows[2][2:]
    return scenario(doc(arena(rows, heights=heights), {}, enemies))


def test_a_larger_base_cannot_use_stairs(monkeypatch):
    # rules: Harakiri, "Ladders/Stairs": "the miniature must fit in the ladder or stair squares during
    # all their moves. Miniatures with bases larger than 1 square cannot fit in 1 square-wide ladders
    # or stairs."
    monkeypatch.setitem(content.enemy_board("minion", "kappa"), "base", 2)
    s = _stairs_arena({"big": {"type": "kappa", "color": "red", "at": "1,3"},
                       "tengu": {"type": "tengu", "color": "blue", "at": "5,5"}})
    mover = rules.mover_for(s.state, "big")
    assert mover["large"]
    occ = rules.occupied_for(s.state, "shogun")
    reach = grid.reachable(s.state, "1,3", 6, mover, occ)
    assert "1,2" not in reach and "2,2" not in reach  # neither the stairs nor the level above
    assert "0,1" in reach  # around them on the ground
    # a large miniature placed on the stairs cannot climb either
    assert grid.step_cost(s.state, "1,2", "2,2", mover, occ) is None
    # flying lifts it over the heights as usual
    assert grid.step_cost(s.state, "1,3", "2,2", {**mover, "flying": True}, occ) == 1


def test_one_square_bases_are_unchanged():
    s = _stairs_arena({"k": {"type": "kappa", "color": "red", "at": "1,3"}})
    mover = rules.mover_for(s.state, "k")
    assert not mover.get("large")
    assert not any(b.get("base", 1) > 1 for kind in ("minions", "servants", "wanderers", "chosen")
                   for b in content.ENEMIES_DOC[kind].values())  # no board in the content has one
    reach = grid.reachable(s.state, "1,3", 6, mover, rules.occupied_for(s.state, "shogun"))
    assert "1,2" in reach and "2,2" in reach
