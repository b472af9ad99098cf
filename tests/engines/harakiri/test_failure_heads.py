"""The Failure procedure's step 7, "Enemy rewards": after a failure, heads come only from zones
discovered after it. The arena (the party's zone, reset), the annex (on the table but empty at the
failure, not reset) and the hall (behind a survey point, revealed after the failure) are the three
kinds of zone; the heads still lying on the board at the failure are the fourth case."""

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM

from .helpers import arena, find, open_rows, run_system, scenario
from .test_ending import shopping_done


def _kachi_at(spawn):
    return {"type": "spawn", "enemy": "kachi", "kind": "minion", "color": spawn, "spawn": spawn}


def _zone(name, origin, rows, **kw):
    zone = {"name": name, "origin": origin, "rows": rows, "enemies": [], "start": [],
            "events": {"green": [], "red": []}, "spawns": {}, "doors": [], "points": [], "resistors": [],
            "oracle": {"green": 0, "red": 0}}
    zone.update(kw)
    return zone


def _failed(heads=None):
    """Given the party in the arena, the annex revealed and emptied earlier (its guard defeated, one
    event left), the hall still behind the arena's point P, Malice 5 and a green oracle card first
    (the arena has no green event: Malice 6, a failure). When the failure procedure has run, the
    party stands around Akira's square (9,4): Hikaru on the annex's 10,3."""
    annex = _zone("Annex", [10, 0], ["....."] * 5, spawns={"red": "12,1"},
                  enemies=[{"ref": "guard", "kind": "minion", "type": "kachi", "color": "blue", "at": "13,3"}],
                  events={"green": [], "red": [{"id": "x_r1", "name": "Howl", "effects": [_kachi_at("red")]}]})
    hall = _zone("Hall", [0, 10], ["." * 10] * 3,
                 enemies=[{"ref": "sentry", "kind": "minion", "type": "kachi", "color": "yellow", "at": "4,11"}])
    scen = arena(open_rows(), spawns={"green": "5,5"}, extra_zones={"annex": annex, "hall": hall},
                 events={"green": [], "red": [{"id": "a_r1", "name": "Ambush", "effects": [_kachi_at("green")]}]},
                 points=[{"id": "P", "at": "7,3", "action": {"type": "survey", "zone": "hall"}}])
    chars = {"akira": {"sq": "9,4"}, "hattori": {"sq": "0,9"}, "hikaru": {"sq": "1,9"}, "tomoe": {"sq": "2,9"}}
    d = {"scenario": scen, "characters": chars, "enemies": {}, "clear_enemies": True, "reveal": ["annex"],
         "malice": 5, "oracle": {"deck": ["oracle_g1", "oracle_r1", "oracle_r2"]},
         "initiative": ["char:akira", "char:hattori", "char:hikaru", "char:tomoe"], "heads": heads or []}
    s = scenario(d)
    assert not s.state["enemies"] and "hall" not in s.state["zones"]
    s.when(SYSTEM, "draw_oracle")  # the arena's green deck is empty: Malice 6, the failure
    shopping_done(s)
    assert s.state["failures"] == 1 and s.state["phase"] == "oracle"
    assert s.state["zones"]["arena"].get("reset") and not s.state["zones"]["annex"].get("reset")
    assert s.state["characters"]["hikaru"]["sq"] == "10,3"
    return s


def test_an_enemy_placed_in_a_zone_the_failure_reset_gives_no_head():
    # rules: Harakiri, "Failure", step 7: "no enemy heads can be acquired in zones that were already
    # active. They can only be acquired in newly discovered zones from this point onward"
    # given the failure reset the arena, where the party stood
    s = _failed()
    # when the next round's red event "Ambush" places a kachi on the arena's spawn point
    s.when(SYSTEM, "draw_oracle")
    # then it gives no head when defeated
    kachi = s.state["enemies"]["kachi_green_1"]
    assert kachi["sq"] == "5,5" and kachi["no_heads"]


def test_an_enemy_placed_in_a_zone_present_but_empty_at_the_failure_gives_no_head():
    # rules: Harakiri, "Failure", step 7: "They can only be acquired in newly discovered zones from this
    # point onward"; step 4: "a zone without miniatures is not considered active" - the annex was on the
    # table at the failure, so it is not newly discovered, although it was not active (nor reset)
    # given the failure left the annex as it was (nobody stood there), and Hikaru was placed in it
    s = _failed()
    # when the next round's red event there, "Howl", places a kachi on the annex's spawn point
    ev = s.when(SYSTEM, "draw_oracle")
    assert {"zone": "annex", "deck": "red", "event": "x_r1", "name": "Howl"} in find(ev, "EventRevealed")
    # then it gives no head when defeated
    kachi = s.state["enemies"]["kachi_red_1"]
    assert kachi["sq"] == "12,1" and kachi["no_heads"]


def test_the_enemies_of_a_zone_discovered_after_the_failure_give_heads():
    # rules: Harakiri, "Failure", step 7: heads "can only be acquired in newly discovered zones from this
    # point onward"
    # given the failure, and the next round's activations with Akira (on 8,3 beside the point) first
    s = _failed()
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=s.state["pending"]["options"].index({"swap": None}))  # no initiative swap
    run_system(s)
    assert s.state["turn"]["who"] == "akira" and s.state["characters"]["akira"]["sq"] == "8,3"
    # when Akira surveys the hall through the point
    s.when(0, "interact", point="P")
    # then the hall is newly discovered: its sentry gives a head, an enemy placed there later too
    assert "hall" in s.state["zones"] and not s.state["zones"]["hall"].get("no_heads")
    assert not s.state["enemies"]["sentry"].get("no_heads")
    assert s.state["zones"]["arena"]["no_heads"] and s.state["zones"]["annex"]["no_heads"]


def test_the_heads_left_on_the_board_at_a_failure_can_no_longer_be_acquired():
    # rules: Harakiri, "Failure", step 7: "no enemy heads can be acquired in zones that were already
    # active. They can only be acquired in newly discovered zones from this point onward"; step 3 keeps
    # only what a character "has acquired ... in their supply"
    # given a head left on the arena's 6,6 and a boss head on the annex's 12,3 before the failure
    heads = [{"sq": "6,6", "boss": False}, {"sq": "12,3", "boss": True}]
    # when the failure procedure runs
    s = _failed(heads)
    # then both leave the board (nobody can retrieve them any more), and the history says so
    assert s.state["heads"] == []
    ended = [e for e in s.events if e["type"] == "HeadRewardsEnded"]
    assert [e["payload"] for e in ended] == [{"zones": ["arena", "annex"], "heads_lost": 1, "boss_heads_lost": 1}]
    assert ENGINE.describe(ended[0], 0, ["alice"]) == (
        "No more heads from enemies in arena, annex: only zones discovered from now on give heads; "
        "1 head and 1 boss head left on the board are lost")


def test_the_board_is_told_which_zones_give_no_heads():
    # rules: Harakiri, "Failure", step 7: "They can only be acquired in newly discovered zones from this point
    # onward" - the view every seat reads says it per zone (public: the zones on the table are)
    # given the failure (the arena reset, the annex left as it was), and a log written before step 7 closed
    # every zone on the table: only its reset zone is marked, by ``reset``
    s = _failed()
    old = {**s.state, "zones": {z: {k: v for k, v in zs.items() if k != "no_heads"} for z, zs in s.state["zones"].items()}}
    # when the hall is revealed after the failure (Akira surveys it through the point)
    s.when(SYSTEM, "draw_oracle")
    s.when(0, "choose", option=s.state["pending"]["options"].index({"swap": None}))
    run_system(s)
    s.when(0, "interact", point="P")
    # then the view says the arena and the annex give no heads and the hall does; the old log's view
    # marks its reset arena only, as the rules there decide (flow.headless_zone)
    zones = ENGINE.view_for(s.state, 0)["zones"]
    assert {z: zs["no_heads"] for z, zs in zones.items()} == {"arena": True, "annex": True, "hall": False}
    assert {z: zs["no_heads"] for z, zs in ENGINE.view_for(old, 0)["zones"].items()} == {"arena": True, "annex": False}
