"""Yashima: Legend of the Kami Masters, a pure rules engine (core + Legends from Fairytale)."""

from .engine import ENGINE, YashimaEngine

__all__ = ["ENGINE", "YashimaEngine"]
