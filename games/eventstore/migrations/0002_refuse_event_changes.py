"""On PostgreSQL the database itself refuses UPDATE and DELETE of events and command records.

(TRUNCATE, used by test teardown, is a different statement and is not affected.) SQLite, the
embedded default, relies on the application never issuing such statements.
"""

from django.db import migrations

TABLES = ("eventstore_matchevent", "eventstore_matchcommand")

FUNCTION = """
CREATE OR REPLACE FUNCTION kamiza_refuse_event_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION, params=None)
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION kamiza_refuse_event_change();"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};")
    schema_editor.execute("DROP FUNCTION IF EXISTS kamiza_refuse_event_change();")


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
