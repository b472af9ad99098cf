"""The kernel's fallback sentence (``EngineBase.describe``) and the seat names engines use."""

from games.kernel import EngineBase
from games.kernel.narration import generic_sentence, humanize, seat_name


def test_seat_names_fall_back_to_the_seat_number_players_count_with():
    assert seat_name(["Miko", None], 0) == "Miko"
    assert seat_name(["Miko", None], 1) == "Seat 2"
    assert seat_name([], 3) == "Seat 4"
    assert seat_name(["Miko"], None) == "Someone"


def test_the_generic_sentence_reads_the_type_and_the_seat_only():
    assert humanize("MonsterSummoned") == "monster summoned"
    assert generic_sentence({"type": "TurnPassed", "payload": {"seat": 1}}, ["a", "b"]) == "b: turn passed"
    assert generic_sentence({"type": "TurnPassed", "payload": {"seat": 1}}) == "Seat 2: turn passed"
    secret = {"type": "TileDrawn", "payload": {"tile": "canary-x", "seat": True}}
    assert generic_sentence(secret) == "Tile drawn"  # nothing else of the payload is ever read


def test_an_engine_without_describe_gets_the_generic_sentence():
    class Bare(EngineBase):
        slug = "bare"

    assert Bare().describe({"type": "DiceRolled", "payload": {"seat": 0, "dice": [6]}}, 1, ["Akira"]) == \
        "Akira: dice rolled"
