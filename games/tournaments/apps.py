from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.projections import profiles  # both import models, which load after the app configs

        from .selectors import tournaments_of

        profiles.section_register("tournaments", tournaments_of)
