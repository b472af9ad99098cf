"""What the history says (``describe`` of each seat's redacted events): terrain board placements, a
master turning on the spot rather than moving, miniature placement and the battle deck's size, and
every space named as the board labels it ("the road space H8"), never by raw coordinates."""

import re

from games.engines.yashima import ENGINE, hexgrid, spaces
from games.engines.yashima.content import KAMI, MASTERS
from games.kernel import Rng, fold

from .helpers import attack, pl, scene
from .test_setup_content_views import Game, play_setup

NAMES = ["hanzo", "tomoko"]


def told(events, viewer, kinds=None, state=None):
    """The sentences ``viewer`` reads for ``events`` (of the given types), in order, blank ones left
    out; with ``state``, given the map as the platform gives it (``narration_facts``)."""
    facts = ENGINE.narration_facts(state) if state is not None else None
    out = []
    for ev in events:
        if kinds and ev["type"] not in kinds:
            continue
        seen = ENGINE.redact_event(ev, viewer)
        text = ENGINE.describe(seen, viewer, NAMES, facts) if seen is not None else ""
        if text:
            out.append(text)
    return out


# rules: Yashima core, "Setting up the Game" 4 (boards are placed on the table, flipped and rotated as chosen: public)
def test_choosing_and_placing_a_terrain_board_is_told_to_every_seat():
    game = Game(fold(ENGINE, ENGINE.setup({}, 2, Rng(b"s", "setup"))))
    for seat, (m, k) in enumerate([("akiko", "tiger"), ("rosamu", "dragon")]):
        game.do(seat, "pick", master=m, kami=k)
    chosen = game.do(0, "choose_board", board="core_1", side="b")
    placed = game.do(0, "place_board", slot=0, rotation=2)
    for viewer in (0, 1, None):
        # the opponent and spectators read the placement (no longer only a silent ControlSet)
        assert told(chosen, viewer) == ["hanzo chooses the Temple Steps board, side B"]
        assert told(placed, viewer) == ["hanzo places the Temple Steps board, side B, in slot 1, turned 120°"]
        # nothing is withheld from anyone: every seat gets the events as they are
        assert all(ENGINE.redact_event(ev, viewer) == ev for ev in chosen + placed if ev["type"] != "ControlSet")
    # what is told is what the map shows every seat
    board = ENGINE.view_for(game.state, 1)["boards"][-1]
    assert (board["board"], board["side"], board["slot"], board["rotation"]) == ("core_1", "b", 0, 2)
    game.do(1, "choose_board", board="core_2", side="a")
    assert told(game.do(1, "place_board", slot=1, rotation=0), 0) == [
        "tomoko places the Bamboo Grove board, side A, in slot 2"]


# rules: Yashima core, "Setting up the Game" 5 ("Place it on any blank space ... on the board you placed")
def test_placing_a_miniature_is_told_as_a_placement_on_the_seats_own_board():
    # given the setup up to the miniatures, tomoko's board holding the blank space 0,3
    g = play_setup(2)
    cmd = {"type": "place_miniature", "args": {"cell": "0,3", "facing": 3}}
    assert cmd in ENGINE.legal_commands(g.state, 1) and g.state["cells"]["0,3"] == "blank"
    # when tomoko places her miniature there
    placed = g.do(1, "place_miniature", **cmd["args"])
    # then the history names the space by its terrain and the label the board draws on it, and the board
    assert told(placed, 0, {"MasterMoved"}, g.state) == [
        "tomoko places their master on the blank space H10 of their own board, facing down"]
    assert ENGINE.content()["geometry"]["labels"]["0,3"] == "H10"
    assert ENGINE.view_for(g.state, 0)["space_names"]["0,3"] == "the blank space H10"


# rules: Yashima core, "Setting up the Game" 2 (the kami's battle cards shuffled together with the master's: the battle deck)
def test_the_shuffled_battle_deck_is_the_kami_cards_and_the_masters():
    g = play_setup(2)  # akiko + tiger, rosamu + dragon
    events = []
    for seat in (1, 0):
        events += g.do(seat, "place_miniature", **ENGINE.legal_commands(g.state, seat)[0]["args"])
    tiger = KAMI["tiger"]["deck_size"] + len(MASTERS["akiko"]["cards"])
    dragon = KAMI["dragon"]["deck_size"] + len(MASTERS["rosamu"]["cards"])
    assert (tiger, dragon) == (35, 30)
    assert told(events, 1, {"DeckShuffled"}) == [f"hanzo shuffles the deck ({tiger} cards)",
                                                 f"tomoko shuffles the deck ({dragon} cards)"]
    # and staff, reading the stored payload (the cards, no count) in the log review, read the same
    unredacted = [ENGINE.describe(ev, None, NAMES) for ev in events if ev["type"] == "DeckShuffled"]
    assert unredacted == [f"hanzo shuffles the deck ({tiger} cards)", f"tomoko shuffles the deck ({dragon} cards)"]


def test_a_master_who_turns_on_the_spot_is_told_turning_not_moving():
    s = scene(pl(pos="0,0", facing=0), pl(master="rosamu", kami="dragon", pos="0,3", facing=0))
    s.when(0, "move_action")
    stepped = s.when(0, "step", to="0,1")  # a step turns the miniature towards the space entered (decision 16)
    assert told(stepped, 1, {"MasterMoved"}, s.state) == ["hanzo's master moves to the blank space H8, facing down"]
    turned = s.when(0, "end_move", facing=1)
    assert told(turned, 1, {"MasterMoved"}, s.state) == ["hanzo's master turns to face upper right"]
    assert s.state["players"][0]["pos"] == "0,1"


# rules: Yashima core, "Move Action" and "Terrain" (the board is marked with terrain types)
def test_a_move_names_the_space_by_its_terrain_and_the_label_the_board_draws():
    # given hanzo next to a road space, the map as every seat's board draws it
    s = scene(pl(pos="0,0", facing=0), pl(master="rosamu", kami="dragon", pos="3,-3", facing=0),
              terrain={"0,1": "road", "1,0": "arduous"})
    board = ENGINE.view_for(s.state, 1)
    drawn = ENGINE.content()["geometry"]["labels"]
    assert (drawn["0,1"], drawn["1,0"]) == ("H8", "I7")
    # when hanzo steps onto the road, then onto the arduous space
    s.when(0, "move_action")
    moves = s.when(0, "step", to="0,1") + s.when(0, "step", to="1,0")
    # then every seat and spectator reads the spaces in words, never "(0,1)"
    for viewer in (0, 1, None):
        assert told(moves, viewer, {"MasterMoved"}, s.state) == [
            "hanzo's master moves to the road space H8, facing down",
            "hanzo's master moves to the arduous space I7, facing upper right"]
    # and the name is the one the board gives that space
    assert board["space_names"]["0,1"] == "the road space H8" and board["space_names"]["1,0"] == "the arduous space I7"


# rules: Yashima core, "Status Tokens" (tokens placed on spaces)
def test_a_status_placed_on_a_space_names_the_space_in_words():
    # given a BURN placed on a blank space and later removed from it
    s = scene(pl(pos="0,0"), pl(master="rosamu", kami="dragon", pos="3,-3"))
    placed = {"type": "StatusChanged", "v": 1, "payload": {"on": "space", "who": "0,-3", "status": "BURN", "owner": 0,
                                                            "delta": 1, "supply": "BURN"}}
    removed = {**placed, "payload": {**placed["payload"], "delta": -1}}
    # then the history names the space as the board labels it
    assert told([placed, removed], 1, state=s.state) == ["hanzo places BURN on the blank space H4",
                                                         "BURN is removed from the blank space H4"]


# rules: Yashima Fairytale, "Attack Action Breakdown" 1.2 (rotate to any facing before the attack)
def test_an_attack_in_another_direction_is_told_as_a_turn():
    s = scene(pl(pos="0,0", facing=0, hand=["plain"]), pl(master="rosamu", kami="dragon", pos="0,3", facing=0))
    assert told(attack(s, 0, "plain", facing=4), None, {"MasterMoved"}) == ["hanzo's master turns to face lower left"]


def test_events_logged_before_the_origin_was_recorded_still_read_as_moves():
    old = {"type": "MasterMoved", "v": 1, "payload": {"seat": 0, "pos": "1,3", "facing": 3}}
    assert ENGINE.describe(old, 1, NAMES) == "hanzo's master moves to space I10, facing down"  # no map given: the label
    gone = {"type": "MasterMoved", "v": 1, "payload": {"seat": 1, "pos": None, "facing": 3, "from": "1,3"}}
    assert ENGINE.describe(gone, 0, NAMES) == ""  # the line before says why (defeated, or resigned)


def test_every_space_of_the_table_has_a_label_of_its_own():
    # given the full table: the relic board and a terrain board in each of the six slots
    table = set(hexgrid.hexagon(hexgrid.BOARD_RADIUS)).union(*(hexgrid.board_cells(slot, 0, {}) for slot in range(6)))
    labels = {spaces.label(cell) for cell in table}
    # then no two spaces share a label, columns A to O and rows 1 to 13
    assert len(table) == len(labels) == 133
    assert all(re.fullmatch(r"[A-O](1[0-3]|[1-9])", label) for label in labels)


# rules: Yashima core, "Setting up the Game" 1 (each player chooses a board, kami master, and a kami)
def test_a_pick_is_told_as_choosing_a_kami_master_and_a_kami():
    picked = {"type": "PlayerSet", "v": 1, "payload": {"seat": 0, "set": {"master": "hikaru", "kami": "tiger"}}}
    assert ENGINE.describe(picked, 1, NAMES) == (f"hanzo chooses the kami master {MASTERS['hikaru']['name']} "
                                                  f"and the {KAMI['tiger']['name']} kami")


def test_a_status_a_master_places_on_themself_reads_as_their_own_master():
    def placed(owner, who):
        return {"type": "StatusChanged", "v": 1, "payload": {"on": "master", "who": who, "status": "WIND",
                                                             "owner": owner, "delta": 1}}

    assert [ENGINE.describe(ev, 0, NAMES) for ev in (placed(0, 0), placed(0, 1))] == [
        "hanzo places WIND on their own master", "hanzo places WIND on tomoko's master"]


# rules: Yashima core, "Setting up the Game" 3 (page 1 on the right; turning page 1 shows pages 2 and 3)
# and "Tome Actions" DELVE
def test_a_turned_tome_is_told_by_the_pages_it_shows_as_the_board_numbers_them():
    # given a master whose tome lies closed (page 1 face up), then one with a tome card removed (EQUIP)
    s = scene(pl(pos="0,0"), pl(master="rosamu", kami="dragon", pos="3,-3"))
    # when the master delves forward, then back
    forward = s.when(0, "delve", dir=1)
    # then the history names the pages face up, as the board's "Tome pages 2 and 3" does (never "spread 1")
    assert told(forward, 1, {"TomeTurned"}) == ["hanzo's tome turns to pages 2 and 3"]
    assert ENGINE.view_for(s.state, 1)["players"][0]["tome"]["pages"] == [2, 3]
    s = scene(pl(pos="0,0", spread=1), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert told(s.when(0, "delve", dir=-1), None, {"TomeTurned"}) == ["hanzo's tome turns to page 1"]
    # and with the second tome card (pages 3 and 4) gone, the turn passes it: the pages of the cards still there
    s = scene(pl(pos="0,0", spread=1, tome_out=[1]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert told(s.when(0, "delve", dir=1), 0, {"TomeTurned"}) == ["hanzo's tome turns to pages 6 and 7"]
    assert ENGINE.view_for(s.state, 0)["players"][0]["tome"]["pages"] == [6, 7]


def test_a_tome_turn_stored_before_its_pages_were_recorded_still_reads_as_pages():
    old = {"seq": 9, "type": "TomeTurned", "payload": {"seat": 1, "spread": 0}, "actor": {"kind": "user", "seat": 1}}
    assert told([old], 0) == ["tomoko's tome turns to page 1"]
    assert told([{**old, "payload": {"seat": 1, "spread": 2}}], 0) == ["tomoko's tome turns to pages 4 and 5"]
