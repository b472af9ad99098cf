"""Lookalike usernames as shown: a second skeleton taken with the name's case kept
(accounts.identity.username_cased_skeleton: ``Iohn`` reads as ``lohn``), filled in for existing
accounts and for retired names (kept as their case-folded key only, so theirs is the key's)."""

from django.db import migrations, models


def fill_cased_skeletons(apps, schema_editor):
    from accounts.identity import username_cased_skeleton

    def fill(model, name_of, select=()):
        batch = []
        for row in model.objects.select_related(*select).order_by("pk").iterator(chunk_size=500):
            row.username_cased_skeleton = username_cased_skeleton(name_of(row))
            batch.append(row)
            if len(batch) >= 500:
                model.objects.bulk_update(batch, ["username_cased_skeleton"])
                batch = []
        model.objects.bulk_update(batch, ["username_cased_skeleton"])

    fill(apps.get_model("accounts", "Profile"), lambda profile: profile.user.username, ("user",))
    fill(apps.get_model("accounts", "RetiredUsername"), lambda retired: retired.username_key)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_username_skeletons_and_retired_names'),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='username_cased_skeleton',
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=300, null=True),
        ),
        migrations.AddField(
            model_name='retiredusername',
            name='username_cased_skeleton',
            field=models.CharField(blank=True, db_index=True, default='', max_length=300),
        ),
        migrations.RunPython(fill_cased_skeletons, migrations.RunPython.noop),
    ]
