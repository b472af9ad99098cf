"""The enemies' and the oracle's steps are the SYSTEM seat's, never a player's: a party decision in
the middle of an enemy activation or of the events only records the choice, and the step goes on
with a SYSTEM ``resume`` (the platform's worker). Plain ``Scenario`` here, so nothing resumes by
itself (the other test files use ``PlatformScenario``, which resumes as the platform would)."""

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

from .helpers import RESUME, arena, doc, kappa_example_doc, open_rows

ENEMY_STEP_EVENTS = {"EnemyActivated", "EnemyLineChosen", "EnemyMoved", "EnemyAttackRolled", "EnemySpawned",
                     "EventRevealed", "OracleDrawn", "DamageDealt"}


def _plain(document):
    return Scenario(ENGINE, document, seed=b"scenario-seed")


def _types(events):
    return {e["type"] for e in events}


def test_a_party_tie_in_an_enemy_activation_is_recorded_and_the_worker_carries_the_enemy_on():
    # rules: Harakiri, "Enemy Activation": "players may collectively choose which of them the enemy
    # moves to" - the choice is the party's, the activation stays the enemies' (run by the worker)
    s = _plain(kappa_example_doc())
    s.when(SYSTEM, "activate_enemy", enemy="kappa")
    p = s.state["pending"]
    assert p["kind"] == "enemy_square" and s.status.awaiting == [0]

    answered = s.when(0, "choose", option=[o["square"] for o in p["options"]].index("2,2"))
    assert not _types(answered) & ENEMY_STEP_EVENTS, "the player's command only records the choice"
    assert s.state["enemies"]["kappa"]["sq"] == "0,4"
    assert s.status.awaiting == [SYSTEM]
    assert ENGINE.legal_commands(s.state, SYSTEM) == [RESUME] and ENGINE.legal_commands(s.state, 0) == []
    s.rejects(0, "end_activation")

    resumed = s.when(SYSTEM, "resume")
    assert s.state["enemies"]["kappa"]["sq"] == "2,2"
    assert [e["payload"]["target"] for e in resumed if e["type"] == "EnemyAttackRolled"] == ["tomoe"]


def test_a_spawn_square_chosen_during_the_events_is_placed_by_the_worker():
    # rules: Harakiri, "Spawn Points": the party chooses among the closest free squares; the event
    # itself is the oracle's step
    spawn_event = {"green": [{"id": "sp", "name": "Spawn", "effects": [
        {"type": "spawn", "enemy": "kachi", "kind": "minion", "color": "green", "spawn": "blue"}]}], "red": []}
    s = _plain(doc(arena(open_rows(), events=spawn_event, spawns={"blue": "5,5"}), {"akira": {"sq": "5,5"}},
                   oracle={"deck": ["oracle_g1"]}))
    s.when(SYSTEM, "draw_oracle")
    p = s.state["pending"]
    assert p["kind"] == "spawn_square"
    answered = s.when(0, "choose", option=0)
    assert "kachi_green_1" not in s.state["enemies"] and not _types(answered) & ENEMY_STEP_EVENTS
    assert ENGINE.system_command(s.state) == RESUME
    s.when(SYSTEM, "resume")
    assert s.state["enemies"]["kachi_green_1"]["sq"] == p["options"][0]["sq"]


def test_yomis_servant_acts_after_its_owner_by_the_worker_not_in_the_owner_s_command():
    # rules: Harakiri, "Izanami", Yomi's Servant: the raised minion acts after your turn - an
    # enemy-board creature, so its activation is an automated step
    chars = {"akira": {"sq": "2,2", "kami": "izanami", "affinity": 3, "ap": 4}}
    s = _plain(doc(arena(open_rows()), chars, {"foe": {"type": "kappa", "color": "red", "at": "6,2"}},
                   activate="char:akira", queue=["char:akira", "color:red"], oracle={"color": "green"},
                   forced=[1, 6, 6, 3]))
    s.state["defeated_enemies"] = [{"id": "old", "kind": "minion", "type": "kachi"}]
    s.when(0, "technique", skill="izanami_l3", minion="kachi", to="3,2")
    ended = s.when(0, "end_activation")
    assert not _types(ended) & ENEMY_STEP_EVENTS
    assert s.status.awaiting == [SYSTEM] and ENGINE.system_command(s.state) == RESUME
    resumed = s.when(SYSTEM, "resume")
    while s.state["pending"]:  # a tie of the servant's is the party's; the rest is the worker's again
        resumed += s.when(0, "choose", option=0)
        while ENGINE.system_command(s.state) == RESUME:
            resumed += s.when(SYSTEM, "resume")
    servant = [e for e, en in s.state["enemies"].items() if en.get("owner") == "akira"][0]
    chosen = [e["payload"] for e in resumed if e["type"] == "EnemyLineChosen"]
    assert chosen and chosen[0]["enemy"] == servant


def test_resume_is_refused_when_nothing_is_paused():
    s = _plain(doc(arena(open_rows()), {"akira": {"sq": "2,2", "ap": 4}}, activate="char:akira"))
    assert ENGINE.system_command(s.state) != RESUME
    s.rejects(SYSTEM, "resume")


def test_the_counter_attack_skill_is_chosen_by_the_seat_and_struck_on_resume():
    # rules: Harakiri, "Akira", Counter Attack: "if you receive damage, you may perform a counter
    # attack against the attacker" - Akira's seat decides inside the kachi's activation; the attack
    # itself is rolled when the worker resumes that activation
    chars = {"akira": {"ap": 4, "sq": "1,0", "level": 2, "skills": ["sixth_sense", "counter_attack"],
                       "ki": {"supply": [], "slots": {"counter_attack": 2}, "exhausted": 0}}}
    s = _plain(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                   activate="char:akira", queue=["char:akira", "color:red"], oracle={"color": "green"},
                   forced=[6, 1, 2, 1, 6, 6, 6, 6, 6, 3]))
    s.when(0, "attack", target="k", mode="strong", skill="counter_attack")
    s.when(0, "end_activation")
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert s.state["pending"]["kind"] == "counter_attack_skill" and s.status.awaiting == [0]
    answered = s.when(0, "choose", option=1)
    assert "AttackRolled" not in _types(answered) and s.status.awaiting == [SYSTEM]
    resumed = s.when(SYSTEM, "resume")
    rolled = [e["payload"]["attack"] for e in resumed if e["type"] == "AttackRolled"]
    assert rolled and rolled[0]["attacker"] == "akira" and rolled[0]["counter"]
