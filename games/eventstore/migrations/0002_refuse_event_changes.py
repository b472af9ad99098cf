"""On PostgreSQL the database itself refuses UPDATE and DELETE of events and command records
(games/eventstore/append_only.py)."""

from django.db import migrations

from games.eventstore.append_only import refuse_changes


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0001_initial")]
    operations = [refuse_changes("eventstore_matchevent", "eventstore_matchcommand", owns_function=True)]
