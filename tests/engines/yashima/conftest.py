"""Every Yashima scenario test also checks the decision clocks' timeout rule: before each command a
test sends, each awaited seat's ``timeout_command`` must be listed, accepted, and end (or advance)
that seat's decision (see test_clocks.py)."""

import pytest

from games.engines.yashima import ENGINE, clocks
from games.kernel import Command, Rng, fold
from games.kernel.scenario import Scenario

SEEN_KINDS = set()


def check_timeouts(state):
    for who in ENGINE.status(state).awaiting:
        if not isinstance(who, int):
            continue
        kind = clocks.decision_kind(state, who)
        assert kind in clocks.ON_TIMEOUT, f"no timeout rule for {kind!r}"
        SEEN_KINDS.add(kind)
        legal = ENGINE.legal_commands(state, who)
        cmd = ENGINE.timeout_command(state, who)
        assert cmd in legal, (kind, cmd)
        after = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], who), Rng(b"timeout", kind)), state)
        assert who not in ENGINE.status(after).awaiting \
            or (ENGINE.legal_commands(after, who), clocks.seat_prompt(after, who)) != (legal, clocks.seat_prompt(state, who)), kind


@pytest.fixture(autouse=True)
def timeouts_checked_at_every_decision(monkeypatch):
    original = Scenario.when

    def when(self, seat, type_, **args):
        if self.engine is ENGINE:
            check_timeouts(self.state)
        return original(self, seat, type_, **args)

    monkeypatch.setattr(Scenario, "when", when)
