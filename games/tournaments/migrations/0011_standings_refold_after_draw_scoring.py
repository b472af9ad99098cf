"""A draw is worth 1 at every kind of table (docs/tournaments.md, "Scoring"): a full-table draw at a
pod or a 2v2 table under placement scoring was worth 1.5 before. The stored standings are a cache of a
fold (``StandingsView``): dropping them makes the next read fold the log again with the scoring in
force, so the standings agree with the pairings' points (``rebuild.check`` would list them otherwise)."""

from django.db import migrations


def drop_stored_standings(apps, schema_editor):
    apps.get_model("tournaments", "StandingsView").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0010_tournament_cancelled_status"),
    ]

    operations = [
        migrations.RunPython(drop_stored_standings, migrations.RunPython.noop),
    ]
