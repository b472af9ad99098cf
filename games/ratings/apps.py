from django.apps import AppConfig

from games.application import readmodels


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        # The ratings policy runs inside the write transaction that appends MatchFinished, through
        # the application's projector port (the application never imports this app).
        from .policy import ratings_project, ratings_writes

        readmodels.projector_register(ratings_project, writes=ratings_writes)
