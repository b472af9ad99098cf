"""Setup through commands, the content pack and what each seat may see."""

import json

from games.engines.yashima import ENGINE, hexgrid as hx
from games.engines.yashima.content import CARDS, KAMI, MASTERS
from games.kernel import Command, Rng, RuleViolation, SYSTEM, fold

from .helpers import P, pl, scene


def play_setup(seats=2, options=None, picks=(("akiko", "tiger"), ("rosamu", "dragon"), ("kenta", "phoenix"), ("hikaru", "tortoise"))):
    g = Game(fold(ENGINE, ENGINE.setup(options or {}, seats, Rng(b"s", "setup"))))
    do = g.do

    for seat in range(seats):
        do(seat, "pick", master=picks[seat][0], kami=picks[seat][1])
    slots = [0, 1, 2, 3]
    for seat in range(seats):
        do(seat, "choose_board", board=["core_1", "core_2", "fairytale_1", "core_4"][seat], side="a")
        do(seat, "place_board", slot=slots[seat], rotation=seat)
    return g


class Game:
    def __init__(self, state):
        self.state = state
        self.n = 0

    def do(self, seat, typ, **args):
        """The seat's command, then the SYSTEM steps it leads to (dealing), as the platform takes them."""
        self.n += 1
        evs = ENGINE.decide(self.state, Command(typ, args, seat), Rng(b"seed", f"c{self.n}"))
        self.state = fold(ENGINE, evs, self.state)
        while ENGINE.status(self.state).awaiting == [SYSTEM]:
            self.n += 1
            more = ENGINE.decide(self.state, Command("proceed", {}, SYSTEM), Rng(b"seed", f"c{self.n}"))
            self.state = fold(ENGINE, more, self.state)
            evs = evs + more
        return evs


# rules: Yashima core, "Setting up the Game" 1-4 (picks in seat order; boards adjacent to the relic board and the previous board)
def test_setup_picks_and_boards():
    state = fold(ENGINE, ENGINE.setup({}, 3, Rng(b"s", "setup")))
    assert ENGINE.status(state).awaiting == [0]
    assert len(ENGINE.legal_commands(state, 0)) == 8 * 6
    evs = ENGINE.decide(state, Command("pick", {"master": "akiko", "kami": "tiger"}, 0), Rng(b"s", "1"))
    state = fold(ENGINE, evs, state)
    picks = ENGINE.legal_commands(state, 1)
    assert all(c["args"]["master"] != "akiko" and c["args"]["kami"] != "tiger" for c in picks)
    g = play_setup(3)
    assert [b["slot"] for b in g.state["boards"]] == [0, 1, 2]
    # every placed board touches the relic board and the previous one
    for b in g.state["boards"]:
        assert any(hx.distance(c, r) == 1 for c in b["cells"] for r in hx.hexagon(2))


def test_board_must_touch_the_previous_board():
    state = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"s", "setup")))
    for seat, (m, k) in enumerate([("akiko", "tiger"), ("rosamu", "dragon")]):
        state = fold(ENGINE, ENGINE.decide(state, Command("pick", {"master": m, "kami": k}, seat), Rng(b"s", f"{seat}")), state)
    state = fold(ENGINE, ENGINE.decide(state, Command("choose_board", {"board": "core_1", "side": "b"}, 0), Rng(b"s", "a")), state)
    state = fold(ENGINE, ENGINE.decide(state, Command("place_board", {"slot": 0, "rotation": 0}, 0), Rng(b"s", "b")), state)
    state = fold(ENGINE, ENGINE.decide(state, Command("choose_board", {"board": "core_2", "side": "a"}, 1), Rng(b"s", "c")), state)
    assert {c["args"]["slot"] for c in ENGINE.legal_commands(state, 1)} == {1, 5}


# rules: Yashima core, "Setting up the Game" 5-7 (miniatures in reverse placement order on a blank space; karma pool; hand)
def test_miniatures_deal_and_start():
    g = play_setup(2)
    assert ENGINE.status(g.state).awaiting == [1]  # the last to place a board places first
    cmds = ENGINE.legal_commands(g.state, 1)
    board1 = next(b for b in g.state["boards"] if b["seat"] == 1)
    assert all(c["args"]["cell"] in board1["cells"] and g.state["cells"][c["args"]["cell"]] == "blank" for c in cmds)
    g.do(1, "place_miniature", **cmds[0]["args"])
    cmd0 = ENGINE.legal_commands(g.state, 0)[5]
    g.do(0, "place_miniature", **cmd0["args"])
    state = g.state
    assert state["phase"] == "destiny" and state["round"] == 1
    for seat, (m, k) in enumerate([("akiko", "tiger"), ("rosamu", "dragon")]):
        p = state["players"][seat]
        front = MASTERS[m]["avatar"]["front"]
        assert len(p["karma"]) == front["karma"] and len(p["hand"]) == front["hand"]
        assert len(p["deck"]) + len(p["karma"]) + len(p["hand"]) == KAMI[k]["deck_size"] + 10
        assert len({c["id"] for c in p["deck"] + p["hand"] + p["karma"]}) == KAMI[k]["deck_size"] + 10


# rules: Yashima core, "Setting up the Game" 6 ("Ignore all FATE effects during the setup of the game")
def test_fate_ignored_at_setup():
    picks = [("akiko", "tiger"), ("rosamu", "dragon"), ("kenta", "phoenix"), ("hikaru", "tortoise")]
    for seed in range(12):
        g = play_setup(2, picks=picks[seed % 3:] + picks[:seed % 3])
        g.n = 100 * seed
        for seat in (1, 0):
            g.do(seat, "place_miniature", **ENGINE.legal_commands(g.state, seat)[0]["args"])
        for seat, p in enumerate(g.state["players"]):
            fates = [c for c in p["karma"] if CARDS[c["d"]].get("fate")]
            hand = len(p["hand"])
            assert hand == MASTERS[p["master"]]["avatar"]["front"]["hand"]
            if fates:
                return
    # with these seeds at least one FATE card went to a karma pool without drawing extra cards
    raise AssertionError("no FATE card reached a starting karma pool in the sample")


# rules: kernel contract (options: teams only with 4 or 6 seats; 2 to 6 seats)
def test_options():
    ENGINE.validate_options({"teams": True, "round_cap": 10}, 4)
    for opts, seats in [({"teams": True}, 2), ({"round_cap": 0}, 2), ({"colour": 1}, 2), ({}, 7), ({}, 1)]:
        try:
            ENGINE.validate_options(opts, seats)
            raise AssertionError((opts, seats))
        except RuleViolation:
            pass
    state = fold(ENGINE, ENGINE.setup({"teams": True}, 4, Rng(b"s", "x")))
    assert state["teams"] == [0, 1, 0, 1]


# rules: Yashima core, "Kami" tables (deck sizes, average karma/attack, keywords) and the content pack contract
def test_content_pack():
    pack = ENGINE.content()
    assert pack["provisional"] is True
    assert len(pack["masters"]) == 8 and {m["id"] for m in pack["masters"]} == {
        "akiko", "hikaru", "kenta", "rosamu", "lu_bu", "mulan", "musashi", "bruce_lee"}
    expected = {"dragon": (20, 6, 3), "tiger": (25, 4, 5), "phoenix": (23, 5, 4), "tortoise": (30, 3, 6),
                "akkorokamui": (24, 4, 5), "foo_dog": (26, 5, 4)}
    for k in pack["kami"]:
        n, karma, atk = expected[k["id"]]
        assert len(k["cards"]) == n
        assert sum(c["karma"] for c in k["cards"]) == karma * n and sum(c["atk"] for c in k["cards"]) == atk * n
    for m in pack["masters"]:
        assert len(m["cards"]) == 10 and len(m["tome"]) == 5
        assert {"front", "restored"} == set(m["avatar"])
    names = {c["name"]: c for c in CARDS.values()}
    assert names["Fireball"]["owner"] == "akiko" and names["Coil Whip"]["owner"] == "rosamu"
    assert names["Pounce"]["defense"] == "CLASH" and names["Feline Grace"]["defense"] == "BLOCK"
    assert names["Taming Vortex"]["atk"] == 7 and names["Falling Tree"]["karma"] >= 6
    tome = {f["name"]: f for m in MASTERS.values() for t in m["tome"] for f in t["faces"].values()}
    assert tome["One With All"]["cost"] == 8 and tome["One With All"]["kind"] == "IMPRINT"
    assert tome["Rain of Fire"]["cost"] == 2
    json.dumps(pack)


# rules: kernel contract, "Hidden information" (hands, deck order and secret choices never reach another seat)
def test_views_hide_hands_and_decks():
    s = scene(pl(pos="0,0", hand=["plain", "low"]), pl(master="rosamu", kami="dragon", pos="3,-3", hand=["mid"]))
    v0 = ENGINE.view_for(s.state, 0)
    v1 = ENGINE.view_for(s.state, 1)
    assert "hand" in v0["players"][0] and "hand" not in v0["players"][1]
    assert v1["players"][0]["hand_count"] == 2 and "deck" not in v1["players"][0]
    hidden0 = {c["id"] for c in P(s, 0)["hand"] + P(s, 0)["deck"]}
    assert not any(i in json.dumps(v1) for i in hidden0)
    assert not any(i in json.dumps(ENGINE.view_for(s.state, None)) for i in hidden0)
    assert ENGINE.view_for(s.state, SYSTEM)["players"][0]["hand"]


def test_draw_events_are_redacted():
    s = scene(pl(pos="0,0", deck=["plain", "low"]), pl(master="rosamu", kami="dragon", pos="3,-3"), phase="reconcile")
    ev = s.when(0, "draw")
    moved = next(e for e in ev if e["type"] == "CardMoved")
    mine = ENGINE.redact_event(moved, 0)["payload"]
    theirs = ENGINE.redact_event(moved, 1)["payload"]
    assert mine["card"]["d"] == "plain" and "new" in mine
    assert "card" not in theirs and "new" not in theirs and "id" not in theirs
    assert moved["payload"]["new"] != moved["payload"]["id"]  # a fresh opaque id in the hidden zone


def test_scenario_events_are_redacted():
    s = scene(pl(pos="0,0", hand=["plain"]), pl(master="rosamu", kami="dragon", pos="3,-3", hand=["low"]))
    ev = ENGINE.redact_event(s.events[0], 1)
    assert "hand" not in ev["payload"]["state"]["players"][0]


def test_bad_scenarios_are_refused():
    from games.engines.yashima import ENGINE as E
    for doc in [{}, {"players": "x"}, {"players": [{"master": "nobody", "kami": "tiger"}]},
                {"players": [pl(), pl(master="rosamu", kami="dragon")], "terrain": {"0,1": "lava"}},
                {"players": [pl(hand=["no_such_card"]), pl(master="rosamu", kami="dragon")]},
                {"players": [pl(), pl(master="rosamu", kami="dragon")], "phase": "lunch"}]:
        try:
            E.scenario(doc)
            raise AssertionError(doc)
        except RuleViolation as exc:
            assert exc.code == "bad_scenario"
    state = E.evolve(None, E.scenario({"players": [pl(deck=["tiger_01"]), pl(master="rosamu", kami="dragon", pos="0,2", deck=[])]})[0])
    assert E.legal_commands(state, True) == [] and E.legal_commands(state, None) == []


# rules: Yashima core/Fairytale, "Kami" (each kami's listed abilities and defenses appear on its cards)
def test_kami_keywords_appear_on_their_cards():
    for k in KAMI.values():
        attack_kw = {it["k"] for c in k["cards"] for it in c["attack"]} | {c["quick"]["k"] for c in k["cards"] if c.get("quick")}
        defense_kw = {c.get("defense") for c in k["cards"]}
        for ab in k["abilities"]:
            assert ab in attack_kw, (k["id"], ab)
        for d in k["defenses"]:
            assert d in defense_kw, (k["id"], d)
        assert any({"k": "ADAPT"} in c["attack"] for c in k["cards"])
