"""Reports join the tournament log, the standings become a stored projection, and a round's deadline
has no time while its clock is paused.

- ``StandingsView``: the standings folded at a seq of the log (a cache-projection, compared by the
  rebuild checks).
- Reports filed before reports were records of the log get their ``reported`` record now, appended at
  the end of their tournament's log in filing order; a report a judge already resolved also gets its
  decision recorded again naming it (same places: the standings do not move), so the fold knows
  which reports are still open.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def _append(Record, Tournament, tournament, kind, payload, actor):
    tournament.head_seq += 1
    Record.objects.create(tournament=tournament, seq=tournament.head_seq, kind=kind, payload={"kind": kind, **payload},
                          round=payload.get("round"), table=payload.get("table"), actor=actor, at=timezone.now())
    Tournament.objects.filter(pk=tournament.pk).update(head_seq=tournament.head_seq)


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Record = apps.get_model("tournaments", "TournamentRecord")
    Report = apps.get_model("tournaments", "MatchReport")
    Resolution = apps.get_model("tournaments", "ReportResolution")
    Table = apps.get_model("tournaments", "TournamentTable")
    Member = apps.get_model("tournaments", "EntrantMember")
    recorded = {p.get("report_id") for p in Record.objects.filter(kind="reported").values_list("payload", flat=True)}
    migration = {"kind": "system", "user_id": None, "task": "migration 0006"}
    for report in Report.objects.order_by("created_at", "id"):
        if report.pk in recorded:
            continue
        tournament = Tournament.objects.get(pk=report.tournament_id)
        table = Table.objects.get(tournament_id=report.tournament_id, round=report.round, table=report.table)
        member = Member.objects.filter(tournament_id=report.tournament_id, user_id=report.reporter_id,
                                       entrant_id__in=[int(e) for e in table.entrant_ids]).first()
        entrant = str(member.entrant_id) if member else str(table.entrant_ids[0])
        _append(Record, Tournament, tournament, "reported",
                {"round": report.round, "table": report.table, "report_id": report.pk, "entrant_id": entrant,
                 "seq": report.seq}, migration)
        resolution = Resolution.objects.filter(report_id=report.pk).select_related("judge").first()
        if resolution is None:
            continue
        reason = f"{resolution.reason} (the decision of record {resolution.record_seq}, naming report {report.pk})"
        common = {"round": report.round, "table": report.table, "judge": resolution.judge.username,
                  "reason": reason.strip(), "report_id": report.pk}
        if resolution.decision == "override":
            _append(Record, Tournament, tournament, "overridden", {**common, "places": resolution.places}, migration)
        else:
            _append(Record, Tournament, tournament, "adjudicated", common, migration)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_organizers_group'),
    ]

    operations = [
        migrations.CreateModel(
            name='StandingsView',
            fields=[
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='standings_view', serialize=False, to='tournaments.tournament')),
                ('seq', models.PositiveIntegerField()),
                ('rows', models.JSONField()),
            ],
        ),
        migrations.AlterField(
            model_name='rounddeadline',
            name='due_at',
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
