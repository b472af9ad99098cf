"""``statuses.engine_status``: an engine's status of a game state, worked out once per state object,
so a command's write path asks the engine once for the fold before it and once for the fold after
it, not seven times."""

import threading
import uuid

import pytest

from games.application import selectors, services, statuses
from games.kernel import Status
from tests.engines.counter import Counter


class CountingEngine:
    def __init__(self):
        self.asked = []

    def status(self, state):
        self.asked.append(state)
        return Status(phase="p", awaiting=[state["turn"]])


def test_a_state_is_asked_once_and_an_equal_but_new_state_again():
    engine = CountingEngine()
    state = {"turn": 0}
    first = statuses.engine_status(engine, state)
    assert statuses.engine_status(engine, state) is first
    assert engine.asked == [state]
    equal_copy = {"turn": 0}
    assert statuses.engine_status(engine, equal_copy) == first
    assert len(engine.asked) == 2, "identity, not equality, decides: a new object is a new state"


def test_only_the_last_few_states_are_kept_and_each_engine_answers_for_itself():
    engine, other = CountingEngine(), CountingEngine()
    states = [{"turn": i} for i in range(statuses.KEPT + 1)]
    for state in states:
        statuses.engine_status(engine, state)
    statuses.engine_status(other, states[-1])
    assert len(other.asked) == 1
    engine.asked.clear()
    statuses.engine_status(engine, states[0])  # pushed out by the later ones
    assert engine.asked == [states[0]]


def test_each_thread_keeps_its_own():
    engine, state = CountingEngine(), {"turn": 1}
    statuses.engine_status(engine, state)
    thread = threading.Thread(target=statuses.engine_status, args=(engine, state))
    thread.start()
    thread.join()
    assert len(engine.asked) == 2


@pytest.mark.django_db(transaction=True)
def test_a_command_asks_the_engine_for_two_statuses(make_user, monkeypatch):
    """The decision, the end check, the summary's and the clock's before and after, and the
    follow-ups all read the status of the command's two folds (either write path: the unlocked one
    on PostgreSQL, the locked one on SQLite)."""
    selectors.cache_clear()
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    actor = services.Actor.user(user)
    asked = []
    counted = Counter.status

    def counting(self, state):
        asked.append(state)
        return counted(self, state)

    monkeypatch.setattr(Counter, "status", counting)
    seq = match.head_seq
    for _ in range(3):
        asked.clear()
        seq = services.match_submit_command(match_id=match.pk, seat=0, actor=actor, command_id=uuid.uuid4(),
                                            expected_seq=seq, type_="add", args={"n": 1}).seq
        assert len(asked) == 2, [s["adds"] for s in asked]
