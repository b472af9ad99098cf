from importlib import import_module

from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games import engines
from games.kernel import registry


def engine_modules(configured, extra) -> list[str]:
    """The engine packages to register: ``configured`` (settings.KAMIZA_ENGINES) when it names any,
    every package under games/engines/ otherwise; then ``extra`` (KAMIZA_EXTRA_ENGINES, test engines)."""
    return list(configured or engines.discovered()) + list(extra)


def engine_load(path: str):
    engine = getattr(import_module(path), "ENGINE", None)
    if engine is None:
        raise ImproperlyConfigured(f"{path} is registered as a game engine but defines no ENGINE")
    return engine


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        for path in engine_modules(settings.KAMIZA_ENGINES, settings.KAMIZA_EXTRA_ENGINES):
            registry.register(engine_load(path))
        from games.application import selectors, watch
        from games.eventstore import admin as eventstore_admin

        def staff_read_refusal(match, user):
            try:
                selectors.staff_read_check(match, user)
            except watch.StaffConflict as refused:
                return refused.message
            return None

        # the admin's event and command pages refuse whom the staff pages refuse
        eventstore_admin.read_guard_register(staff_read_refusal)
