"""Decision clocks (``deadline_seconds``) and what a seat does when its clock runs out."""

import ast
from pathlib import Path

import pytest

from games.engines.yashima import ENGINE, clocks
from games.kernel import SYSTEM, Command, RuleViolation, Rng, fold

from .helpers import P, attack, life, pl, prompt, scene

A, FRONT = "0,0", "0,-1"


def duel(hand1=("block", "plain"), **kw):
    return scene(pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=list(hand1)), **kw)


def timeout(s, seat):
    cmd = ENGINE.timeout_command(s.state, seat)
    assert cmd in s.legal(seat)
    return s.when(seat, cmd["type"], **cmd["args"])


# rules: Yashima core, "Attack Action" (a targeted master "may respond" with a defense card: not responding is no defense)
def test_a_timed_out_defense_resolves_as_no_defense():
    s = duel()
    attack(s, 0, "seven")
    assert prompt(s)["kind"] == "defense" and s.status.awaiting == [1]
    assert s.status.deadline_seconds == 60  # the default defense clock
    before = life(s, 1)
    assert ENGINE.timeout_command(s.state, 1) == {"type": "no_defense", "args": {}}
    timeout(s, 1)
    assert "block" in [c["d"] for c in P(s, 1)["hand"]]  # the block card was not played
    while prompt(s) and prompt(s)["kind"] == "lose":  # a timed-out LOSE takes the top of the deck
        assert ENGINE.timeout_command(s.state, 1)["args"]["zone"] == "deck"
        timeout(s, 1)
    assert life(s, 1) == before - 7  # all 7 damage, nothing prevented


def test_defense_clock_follows_the_option_and_turn_decisions_have_no_clock_by_default():
    s = duel(options={"defense_seconds": 15})
    assert s.status.awaiting == [0] and s.status.deadline_seconds is None  # own turn: no turn clock by default
    attack(s, 0, "seven")
    assert s.status.deadline_seconds == 15
    off = duel(options={"defense_seconds": 0})
    attack(off, 0, "seven")
    assert prompt(off)["kind"] == "defense" and off.status.deadline_seconds is None


def test_turn_clock_runs_on_own_decisions_and_destiny():
    s = duel(options={"turn_seconds": 90, "defense_seconds": None})
    assert s.status.deadline_seconds == 90
    attack(s, 0, "seven")
    assert s.status.awaiting == [1] and s.status.deadline_seconds is None  # the defense clock is off
    destiny = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FRONT), phase="destiny", options={"turn_seconds": 30})
    assert destiny.status.awaiting == [0, 1] and destiny.status.deadline_seconds == 30


def test_a_timed_out_turn_takes_a_token_then_ends():
    s = duel(options={"turn_seconds": 20})
    timeout(s, 0)
    assert s.state["turn"]["token"] == "move" and s.state["pool"]["move"] == 0
    assert ENGINE.timeout_command(s.state, 0) == {"type": "end_turn", "args": {}}
    timeout(s, 0)
    assert s.state["turn"]["seat"] == 1


def test_a_timed_out_move_stops_where_it_stands_with_its_facing():
    s = scene(pl(pos=A, facing=2), pl(master="rosamu", kami="dragon", pos="4,-4"))
    s.when(0, "move_action")
    assert prompt(s)["kind"] == "move"
    timeout(s, 0)
    assert P(s, 0)["pos"] == A and P(s, 0)["facing"] == 2


@pytest.mark.parametrize("bad", [-1, 86401, 1.5, True, "60"])
def test_clock_options_are_validated(bad):
    for name in clocks.CLOCK_OPTIONS:
        with pytest.raises(RuleViolation) as exc:
            ENGINE.validate_options({name: bad}, 2)
        assert exc.value.code == "bad_options"
    ENGINE.validate_options({"defense_seconds": None, "turn_seconds": 0}, 2)


def _prompt_kinds_in_source():
    """Every literal prompt kind the engine can open (``ask``, ``space_choice``, ``relocate_choice``)."""
    where = {"ask": 2, "space_choice": 5, "relocate_choice": 3}
    kinds = set()
    for path in Path(clocks.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in where:
                arg = node.args[where[node.func.id]] if len(node.args) > where[node.func.id] else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    kinds.add(arg.value)
    return kinds


def test_every_prompt_kind_has_a_timeout_rule():
    kinds = _prompt_kinds_in_source()
    assert len(kinds) > 25  # the walk found the prompts (this would catch a broken parse)
    # FEINT and RELOCATE open prompts named after the keyword (``it["k"].lower()``)
    assert kinds | {"feint", "relocate"} <= set(clocks.ON_TIMEOUT)


def _walk(seed, seats, cap, timeout_every):
    """Seeded play (every ``timeout_every``-th decision a timeout, the others alternately the bot's and
    a random listed command, its type drawn first, so the walk meets every kind of decision: the bot
    alone may never need a move action) checking at every step that each awaited seat's timeout command is
    listed, accepted, and ends that decision."""
    rng = Rng(f"clock-{seed}".encode(), "walk")
    state = fold(ENGINE, ENGINE.setup({"round_cap": cap}, seats, Rng(f"clk{seed}".encode(), "setup")))
    kinds = set()
    for step in range(20000):
        st = ENGINE.status(state)
        if st.finished:
            return kinds, state
        assert st.awaiting
        if st.awaiting == [SYSTEM]:
            cmd, seat = ENGINE.system_command(state), SYSTEM
        else:
            for who in st.awaiting:
                kind = clocks.decision_kind(state, who)
                assert kind in clocks.ON_TIMEOUT, kind
                kinds.add(kind)
                legal = ENGINE.legal_commands(state, who)
                tc = ENGINE.timeout_command(state, who)
                assert tc in legal, (kind, tc)
                after = fold(ENGINE, ENGINE.decide(state, Command(tc["type"], tc["args"], who), Rng(b"t", f"{step}")), state)
                # the decision is over: the seat is no longer awaited, or faces a new one (for a LOSE
                # of several cards: the same options with one card fewer remaining)
                assert who not in ENGINE.status(after).awaiting or (ENGINE.legal_commands(after, who), clocks.seat_prompt(after, who)) \
                    != (legal, clocks.seat_prompt(state, who)), kind
            seat = rng.choice(st.awaiting)
            if step % timeout_every == 0:
                cmd = ENGINE.timeout_command(state, seat)
            elif step % 2:
                legal = ENGINE.legal_commands(state, seat)
                kind = rng.choice(sorted({c["type"] for c in legal}))
                cmd = rng.choice([c for c in legal if c["type"] == kind])
            else:
                cmd = ENGINE.bot_command(state, seat, rng)
        state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(f"clk{seed}".encode(), f"{step}")), state)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed,seats", [(1, 2), (2, 3), (3, 4), (4, 2)])
def test_timeouts_are_legal_and_end_the_decision_in_random_play(seed, seats):
    kinds, _ = _walk(seed, seats, cap=3, timeout_every=3)
    assert {"setup", "destiny", "reconcile", "turn", "move"} <= kinds


def test_a_match_where_everybody_always_times_out_reaches_its_end():
    kinds, state = _walk(5, 3, cap=2, timeout_every=1)
    assert state["result"]["reason"] == "round_cap"


def _three(effects, pattern="thrust", **kw):
    """Seat 0 attacks along 0,-1 / 0,-2 where seats 1 and 2 stand (both hit: no defense cards)."""
    from .helpers import card
    custom = {"fx": card("fx", atk=1, pattern=pattern, attack=effects)}
    s = scene(pl(pos=A, hand=["fx"], karma=["low", "mid"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3),
              pl(master="mulan", kami="tiger", pos="0,-2", facing=3), custom=custom, **kw)
    attack(s, 0, "fx")
    while prompt(s)["kind"] == "lose":
        timeout(s, prompt(s)["seat"])
    assert prompt(s)["kind"] == "optional_effect"
    s.when(0, "use_effect", effect=effects[0]["k"])
    return s


# rules: Yashima Fairytale, BLEED / Yashima core, EXPLODE and the project's DISCARD_KARMA and DAMAGE targets:
# choices the card makes compulsory; a timeout takes the first listed option
@pytest.mark.parametrize("effects,kind,kw", [
    ([{"k": "BLEED"}], "bleed", {}),
    ([{"k": "DAMAGE", "n": 1, "target": {"range": 3}}], "choose_master", {}),
    ([{"k": "DISCARD_KARMA"}], "discard_karma", {}),
    ([{"k": "EXPLODE", "status": "BURN"}], "explode", {"space_statuses": {"3,-3": {"BURN": 0}, "-3,3": {"BURN": 0}}}),
])
def test_compulsory_choices_time_out_to_the_first_option(effects, kind, kw):
    s = _three(effects, **kw)
    pr = prompt(s)
    assert pr["kind"] == kind and pr["seat"] == 0 and len(pr["cmds"]) >= 2
    assert s.status.deadline_seconds is None  # the attacker's own choice: the (unset) turn clock
    assert ENGINE.timeout_command(s.state, 0) == pr["cmds"][0]
    timeout(s, 0)
    assert prompt(s) is None or prompt(s)["kind"] != kind or prompt(s)["cmds"] != pr["cmds"]
