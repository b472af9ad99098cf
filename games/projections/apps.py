from django.apps import AppConfig


class ProjectionsConfig(AppConfig):
    name = "games.projections"
    label = "projections"
    verbose_name = "Read models"
