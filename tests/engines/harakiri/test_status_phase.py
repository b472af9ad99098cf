"""``status.phase`` is the phase the board's top bar shows (the view's ``phase``): a pending decision
or an open attack roll is who is awaited, not a phase of its own (the status panel read "Phase
decision" while the board read "Phase Activation")."""

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM

from .helpers import arena, doc, kappa_example_doc, open_rows, scenario


def _phases(s):
    return s.status.phase, ENGINE.view_for(s.state, 0)["phase"]


def test_a_party_decision_in_the_oracle_phase_keeps_the_oracle_phase():
    s = scenario({"scenario": "act1_burning_village", "oracle": {"deck": ["oracle_r1", "oracle_g1"]}})
    s.when(SYSTEM, "draw_oracle")
    assert s.state["pending"]["kind"] == "initiative_swap" and s.status.awaiting == [0]
    assert _phases(s) == ("oracle", "oracle")


def test_a_party_decision_in_an_enemys_activation_keeps_the_activation_phase():
    s = scenario(kappa_example_doc())
    s.when(SYSTEM, "activate_enemy", enemy="kappa")
    assert s.state["pending"]["kind"] == "enemy_square" and s.status.awaiting == [0]
    assert _phases(s) == ("activation", "activation")


def test_an_open_attack_roll_keeps_the_activation_phase():
    enemies = {"foe": {"type": "kappa", "color": "red", "at": "3,2"}}
    s = scenario(doc(arena(open_rows()), {"akira": {"sq": "2,2", "meditation": 1}}, enemies,
                     activate="char:akira", forced=[1, 3, 6]))
    s.when(0, "attack", target="foe", mode="fast")
    assert s.state["attack"] and s.status.awaiting == [0]
    assert _phases(s) == ("activation", "activation")
