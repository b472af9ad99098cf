from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.projections import profiles, rebuild  # they import models, which load after the app configs

        from .rebuild import check_all
        from .selectors import tournaments_of

        profiles.section_register("tournaments", tournaments_of)
        rebuild.add_checker(check_all)  # manage.py rebuild_projections checks tournaments too
