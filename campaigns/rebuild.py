"""``manage.py rebuild_projections`` for campaigns: each campaign's view is refolded from its log
and compared with the stored one, and every record a finished phase derives (its ``PhaseFinished``
with the outcome and the sheet, and the ``LevelIncreased``, ``KamiChanged``, ``MarkRecorded``,
``LocationDiscovered`` and ``CityStatusRecorded`` appended with it) is derived again from that
phase match's own log."""

from django.db import transaction

from games.application import selectors
from games.projections.rebuild import Difference, first_difference, normalise

from . import domain
from .models import Campaign, CampaignView

# What a finished phase derives besides its PhaseFinished (``domain.after_adventure`` / ``after_exploration``)
DERIVED = (domain.LEVEL_INCREASED, domain.KAMI_CHANGED, domain.MARKED, domain.DISCOVERED, domain.CITY)


def _ending(p: dict):
    match = selectors.match_get(p["match_id"])
    wanted = "AdventureFinished" if p["phase"] == "adventure" else "PhaseEnded"
    ended = [ev["payload"] for ev in selectors.events_unredacted(match) if ev["type"] == wanted]
    return ended[-1] if ended else None


def phase_differences(campaign_id: str, records: list) -> list[Difference]:
    """Each PhaseFinished and the records appended with it against the match it names: the same
    outcome and sheet, and the same levels, Kami changes, marks, discoveries and city statuses in the
    same order, as the match's log gives again; and no such record that no finished phase derives."""
    diffs = []
    state = None
    derived_seqs = set()

    def differ(where, stored, rebuilt):
        diffs.append(Difference(campaign_id, "campaign", where, stored, rebuilt, fixable=False))

    for i, record in enumerate(records):
        if record.type == domain.PHASE_FINISHED:
            p = record.payload
            ended = _ending(p)
            if ended is None:
                differ(f"seq {record.seq} {p['phase']} ending", p["outcome"], "<no ending in the match>")
            else:
                again = (domain.after_adventure(state, ended) if p["phase"] == "adventure"
                         else domain.after_exploration(state, ended))
                where = first_difference(normalise(p), normalise(again[0]["payload"]), f"seq {record.seq}")
                if where:
                    differ(*where)
                appended = records[i + 1:i + len(again)]
                for k, want in enumerate(again[1:]):
                    got = appended[k] if k < len(appended) else None
                    if got is None or got.type != want["type"]:
                        differ(f"seq {record.seq + 1 + k} {want['type']}", got.type if got else "<none>", want["payload"])
                        break
                    derived_seqs.add(got.seq)
                    where = first_difference(normalise(got.payload), normalise(want["payload"]), f"seq {got.seq} {got.type}")
                    if where:
                        differ(*where)
        state = domain.apply(state, {"type": record.type, "payload": record.payload})
    for record in records:
        if record.type in DERIVED and record.seq not in derived_seqs:
            differ(f"seq {record.seq} {record.type}", record.payload, "<derived by no finished phase>")
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
