"""Harakiri: Blades of Honor - the Adventure Phase (map of Japan) as a pure decider.

A one-way stack: ``content`` (data files) -> ``book`` (what of the campaign book a client may read,
before play and as a match has read it) -> ``board`` (map geometry) -> ``progress`` (Level
Increase on a character case) -> ``queries`` (reads of a state) -> ``effects`` (folding events into a
state) -> ``steps`` (the game's own automatic steps) -> ``actions`` (the seats' commands) ->
``engine`` (the decider facade, ``ENGINE``).
"""
