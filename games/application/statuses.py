"""An engine's ``status`` of a game state, worked out once per state.

A command's write path asks for the status of the same two states, the fold before the command and
after it, seven times: the decision, the end check, the summary and the clock of each, the
follow-ups. A game state is never changed in place (the engine contract: ``evolve`` returns a new
value), so its identity stands for its value: the last few answers are kept, per thread, each with
the state it was asked of, held so that its id cannot be reused while the answer is kept. Callers
must not change the ``Status`` they get (its lists are shared); they copy what they keep.
"""

import threading

KEPT = 4  # a command's two states, with room for a nested fold (a bot's look-ahead)

_kept = threading.local()


def engine_status(engine, game_state):
    """``engine.status(game_state)``, asked once per state object."""
    recent = getattr(_kept, "recent", None)
    if recent is None:
        recent = _kept.recent = []
    for kept_engine, kept_state, status in recent:
        if kept_state is game_state and kept_engine is engine:
            return status
    status = engine.status(game_state)
    recent.insert(0, (engine, game_state, status))
    del recent[KEPT:]
    return status
