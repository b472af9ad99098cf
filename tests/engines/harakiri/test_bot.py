"""The Harakiri bot: a bot seat plays its characters (moves, attacks, interacts, uses its skills),
answers every decision with a listed command, is deterministic and blind to the hidden decks and
unrevealed zones (party success against random seats: ``manage.py bench bots``)."""

import pytest

from games.engines.harakiri import ENGINE, bot
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
