"""Engine registry: a game is added by registering its definition object once.

Several versions of one game may be registered so a match created under an older engine
version can still be replayed against the rules it was played with.
"""

from .errors import RuleViolation

_engines: dict[str, dict[str, object]] = {}


def register(engine) -> object:
    if not engine.slug:
        raise ValueError("an engine needs a slug")
    _engines.setdefault(engine.slug, {})[str(engine.version)] = engine
    return engine


def unregister(slug: str) -> None:
    _engines.pop(slug, None)


def get(slug: str, version: str | None = None):
    versions = _engines.get(slug)
    if not versions:
        raise RuleViolation("unknown_game", f"no game called {slug!r}")
    if version is None:
        return versions[max(versions, key=_version_key)]
    if str(version) in versions:
        return versions[str(version)]
    # An unknown old version falls back to the newest; upcasters bridge the event schemas.
    return versions[max(versions, key=_version_key)]


def all_engines(include_unlisted: bool = False) -> list:
    latest = [get(slug) for slug in sorted(_engines)]
    return [e for e in latest if include_unlisted or getattr(e, "listed", True)]


def _version_key(version: str):
    return tuple(int(p) if p.isdigit() else p for p in str(version).split("."))
