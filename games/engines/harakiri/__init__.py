"""Harakiri: Blades of Honor - the Exploration Phase rules engine (pure Python)."""

from .engine import ENGINE, HarakiriEngine

__all__ = ["ENGINE", "HarakiriEngine"]
