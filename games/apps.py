from importlib import import_module

from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from games.kernel import registry

        for path in list(settings.KAMIZA_ENGINES) + list(settings.KAMIZA_EXTRA_ENGINES):
            registry.register(import_module(path).ENGINE)
