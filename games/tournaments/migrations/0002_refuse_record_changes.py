"""On PostgreSQL the database itself refuses UPDATE and DELETE of tournament records (append-only).

SQLite, the embedded default, relies on the services never issuing such statements.
"""

from django.db import migrations

TABLE = "tournaments_tournamentrecord"

FUNCTION = """
CREATE OR REPLACE FUNCTION kamiza_refuse_tournament_record_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'tournament records are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION, params=None)
    schema_editor.execute(
        f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
        f"FOR EACH ROW EXECUTE FUNCTION kamiza_refuse_tournament_record_change();"
    )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE};")
    schema_editor.execute("DROP FUNCTION IF EXISTS kamiza_refuse_tournament_record_change();")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
