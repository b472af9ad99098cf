"""The tome as it lies on the table: two stacks of double-sided cards opened like a book. The
left-hand stack holds the cards turned (its top shows its back page), the right-hand stack the cards
not yet turned (its top shows its front page). See docs/games/yashima.md, "Rules decisions"."""

import pytest

from games.engines.yashima import ENGINE, labels, queries
from games.kernel import RuleViolation

from .helpers import P, hid, pl, prompt, scene

A = "0,0"
FAR = "3,-3"


def pages(s, seat=0):
    return [p for p, _, _ in queries.tome_pages(s.state, seat)]


def delve_dirs(s, seat=0):
    return [c["args"]["dir"] for c in s.legal(seat) if c["type"] == "delve"]


# rules: Yashima core, "Setting up the Game" step 3 ("the helper card on left, page 1 on right, and when
# you turn page 1 over page 2 and 3 will be face up") and "Tome Actions" DELVE ("flip the right-hand
# tome card face down onto the left-hand card, just like reading a book")
def test_pages_face_up_on_an_untouched_tome():
    s = scene(pl(master="rosamu", kami="dragon", pos=A), pl(pos=FAR))
    assert pages(s) == [1]
    s.when(0, "delve", dir=1)
    assert pages(s) == [2, 3]


# rules: Yashima core, "Other Keywords" IMPRINT ("pay the karma cost on the tome card, then place that card
# face-up at the bottom of your battle deck") and "Tome Actions" DELVE ("flip the right-hand tome card face
# down onto the left-hand card")
def test_imprinting_the_right_hand_page_uncovers_the_next_card_and_delve_turns_it():
    s = scene(pl(master="hikaru", kami="dragon", pos=A, spread=1, karma=["seven"]), pl(pos=FAR))
    assert pages(s) == [2, 3]
    s.when(0, "ability", src="page:3")  # Oshiro Vow, IMPRINT: its card (pages 3 and 4) leaves the tome
    assert P(s, 0)["tome"]["out"] == [1]
    assert pages(s) == [2, 5]  # the next card's front now lies on top of the right-hand stack
    s2 = scene(pl(master="hikaru", kami="dragon", pos=A, spread=1, tome_out=[1]), pl(pos=FAR))
    assert pages(s2) == [2, 5] and delve_dirs(s2) == [1, -1]
    s2.when(0, "delve", dir=1)  # the card showing page 5 is flipped onto the left-hand stack
    assert pages(s2) == [6, 7]


# rules: Yashima core, "Other Keywords" IMPRINT ("Remove this card from your tome", glossary) and "Tome
# Actions" DELVE (the left-hand stack is the cards already turned, each showing its back)
def test_imprinting_the_left_hand_page_uncovers_the_card_beneath_it():
    s = scene(pl(master="mulan", kami="dragon", pos=A, spread=2, karma=["seven"]), pl(master="rosamu", pos="0,-2"))
    assert pages(s) == [4, 5]
    s.when(0, "ability", src="page:4")  # Ambush Camp, a trap IMPRINT on a back page (Rosamu alone in range)
    assert P(s, 0)["tome"]["out"] == [1]
    assert pages(s) == [2, 5]  # page 1's card, turned earlier, shows its back again


# rules: Yashima core, "Other Keywords" EQUIP ("remove the card from your tome") with the helper card on the
# left: the tome opens on the cover and the next front page
def test_equipping_the_only_turned_card_leaves_the_cover_on_the_left():
    s = scene(pl(master="kenta", kami="dragon", pos=A, spread=1, karma=["seven"]), pl(pos=FAR))
    s.when(0, "ability", src="page:2")  # Rusted Blade, EQUIP on the back of the first card
    assert pages(s) == [3]
    s = scene(pl(master="kenta", kami="dragon", pos=A, spread=1, tome_out=[0]), pl(pos=FAR))
    assert pages(s) == [3] and delve_dirs(s) == [1]  # nothing turned is left to turn back; the cover stays


# rules: Yashima core, "Returning cards" ("placed in their tome in the same spot where it started the game.
# Note that this will not cause pages to turn, but may cause a page to be hidden")
def test_a_returning_card_hides_the_page_that_took_its_place():
    imp = {"d": "tome:hikaru:1:front", "im": True}
    s = scene(pl(master="hikaru", kami="dragon", pos=A, spread=1, deck=["plain", imp]), pl(pos=FAR))
    assert pages(s) == [2, 5]
    s.when(0, "focus")  # the imprint reaches the top with nothing face down beneath: back to the tome
    assert P(s, 0)["tome"]["out"] == [] and P(s, 0)["tome"]["spread"] == 1
    assert pages(s) == [2, 3]  # page 5 is hidden again, no page turned


def test_a_returning_card_passed_over_goes_beneath_the_turned_cards():
    imp = {"d": "tome:hikaru:1:front", "im": True}
    s = scene(pl(master="hikaru", kami="dragon", pos=A, spread=3, deck=["plain", imp]), pl(pos=FAR))
    assert pages(s) == [6, 7]  # the page after the imprinted card's was turned while it was away
    s.when(0, "focus")
    assert P(s, 0)["tome"]["out"] == []
    assert pages(s) == [6, 7]  # in page order it lies beneath page 5's card on the left: nothing changes


# rules: Yashima core, "Tome Actions" DELVE ("You may also turn backward ... You cannot flip your tome from
# back to front ... or vice versa")
def test_delve_backward_over_a_removed_card():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=3, tome_out=[1]), pl(pos=FAR))
    assert pages(s) == [6, 7]
    s.when(0, "delve", dir=-1)
    assert pages(s) == [2, 5]
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=P(s, 0)["tome"]["spread"], tome_out=[1]), pl(pos=FAR))
    s.when(0, "delve", dir=-1)
    assert pages(s) == [1]
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=5, tome_out=[4]), pl(pos=FAR))
    assert pages(s) == [8] and delve_dirs(s) == [-1]  # the last card is gone: page 8 is the back of the tome


# rules: Yashima core, "Terrain" RELIC TERRAIN ("you may turn any master's tome up to two pages")
def test_relic_focus_turns_two_pages_over_a_removed_card():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, tome_out=[1]), pl(pos=FAR), terrain={"1,0": "relic"})
    s.when(0, "focus")
    offered = {(c["args"]["master"], c["args"]["delta"]) for c in s.legal(0) if c["type"] == "relic_turn"}
    assert (0, 2) in offered and (0, -1) not in offered and (1, 2) in offered
    s.when(0, "relic_turn", master=0, delta=2)
    assert pages(s) == [6, 7]  # the first card, then the third (the second is out of the tome)


# rules: Yashima Fairytale, "Glossary" BOOKMARK ("Turn to any page in your tome")
def test_bookmark_offers_each_way_the_tome_can_lie_open():
    s = scene(pl(master="hikaru", kami="dragon", pos=A, spread=5, tome_out=[1], karma=["plain"]), pl(pos=FAR))
    s.when(0, "ability", src="page:10")  # Bookmark of Dawn
    assert prompt(s)["kind"] == "bookmark"
    openings = []
    for c in s.legal(0):
        probe = scene(pl(master="hikaru", kami="dragon", pos=A, spread=c["args"]["spread"], tome_out=[1]), pl(pos=FAR))
        openings.append(pages(probe))
    assert openings == [[1], [2, 5], [6, 7], [8, 9]]  # every opening but the current one (page 10)
    assert labels.label(s.state, 0, s.legal(0)[1], prompt(s)) == "Open your tome at pages 2 and 5"
    s.when(0, "turn_to", spread=s.legal(0)[1]["args"]["spread"])
    assert pages(s) == [2, 5]


# rules: Yashima core, "Tome Actions" Karma Ability ("you may only play an ability currently face up on your
# tome cards") - the pages face up are public, as the tome lies open on the table
def test_views_show_the_pages_face_up():
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=1, tome_out=[1]), pl(pos=FAR))
    for seat in (0, 1):
        v = ENGINE.view_for(s.state, seat)
        assert v["players"][0]["tome"] == {"spread": 1, "out": [1], "pages": [2, 5]}
        assert v["players"][1]["tome"]["pages"] == [1]


# rules: Yashima core, "Setting up the Game" step 3 (five tome cards in page order) - a scenario's tome place
# and removed cards must name that tome
def test_scenario_tome_is_checked():
    for bad in ({"spread": 6}, {"spread": -1}, {"spread": "1"}, {"tome_out": [5]}, {"tome_out": ["0"]}):
        with pytest.raises(RuleViolation) as err:
            scene(pl(master="rosamu", kami="dragon", pos=A, **bad), pl(pos=FAR))
        assert err.value.code == "bad_scenario"
