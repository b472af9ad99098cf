"""Append and load. Callers hold the match row lock (``select_for_update``) while appending."""

from django.conf import settings
from django.utils import timezone

from .codec import row_to_event
from .models import Match, MatchCommand, MatchEvent, Snapshot


def events_load(match: Match, *, after: int = 0, until: int | None = None, engine_upcasters=None) -> list[dict]:
    rows = MatchEvent.objects.filter(match=match, seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    return [row_to_event(r, engine_upcasters) for r in rows.order_by("seq")]


def events_append(match: Match, events: list[dict], *, actor: dict, command_id=None) -> list[MatchEvent]:
    """Append ``events`` after ``match.head_seq`` (gapless) and advance the head in the same transaction."""
    now = timezone.now()
    rows = [
        MatchEvent(
            match=match,
            seq=match.head_seq + i,
            type=ev["type"],
            version=ev.get("v", 1),
            payload=ev.get("payload", {}),
            actor=actor,
            command_id=command_id,
            at=now,
        )
        for i, ev in enumerate(events, start=1)
    ]
    MatchEvent.objects.bulk_create(rows)
    match.head_seq += len(rows)
    Match.objects.filter(pk=match.pk).update(head_seq=match.head_seq)
    return rows


def command_record(match: Match, *, command_id, seat, fingerprint: str, rows: list[MatchEvent]) -> MatchCommand:
    return MatchCommand.objects.create(
        match=match,
        command_id=command_id,
        seat=seat,
        fingerprint=fingerprint,
        first_seq=rows[0].seq,
        last_seq=rows[-1].seq,
        at=rows[0].at,
    )


def command_find(match: Match, command_id) -> MatchCommand | None:
    return MatchCommand.objects.filter(match=match, command_id=command_id).first()


def snapshot_latest(match: Match, *, until: int | None = None) -> Snapshot | None:
    snaps = Snapshot.objects.filter(match=match, engine_version=match.engine_version)
    if until is not None:
        snaps = snaps.filter(seq__lte=until)
    return snaps.order_by("-seq").first()


def snapshot_due(before_seq: int, after_seq: int) -> bool:
    every = settings.SNAPSHOT_EVERY
    return every > 0 and after_seq // every > before_seq // every


def snapshot_save(match: Match, seq: int, state) -> None:
    Snapshot.objects.update_or_create(
        match=match, seq=seq, defaults={"engine_version": match.engine_version, "state": state}
    )
