"""Declarative scenarios: start an engine from a described position and drive it.

Used by rules tests (given/when/then), tutorials and admins reproducing a disputed position::

    s = Scenario(engine, document)          # given
    events = s.when(seat, "attack", target="b2")  # when
    assert s.state[...] == ...              # then
"""

import json
from pathlib import Path

from .errors import RuleViolation
from .fold import fold
from .rng import Rng
from .types import Command


def load_document(source) -> dict:
    if isinstance(source, dict):
        return source
    return json.loads(Path(source).read_text())


class Scenario:
    def __init__(self, engine, document, seed: bytes = b"scenario-seed"):
        self.engine = engine
        self.document = load_document(document)
        self.events = list(engine.scenario(self.document))
        self.state = fold(engine, self.events)
        self._seed = seed

    def rng(self) -> Rng:
        return Rng(self._seed, f"scenario:{len(self.events)}")

    def when(self, seat, type_: str, **args) -> list:
        events = self.engine.decide(self.state, Command(type=type_, args=args, seat=seat), self.rng())
        self.events.extend(events)
        self.state = fold(self.engine, events, self.state)
        return events

    def rejects(self, seat, type_: str, **args) -> RuleViolation:
        """Assert the command is illegal here; returns the violation for code checks."""
        try:
            self.when(seat, type_, **args)
        except RuleViolation as violation:
            return violation
        raise AssertionError(f"{type_} {args} by seat {seat} was accepted")

    @property
    def status(self):
        return self.engine.status(self.state)

    def legal(self, seat) -> list:
        return self.engine.legal_commands(self.state, seat)
