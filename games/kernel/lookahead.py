"""Lookahead for bots: try a command on a copy of the state with the engine's own ``decide`` and
``evolve``, and plan one seat's consecutive decisions with a bounded beam search.

Everything here is pure and deterministic: the search visits commands in the order
``legal_commands`` lists them, simulations draw from a fixed ``Rng`` (never the match's), and ties
are broken by the caller's ``rng``. A bot hands in a state it is allowed to know (its engine
replaces the other seats' hidden cards first), so the search cannot read what the seat could not.
"""

from dataclasses import dataclass

from .errors import RuleViolation
from .fold import fold
from .rng import Rng
from .types import Command

SIM_SEED = b"kamiza-bot-lookahead"


def simulate(engine, state, seat, command: dict, rng=None):
    """The state after ``seat`` submits ``command`` (None if the rules refuse it)."""
    rng = rng or Rng(SIM_SEED, f"{command['type']}")
    try:
        events = engine.decide(state, Command(command["type"], command.get("args", {}), seat), rng)
    except RuleViolation:
        return None
    return fold(engine, events, state)


def best_of(scored, rng):
    """The command of the highest score; equal scores are split by ``rng`` (the match's bot draw)."""
    if not scored:
        return None
    top = max(score for score, _ in scored)
    tied = [command for score, command in scored if score == top]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


@dataclass
class Budget:
    """An upper bound on the simulations one decision may run (bounds its time in a worker)."""

    simulations: int
    used: int = 0

    def take(self) -> bool:
        if self.used >= self.simulations:
            return False
        self.used += 1
        return True


def plan(engine, state, seat, evaluate, *, width: int, depth: int, budget: Budget, candidates=None):
    """Beam search over ``seat``'s own consecutive decisions, from ``state`` (where ``seat`` decides).

    ``evaluate(state) -> float`` scores any state for ``seat`` (higher is better); a line ends when the
    decision passes to another seat (or SYSTEM), the game ends, or ``depth`` commands were tried.
    ``candidates(state, commands) -> commands`` may prune or reorder each node's commands.
    Returns ``[(value, first_command)]`` for every first command that was tried, best lines kept:
    the value of a first command is the best leaf any line starting with it reached.
    """
    firsts: dict = {}  # index of the first command -> (value, command)
    frontier = [(state, None)]
    for _ in range(depth):
        children = []
        for node, first in frontier:
            commands = engine.legal_commands(node, seat)
            if candidates is not None:
                commands = candidates(node, commands)
            for i, command in enumerate(commands):
                if not budget.take():
                    break
                nxt = simulate(engine, node, seat, command)
                if nxt is None:
                    continue
                key = i if first is None else first[0]
                head = command if first is None else first[1]
                value = evaluate(nxt)
                if key not in firsts or value > firsts[key][0]:
                    firsts[key] = (value, head)
                status = engine.status(nxt)
                if not status.finished and status.awaiting == [seat]:
                    children.append((value, key, nxt, (key, head)))
        if not children:
            break
        children.sort(key=lambda x: (-x[0], x[1]))
        frontier = [(nxt, first) for _, _, nxt, first in children[:width]]
    return [firsts[k] for k in sorted(firsts)]
