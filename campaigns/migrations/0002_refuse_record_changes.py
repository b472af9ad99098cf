"""On PostgreSQL the database itself refuses UPDATE and DELETE of campaign records (as
``games/eventstore``'s 0002 does for match events; its function is reused). SQLite, the embedded
default, relies on the application never issuing such statements."""

from django.db import migrations

TABLE = "campaigns_campaignrecord"

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
    schema_editor.execute(f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
                          f"FOR EACH ROW EXECUTE FUNCTION kamiza_refuse_event_change();")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE};")


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0001_initial"), ("eventstore", "0002_refuse_event_changes")]
    operations = [migrations.RunPython(forwards, backwards)]
