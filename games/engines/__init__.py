"""Game engines: one pure package per game under ``games/engines/<slug>/``, each exposing ``ENGINE``
(docs/engines.md). The platform registers every package found here (``discovered``) unless
``settings.KAMIZA_ENGINES`` names the ones to register, so adding a game edits no platform file."""

import pkgutil


def discovered() -> list[str]:
    """The module path of every engine package under ``games/engines/``, sorted."""
    return sorted(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if m.ispkg)
