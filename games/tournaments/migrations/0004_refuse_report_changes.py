"""On PostgreSQL the database refuses UPDATE and DELETE of match reports and their resolutions
(append-only, like the tournament records; games/eventstore/append_only.py)."""

from django.db import migrations

from games.eventstore.append_only import refuse_changes


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_schedule_reports")]
    operations = [refuse_changes("tournaments_matchreport", "tournaments_reportresolution")]
