from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"

    def ready(self):
        from games.application import hooks

        from .scheduling import schedule_followups, schedule_match_finished

        hooks.set_followup_scheduler(schedule_followups)
        hooks.add_finished_listener(schedule_match_finished)
