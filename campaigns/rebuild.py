"""``manage.py rebuild_projections`` for campaigns: each campaign's view is refolded from its log
and compared with the stored one, and every finished phase's recorded outcome and sheet are
derived again from that phase match's own log."""

from django.db import transaction

from games.application import selectors
from games.projections.rebuild import Difference, first_difference, normalise

from . import domain
from .models import Campaign, CampaignView


def phase_differences(campaign_id: str, records: list) -> list[Difference]:
    """Each PhaseFinished against the match it names: the same outcome and sheet as the match's log gives."""
    diffs = []
    state = None
    for record in records:
        if record.type == domain.PHASE_FINISHED:
            p = record.payload
            match = selectors.match_get(p["match_id"])
            wanted = "AdventureFinished" if p["phase"] == "adventure" else "PhaseEnded"
            ended = [ev["payload"] for ev in selectors.events_unredacted(match) if ev["type"] == wanted]
            if not ended:
                diffs.append(Difference(campaign_id, "campaign", f"seq {record.seq} {p['phase']} ending", p["outcome"],
                                        "<no ending in the match>", fixable=False))
            else:
                again = (domain.after_adventure(state, ended[-1]) if p["phase"] == "adventure"
                         else domain.after_exploration(state, ended[-1]))[0]["payload"]
                where = first_difference(normalise(p), normalise(again), f"seq {record.seq}")
                if where:
                    diffs.append(Difference(campaign_id, "campaign", where[0], where[1], where[2], fixable=False))
        state = domain.apply(state, {"type": record.type, "payload": record.payload})
    return diffs


def check_campaigns(fix: bool) -> tuple[list[Difference], int]:
    diffs, fixed = [], 0
    for campaign in Campaign.objects.order_by("created_at", "pk"):
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
            records = list(campaign.records.order_by("seq"))
            rebuilt = domain.fold({"type": r.type, "payload": r.payload} for r in records)
            view = CampaignView.objects.filter(campaign=campaign).first()
            stored = view.state if view else None
            found = []
            where = first_difference(normalise(stored), normalise(rebuilt), "state")
            if where:
                found.append(Difference(str(campaign.pk), "campaign", where[0], where[1], where[2]))
            found += phase_differences(str(campaign.pk), records)
            if fix and any(d.fixable for d in found):
                view, _ = CampaignView.objects.get_or_create(campaign=campaign)
                view.seq, view.state = campaign.head_seq, rebuilt
                view.save(update_fields=["seq", "state"])
                view.players.set([s["user_id"] for s in rebuilt["seats"] if s])
                fixed += 1
        diffs += found
    return diffs, fixed
