"""The Exploration Phase's history in words (``describe.py``): what the UX review found - an event's id
in a reason, an enemy's movement naming the wrong square, singular/plural slips, a reason repeating
the sentence, a decision read as its raw option, a hit "for 0" with no word on why - checked on the
events the engine emits, and swept over seeded play."""

import re

import pytest

from games.engines.harakiri import ENGINE, describe
from games.kernel import SYSTEM, Command, Rng, fold
from tests.engines.harakiri.test_random_play import VETERANS, guided

from .helpers import kappa_example_doc, scenario

NAMES = ["alice", "bob"]


def words(events, seat=0):
    """``[(type, sentence)]`` as the seat's history shows them (redacted, bookkeeping left out)."""
    out = []
    for ev in events:
        seen = ENGINE.redact_event(ev, seat)
        text = ENGINE.describe(seen, seat, NAMES)
        if text:
            out.append((ev["type"], text))
    return out


def said(events, type_):
    return [t for kind, t in words(events) if kind == type_]


def say(type_, **payload):
    return ENGINE.describe({"type": type_, "v": 1, "payload": payload}, 0, NAMES)


def test_an_events_effects_name_the_event_as_its_card_does_never_its_id():
    # given the Burning Village with a red oracle card on top: the gate's first red event hurts everyone
    s = scenario({"scenario": "act1_burning_village", "oracle": {"deck": ["oracle_r1", "oracle_g1"]}})
    # when the oracle is drawn
    ev = s.when(SYSTEM, "draw_oracle")
    # then the event and every health loss it causes name "Smoke and Embers", never "gate_r1"
    assert said(ev, "EventRevealed") == ["Event in Village Gate: Smoke and Embers"]
    losses = said(ev, "HealthChanged")
    assert losses and all(t.endswith("(the Smoke and Embers event)") for t in losses), losses
    assert "Akira loses 1 health, now 10 (the Smoke and Embers event)" in losses
    assert not any("gate_r1" in t for _, t in words(ev))


@pytest.mark.parametrize("reason,words_", [
    ("event court_r2", "(the Bloodlust event)"),
    ("poisoned from event shrine_p2", "(poisoned from the Cursed Bells event)"),
    ("event arena_x1", "(an event)"),  # an inline scenario's own event: no id, no guess
    ("no event left", "(no event left)"),  # a reason that only says "event" is left alone
])
def test_an_event_in_a_reason_reads_as_its_name(reason, words_):
    assert say("MaliceRaised", malice=2, zone="courtyard", reason=reason) == f"Malice is now 2 {words_}"


def test_an_enemys_line_names_the_square_it_moves_to_not_its_targets():
    # given the rulebook's kappa example: the kappa goes for Tomoe on 2,1; the party picks 2,2
    s = scenario(kappa_example_doc())
    ev = s.when(SYSTEM, "activate_enemy", enemy="kappa")
    options = [o["square"] for o in s.state["pending"]["options"]]
    ev += s.when(0, "choose", option=options.index("2,2"))
    # then the line's sentence says where the kappa ends its move, and never puts Tomoe there
    line = said(ev, "EnemyLineChosen")
    assert line == ["Kappa follows line 1 against Tomoe, ending its move on (2,2)"], line
    assert s.state["characters"]["tomoe"]["sq"] == "2,1" and "(2,1)" not in line[0]
    assert said(ev, "DecisionMade") == ["The party sends the enemy to (2,2), toward Tomoe"]


def test_an_enemy_without_a_line_does_nothing_in_words():
    text = say("EnemyLineChosen", enemy="gate_kachi_red", line=None, note="no line can be fully resolved")
    assert text == "Kachi (red) does nothing: no line can be fully resolved"


@pytest.mark.parametrize("payload,text", [
    ({"who": "akira", "set": {"ap": 1}, "reason": "strong attack"}, "Akira has 1 action point left (strong attack)"),
    ({"who": "akira", "set": {"ap": 2}, "reason": "move"}, "Akira has 2 action points left (move)"),
    ({"who": "akira", "set": {"ap": 0}, "reason": "exert"}, "Akira has 0 action points left (exert)"),
    ({"who": "tomoe", "set": {"ap": 4}, "gained": 3}, "Tomoe starts the activation with 4 action points"),
    ({"who": "tomoe", "set": {"ap": 1}, "reason": "keep at most 1 action point"},
     "Tomoe keeps 1 action point for the next activation"),
])
def test_action_points_agree_in_number(payload, text):
    assert say("ActionPointsChanged", **payload) == text


@pytest.mark.parametrize("conditions,reason,text", [
    ({"blessed": 1}, "blessed", "Akira is now blessed"),  # not "Akira conditions: blessed (blessed)"
    ({"blessed": 2}, "blessed", "Akira is now blessed (2 tokens)"),
    ({"bleeding": 1, "blessed": 1}, "bleeding from gate_kachi_red", "Akira is now bleeding and blessed (bleeding from Kachi (red))"),
    ({"bleeding": 0, "blessed": 0}, "blessed protection negates bleeding", "Akira has no conditions left (blessed protection negates bleeding)"),
])
def test_conditions_read_as_a_sentence_without_repeating_themselves(conditions, reason, text):
    full = {"bleeding": 0, "poisoned": 0, "blinded": 0, "downed": 0, "blessed": 0, **conditions}
    assert say("ConditionsChanged", who="akira", set={"conditions": full}, reason=reason) == text


def test_the_initiative_swap_says_what_the_party_decided():
    s = scenario({"scenario": "act1_burning_village", "oracle": {"deck": ["oracle_r1", "oracle_g1"]}})
    s.when(SYSTEM, "draw_oracle")
    assert s.state["pending"]["kind"] == "initiative_swap"
    kept = s.when(0, "choose", option=0)  # "No swap"
    assert said(kept, "DecisionMade") == ["The party keeps the initiative order: no swap"]
    assert say("DecisionMade", kind="initiative_swap", option={"swap": ["akira", "tomoe"]}) == \
        "The party swaps the initiative cards of Akira and Tomoe"


@pytest.mark.parametrize("kind,option,text", [
    ("sixth_sense", {"move": -1}, "Sixth Sense: Akira's initiative card moves 1 place earlier"),
    ("counter_attack", {"counter": False}, "Counter attack: declined"),
    ("counter_attack", {"counter": True, "focus": True}, "Counter attack: yes, with the focus die"),
    ("enemy_target", {"target": "hikaru"}, "The enemy's target is Hikaru"),
    ("level_skill", {"skill": "stab"}, "The new skill: Stab"),
    ("ryujin_l3", {"swap": None}, "Dragon Tail: no swap"),
    ("intimidation", {"priority": "-health"}, "Intimidation: this round every enemy targets the one with the least health"),
])
def test_every_decision_kind_reads_as_words_not_its_option(kind, option, text):
    assert say("DecisionMade", kind=kind, option=option) == text


def test_a_hit_for_no_damage_says_the_defense_and_armor_absorbed_it():
    # a character's hit (damage per target) and an enemy's hit, each for 0 and for some
    assert say("AttackResolved", attacker="akira", damage={"gate_kachi_red": 0}, critical=False, yinyang=False) == \
        "Akira's attack hits Kachi (red) but deals no damage: Kachi (red)'s defense and armor absorb the hits"
    assert say("AttackResolved", attacker="akira", damage={"gate_kachi_red": 2}, critical=False) == \
        "Akira's attack hits Kachi (red) for 2 damage"
    assert say("AttackResolved", attacker="gate_kachi_red", target="tomoe", outcome="hit", damage=0, critical=False) == \
        "Kachi (red)'s attack hits Tomoe but deals no damage: Tomoe's defense, armor and protections absorb the hits"
    assert say("AttackResolved", attacker="gate_kachi_red", target="tomoe", outcome="critical_fail") == \
        "Kachi (red)'s attack on Tomoe is a critical fail"


def test_an_old_logs_list_of_damage_still_reads():
    old = say("AttackResolved", attacker="akira", damage=[{"target": "gate_kachi_red", "damage": 0}])
    assert old.startswith("Akira's attack hits Kachi (red) but deals no damage")


# -- a sweep over seeded play ----------------------------------------------------------------------

COUNTED = r"(action point|impact|card|head|boss head|coin|hit|square|place|token|failure|new card)"
ONE_BUT_MANY = re.compile(rf"(?<![\d.])1 {COUNTED}s\b")
MANY_BUT_ONE = re.compile(rf"\b(0|[2-9]|\d\d+) {COUNTED}\b(?!s)")
ECHO = re.compile(r"\b(\w+) \(\1\)")  # "blessed (blessed)"


def _play(seed, options, max_steps=1500):
    events = ENGINE.setup({"round_cap": 4, **options}, 2, Rng(f"words-{seed}".encode(), "setup"))
    state = fold(ENGINE, events)
    chooser = Rng(f"words-bot-{seed}".encode(), "bot")
    for step in range(max_steps):
        status = ENGINE.status(state)
        if status.finished:
            break
        seat = status.awaiting[0]
        cmd = ENGINE.system_command(state) if seat == SYSTEM else guided(state, ENGINE.legal_commands(state, seat), chooser)
        new = ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(f"words-{seed}".encode(), str(step)))
        state = fold(ENGINE, new, state)
        events += new
    return events


@pytest.fixture(scope="module")
def history():
    return [w for seed, opts in enumerate([{}, {"party": VETERANS}, {"party_vote": True}]) for w in words(_play(seed, opts))]


def test_seeded_histories_have_no_number_slips_ids_or_echoes(history):
    types = {kind for kind, _ in history}
    assert {"ActionPointsChanged", "AttackResolved", "DecisionMade", "EnemyLineChosen", "ConditionsChanged"} <= types
    for kind, text in history:
        assert not ONE_BUT_MANY.search(text) and not MANY_BUT_ONE.search(text), (kind, text)
        assert "_" not in text, f"an id in {text!r}"
        assert not ECHO.search(text), (kind, text)
        assert not text.startswith("Decided ("), (kind, text)
        assert not re.search(r"\bat \(\d+,\d+\)", text) or kind != "EnemyLineChosen", text
    assert not [w for w in describe.EVENT_NAMES if any(w in t for _, t in history)]
