"""PostgreSQL triggers that refuse UPDATE and DELETE on append-only tables (match events and
commands, tournament records and reports, campaign records), for the migrations that create them.

(TRUNCATE, used by test teardown, is a different statement and is not affected.) SQLite, the
embedded default, relies on the application never issuing such statements.
"""

from django.db import migrations

FUNCTION_NAME = "kamiza_refuse_event_change"
FUNCTION = f"""
CREATE OR REPLACE FUNCTION {FUNCTION_NAME}() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def refuse_changes(*tables: str, owns_function: bool = False) -> migrations.RunPython:
    """The migration operation adding the append-only trigger to each of ``tables`` (creating the
    shared function if need be). Only the migration that ``owns_function`` drops it when reversed."""

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(FUNCTION, params=None)
        for table in tables:
            schema_editor.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                                  f"FOR EACH ROW EXECUTE FUNCTION {FUNCTION_NAME}();")

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in tables:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};")
        if owns_function:
            schema_editor.execute(f"DROP FUNCTION IF EXISTS {FUNCTION_NAME}();")

    return migrations.RunPython(forwards, backwards)
