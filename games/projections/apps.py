from django.apps import AppConfig

from games.application import readmodels


class ProjectionsConfig(AppConfig):
    name = "games.projections"
    label = "projections"
    verbose_name = "Read models"

    def ready(self):
        # The application layer sits below this app: it reaches the read models only through the
        # ports it exposes (games.application.readmodels), filled in here once the models are loaded.
        from .updaters import clock_row, open_matches_created, projection_writes, projections_update

        readmodels.projector_register(projections_update, writes=projection_writes)
        readmodels.clock_reader_register(clock_row)
        readmodels.open_matches_counter_register(open_matches_created)
