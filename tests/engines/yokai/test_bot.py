"""The Yokai bot: only listed commands, never stuck, deterministic, blind to hidden cards, and it
plays to win (win rates against the random player: ``manage.py bench bots``)."""

import pytest

from games.engines.yokai import ENGINE, bot
from games.engines.yokai.state import clone
from games.kernel import Command, Rng, fold

from .helpers import grid, mon, scene


def hidden_variant(state, seat, rng):
    """The same position with every card ``seat`` cannot see dealt differently: the other players'
    hands and decks shuffled together (same sizes, new ids), every deck reordered."""
    s = clone(state)
    for i, pl in enumerate(s["players"]):
        if i == seat:
            pl["deck"] = rng.shuffled(pl["deck"])
            continue
        pool = rng.shuffled(pl["hand"] + pl["deck"])
        pool = [{"id": f"other-{i}-{k}", "card": c["card"]} for k, c in enumerate(pool)]
        pl["hand"], pl["deck"] = pool[:len(pl["hand"])], pool[len(pl["hand"]):]
    return s


def game(seats, teams, seed, bots, checks=False):
    rng = Rng(f"bot-{seats}-{teams}-{seed}".encode(), "play")
    state = fold(ENGINE, ENGINE.setup({"teams": teams} if teams else {}, seats, rng))
    for n in range(5000):
        status = ENGINE.status(state)
        if status.finished:
            return state
        seat = status.awaiting[0]
        legal = ENGINE.legal_commands(state, seat)
        if seat in bots:
            c = ENGINE.bot_command(state, seat, Rng(b"bot", f"{seed}:{n}"))
            assert c in legal  # a listed command whenever one is awaited: the bot never stalls
            if checks:
                assert ENGINE.bot_command(state, seat, Rng(b"bot", f"{seed}:{n}")) == c  # deterministic
                if n % 3 == 0:
                    assert ENGINE.legal_commands(bot.belief(state, seat), seat) == legal
                    other = hidden_variant(state, seat, Rng(b"variant", f"{seed}:{n}"))
                    assert bot.belief(other, seat) == bot.belief(state, seat)  # all the bot reads
                    assert ENGINE.bot_command(other, seat, Rng(b"bot", f"{seed}:{n}")) == c
        else:
            c = rng.choice(legal)
        state = fold(ENGINE, ENGINE.decide(state, Command(c["type"], c["args"], seat), rng), state)
    raise AssertionError("no end")


# rules: Yokai Battle, "How to win" (bots reach a legal end in every mode)
@pytest.mark.parametrize("seats, teams", [(2, False), (3, False), (4, False), (4, True)])
def test_bot_games_end_with_listed_deterministic_choices_blind_to_hidden_cards(seats, teams):
    for seed in range(3):
        state = game(seats, teams, seed, bots=set(range(0, seats, 2)) | {seed % seats}, checks=True)
        assert state["finished"] and state["winners"]


def test_bot_beats_random_at_two_players():
    wins = sum(game(2, False, seed, bots={seed % 2})["winners"] == [seed % 2] for seed in range(30))
    assert wins >= 26


# rules: Yokai Battle, "Attacks & retaliation after summoning" (a paid attack costs the APs used)
def test_bot_takes_the_capture_worth_taking_and_not_the_losing_trade():
    # given: Kappa (1,0) could pay 1 to hit the Onikuma above it and die to its retaliation; the
    # Mikari Baba (1,1) can pay 2 to kill the Kodama at 1,2 and survive
    s = scene([mon("1,0", "kappa", 0), mon("1,1", "mikari_baba", 0), mon("0,0", "onikuma", 1), mon("1,2", "kodama", 1, lp=1)],
              hands={"0": [], "1": ["gaki"]}, board=grid("wood"), chakra=3)
    # when
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "capture"))
    # then
    assert choice == {"type": "attack", "args": {"attacker": "1,1", "defender": "1,2"}}


# rules: Yokai Battle, "How to win" (conquer 5 terrain cards)
def test_bot_summons_its_fifth_monster_where_it_survives():
    # given: four monsters of seat 0, a Gaki in hand; squares 1,2 and 2,2 are next to an enemy
    # Onikuma whose retaliation would kill a fresh Gaki, square 0,2 is safe
    monsters = [mon("0,0", "kodama", 0), mon("0,1", "kodama", 0), mon("1,0", "kodama", 0), mon("2,0", "kodama", 0),
                mon("2,1", "onikuma", 1), mon("1,1", "onikuma", 1)]
    s = scene(monsters, hands={"0": ["gaki"], "1": ["gaki"]}, board=grid("wood"), chakra=1)
    # when
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "conquest"))
    s.when(0, choice["type"], **choice["args"])
    # then
    assert choice["type"] == "summon" and choice["args"]["terrain"] == "0,2"
    assert s.state["finished"] and s.state["winners"] == [0]


# rules: Yokai Battle, colorless ability "When summoned, this allows its player to draw one extra card"
def test_bot_does_not_know_which_card_its_gaki_would_draw():
    # given: summoning the Gaki draws the top card, and a Kodama drawn there could be summoned as the
    # fifth monster at once; where the Kodama lies in the deck is hidden from seat 0 itself
    def position(deck):
        return scene([mon("0,0", "kodama", 0), mon("0,1", "mikari_baba", 0), mon("0,2", "kodama", 0),
                      mon("1,1", "kodama", 1, lp=2)],
                     hands={"0": ["gaki"], "1": ["gaki"]}, decks={"0": deck, "1": ["kodama"] * 5},
                     board=grid("wood"), chakra=2)
    decks = [["kodama", "bakeneko", "bakeneko"], ["bakeneko", "kodama", "bakeneko"], ["bakeneko", "bakeneko", "kodama"]]
    # when
    choices = [ENGINE.bot_command(position(deck).state, 0, Rng(b"t", "gaki")) for deck in decks]
    # then: one choice whatever the order (a bot reading the deck places the Gaki next to the enemy
    # Kodama when a Kodama is on top, elsewhere otherwise)
    assert choices[0]["type"] == "summon" and choices == [choices[0]] * 3
