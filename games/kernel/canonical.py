def canonical(value):
    """The same JSON value with every object's keys in sorted order.

    States reach engines from three places: the in-process fold (insertion order), snapshots and
    PostgreSQL ``jsonb`` (which reorders keys). The platform hands engines canonical states so a
    decision never depends on where the state came from, even when an engine iterates a dict.
    """
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value
