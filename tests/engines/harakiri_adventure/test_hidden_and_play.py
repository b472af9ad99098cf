"""Hidden deck orders, seeded random play to the end, and the engine contract checks."""

import json

import pytest

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM, Command, Rng, RuleViolation, fold
from tests.engines import test_engine_contract as contract

from . import bot
from .helpers import activation, advance


def _decks_leak(blob: str, state) -> bool:
    """Whether a deck's full order (three or more cards in sequence) shows in ``blob``."""
    for cards in state["decks"].values():
        if len(cards) >= 3 and json.dumps(cards[:3])[1:-1] in blob:
            return True
    return False


def test_deck_orders_never_appear_in_views_or_redacted_events():
    # rules: Harakiri, "Map Board Setup": Shuffle the Shōgun's influence cards ... into a facedown pile
    events = ENGINE.setup({}, 2, Rng(b"hidden", "setup"))
    state = fold(ENGINE, events)
    assert _decks_leak(json.dumps(events), state)  # the stored event keeps the order...
    for seat in (0, 1, None):
        assert not _decks_leak(json.dumps(ENGINE.redact_event(events[0], seat)), state)  # ...no client sees it
        view = ENGINE.view_for(state, seat)
        assert view["decks"] == {name: len(cards) for name, cards in state["decks"].items()}
        assert not _decks_leak(json.dumps(view), state)


def test_a_reshuffle_event_hides_the_new_order():
    ev = {"type": "TravelDeckShuffled", "v": 1, "payload": {"order": ["te_a01", "te_a02", "te_1"], "codes": ["1", "A"]}}
    assert ENGINE.redact_event(ev, 0)["payload"] == {"codes": ["1", "A"], "count": 3}


def play(seed: int, seats: int, chapter: int):
    """A seeded phase to its end: each awaited seat plays the bot-like player's pick of its listed
    commands (decisions at random), SYSTEM its one step."""
    rng = Rng(f"play-{seed}".encode(), "setup")
    state = fold(ENGINE, ENGINE.setup({"chapter": chapter}, seats, rng))
    for step in range(3000):
        status = ENGINE.status(state)
        if status.finished:
            return state, step
        seat = status.awaiting[step % len(status.awaiting)]
        options = ENGINE.legal_commands(state, seat)
        assert options, (status, state["flow"])
        choice = bot.pick(state, options, Rng(f"play-{seed}".encode(), f"pick-{step}"))
        events = ENGINE.decide(state, Command(choice["type"], choice["args"], seat), Rng(f"play-{seed}".encode(), f"step-{step}"))
        state = fold(ENGINE, events, state)
    raise AssertionError("the phase did not end")


def test_40_seeded_adventure_phases_end_in_success_and_in_failure():
    # rules: Harakiri, "Ending the Adventure Phase": every chapter is won and lost by some seeds
    outcomes = {}
    for seed in range(40):
        chapter = seed % 3 + 1
        state, _ = play(seed, seed % 4 + 1, chapter)
        assert state["flow"]["stage"] == "finished"
        outcomes.setdefault(chapter, set()).add(state["result"]["outcome"])
        assert json.loads(json.dumps(state)) == state
    assert outcomes == {1: {"success", "failure"}, 2: {"success", "failure"}, 3: {"success", "failure"}}, outcomes


def test_system_is_the_only_one_awaited_for_the_shoguns_turn():
    kami = {"akira": "hachiman", "hattori": "inari", "hikaru": "amaterasu", "tomoe": "susanoo"}
    state = fold(ENGINE, ENGINE.setup({"kami": kami}, 1, Rng(b"x", "s")))
    for weapon in ("ronin_katana", "ninja_kodachi", "monk_bo", "samurai_yumi"):
        cid = {"ronin_katana": "akira", "ninja_kodachi": "hattori", "monk_bo": "hikaru", "samurai_yumi": "tomoe"}[weapon]
        state = fold(ENGINE, ENGINE.decide(state, Command("choose_weapon", {"character": cid, "weapon": weapon}, 0), Rng(b"x", "c")), state)
    assert ENGINE.status(state).awaiting == [SYSTEM]
    assert ENGINE.system_command(state) == {"type": "advance", "args": {}}
    assert ENGINE.legal_commands(state, 0) == []


@pytest.mark.parametrize("check", [
    contract.test_decisions_are_deterministic_and_independent_of_the_states_source,
    contract.test_states_and_events_are_json_shaped_and_evolve_is_pure,
    contract.test_malformed_and_illegal_commands_are_rule_violations,
], ids=lambda f: f.__name__)
def test_the_engine_contract_checks(check):
    check(ENGINE)


def test_a_decisions_resolution_is_not_shown_before_it_is_chosen():
    # rules: Harakiri, "Travel Events": If the event includes a decision or a test, do not read the resolution text until it has been resolved
    s = activation("akira", decks={"travel": ["te_a08"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "move", to="nara")
    s.when(0, "end_travel")
    events = advance(s)
    view = ENGINE.view_for(s.state, 0)
    assert view["choice"]["options"][0] == {"label": "Help her", "enabled": True}
    offered = next(e for e in events if e["type"] == "ChoiceOffered")
    assert "effects" not in json.dumps(ENGINE.redact_event(offered, 0))


def test_a_malformed_scenario_document_is_refused_with_a_code():
    for bad in ([], {"seats": 9}, {"decks": {"travel": ["no_such_card"]}}, {"options": {"chapter": 7}},
                {"replace": ["enemies"]}, {"options": {"control": {"akira": 3, "hattori": 0, "hikaru": 0, "tomoe": 0}}, "seats": 2}):
        with pytest.raises(RuleViolation) as refused:
            ENGINE.scenario(bad)
        assert refused.value.code in ("bad_scenario", "bad_options")
