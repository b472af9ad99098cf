"""Yomi Mode (Shinigami Expansion): Yomi marks in the phase's hand-over (docs/games/harakiri.md,
"Yomi Mode")."""

import pytest

from games.engines.harakiri import ENGINE
from games.engines.harakiri.yomi import DEFAULT_BOLD, mark
from games.kernel import SYSTEM, RuleViolation

from .helpers import arena, doc, find, open_rows, scenario

# rules: Harakiri, "Yomi Mode": "After completing each phase, mark a box from the Yomi Mode track on
# the campaign sheet for each character who was defeated. Once you reach one of the bold squares, do
# not continue marking boxes. Instead, all characters face the Shinigami"


def _bridge(characters, options, forced=(6, 6, 6, 6, 6, 6)):
    chars = {"akira": {"sq": "30,3"}, "hattori": {"sq": "30,4"}, "hikaru": {"sq": "31,4"}, "tomoe": {"sq": "37,2", "ap": 4}}
    for c, spec in characters.items():
        chars[c] = {**chars[c], **spec}
    return scenario({"scenario": "act1_burning_village", "reveal": ["bridge"], "characters": chars,
                     "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "38,1", "health": 1}},
                     "activate": "char:tomoe", "forced": list(forced), "options": options})


def _win(s):
    s.when(0, "attack", target="hunter", mode="fast")
    for _ in range(20):
        if not s.state["pending"]:
            break
        s.when(0, "choose", option=0)
    assert s.state["result"] == "victory"
    return find(s.events, "PhaseEnded")[0]


def test_marking_stops_at_the_next_bold_square():
    assert mark(0, [5, 10], 2) == (2, None)
    assert mark(3, [5, 10], 4) == (5, 5)  # 7 would pass the bold 5: stop there, face the Shinigami
    assert mark(5, [5, 10], 3) == (8, None)  # after a confrontation the marking goes on
    assert mark(12, [5, 10], 1) == (13, None)  # past the last bold square
    assert mark(4, [5, 10], 0) == (4, None)


def test_victory_hand_over_marks_each_defeated_character_once_and_heals_and_repairs():
    # Akira and Hikaru were defeated (Akira twice counts once: one box per character); Tomoe's armor
    # is damaged. "Before moving on to the next chapter, characters regain all their health and
    # repair their armor up to the number indicated on their equipped armor."
    s = _bridge({"akira": {"defeated": True, "sq": None, "health": 0}, "hikaru": {"defeated": True, "sq": None,
                                                                               "health": 0},
                 "tomoe": {"armor": 0}, "hattori": {"health": 3}},
                {"yomi_mode": True, "yomi_track": {"marks": 1, "bold": [5, 10]}})
    ended = _win(s)
    y = ended["yomi"]
    assert y["defeated"] == ["akira", "hikaru"] and y["marks_before"] == 1 and y["marks"] == 3
    assert y["marked"] == 2 and y["bold_reached"] is None and not y["face_shinigami"]
    party = ended["party"]
    assert party["hattori"]["health"] == s.state["characters"]["hattori"]["max_health"]
    assert party["tomoe"]["armor_value"] == 2  # Ceremonial Armor's 2
    # the hand-over is a valid next-chapter party (track and marks are the caller's to carry on)
    ENGINE.validate_options({"party": party, "yomi_mode": True, "yomi_track": {"marks": y["marks"], "bold": [5, 10]}}, 1)


def test_reaching_a_bold_square_says_face_the_shinigami():
    s = _bridge({c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")},
                {"yomi_mode": True, "yomi_track": {"marks": 3, "bold": [5, 10]}})
    y = _win(s)["yomi"]
    assert y["marks"] == 5 and y["marked"] == 2 and y["bold_reached"] == 5 and y["face_shinigami"]


def test_a_defeat_during_the_phase_is_recorded_for_the_hand_over():
    # Tomoe is defeated by bleeding at the start of her turn; the record outlives any resurrection
    chars = {c: {"sq": sq} for c, sq in {"akira": "0,9", "hattori": "1,9", "hikaru": "2,9"}.items()}
    chars["tomoe"] = {"sq": "1,0", "health": 1, "conditions": {"bleeding": 1}}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "5,5"}},
                     activate="char:tomoe", options={"yomi_mode": True, "failure_procedure": False}))
    assert s.state["characters"]["tomoe"]["defeated"]
    assert s.state["defeated_in_phase"] == ["tomoe"]


def test_failure_hand_over_also_marks_and_without_yomi_mode_nothing_changes():
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "1,0", "health": 1}
    for options, expect in (({"yomi_mode": True}, 4), ({}, None)):
        s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                         activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3],
                         options={"failure_procedure": False, **options}))
        s.when(SYSTEM, "activate_enemy", enemy="k")
        ended = find(s.events, "PhaseEnded")[0]
        assert ended["result"] == "failure"
        if expect is None:
            assert "yomi" not in ended and ended["party"]["tomoe"]["health"] == 1
        else:
            assert ended["yomi"]["marks"] == expect and ended["yomi"]["bold"] == DEFAULT_BOLD
            assert ended["party"]["tomoe"]["health"] == 10


@pytest.mark.parametrize("options", [
    {"yomi_mode": "yes"},
    {"yomi_track": {"marks": 1}},  # a track without the mode
    {"yomi_mode": True, "yomi_track": {"marks": -1}},
    {"yomi_mode": True, "yomi_track": {"bold": [10, 5]}},
    {"yomi_mode": True, "yomi_track": {"bold": []}},
    {"yomi_mode": True, "yomi_track": {"boxes": 3}},
])
def test_bad_yomi_options_are_refused(options):
    with pytest.raises(RuleViolation) as err:
        ENGINE.validate_options(options, 1)
    assert err.value.code == "bad_options"
