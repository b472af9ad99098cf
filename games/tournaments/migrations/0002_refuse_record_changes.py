"""On PostgreSQL the database itself refuses UPDATE and DELETE of tournament records
(games/eventstore/append_only.py)."""

from django.db import migrations

from games.eventstore.append_only import refuse_changes


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial"), ("eventstore", "0002_refuse_event_changes")]
    operations = [refuse_changes("tournaments_tournamentrecord")]
