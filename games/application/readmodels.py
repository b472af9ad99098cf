"""The read models, as the layer below them sees them: two ports that ``games.projections`` fills in.

``games.projections`` sits above this layer (it folds streams with ``lobby.aggregate_evolve`` and
``selectors.state_load``), so the application never imports it. Instead, from its
``AppConfig.ready()``, the projections app registers:

- its **projectors**, ``fn(engine, match, state, events, at, before=None)`` (``before``: the state
  the events were decided on, when the caller has it, so a projector can skip unchanged rows): the write path calls
  ``projections_update`` inside the very transaction that appends the events, so a command and the
  read-model rows it changes commit (or roll back) together;
  Each projector may come with its **writes planner**, ``fn(engine, match, state, events, at, before,
  head) -> [store.Write] | None``: the same updates as statements, which the write path puts into
  the append's own statement (``store.command_append_if_head``), or None when this command needs
  more than that (a read first, a list to sync). A command takes that unlocked path only when every
  registered projector has a planner and none says None; otherwise the locked path runs the projectors;
- its **clock reader**, ``fn(match) -> row | None``: the decision clock of a match (the row the
  sweeper fires), which the ``/view/`` document shows;
- its **open-match counter**, ``fn(user) -> int``: how many open matches a user created and still
  sits in (the lobby's cap on open matches per user).

Both fail loudly when nothing is registered: a write that silently skipped its projections would
leave read models that disagree with the log.
"""

from django.core.exceptions import ImproperlyConfigured

_projectors: list = []
_planners: dict = {}  # projector -> its writes planner
_clock_reader = None
_open_matches_counter = None


def projector_register(fn, *, writes=None) -> None:
    """Run ``fn(engine, match, state, events, at)`` inside every write transaction (once, however
    often it is registered); ``writes``: its writes planner, if it has one."""
    if fn not in _projectors:
        _projectors.append(fn)
    if writes is not None:
        _planners[fn] = writes


def clock_reader_register(fn) -> None:
    global _clock_reader
    _clock_reader = fn


def open_matches_counter_register(fn) -> None:
    global _open_matches_counter
    _open_matches_counter = fn


def projections_update(engine, match, state: dict, events: list[dict], at=None, before: dict | None = None) -> None:
    """Bring every read model up to date with ``events`` (already appended; ``state`` folded past them;
    ``before``, if known, the state they were decided on)."""
    if not _projectors:
        raise ImproperlyConfigured("no projector is registered: is games.projections in INSTALLED_APPS?")
    extra = {} if before is None else {"before": before}  # projectors that don't diff need not take it
    for fn in _projectors:
        fn(engine, match, state, events, at, **extra)


def projection_writes(engine, match, state: dict, events: list[dict], at, before: dict, head: int):
    """What ``projections_update`` would write for ``events`` (decided on ``before``, folding to
    ``state``, the head to be ``head``), as ``store.Write`` statements from every projector's
    planner; None when one of them has no planner or says the locked path must project."""
    if not _projectors:
        return None
    writes = []
    for fn in _projectors:
        planner = _planners.get(fn)
        planned = None if planner is None else planner(engine, match, state, events, at, before, head)
        if planned is None:
            return None
        writes += planned
    return writes


def clock_row(match):
    """The stored decision clock of ``match`` (any seq), or None."""
    if _clock_reader is None:
        raise ImproperlyConfigured("no clock reader is registered: is games.projections in INSTALLED_APPS?")
    return _clock_reader(match)


def open_matches_created(user) -> int:
    """How many open matches ``user`` created and still sits in."""
    if _open_matches_counter is None:
        raise ImproperlyConfigured("no open-match counter is registered: is games.projections in INSTALLED_APPS?")
    return _open_matches_counter(user)
