"""The Harakiri bot: a bot seat plays its characters (moves, attacks, interacts, uses its skills),
answers every decision with a listed command, is deterministic and blind to the hidden decks and
unrevealed zones (party success against random seats: ``manage.py bench bots``)."""

import pytest

from games.engines.harakiri import ENGINE, bot, grid
from games.kernel import SYSTEM, Command, Rng, fold

from .helpers import arena, doc, open_rows, scenario


def hidden_variant(state, rng):
    """The same table with every hidden order changed and the unrevealed zones rewritten: the oracle
    deck, the zones' event decks, the Chosen's AI decks shuffled; unrevealed zones moved off."""
    s = dict(state)
    s["oracle"] = dict(state["oracle"], deck=rng.shuffled(state["oracle"]["deck"]))
    s["zones"] = {z: dict(zs, events={k: rng.shuffled(v) for k, v in zs["events"].items()})
                  for z, zs in state["zones"].items()}
    s["enemies"] = {e: (dict(en, ai=dict(en["ai"], deck=rng.shuffled(en["ai"]["deck"]))) if "ai" in en else en)
                    for e, en in state["enemies"].items()}
    s["zones_def"] = {z: (zd if z in state["zones"] else dict(zd, enemies=[], points=[], name="elsewhere"))
                      for z, zd in state["zones_def"].items()}
    return s


def party(seed, seats, cap, check_every=5):
    state = fold(ENGINE, ENGINE.setup({"round_cap": cap}, seats, Rng(f"party-{seed}".encode(), "setup")))
    kinds = {}
    for n in range(20000):
        status = ENGINE.status(state)
        if status.finished:
            return state, kinds
        seat = status.awaiting[0]
        if seat == SYSTEM:
            cmd = ENGINE.system_command(state)
        else:
            legal = ENGINE.legal_commands(state, seat)
            cmd = ENGINE.bot_command(state, seat, Rng(b"bot", f"{seed}:{n}"))
            assert cmd in legal, cmd  # a listed command whenever one is awaited: the bot never stalls
            kinds[cmd["type"]] = kinds.get(cmd["type"], 0) + 1
            if n % check_every == 0:
                assert ENGINE.bot_command(state, seat, Rng(b"other", f"{seed}:{n}")) == cmd  # deterministic
                other = hidden_variant(state, Rng(b"variant", f"{seed}:{n}"))
                assert bot.belief(other) == bot.belief(state)  # all the bot reads
                assert ENGINE.bot_command(other, seat, Rng(b"bot", f"{seed}:{n}")) == cmd
        state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat),
                                           Rng(f"party-{seed}".encode(), f"{n}")), state)
    raise AssertionError("the phase did not end")


# rules: Harakiri, "Character Activation" (move, attack, interact, techniques, meditate)
@pytest.mark.parametrize("seats", [1, 2, 4])
def test_bot_party_plays_its_characters_with_listed_deterministic_commands(seats):
    state, kinds = party(seats, seats, cap=3)
    assert state["phase"] == "ended"
    assert {"move", "step", "attack", "interact"} <= set(kinds)
    assert kinds.get("meditate", 0) < kinds["attack"] + kinds["move"]


# rules: Harakiri, "Attack" ("Choose an enemy to target within range ... and within LOS")
def test_bot_attacks_the_adjacent_enemy_instead_of_meditating():
    # given: Akira's activation, 3 action points, a kachi next to him
    s = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2", "ap": 3}},
                     {"foe": {"type": "kachi", "color": "red", "at": "3,2"}}, activate="char:akira"))
    assert s.status.awaiting == [0]
    # when: after its free actions (placing Ki dice)
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "attack"))
    while choice["type"] in ("place_ki", "retrieve_head"):
        s.when(0, choice["type"], **choice["args"])
        choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "attack"))
    # then
    assert {"type": "meditate", "args": {}} in s.legal(0)
    assert choice["type"] == "attack" and choice["args"]["target"] == "foe"


# rules: Harakiri, "Zone Setup" (surveying: opening a door gives access to a new zone)
def test_bot_walks_to_the_closed_door_and_opens_it():
    # given: a closed door three squares from Akira, nothing else to do
    rows = ["........#", "........D", "........#"]
    d = doc(arena(rows, doors=[{"id": "exit", "at": "8,1", "survey": "beyond"}],
                  extra_zones={"beyond": {"name": "Beyond", "origin": [9, 0], "rows": ["...", "...", "..."],
                                          "enemies": [], "events": {"green": [], "red": []}, "spawns": {},
                                          "doors": [], "points": [], "resistors": [], "oracle": {"green": 0, "red": 0}}}),
            {"akira": {"sq": "4,1", "ap": 3}}, activate="char:akira")
    s = scenario(d)
    # when: the bot plays Akira's activation to its end
    for _ in range(30):
        if s.status.awaiting != [0] or s.state["turn"]["who"] != "akira":
            break
        choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "door"))
        s.when(0, choice["type"], **choice["args"])
        if choice["type"] == "interact":
            break
    # then
    assert s.state["doors"]["exit"]["open"] and "beyond" in s.state["zones"]


def play_activation(s, who, limit=40):
    """The bot plays ``who``'s activation (seat 0) to its end; returns the commands it chose."""
    chosen = []
    for _ in range(limit):
        if s.status.awaiting != [0] or (s.state.get("turn") or {}).get("who") != who or s.state.get("pending"):
            break
        choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "activation"))
        chosen.append(choice)
        s.when(0, choice["type"], **choice["args"])
        if choice["type"] == "end_activation":
            break
    return chosen


HEALING_KI = {"supply": [], "slots": {"healing": 5}, "exhausted": 0}  # Ki 5: "regain ... 5: 3"


# rules: Harakiri, "Healing" ("You and an adjacent ally ... regain health by the Ki die")
def test_bot_heals_the_wounded_ally_beside_it_before_attacking():
    # given: Hikaru's activation, Healing in effect, Akira beside him at 4 of 11 health, a kachi in reach
    s = scenario(doc(arena(open_rows()),
                     {"hikaru": {"sq": "2,2", "ap": 3, "ki": HEALING_KI}, "akira": {"sq": "2,3", "health": 4}},
                     {"foe": {"type": "kachi", "color": "red", "at": "3,2"}}, activate="char:hikaru"))
    assert any(c["type"] == "attack" and c["args"]["target"] == "foe" for c in s.legal(0))
    # when
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "heal"))
    # then
    assert choice == {"type": "technique", "args": {"skill": "healing", "ally": "akira"}}


# rules: Harakiri, "Healing" (an adjacent ally) and "Movement Action"
def test_bot_healer_walks_to_the_wounded_ally_stays_beside_it_and_heals_it():
    # given: Hikaru four squares from Akira, who is down to 4 health; no enemy on the table
    s = scenario(doc(arena(open_rows()),
                     {"hikaru": {"sq": "1,2", "ap": 3, "ki": HEALING_KI}, "akira": {"sq": "6,2", "health": 4}},
                     {"far": {"type": "kachi", "color": "red", "at": "9,9"}}, activate="char:hikaru"))
    # when: the bot plays Hikaru's activation
    chosen = play_activation(s, "hikaru")
    # then: one walk that never steps back onto a square, ending beside Akira, who is healed
    steps = [c["args"]["to"] for c in chosen if c["type"] == "step"]
    assert [c["type"] for c in chosen].count("move") == 1
    assert len(steps) == len(set(steps)) and "1,2" not in steps
    assert grid.adjacent(s.state, s.state["characters"]["hikaru"]["sq"], "6,2")
    assert {"type": "technique", "args": {"skill": "healing", "ally": "akira"}} in chosen
    assert s.state["characters"]["akira"]["health"] > 4


# rules: Harakiri, "Movement" (enemies block the way) and "Zone Setup" (surveying through a door)
def test_bot_fights_the_enemy_that_walls_off_the_door_rather_than_the_nearest_one():
    # given: the only way to the door passes through 4,1, where a kachi stands; another kachi is nearer
    rows = ["....#...#", "........D", "....#...#"]
    d = doc(arena(rows, doors=[{"id": "exit", "at": "8,1", "survey": "beyond"}],
                  extra_zones={"beyond": {"name": "Beyond", "origin": [9, 0], "rows": ["...", "...", "..."],
                                          "enemies": [], "events": {"green": [], "red": []}, "spawns": {},
                                          "doors": [], "points": [], "resistors": [], "oracle": {"green": 0, "red": 0}}}),
            {"akira": {"sq": "1,0", "ap": 3}},
            {"blocker": {"type": "kachi", "color": "red", "at": "4,1"},
             "decoy": {"type": "kachi", "color": "blue", "at": "0,2"}}, activate="char:akira")
    s = scenario(d)
    # when: the bot plays Akira's activation
    g = bot.goal(bot.belief(s.state), "akira")
    chosen = play_activation(s, "akira")
    # then: its goal is the kachi in the way, which it walks to and attacks
    assert g[:2] == ("enemy", "blocker")
    attacks = [c for c in chosen if c["type"] == "attack"]
    assert attacks and attacks[0]["args"]["target"] == "blocker"


# rules: Harakiri, "Exploration Phase" (the objective) and "Attack" (test die: "-1 armor on fail or critical")
def test_bot_attacks_the_objective_enemy_rather_than_an_easier_minion():
    # given: Tomoe with the Demon Hunter (the objective) and a kachi both in her bow's range
    d = doc(arena(open_rows(), objective={"type": "defeat", "enemy": "hunter"}),
            {"tomoe": {"sq": "2,2", "ap": 3}},
            {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "5,2"},
             "kachi": {"type": "kachi", "color": "red", "at": "5,4"}}, activate="char:tomoe")
    s = scenario(d)
    # when: after its free actions
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "objective"))
    while choice["type"] in ("place_ki", "retrieve_head"):
        s.when(0, choice["type"], **choice["args"])
        choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "objective"))
    # then
    assert any(c["type"] == "attack" and c["args"]["target"] == "kachi" for c in s.legal(0))
    assert choice["type"] == "attack" and choice["args"]["target"] == "hunter"


# rules: Harakiri, "Roll" (move before or after the attack) and "Attack"
def test_bot_rolls_into_reach_and_attacks_rather_than_walking_first():
    # given: Hattori with Roll in effect (Ki 3: 2 movement points), a kachi two squares away
    s = scenario(doc(arena(open_rows()),
                     {"hattori": {"sq": "2,2", "ap": 3, "ki": {"supply": [], "slots": {"roll": 3}, "exhausted": 0}}},
                     {"foe": {"type": "kachi", "color": "red", "at": "4,2"}}, activate="char:hattori"))
    assert not any(c["type"] == "attack" and c["args"].get("roll") != "before" for c in s.legal(0))
    # when
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "roll"))
    # then: the attack with its free Roll, keeping the action point a walk would have cost
    assert choice["type"] == "attack" and choice["args"]["skill"] == "roll"
    assert choice["args"]["roll"] == "before" and choice["args"]["target"] == "foe"
