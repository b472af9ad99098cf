"""Yokai Battle: 2-4 players (or 2 vs 2) summon yokai onto a board of elemental terrain cards."""

from .engine import ENGINE, YokaiEngine

__all__ = ["ENGINE", "YokaiEngine"]
