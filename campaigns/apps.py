from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self):
        from games.application import hooks
        from games.projections import rebuild

        from .rebuild import check_campaigns
        from .tasks import schedule_policy

        hooks.add_finished_listener(schedule_policy)
        rebuild.add_checker(check_campaigns)
