"""What the history says (``describe`` of each seat's redacted events): terrain board placements, a
master turning on the spot rather than moving, miniature placement and the battle deck's size."""

from games.engines.yashima import ENGINE
from games.engines.yashima.content import KAMI, MASTERS
from games.kernel import Rng, fold

from .helpers import attack, pl, scene
from .test_setup_content_views import Game, play_setup

NAMES = ["hanzo", "tomoko"]


def told(events, viewer, kinds=None):
    """The sentences ``viewer`` reads for ``events`` (of the given types), in order, blank ones left out."""
    out = []
    for ev in events:
        if kinds and ev["type"] not in kinds:
            continue
        seen = ENGINE.redact_event(ev, viewer)
        text = ENGINE.describe(seen, viewer, NAMES) if seen is not None else ""
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
    # given the setup up to the miniatures
    g = play_setup(2)
    cmd = ENGINE.legal_commands(g.state, 1)[3]
    # when tomoko places her miniature
    placed = g.do(1, "place_miniature", **cmd["args"])
    # then the history names the board as well as the space's coordinates
    assert told(placed, 0, {"MasterMoved"}) == [
        f"tomoko places their master on their own board at ({cmd['args']['cell']}) facing down"]


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


def test_a_master_who_turns_on_the_spot_is_told_turning_not_moving():
    s = scene(pl(pos="0,0", facing=0), pl(master="rosamu", kami="dragon", pos="0,3", facing=0))
    s.when(0, "move_action")
    stepped = s.when(0, "step", to="0,1")  # a step turns the miniature towards the space entered (decision 16)
    assert told(stepped, 1, {"MasterMoved"}) == ["hanzo's master moves to (0,1) facing down"]
    turned = s.when(0, "end_move", facing=1)
    assert told(turned, 1, {"MasterMoved"}) == ["hanzo's master turns to face upper right"]
    assert s.state["players"][0]["pos"] == "0,1"


# rules: Yashima Fairytale, "Attack Action Breakdown" 1.2 (rotate to any facing before the attack)
def test_an_attack_in_another_direction_is_told_as_a_turn():
    s = scene(pl(pos="0,0", facing=0, hand=["plain"]), pl(master="rosamu", kami="dragon", pos="0,3", facing=0))
    assert told(attack(s, 0, "plain", facing=4), None, {"MasterMoved"}) == ["hanzo's master turns to face lower left"]


def test_events_logged_before_the_origin_was_recorded_still_read_as_moves():
    old = {"type": "MasterMoved", "v": 1, "payload": {"seat": 0, "pos": "1,3", "facing": 3}}
    assert ENGINE.describe(old, 1, NAMES) == "hanzo's master moves to (1,3) facing down"
    gone = {"type": "MasterMoved", "v": 1, "payload": {"seat": 1, "pos": None, "facing": 3, "from": "1,3"}}
    assert ENGINE.describe(gone, 0, NAMES) == "tomoko's master leaves the board"
