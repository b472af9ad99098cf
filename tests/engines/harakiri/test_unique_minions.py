"""The unique minions of the component list (nue, keiko, izumi, tesso, yamamba, hive demon): their
provisional boards validate, each activates from its normal and aggressive tables, and a seeded
random game with all six runs to its end."""

import copy
import json

import jsonschema
import pytest

from games.engines.harakiri import ENGINE, content
from games.kernel import SYSTEM, Command, Rng, fold
from games.kernel.errors import RuleViolation

from .helpers import FAR, arena, doc, find, open_rows, scenario

# rules: Harakiri, "Adventure Phase Components": "Minions: nue, keiko, izumi, TESSO, yamamba, hive demon, ..."
UNIQUE = ["nue", "keiko", "izumi", "tesso", "yamamba", "hive_demon"]
MOVE_CONDITIONS = {"adjacent", "toward", "away", "range"}
PRIORITIES = {None, "+health", "-health", "first_initiative"}


def _board(minion):
    return content.ENEMIES_DOC["minions"][minion]


def _enemies_doc_with(minion, board):
    return {"provisional": True, "kind": "enemies", "minions": {minion: board}, "servants": {}, "chosen": {},
            "wanderers": {}}


def _lines(board):
    for table in ("normal", "aggressive"):
        for entry in board[table]:
            yield table, entry, entry["lines"]


# -- the boards --------------------------------------------------------------------------------


@pytest.mark.parametrize("minion", UNIQUE)
def test_unique_minion_board_validates_against_the_content_schema(minion):
    # rules: Harakiri, "Minions": a board with health, movement, range, defense, armor, a regular
    # and an upgraded version, skills, normal and aggressive behaviour and attack dice
    board = _board(minion)
    content.validate(_enemies_doc_with(minion, board))
    assert content.enemy_exists("minion", minion)
    assert set(board["plus"]) == {"health", "defense", "armor", "dice"}
    assert board["plus"]["health"] > board["health"]


@pytest.mark.parametrize("minion", UNIQUE)
def test_the_schema_refuses_a_unique_board_with_an_unknown_priority(minion):
    board = copy.deepcopy(_board(minion))
    board["normal"][0]["lines"][0]["priority"] = "nearest"
    with pytest.raises(jsonschema.ValidationError):
        content.validate(_enemies_doc_with(minion, board))


@pytest.mark.parametrize("minion", UNIQUE)
def test_unique_minion_tables_cover_every_die_result_with_lines_the_engine_resolves(minion):
    # rules: Harakiri, "Enemy Activation" (Minions): the entry matching the test die result is
    # read, so each table must cover 1-6 exactly once; "Resolving Enemy Movement" names the
    # conditions adjacent, range (X), toward and away
    board = _board(minion)
    for table in ("normal", "aggressive"):
        results = sorted(n for entry in board[table] for n in entry["die"])
        assert results == [1, 2, 3, 4, 5, 6], table
    for table, entry, lines in _lines(board):
        assert [ln["n"] for ln in lines] == list(range(1, len(lines) + 1))
        for ln in lines:
            assert ln["priority"] in PRIORITIES
            assert ln["move"] or ln["attack"]
            if ln["move"]:
                assert ln["move"]["cond"] in MOVE_CONDITIONS
                # a unique minion has one miniature: no other of its type to move adjacent to
                assert ln["move"]["of"] == "target"
                assert ln["move"]["cond"] != "range" or ln["move"]["x"] >= 1
            if ln["attack"] and ln["attack"]["skill"] is not None:
                skill = board["skills"][ln["attack"]["skill"]]
                assert skill["kind"] == "attack" and ("damage" in skill or "condition" in skill)
        # the last line only moves toward or away, so the minion always resolves some line
        last = lines[-1]
        assert last["attack"] is None and last["move"]["cond"] in ("toward", "away"), (table, entry["die"])


def test_unique_minions_use_flying_and_spectral_movement_where_their_yokai_do():
    # rules: Harakiri, "Terrain Types, Height Levels, Flying, and Spectral Movement"
    assert [m for m in UNIQUE if _board(m).get("flying")] == ["nue"]
    assert [m for m in UNIQUE if _board(m).get("spectral")] == ["izumi"]


@pytest.mark.parametrize("minion", UNIQUE)
@pytest.mark.parametrize("plus", [False, True])
def test_regular_and_plus_versions_set_the_miniature_stats(minion, plus):
    # rules: Harakiri, "Minions": a "+" in the zone setup uses the upgraded version of the board
    s, ev = _activate(minion, "0,0", {"akira": {"sq": "1,0"}}, "green", [1, 6, 6, 6, 6], plus=plus)
    board = _board(minion)
    version = {**board, **board["plus"]} if plus else board
    assert s.state["enemies"]["m"]["max_health"] == version["health"]
    # on a 1 with a green card every unique minion's normal line 1 attacks the adjacent Akira
    attack = find(ev, "EnemyAttackRolled")[0]
    assert attack["target"] == "akira"
    assert [d["die"] for d in attack["dice"]] == version["dice"] + ["test"]


# -- activations -------------------------------------------------------------------------------


def _activate(minion, at, chars, oracle_color, forced, rows=None, plus=False, queue=None):
    """Only the characters in ``chars`` are on the board; the minion has the red base."""
    party = {c: {"sq": None} for c in FAR}
    party.update(chars)
    extra = {"queue": queue} if queue else {}
    s = scenario(doc(arena(rows or open_rows()), party,
                     {"m": {"type": minion, "color": "red", "at": at, "plus": plus}},
                     activate="color:red", oracle={"color": oracle_color}, forced=forced, **extra))
    ev = s.when(SYSTEM, "activate_enemy", enemy="m")
    assert not s.state["pending"], "the test boards leave no tie to the party"
    return s, ev


def _chosen(ev):
    return find(ev, "EnemyLineChosen")[0]


def _attack(ev):
    return find(ev, "EnemyAttackRolled")[0]


def _has_focus(ev):
    return "focus" in [d["die"] for d in _attack(ev)["dice"]]


ROW = ["." * 10]  # one row: every "fewest moves" square is unique


def test_nue_green_low_roll_strikes_the_first_in_initiative_with_its_snake_tail():
    # rules: Harakiri, "Enemy Activation" (Minions) and "Resolving Enemy Lines": green card, a 2:
    # normal line 1 (first in initiative, adjacent, SNAKE TAIL); all three characters can be reached, Tomoe is first in initiative (neither the most nor the
    # least health); the square needing the fewest moves (1,1 is an obstacle)
    rows = ["." * 10, ".o" + "." * 8] + ["." * 10] * 8
    queue = ["char:tomoe", "color:red", "char:hattori", "char:akira"]
    chars = {"akira": {"sq": "2,0", "health": 8}, "tomoe": {"sq": "0,2", "health": 10},
             "hattori": {"sq": "4,0", "health": 12}}
    s, ev = _activate("nue", "0,0", chars, "green", [2, 6, 6, 6], rows=rows, queue=queue)
    assert find(ev, "EnemyActivated")[0]["table"] == "normal"
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "tomoe", "0,1")
    assert _attack(ev)["skill"] == "SNAKE TAIL"
    # purple 3 + green 2 impacts, test die critical: defense and armor ignored; provokes poisoned
    tomoe = s.state["characters"]["tomoe"]
    assert tomoe["health"] == 5 and tomoe["conditions"]["poisoned"] == 1


def test_nue_red_high_roll_flies_over_an_obstacle_to_attack():
    # rules: Harakiri, "Flying Movement": flying creatures move through obstacles; red card, a 5:
    # aggressive line 1 (least health, adjacent, SNAKE TAIL with the focus die)
    _, ev = _activate("nue", "0,0", {"akira": {"sq": "3,0"}}, "red", [5], rows=[".o" + "." * 8])
    assert find(ev, "EnemyActivated")[0]["table"] == "aggressive"
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "akira", "2,0")
    assert _attack(ev)["skill"] == "SNAKE TAIL" and _has_focus(ev)


def test_keiko_green_high_roll_moves_into_range_of_the_weakest_and_blinds():
    # rules: Harakiri, "Resolving Enemy Movement" (range X) and "Resolving Enemy Lines": green, a
    # 4: line 1 (least health, range 3, CURSED OFUDA); Akira is already in range but Hikaru has
    # less health, so Keiko moves the 2 squares that put Hikaru in range 3 and LOS
    s, ev = _activate("keiko", "3,0", {"akira": {"sq": "0,0", "health": 11}, "hikaru": {"sq": "8,0", "health": 8}},
                  "green", [4, 6, 6, 6], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "hikaru", "5,0")
    assert _attack(ev)["skill"] == "CURSED OFUDA"
    # purple 3 + orange 2, critical: 5 damage; provokes blinded
    hikaru = s.state["characters"]["hikaru"]
    assert hikaru["health"] == 3 and hikaru["conditions"]["blinded"] == 1


def test_keiko_red_attacks_the_only_character_she_can_reach_over_the_first_in_initiative():
    # rules: Harakiri, "Resolving Enemy Lines": priority only decides between targets the line
    # can be resolved against (the Undertaker example); red, a 1: line 1 (first in initiative,
    # range 3, CURSED OFUDA, focus); Akira is first but out of reach, Tomoe is in range already
    queue = ["char:akira", "color:red", "char:tomoe"]
    _, ev = _activate("keiko", "0,0", {"akira": {"sq": "9,9"}, "tomoe": {"sq": "2,2"}}, "red", [1], queue=queue)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "tomoe", "0,0")
    assert not find(ev, "CreatureMoved")
    assert _attack(ev)["skill"] == "CURSED OFUDA" and _has_focus(ev)


def test_izumi_green_high_roll_passes_through_walls_to_drag_tomoe_down():
    # rules: Harakiri, "Spectral Movement": through any kind of terrain; green, a 5: line 1
    # (least health, adjacent, COLD EMBRACE)
    s, ev = _activate("izumi", "0,0", {"tomoe": {"sq": "4,0", "health": 10}}, "green", [5, 6, 6, 6],
                  rows=[".##" + "." * 7])
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "tomoe", "3,0")
    assert _attack(ev)["skill"] == "COLD EMBRACE"
    # green 2 + orange 2, critical: 4 damage; provokes downed
    tomoe = s.state["characters"]["tomoe"]
    assert tomoe["health"] == 6 and tomoe["conditions"]["downed"] == 1


def test_izumi_red_falls_to_line_2_when_she_cannot_get_adjacent():
    # rules: Harakiri, "Enemy Activation" (Minions): a line that cannot be resolved fully gives way
    # to the next; red, a 3: line 1 (adjacent) needs 4 moves, line 2 (range 2, UNDERTOW) needs 3
    _, ev = _activate("izumi", "0,0", {"akira": {"sq": "5,0"}}, "red", [3], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (2, "akira", "3,0")
    assert _attack(ev)["skill"] == "UNDERTOW" and _has_focus(ev)


def test_tesso_green_low_roll_runs_to_the_weakest_and_bites():
    # rules: Harakiri, "Enemy Activation" (Minions): green, a 1: line 1 (attack without moving)
    # has no adjacent target; line 2 (least health, adjacent, IRON TEETH) picks Hattori (9) over
    # Akira (11), 3 moves away
    s, ev = _activate("tesso", "3,0", {"akira": {"sq": "0,0", "health": 11}, "hattori": {"sq": "7,0", "health": 9}},
                  "green", [1, 6, 6, 6], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (2, "hattori", "6,0")
    assert _attack(ev)["skill"] == "IRON TEETH"
    # green 2 + orange 2, critical: 4 damage; provokes bleeding
    hattori = s.state["characters"]["hattori"]
    assert hattori["health"] == 5 and hattori["conditions"]["bleeding"] == 1


def test_tesso_red_high_roll_uses_its_whole_movement_4():
    # rules: Harakiri, "Resolving Enemy Movement": a path of adjacent squares up to the movement;
    # red, a 6: line 1 (least health, adjacent, IRON TEETH, focus)
    _, ev = _activate("tesso", "0,0", {"hikaru": {"sq": "5,0"}}, "red", [6], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "hikaru", "4,0")
    assert _attack(ev)["skill"] == "IRON TEETH" and _has_focus(ev)


def test_yamamba_green_low_roll_cleaves_the_healthiest_adjacent_character():
    # rules: Harakiri, "Resolving Enemy Lines": the "+" icon means the character with the most
    # health; green, a 2: line 1 (most health, no movement, CLEAVER +2 damage)
    s, ev = _activate("yamamba", "0,0", {"akira": {"sq": "1,0", "health": 11}, "hikaru": {"sq": "0,1", "health": 8}},
                  "green", [2, 6, 6, 6])
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "akira", "0,0")
    assert _attack(ev)["skill"] == "CLEAVER"
    # purple 3 + green 2, critical: 5, and CLEAVER adds 2
    assert s.state["characters"]["akira"]["health"] == 4


def test_yamamba_red_high_roll_hunts_the_weakest():
    # rules: Harakiri, "Resolving Enemy Lines": the "-" icon means the least health; red, a 4:
    # line 1 (least health, adjacent, HAIR MOUTH, focus); both are 3 moves away
    _, ev = _activate("yamamba", "4,0", {"tomoe": {"sq": "0,0", "health": 10}, "hikaru": {"sq": "8,0", "health": 8}},
                  "red", [4], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "hikaru", "7,0")
    assert _attack(ev)["skill"] == "HAIR MOUTH" and _has_focus(ev)


def test_hive_demon_green_falls_to_moving_toward_a_distant_target():
    # rules: Harakiri, "Enemy Activation" (Minions) and "Resolving Enemy Movement" (toward): green,
    # a 3: line 1 (no movement) and line 2 (range 2 after movement 2) cannot reach Akira; line 3
    # moves to the square as close to him as possible and does not attack
    _, ev = _activate("hive_demon", "0,0", {"akira": {"sq": "9,0"}}, "green", [3], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (3, "akira", "2,0")
    assert not find(ev, "EnemyAttackRolled")


def test_hive_demon_red_swarm_reaches_range_3_beyond_its_board_range():
    # rules: Harakiri, "Resolving Enemy Movement" (range X) and "Resolving Enemy Attacks" (range
    # and LOS): red, a 2: line 1 (range 3, STINGING SWARM at range 3, focus); board range is 2
    s, ev = _activate("hive_demon", "0,0", {"hikaru": {"sq": "5,0", "health": 8}}, "red", [2, 6, 6, 6, 2], rows=ROW)
    chosen = _chosen(ev)
    assert (chosen["line"], chosen["target"], chosen["square"]) == (1, "hikaru", "2,0")
    assert _attack(ev)["skill"] == "STINGING SWARM" and _has_focus(ev)
    # green 2 + green 2, critical: 4 damage; provokes poisoned
    hikaru = s.state["characters"]["hikaru"]
    assert hikaru["health"] == 4 and hikaru["conditions"]["poisoned"] == 1


# -- initiative ---------------------------------------------------------------------------------


def test_a_unique_minion_activates_on_its_base_colour_card_with_the_other_minions_of_that_colour():
    # rules: Harakiri, "Determining the Initiative": one card per Minion "based on their color";
    # "Minions": each miniature has a coloured base. A unique minion is one miniature with a base
    s = scenario(doc(arena(open_rows()), {c: {"sq": None} for c in FAR} | {"akira": {"sq": "5,5"}},
                     {"nue": {"type": "nue", "color": "red", "at": "0,0"},
                      "kachi": {"type": "kachi", "color": "red", "at": "9,0"},
                      "tesso": {"type": "tesso", "color": "blue", "at": "0,9"}},
                     activate="color:red", oracle={"color": "green"}))
    assert sorted(s.state["initiative"]["queue"]) == ["char:akira", "color:blue", "color:red"]
    assert s.state["turn"]["todo"] == ["kachi", "nue"]


# -- random play --------------------------------------------------------------------------------


COLOURS = {"nue": "red", "keiko": "orange", "izumi": "blue", "tesso": "yellow", "yamamba": "green",
           "hive_demon": "purple"}


def _lair():
    """A zone with all six unique minions (three of them "+"), walls and obstacles, events."""
    rows = ["............",
            "...o....#...",
            "...o....#...",
            "............",
            ".....~~.....",
            "...#....o...",
            "...#....o...",
            "............"]
    events = {"green": [{"id": "lair_g1", "name": "Calm", "effects": []},
                        {"id": "lair_g2", "name": "Prayer", "effects": [{"type": "bless", "who": "characters"}]}],
              "red": [{"id": "lair_r1", "name": "Frenzy", "effects": [{"type": "enemy_movement", "amount": 1}]},
                      {"id": "lair_r2", "name": "Miasma",
                       "effects": [{"type": "condition", "who": "characters", "condition": "poisoned"}]}]}
    scen = arena(rows, events=events, objective={"type": "defeat_all"})
    spots = {"nue": "10,0", "keiko": "11,3", "izumi": "9,7", "tesso": "6,1", "yamamba": "7,5", "hive_demon": "11,6"}
    scen["zones"]["arena"]["enemies"] = [
        {"ref": m, "kind": "minion", "type": m, "color": COLOURS[m], "at": spots[m], "plus": i % 2 == 1}
        for i, m in enumerate(UNIQUE)]
    scen["zones"]["arena"]["start"] = ["0,3", "0,4", "1,3", "1,4"]
    scen["zones"]["arena"]["oracle"] = {"green": 0, "red": 0}
    characters = {"akira": {"sq": "1,3"}, "hattori": {"sq": "0,3"}, "hikaru": {"sq": "0,4"}, "tomoe": {"sq": "1,4"}}
    return {"scenario": scen, "seats": 2, "options": {"round_cap": 8}, "characters": characters}


def _random_play(seed):
    events = ENGINE.scenario(_lair())
    state = fold(ENGINE, events)
    chooser = Rng(f"unique-bot-{seed}".encode(), "bot")
    for step in range(4000):
        st = ENGINE.status(state)
        if st.finished:
            break
        seat = st.awaiting[0]
        if seat == SYSTEM:
            cmd = ENGINE.system_command(state)
        else:
            legal = ENGINE.legal_commands(state, seat)
            assert legal, f"seat {seat} awaited with no legal command"
            pool = [c for c in legal if c["type"] != "end_activation"] if chooser.below(4) else legal
            cmd = chooser.choice(pool or legal)
        try:
            new = ENGINE.decide(state, Command(type=cmd["type"], args=cmd["args"], seat=seat),
                                Rng(f"unique-play-{seed}".encode(), str(step)))
        except RuleViolation as v:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"listed command refused: {cmd} -> {v}") from None
        state = fold(ENGINE, new, state)
        events.extend(new)
    assert ENGINE.status(state).finished, "did not terminate"
    assert fold(ENGINE, events) == state
    assert json.loads(json.dumps(state)) == state
    return state, events


@pytest.mark.parametrize("seed", range(3))
def test_seeded_random_play_with_all_six_unique_minions_runs_to_the_end(seed):
    state, events = _random_play(seed)
    assert state["phase"] == "ended"
    activated = {e["payload"]["enemy"] for e in events if e["type"] == "EnemyActivated"}
    assert set(UNIQUE) <= activated
    tables = {e["payload"].get("table") for e in events if e["type"] == "EnemyActivated"}
    assert {"normal", "aggressive"} <= tables


# -- one miniature -----------------------------------------------------------------------------


def test_unique_minion_boards_are_flagged_unique_and_ordinary_minions_are_not():
    # rules: Harakiri, "Adventure Phase Components": the unique minions are listed without a count
    assert sorted(m for m in content.ENEMIES_DOC["minions"] if content.is_unique("minion", m)) == sorted(UNIQUE)


def test_a_spawn_of_a_unique_minion_already_on_the_table_is_ignored_whatever_its_colour():
    # rules: Harakiri, "Spawn Points": "If there are no available miniatures ... ignore the spawn"
    spawn_event = {"green": [{"id": "sp", "name": "Spawn", "effects": [
        {"type": "spawn", "enemy": "nue", "kind": "minion", "color": "green", "spawn": "blue"}]}], "red": []}
    scen = arena(open_rows(), events=spawn_event, spawns={"blue": "5,5"})
    s = scenario(doc(scen, {}, {"n": {"type": "nue", "color": "red", "at": "8,8"}}, oracle={"deck": ["oracle_g1"]}))
    ev = s.when(SYSTEM, "draw_oracle")
    assert find(ev, "EventEffectSkipped") and set(s.state["enemies"]) == {"n"}
    # an ordinary minion of another colour is another miniature: it spawns
    spawn_event["green"][0]["effects"][0]["enemy"] = "kachi"
    s = scenario(doc(arena(open_rows(), events=spawn_event, spawns={"blue": "5,5"}), {},
                     {"k": {"type": "kachi", "color": "red", "at": "8,8"}}, oracle={"deck": ["oracle_g1"]}))
    s.when(SYSTEM, "draw_oracle")
    assert "kachi_green_1" in s.state["enemies"]


def test_a_scenario_placing_a_unique_minion_twice_is_refused_by_the_content_check():
    scen = {"zones": {"a": {"enemies": [{"ref": "n1", "kind": "minion", "type": "nue", "at": "1,1"}]},
                      "b": {"enemies": [{"ref": "n2", "kind": "minion", "type": "nue", "at": "9,9"},
                                        {"ref": "k1", "kind": "minion", "type": "kachi", "at": "9,8"},
                                        {"ref": "k2", "kind": "minion", "type": "kachi", "at": "9,7"}]}}}
    assert content.unique_placed_twice(scen) == ["nue"]
    assert all(not content.unique_placed_twice(x) for x in content.SCENARIOS.values())
