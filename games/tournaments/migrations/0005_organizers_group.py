"""The ``organizers`` group: its members (and staff) create and run tournaments."""

from django.db import migrations

GROUP = "organizers"


def forwards(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name=GROUP)


def backwards(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tournaments", "0004_refuse_report_changes"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
