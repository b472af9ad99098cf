"""Append and load. Callers hold the match row lock (``match_lock``) while appending.

The write path's three statements (``match_lock``, ``command_append`` and the projections') are
plain SQL: the ORM's query building cost more than the database did. Values go through the
backend's own adapters (``connection.ops``), so rows are stored exactly as the ORM stores them.
"""

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from .codec import json_decode, row_to_event, upcast
from .models import Match, MatchEvent, Snapshot


@dataclass(frozen=True)
class CommandRecord:
    """An accepted command's fingerprint and the contiguous events it produced."""

    fingerprint: str
    first_seq: int
    last_seq: int


_LOCK_FIELDS = ("id", "game", "engine_version", "seed", "head_seq")
_LOCK_SQL = (
    "SELECT m.id, m.game, m.engine_version, m.seed, m.head_seq, c.fingerprint, c.first_seq, c.last_seq"
    " FROM eventstore_match m LEFT JOIN eventstore_matchcommand c ON c.match_id = m.id AND c.command_id = %s"
    " WHERE m.id = %s"
)


def _uuid_param(value: uuid.UUID):
    return value if connection.features.has_native_uuid_field else value.hex


def match_lock(match_id, command_id: uuid.UUID) -> tuple[Match, CommandRecord | None]:
    """Lock the match row for this transaction and find ``command_id`` among its commands, in one
    statement. Raises ``Match.DoesNotExist``. On SQLite the transaction's IMMEDIATE write lock is
    the lock. The match's other fields load on first access."""
    sql = _LOCK_SQL + (" FOR UPDATE OF m" if connection.features.has_select_for_update else "")
    try:
        mid = match_id if isinstance(match_id, uuid.UUID) else uuid.UUID(str(match_id))
    except ValueError:
        raise Match.DoesNotExist(f"no match {match_id}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [_uuid_param(command_id), _uuid_param(mid)])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    match = Match.from_db(connection.alias, _LOCK_FIELDS, (mid, *row[1:5]))
    return match, (CommandRecord(row[5], row[6], row[7]) if row[5] is not None else None)


def command_append(match: Match, events: list[dict], *, actor: dict, command_id: uuid.UUID, seat,
                   fingerprint: str) -> tuple[int, object]:
    """Append ``events`` after ``match.head_seq`` (gapless), record the command and advance the head,
    in one statement on PostgreSQL (three on SQLite, which has no data-modifying CTEs). A concurrent
    writer that slipped past the lock hits the unique (match, seq) or (match, command_id) and the
    whole transaction raises IntegrityError. Returns (first seq, the events' time)."""
    ops = connection.ops
    now = timezone.now()
    at = ops.adapt_datetimefield_value(now)
    mid, cid = _uuid_param(match.pk), _uuid_param(command_id)
    first, last = match.head_seq + 1, match.head_seq + len(events)
    actor_json = ops.adapt_json_value(actor, None)
    event_params = []
    for seq, ev in enumerate(events, start=first):
        event_params += [mid, seq, ev["type"], ev.get("v", 1), ops.adapt_json_value(ev.get("payload", {}), None),
                         actor_json, cid, at]
    event_sql = ("INSERT INTO eventstore_matchevent (match_id, seq, type, version, payload, actor, command_id, at)"
                 " VALUES " + ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s)"] * len(events)))
    command_sql = ("INSERT INTO eventstore_matchcommand (match_id, command_id, seat, fingerprint, first_seq, last_seq, at)"
                   " VALUES (%s, %s, %s, %s, %s, %s, %s)")
    command_params = [mid, cid, None if seat is None else ops.adapt_json_value(seat, None), fingerprint, first, last, at]
    head_sql = "UPDATE eventstore_match SET head_seq = %s WHERE id = %s"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # one round trip
            cursor.execute(f"WITH e AS ({event_sql}), c AS ({command_sql}) {head_sql}",
                           [*event_params, *command_params, last, mid])
        else:
            cursor.execute(event_sql, event_params)
            cursor.execute(command_sql, command_params)
            cursor.execute(head_sql, [last, mid])
    match.head_seq = last
    return first, now


def events_append(match: Match, events: list[dict], *, actor: dict, command_id=None) -> list[MatchEvent]:
    """Append ``events`` after ``match.head_seq`` (gapless) and advance the head in the same
    transaction, without a command row: the staff log import's copy of another match's events.
    Commands go through ``command_append``."""
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


def events_for_fold(match: Match, *, after: int = 0, until: int | None = None, engine_upcasters=None) -> list[dict]:
    """The events after ``after`` up to ``until`` as a fold needs them: ``{seq, type, v, payload}``,
    upcast (no actor, command id nor time: folds never read them). One plain SELECT."""
    sql = "SELECT seq, type, version, payload FROM eventstore_matchevent WHERE match_id = %s AND seq > %s"
    params = [_uuid_param(match.pk), after]
    if until is not None:
        sql += " AND seq <= %s"
        params.append(until)
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY seq", params)
        rows = cursor.fetchall()
    out = []
    for seq, type_, version, payload in rows:
        version, payload = upcast(type_, version, json_decode(payload), engine_upcasters)
        out.append({"seq": seq, "type": type_, "v": version, "payload": payload})
    return out


def events_load(match: Match, *, after: int = 0, until: int | None = None, engine_upcasters=None) -> list[dict]:
    rows = MatchEvent.objects.filter(match=match, seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    return [row_to_event(r, engine_upcasters) for r in rows.order_by("seq")]


def command_find(match: Match, command_id: uuid.UUID) -> CommandRecord | None:
    """A fresh look-up of ``command_id`` (a new statement, so on PostgreSQL a new snapshot).

    ``match_lock``'s join reads the command table as of the start of its statement: when it waited
    for the lock, a command committed meanwhile by the lock's holder is invisible to it, though the
    head it returns is the new one. Callers about to refuse with a version conflict ask again here."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT fingerprint, first_seq, last_seq FROM eventstore_matchcommand"
                       " WHERE match_id = %s AND command_id = %s", [_uuid_param(match.pk), _uuid_param(command_id)])
        row = cursor.fetchone()
    return None if row is None else CommandRecord(*row)


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
