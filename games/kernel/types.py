"""Plain data shapes shared by the kernel, the engines and the platform.

State is any JSON-serialisable value an engine chooses (usually a dict); events are dicts
``{"type": "CardPlayed", "v": 1, "payload": {...}}``. Keeping both JSON-shaped means a snapshot
is a ``json.dumps`` away and "rebuilt state == live state" is a plain equality.
"""

from dataclasses import dataclass, field
from typing import Any, TypedDict

SYSTEM = "system"  # awaited "seat" for steps the platform's workers take (enemy AI, oracle draws, ...)

Seat = int


class Event(TypedDict):
    type: str
    v: int
    payload: dict


def event(type_: str, payload: dict | None = None, v: int = 1) -> Event:
    return {"type": type_, "v": v, "payload": payload or {}}


@dataclass(frozen=True)
class Command:
    """A request to change the game. ``seat`` is None when the platform (a worker) issues it."""

    type: str
    args: dict = field(default_factory=dict)
    seat: Any = None  # int seat, or SYSTEM

    @classmethod
    def of(cls, seat, type_: str, **args) -> "Command":
        return cls(type=type_, args=args, seat=seat)


@dataclass(frozen=True)
class Status:
    """What the platform needs to know about a state, without understanding the game."""

    phase: str
    awaiting: list = field(default_factory=list)  # seats (ints) and/or SYSTEM
    finished: bool = False
    winners: list = field(default_factory=list)  # seats
    # Seconds the awaited seats have to act before the platform's timer sweep submits the
    # engine's ``timeout_command`` for them. None = no clock on this decision.
    deadline_seconds: int | None = None

    def as_dict(self) -> dict:
        return {
            "phase": self.phase,
            "awaiting": list(self.awaiting),
            "finished": self.finished,
            "winners": list(self.winners),
        }
