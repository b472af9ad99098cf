from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self):
        from accounts.selfservice import add_deletion_step
        from games.application import hooks, readmodels, rematch
        from games.projections import rebuild

        from .rebuild import check_campaigns
        from .services import campaigns_leave_deleted_account
        from .tasks import phase_resigns_project, phase_resigns_writes, schedule_policy

        add_deletion_step(campaigns_leave_deleted_account)
        hooks.add_finished_listener(schedule_policy)
        # a player who leaves a phase match on its own page leaves the campaign at once (docs/campaigns.md)
        readmodels.projector_register(phase_resigns_project, writes=phase_resigns_writes)
        rebuild.add_checker(check_campaigns)
        rematch.rematch_guard_register(no_rematch_of_a_chapter)


def no_rematch_of_a_chapter(match_id) -> str | None:
    """A campaign opens its own next match: a chapter's match has no rematch."""
    from .models import CampaignRecord

    if CampaignRecord.objects.filter(match_id=match_id).exists():
        return "A campaign match has no rematch: the campaign opens its next chapter."
    return None
