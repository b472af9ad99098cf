"""The Yashima bot: only listed commands, never stuck, deterministic, blind to hidden cards and
secret tokens, and it plays to win (win rates against the random player: ``manage.py bench bots``)."""

import pytest

from games.engines.yashima import ENGINE, bots
from games.engines.yashima.state import clone
from games.kernel import SYSTEM, Command, Rng, fold

from .helpers import P, card, hid, pl, prompt, scene


def hidden_variant(state, seat, rng):
    """The same position with everything ``seat`` cannot see dealt differently: the other masters'
    hands and face-down deck cards shuffled together (same sizes, face-up cards left where they lie,
    new ids), ``seat``'s own face-down deck reordered, the others' secret destiny tokens flipped."""
    s = clone(state)
    for i, p in enumerate(s["players"]):
        down = [k for k, c in enumerate(p["deck"]) if not c.get("im")]
        pool = [p["deck"][k] for k in down] if i == seat else p["hand"] + [p["deck"][k] for k in down]
        pool = rng.shuffled(pool)
        if i != seat:
            pool = [dict(c, id=f"other-{i}-{n}") for n, c in enumerate(pool)]
            p["hand"], pool = pool[:len(p["hand"])], pool[len(p["hand"]):]
        for k in down:
            p["deck"][k] = pool.pop(0)
    s["destiny"] = {k: (v if k == str(seat) else ("attack" if v == "move" else "move"))
                    for k, v in s["destiny"].items()}
    return s


def play(seats, seed, bot_seats, cap, teams=False, check_every=4):
    opts = {"round_cap": cap, **({"teams": True} if teams else {})}
    state = fold(ENGINE, ENGINE.setup(opts, seats, Rng(f"bots-{seed}".encode(), "setup")))
    chooser = Rng(f"bots-{seed}".encode(), "random")
    decisions = 0
    for n in range(20000):
        status = ENGINE.status(state)
        if status.finished:
            return state, decisions
        seat = status.awaiting[n % len(status.awaiting)]
        if seat == SYSTEM:
            cmd = ENGINE.system_command(state)
        elif seat in bot_seats:
            legal = ENGINE.legal_commands(state, seat)
            cmd = ENGINE.bot_command(state, seat, Rng(b"bot", f"{seed}:{n}"))
            assert cmd in legal, cmd  # a listed command whenever one is awaited: the bot never stalls
            decisions += 1
            if decisions % check_every == 0:
                assert ENGINE.bot_command(state, seat, Rng(b"bot", f"{seed}:{n}")) == cmd  # deterministic
                known = bots.belief(state, seat)
                assert ENGINE.legal_commands(known, seat) == legal
                other = hidden_variant(state, seat, Rng(b"variant", f"{seed}:{n}"))
                assert bots.belief(other, seat) == known  # all the bot reads
                assert ENGINE.bot_command(other, seat, Rng(b"bot", f"{seed}:{n}")) == cmd
        else:
            cmd = chooser.choice(ENGINE.legal_commands(state, seat))
        events = ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(f"bots-{seed}".encode(), f"{n}"))
        state = fold(ENGINE, events, state)
    raise AssertionError("the match did not end")


# rules: Yashima core, "Restoration and Winning the Game" (bot games reach a legal end)
@pytest.mark.parametrize("seats, teams, bot_seats, cap", [(2, False, {0}, 3), (2, False, {0, 1}, 2),
                                                          (3, False, {1}, 2), (4, True, {0, 2}, 2),
                                                          (5, False, {4}, 2), (6, True, {1, 3, 5}, 2)])
def test_bot_plays_listed_deterministic_commands_blind_to_hidden_cards(seats, teams, bot_seats, cap):
    state, decisions = play(seats, seats * 10 + cap, bot_seats, cap, teams)
    assert decisions > 20
    assert state["phase"] == "over"


def test_bot_beats_random_in_a_duel():
    wins = 0
    for seed in range(4):
        me = seed % 2
        state, _ = play(2, 100 + seed, {me}, 40, check_every=10 ** 6)
        wins += state["result"]["winners"] == [me]
    assert wins == 4


LETHAL = card("lethal", atk=5, pattern="jab")
WEAK = card("weak", atk=1, pattern="jab")


# rules: Yashima core, "Attack Action" (rotate to any facing; the targeted master LOSEs the ATK)
def test_bot_turns_and_attacks_when_a_lethal_attack_exists():
    # given: seat 1 stands behind seat 0 with 4 cards of life and no defense; seat 0 holds a 5 ATK jab
    s = scene(pl(pos="0,0", facing=0, hand=["weak", "lethal"]),
              pl(master="rosamu", kami="dragon", pos="0,1", facing=0, hand=[], deck=["plain"] * 4),
              custom={"lethal": LETHAL, "weak": WEAK})
    # when
    choice = ENGINE.bot_command(s.state, 0, Rng(b"t", "lethal"))
    # then: facing 3 points at 0,1 (the jab's one space)
    assert choice == {"type": "attack", "args": {"card": hid(s, 0, "lethal"), "facing": 3}}
    s.when(0, choice["type"], **choice["args"])
    assert P(s, 1)["pending"]  # no life left: it enters restoration, and seat 0 wins at the turn's end


# rules: Yashima core, glossary BLOCK ("USE this card, prevent 3 damage")
def test_bot_blocks_an_attack_it_can_blunt():
    # given: seat 0 attacks seat 1 for 4; seat 1 holds a BLOCK card and a plain card
    s = scene(pl(pos="0,0", facing=0, hand=["seven"]),
              pl(master="rosamu", kami="dragon", pos="0,-1", facing=3, hand=["block", "plain"]))
    s.when(0, "attack", card=hid(s, 0, "seven"), facing=0)
    assert prompt(s)["kind"] == "defense" and prompt(s)["seat"] == 1
    # when
    choice = ENGINE.bot_command(s.state, 1, Rng(b"t", "block"))
    # then
    assert choice == {"type": "defend", "args": {"card": hid(s, 1, "block")}}


# rules: Yashima core, glossary DRAW ("Draw a card from your battle deck")
def test_bot_does_not_know_the_top_card_of_its_own_deck():
    # given: two 3 ATK jabs would hit seat 1 alike; one of them draws a card after the attack. That
    # card is a BLOCK card or a useless one depending on the deck order, which seat 0 cannot see
    drawer = card("drawer", atk=3, pattern="jab", attack=[{"k": "DRAW", "n": 1}])
    striker = card("striker", atk=3, pattern="jab")
    guard = card("guard", karma=1, atk=1, pattern="none", defense="BLOCK")
    dud = card("dud", karma=1, atk=1, pattern="none")

    def position(deck):
        return scene(pl(pos="0,0", facing=0, hand=["drawer", "striker"], deck=deck),
                     pl(master="rosamu", kami="dragon", pos="0,-1", facing=3, hand=[], deck=["plain"] * 9),
                     custom={"drawer": drawer, "striker": striker, "guard": guard, "dud": dud})
    decks = [["guard"] + ["dud"] * 5, ["dud"] * 5 + ["guard"], ["dud", "guard"] + ["dud"] * 4]
    # when
    for k in range(6):
        choices = [ENGINE.bot_command(position(deck).state, 0, Rng(b"t", f"draw{k}")) for deck in decks]
        # then: the same choice for every order (a bot reading its deck would take the drawing jab
        # when the BLOCK card is on top, and split the tie between the two jabs otherwise)
        assert choices[0]["type"] == "attack" and choices == [choices[0]] * len(decks)
