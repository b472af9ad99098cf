"""The campaign's view keeps who left a started campaign (``departures``, folded from its
``PlayerLeft`` records: docs/campaigns.md, "Pages"), so the page no longer refolds the log on every
render. A view stored before it is refolded from its log once here, so it agrees with what
``rebuild_projections`` folds again (the log itself is append-only and left as it is)."""

from django.db import migrations

from campaigns import domain


def refold_views_with_departures(apps, schema_editor):
    Record = apps.get_model("campaigns", "CampaignRecord")
    View = apps.get_model("campaigns", "CampaignView")
    for campaign_id in Record.objects.filter(type=domain.LEFT).values_list("campaign_id", flat=True).distinct():
        records = Record.objects.filter(campaign_id=campaign_id).order_by("seq").values_list("type", "payload")
        View.objects.filter(campaign_id=campaign_id).update(
            state=domain.fold({"type": t, "payload": p} for t, p in records))


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0002_refuse_record_changes")]
    operations = [migrations.RunPython(refold_views_with_departures, migrations.RunPython.noop)]
