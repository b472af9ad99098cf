"""On PostgreSQL the database refuses UPDATE and DELETE of match reports and their resolutions
(append-only, like the tournament records; the function comes from 0002)."""

from django.db import migrations

TABLES = ("tournaments_matchreport", "tournaments_reportresolution")


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION kamiza_refuse_tournament_record_change();"
        )


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_schedule_reports")]
    operations = [migrations.RunPython(forwards, backwards)]
