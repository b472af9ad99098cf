"""Pure game kernel: the decider contract every engine implements.

Nothing in this package (or in ``games.engines``) may import Django, Channels, Celery,
``random`` or the clock; an import-linter contract in the test suite enforces it.
"""

from .errors import RuleViolation
from .rng import Rng, seed_commitment
from .types import SYSTEM, Command, Event, Status, event
from .engine import EngineBase
from .fold import fold, apply_command
from .canonical import canonical, json_copy, json_member

__all__ = [
    "RuleViolation",
    "Rng",
    "seed_commitment",
    "SYSTEM",
    "Command",
    "Event",
    "Status",
    "event",
    "EngineBase",
    "fold",
    "apply_command",
    "canonical",
    "json_copy",
    "json_member",
]
