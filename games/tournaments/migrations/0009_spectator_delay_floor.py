"""Fair play's floor: a tournament's spectators are at least 60 s behind a running match. Tournaments
created while 0-59 s was accepted are raised to the floor first (the delay only ever grows)."""

from django.db import migrations, models


def raise_to_the_floor(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(spectator_delay_seconds__lt=60).update(spectator_delay_seconds=60)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_team_invitations'),
    ]

    operations = [
        migrations.RunPython(raise_to_the_floor, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('spectator_delay_seconds__gte', 60)), name='tournament_spectator_delay_at_least_a_minute'),
        ),
    ]
