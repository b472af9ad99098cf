"""A tournament round's time limit: the SYSTEM-only ``time_limit`` command ends the match by the side
furthest from defeat (docs/games/yashima.md, "Time limit")."""

from games.kernel import SYSTEM

from .helpers import pl, scene

A, FAR = "0,0", "3,-3"


def ended(s):
    return s.status.finished, s.status.winners, s.state["result"]["reason"]


# rules: Yashima core, "Restoration and Winning the Game" (life is the cards in hand and deck: more life left is further from defeat)
def test_time_limit_gives_the_win_to_the_master_with_more_life():
    s = scene(pl(pos=A, deck=["plain"] * 4), pl(master="rosamu", kami="dragon", pos=FAR, deck=["plain"] * 6))
    events = s.when(SYSTEM, "time_limit")
    assert [e["type"] for e in events] == ["GameEnded"]
    assert ended(s) == (True, [1], "time_limit")


# rules: Yashima core, "Restoration" (a restored master is on its last life: behind one that has not restored, whatever the cards)
def test_a_restored_master_is_behind_one_still_on_its_first_life():
    s = scene(pl(pos=A, deck=["plain"] * 9, restored=True), pl(master="rosamu", kami="dragon", pos=FAR, deck=["plain"] * 2))
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [1], "time_limit")


# rules: Yashima core, "The last one standing claims victory" (equal sides: nobody is ahead, a draw)
def test_equal_sides_draw():
    s = scene(pl(pos=A, deck=["plain"] * 5), pl(master="rosamu", kami="dragon", pos=FAR, deck=["plain"] * 5))
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [], "time_limit")


# rules: Yashima core, "Team play" (a team's masters are counted together; team-mates win together)
def test_teams_are_counted_together():
    s = scene(pl(pos=A, deck=["plain"] * 3), pl(master="rosamu", kami="dragon", pos=FAR, deck=["plain"] * 5),
              pl(master="kenta", pos="-3,3", deck=["plain"] * 5), pl(master="akiko", pos="3,0", deck=["plain"] * 1),
              teams=[0, 1, 0, 1])
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [0, 2], "time_limit")


# rules: Yashima core (a free-for-all: the sides tied at the top share the win)
def test_pod_tied_leaders_share_the_win():
    s = scene(pl(pos=A, deck=["plain"] * 5), pl(master="rosamu", kami="dragon", pos=FAR, deck=["plain"] * 5),
              pl(master="kenta", pos="-3,3", deck=["plain"] * 2))
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [0, 1], "time_limit")


def test_time_limit_is_refused_from_every_human_seat():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FAR))
    for seat in (0, 1):
        assert s.rejects(seat, "time_limit").code == "system_only"
    assert not s.status.finished
    assert all(c["type"] != "time_limit" for seat in (0, 1) for c in s.legal(seat))


def test_time_limit_takes_no_arguments_and_not_after_the_end():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FAR))
    assert s.rejects(SYSTEM, "time_limit", winner=0).code == "bad_args"
    s.when(SYSTEM, "time_limit")
    assert s.rejects(SYSTEM, "time_limit").code == "game_over"
