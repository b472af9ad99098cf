"""Append and load. Callers hold the match row lock (``match_lock``) while appending.

The write path's statements (``match_lock``, ``command_append``, the projections', a snapshot now
and then) are plain SQL on the driver's cursor (``sql``): the ORM's query building, and on SQLite
even Django's cursor wrapper, cost more than the database did.
"""

import uuid
from dataclasses import dataclass

import orjson

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection
from django.utils import timezone

from . import sql
from .codec import json_decode, needs_upcast, row_to_event, upcast
from .models import Match, MatchEvent, Snapshot


@dataclass(frozen=True)
class CommandRecord:
    """An accepted command's fingerprint and the contiguous events it produced."""

    fingerprint: str
    first_seq: int
    last_seq: int


@dataclass(frozen=True)
class CommandBody:
    """What was asked, kept with the command row so that it can be decided again (``verify_logs``):
    the kind of command, its type and args, and the seq the client expected (None: any)."""

    kind: str
    type: str
    args: dict
    expected_seq: int | None = None


@dataclass(frozen=True)
class StoredCommand:
    """A command row as ``commands_load`` reads it (``body`` None for rows from before bodies were kept)."""

    command_id: uuid.UUID
    seat: object
    first_seq: int
    last_seq: int
    actor: dict | None
    body: CommandBody | None


_LOCK_FIELDS = ("id", "game", "engine_version", "seed", "head_seq")
_LOCK_SQL = (
    "SELECT m.id, m.game, m.engine_version, m.seed, m.head_seq, c.fingerprint, c.first_seq, c.last_seq"
    " FROM eventstore_match m LEFT JOIN eventstore_matchcommand c ON c.match_id = m.id AND c.command_id = %s"
    " WHERE m.id = %s"
)


def match_lock(match_id, command_id: uuid.UUID) -> tuple[Match, CommandRecord | None]:
    """Lock the match row for this transaction and find ``command_id`` among its commands, in one
    statement. Raises ``Match.DoesNotExist``. On SQLite the transaction's IMMEDIATE write lock is
    the lock. The match's other fields load on first access."""
    return _match_with_command(match_id, command_id, lock=True)


def match_peek(match_id, command_id: uuid.UUID) -> tuple[Match, CommandRecord | None]:
    """``match_lock`` without the lock: the match and its command ``command_id`` as committed now,
    in one statement that needs no transaction. Raises ``Match.DoesNotExist``."""
    return _match_with_command(match_id, command_id, lock=False)


def _match_with_command(match_id, command_id: uuid.UUID, *, lock: bool) -> tuple[Match, CommandRecord | None]:
    db = sql.database()
    query = _LOCK_SQL + (" FOR UPDATE OF m" if lock and db.features.has_select_for_update else "")
    try:
        mid = match_id if isinstance(match_id, uuid.UUID) else uuid.UUID(str(match_id))
    except ValueError:
        raise Match.DoesNotExist(f"no match {match_id}")
    row = sql.run(query, [sql.uuid_param(command_id, db), sql.uuid_param(mid, db)], fetch="one", prepare=True, db=db)
    if row is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    match = Match.from_db(db.alias, _LOCK_FIELDS, (mid, *row[1:5]))
    return match, (CommandRecord(row[5], row[6], row[7]) if row[5] is not None else None)


_COMMAND_INSERT = ("INSERT INTO eventstore_matchcommand (match_id, command_id, seat, fingerprint, first_seq, last_seq, at,"
                   " kind, type, args, actor, expected_seq) ")
_EVENTS_INSERT = "INSERT INTO eventstore_matchevent (match_id, seq, type, version, payload, actor, command_id, at) "
_COMMAND_VALUES = "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"  # a command row after its match id
_EVENT_VALUES = "%s, %s, %s, %s, %s, %s, %s"  # an event row after its match id


def _append_params(match: Match, events: list[dict], *, actor: dict, command_id: uuid.UUID, seat, fingerprint: str,
                   body: CommandBody, at, db) -> tuple[list, list[list]]:
    """The values of the command row and of each event row after ``match.head_seq``, all but their
    match id (``_COMMAND_VALUES``, ``_EVENT_VALUES``)."""
    stamp = db.ops.adapt_datetimefield_value(at)
    cid = sql.uuid_param(command_id, db)
    first, last = match.head_seq + 1, match.head_seq + len(events)
    actor_json = sql.json_param(actor, db)
    event_rows = [[seq, ev["type"], ev.get("v", 1), sql.json_param(ev.get("payload", {}), db), actor_json, cid, stamp]
                  for seq, ev in enumerate(events, start=first)]
    command_row = [cid, None if seat is None else sql.json_param(seat, db), fingerprint, first, last, stamp, body.kind,
                   body.type, sql.json_param(body.args, db), actor_json, body.expected_seq]
    return command_row, event_rows


def command_append(match: Match, events: list[dict], *, actor: dict, command_id: uuid.UUID, seat,
                   fingerprint: str, body: CommandBody) -> tuple[int, object]:
    """Append ``events`` after ``match.head_seq`` (gapless), record the command (its ``body`` too)
    and advance the head, in one statement on PostgreSQL (three on SQLite, which has no
    data-modifying CTEs). A concurrent writer that slipped past the lock hits the unique
    (match, seq) or (match, command_id) and the whole transaction raises IntegrityError. Returns
    (first seq, the events' time)."""
    db, now = sql.database(), timezone.now()
    (event_sql, event_params), (command_sql, command_params), mid = _insert_statements(
        match, events, actor=actor, command_id=command_id, seat=seat, fingerprint=fingerprint, body=body, at=now, db=db)
    first, last = match.head_seq + 1, match.head_seq + len(events)
    head_sql = "UPDATE eventstore_match SET head_seq = %s WHERE id = %s"
    if db.vendor == "postgresql":  # one round trip
        sql.run(f"WITH e AS ({event_sql}), c AS ({command_sql}) {head_sql}",
                [*event_params, *command_params, last, mid], prepare=True, db=db)
    else:
        sql.run(event_sql, event_params, db=db)
        sql.run(command_sql, command_params, db=db)
        sql.run(head_sql, [last, mid], db=db)
    match.head_seq = last
    return first, now


def _insert_statements(match: Match, events: list[dict], *, actor: dict, command_id: uuid.UUID, seat,
                       fingerprint: str, body: CommandBody, at, db) -> tuple[tuple, tuple, object]:
    """The INSERTs of ``events`` after ``match.head_seq`` and of their command row, each as
    (statement, params), and the match id as stored."""
    command_row, event_rows = _append_params(match, events, actor=actor, command_id=command_id, seat=seat,
                                             fingerprint=fingerprint, body=body, at=at, db=db)
    mid = sql.uuid_param(match.pk, db)
    event_sql = _EVENTS_INSERT + "VALUES " + ", ".join([f"(%s, {_EVENT_VALUES})"] * len(events))
    event_params = [value for row in event_rows for value in (mid, *row)]
    return (event_sql, event_params), (_COMMAND_INSERT + f"VALUES (%s, {_COMMAND_VALUES})", [mid, *command_row]), mid


class HeadMoved(Exception):
    """``command_append_checked`` found the match's head moved, or the command id taken: nothing was written."""


def appends_checked() -> bool:
    """Whether ``command_append_checked`` is the cached fold's way to append here: SQLite."""
    return sql.database().vendor == "sqlite"


def command_append_checked(match: Match, events: list[dict], *, actor: dict, command_id: uuid.UUID, seat,
                           fingerprint: str, body: CommandBody) -> tuple[int, object]:
    """``command_append`` for a command decided on a fold this process holds (SQLite), in the
    caller's transaction, without ``match_lock``'s SELECT: its first statement moves the head from
    ``match.head_seq`` only if it is still there, the engine version too, and the match has no
    command ``command_id`` yet (a compare-and-set, under the transaction's IMMEDIATE write lock);
    then the events and the command row. Raises HeadMoved, having written nothing, when the head had
    moved or the command id was taken. Returns (first seq, the events' time)."""
    db, now = sql.database(), timezone.now()
    (event_sql, event_params), (command_sql, command_params), mid = _insert_statements(
        match, events, actor=actor, command_id=command_id, seat=seat, fingerprint=fingerprint, body=body, at=now, db=db)
    first, last = match.head_seq + 1, match.head_seq + len(events)
    moved = sql.run("UPDATE eventstore_match SET head_seq = %s WHERE id = %s AND head_seq = %s AND engine_version = %s"
                    " AND NOT EXISTS (SELECT 1 FROM eventstore_matchcommand WHERE match_id = %s AND command_id = %s)",
                    [last, mid, match.head_seq, match.engine_version, mid, command_params[1]], db=db)
    if moved != 1:
        raise HeadMoved(match.pk)
    sql.run(event_sql, event_params, db=db)
    sql.run(command_sql, command_params, db=db)
    match.head_seq = last
    return first, now


# The compare-and-set's row in ``command_append_if_head``'s statement: ``id``, the match's, or no
# row at all when the head had moved.
CHECKED_HEAD = "h"


@dataclass(frozen=True)
class Write:
    """A read model's write, made part of ``command_append_if_head``'s one statement: a
    data-modifying statement that takes the match id from ``CHECKED_HEAD`` (``SELECT id FROM h``),
    so that it writes nothing when the head had moved, and runs after the match row's lock, which
    every writer takes first. ``one_row``: it ends in ``RETURNING 1`` and must change exactly one
    row, or the whole append fails (IntegrityError) and the locked path writes it."""

    sql: str
    params: list
    one_row: bool = False


def appends_unlocked() -> bool:
    """Whether ``command_append_if_head`` can run here: PostgreSQL, outside any transaction."""
    db = sql.database()
    if db.vendor != "postgresql" or db.in_atomic_block:
        return False
    if db.connection is None:
        db.ensure_connection()
    return db.autocommit  # get_autocommit() without its check for an event loop on every command


def command_append_if_head(match: Match, events: list[dict], *, actor: dict, command_id: uuid.UUID, seat,
                           fingerprint: str, body: CommandBody, at, writes=()) -> int | None:
    """``command_append`` without a transaction around it, for a command decided on a fold this
    process already holds: one statement, which is its own transaction (one round trip, no BEGIN
    nor COMMIT), with the read models' ``writes`` in it. The match row's head moves from
    ``match.head_seq`` only if it is still there (and the engine version too): a compare-and-set,
    whose row lock orders it with every other writer of the match, and on which every other write
    hangs. The set also requires that the match has no command ``command_id`` yet (a client's or a
    worker's retry, which the locked path answers with a replay). Returns the first seq, or None
    when the head had moved or the command id was taken: then nothing was written. A ``one_row``
    write that changed no row (the command row's match id is NULL then), or an existing
    (match, command_id) or (match, seq) all the same (a writer that committed since the statement
    began), fails the whole statement with IntegrityError, and nothing is written either.
    PostgreSQL only (``appends_unlocked``)."""
    db = sql.database()
    command_row, event_rows = _append_params(match, events, actor=actor, command_id=command_id, seat=seat,
                                             fingerprint=fingerprint, body=body, at=at, db=db)
    first, last = match.head_seq + 1, match.head_seq + len(events)
    h = CHECKED_HEAD
    parts = [f"{h} AS (UPDATE eventstore_match m SET head_seq = %s WHERE id = %s AND head_seq = %s"
             " AND engine_version = %s AND NOT EXISTS (SELECT 1 FROM eventstore_matchcommand"
             " WHERE match_id = m.id AND command_id = %s) RETURNING id)"]
    params = [last, sql.uuid_param(match.pk, db), match.head_seq, match.engine_version, command_row[0]]
    for i, write in enumerate(writes):
        parts.append(f"w{i} AS ({write.sql})")
        params += write.params
    guards = "".join(f" AND (SELECT count(*) FROM w{i}) = 1" for i, w in enumerate(writes) if w.one_row)
    parts.append(f"c AS ({_COMMAND_INSERT}SELECT (SELECT id FROM {h} WHERE TRUE{guards}), {_COMMAND_VALUES}"
                 f" WHERE EXISTS (SELECT 1 FROM {h}) RETURNING match_id)")
    event_sql = _EVENTS_INSERT + " UNION ALL ".join([f"SELECT match_id, {_EVENT_VALUES} FROM c"] * len(events))
    inserted = sql.run(f"WITH {', '.join(parts)} {event_sql}",
                       [*params, *command_row, *(value for row in event_rows for value in row)], prepare=True, db=db)
    if inserted == 0:
        return None
    if inserted != len(events):  # cannot happen: the command row and the events stand or fall together
        raise RuntimeError(f"appended {inserted} of {len(events)} events")
    match.head_seq = last
    return first


def snapshot_write(match: Match, seq: int, state) -> Write:
    """``snapshot_save`` as a ``Write`` of ``command_append_if_head``."""
    return Write("INSERT INTO eventstore_snapshot (match_id, seq, engine_version, state)"
                 f" SELECT id, %s, %s, %s FROM {CHECKED_HEAD} ON CONFLICT (match_id, seq) DO UPDATE"
                 " SET engine_version = excluded.engine_version, state = excluded.state",
                 [seq, match.engine_version, sql.json_param(state)])


def match_static(match: Match) -> tuple | None:
    """What ``match_at`` needs besides a head: the match row's fields that commands never change
    (None when one of them was not loaded: it is not worth a query)."""
    loaded = match.__dict__
    if not all(name in loaded for name in _LOCK_FIELDS[1:4]):
        return None
    return (match.pk, loaded["game"], loaded["engine_version"], loaded["seed"])


def match_at(static: tuple, head_seq: int) -> Match:
    """A match as ``match_lock`` loads it, from ``match_static``'s tuple and a head."""
    return Match.from_db(DEFAULT_DB_ALIAS, _LOCK_FIELDS, (*static, head_seq))


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
    return events_from_rows(sql.run(*events_query(match.pk, after=after, until=until), fetch="all", prepare=True),
                            engine_upcasters)


def events_query(match_id, *, after: int = 0, until: int | None = None) -> tuple[str, list]:
    """The SELECT of ``events_for_fold`` (for ``sql.fetch_many``)."""
    query = "SELECT seq, type, version, payload FROM eventstore_matchevent WHERE match_id = %s AND seq > %s"
    params = [sql.uuid_param(match_id), after]
    if until is not None:
        query += " AND seq <= %s"
        params.append(until)
    return query + " ORDER BY seq", params


def events_from_rows(rows, engine_upcasters=None) -> list[dict]:
    """``events_query``'s rows as ``events_for_fold`` returns them."""
    if isinstance(rows[0][3] if rows else None, (str, bytes)):  # SQLite, and PostgreSQL as Django sets it up
        try:
            events = [{"seq": seq, "type": type_, "v": version, "payload": orjson.loads(payload)}
                      for seq, type_, version, payload in rows]
        except orjson.JSONDecodeError:  # NaN or a huge integer somewhere: the standard library reads it
            events = [{"seq": seq, "type": type_, "v": version, "payload": json_decode(payload)}
                      for seq, type_, version, payload in rows]
    else:
        events = [{"seq": seq, "type": type_, "v": version, "payload": payload} for seq, type_, version, payload in rows]
    if needs_upcast(engine_upcasters):
        for ev in events:
            ev["v"], ev["payload"] = upcast(ev["type"], ev["v"], ev["payload"], engine_upcasters)
    return events


def events_page(match: Match, *, after: int, until: int, engine_upcasters=None) -> list[dict]:
    """``events_load`` for seqs after ``after`` up to ``until``, in one plain SELECT (the live
    sockets read every append this way)."""
    rows = sql.run("SELECT seq, type, version, payload, actor, command_id, at FROM eventstore_matchevent"
                   " WHERE match_id = %s AND seq > %s AND seq <= %s ORDER BY seq",
                   [sql.uuid_param(match.pk), after, until], fetch="all", prepare=True)
    return _page_events(rows, engine_upcasters)


# Each (match, after, until) of an array, and its events by the (match, seq) index (LATERAL: one
# index range per page, never a join over the whole table; the LIMIT, which never cuts as seqs are
# whole numbers, keeps the planner from flattening the LATERAL into a join, also in the generic
# plan the connection plans it with once: see DATABASES in config.settings).
_PAGES_SQL = (
    "SELECT r.i, e.seq, e.type, e.version, e.payload, e.actor, e.command_id, e.at"
    " FROM unnest(%s::uuid[], %s::integer[], %s::integer[]) WITH ORDINALITY AS r(match_id, after, until, i)"
    " CROSS JOIN LATERAL (SELECT seq, type, version, payload, actor, command_id, at FROM eventstore_matchevent"
    " WHERE match_id = r.match_id AND seq > r.after AND seq <= r.until ORDER BY seq"
    " LIMIT GREATEST(r.until - r.after, 0)) e ORDER BY r.i, e.seq"
)


def events_pages(pages: list[tuple], upcasters: list) -> list[list[dict]]:
    """``events_page`` for each ``(match, after, until)`` of ``pages`` (its engine's upcasters at
    the same place in ``upcasters``): one SELECT for all of them on PostgreSQL, one each elsewhere."""
    if sql.database().vendor != "postgresql" or len(pages) < 2:
        return [events_page(match, after=after, until=until, engine_upcasters=up)
                for (match, after, until), up in zip(pages, upcasters)]
    rows = sql.run(_PAGES_SQL, [[m.pk for m, _, _ in pages], [a for _, a, _ in pages], [u for _, _, u in pages]],
                   fetch="all", prepare=True)
    grouped = [[] for _ in pages]
    for row in rows:
        grouped[row[0] - 1].append(row[1:])
    return [_page_events(page_rows, up) for page_rows, up in zip(grouped, upcasters)]


def _page_events(rows, engine_upcasters) -> list[dict]:
    convert = connection.ops.convert_datetimefield_value if connection.vendor == "sqlite" else None
    out = []
    for seq, type_, version, payload, actor, command_id, at in rows:
        version, payload = upcast(type_, version, json_decode(payload), engine_upcasters)
        if convert is not None:
            at = convert(at, None, connection)
        out.append({"seq": seq, "type": type_, "v": version, "payload": payload,
                    "actor": json_decode(actor) if isinstance(actor, (str, bytes)) else actor,
                    "command_id": str(uuid.UUID(str(command_id))) if command_id else None, "at": at.isoformat()})
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
    row = sql.run("SELECT fingerprint, first_seq, last_seq FROM eventstore_matchcommand"
                  " WHERE match_id = %s AND command_id = %s", [sql.uuid_param(match.pk), sql.uuid_param(command_id)],
                  fetch="one")
    return None if row is None else CommandRecord(*row)


def commands_load(match: Match) -> list[StoredCommand]:
    """Every command row of the match, in log order. Staff tools only: a command's args may hold
    a seat's secret choice."""
    rows = sql.run("SELECT command_id, seat, first_seq, last_seq, actor, kind, type, args, expected_seq"
                   " FROM eventstore_matchcommand WHERE match_id = %s ORDER BY first_seq",
                   [sql.uuid_param(match.pk)], fetch="all")
    out = []
    for command_id, seat, first, last, actor, kind, type_, args, expected in rows:
        body = None if kind is None else CommandBody(kind, type_, sql.json_value(args), expected)
        out.append(StoredCommand(command_id if isinstance(command_id, uuid.UUID) else uuid.UUID(command_id),
                                 sql.json_value(seat), first, last, sql.json_value(actor), body))
    return out


def snapshots_stored(match: Match) -> dict:
    """{seq: state} of every snapshot of the match's engine version: one plain SELECT."""
    return snapshots_from_rows(sql.run(*snapshots_query(match.pk), fetch="all"))


def snapshots_query(match_id) -> tuple[str, list]:
    """The SELECT of ``snapshots_stored`` (for ``sql.fetch_many``)."""
    return ("SELECT seq, state FROM eventstore_snapshot WHERE match_id = %s"
            " AND engine_version = (SELECT engine_version FROM eventstore_match WHERE id = %s)",
            [sql.uuid_param(match_id), sql.uuid_param(match_id)])


def snapshots_from_rows(rows) -> dict:
    return {seq: sql.json_value(state) for seq, state in rows}


def event_last_at(match: Match):
    """When the match's last event was appended (None without events)."""
    return event_last(match)[0]


def event_last(match: Match) -> tuple:
    """(when, type) of the match's last event; (None, None) without events."""
    row = MatchEvent.objects.filter(match=match).order_by("-seq").values_list("at", "type").first()
    return row or (None, None)


# Event types with a partial index of their own (see MatchEvent.Meta): the lobby's seat and finish
# events, which the rebuild looks up across every match.
INDEXED_TYPES = ("SeatTaken", "MatchFinished")


def matches_with(user_type: str, user_ids, also_type: str) -> set:
    """Ids of the matches with an event of ``user_type`` whose payload's ``user_id`` is one of
    ``user_ids`` and an event of ``also_type``. Both types must be INDEXED_TYPES: their partial
    indexes serve this (the types are written into the SQL, as the indexes' conditions are, so that
    SQLite's planner can match them), never a scan of the whole log."""
    query = matches_with_query(user_type, user_ids, also_type)
    return matches_from_rows(sql.run(*query, fetch="all")) if query else set()


def matches_with_query(user_type: str, user_ids, also_type: str) -> tuple[str, list] | None:
    """The SELECT of ``matches_with`` (None: no user to look for)."""
    if user_type not in INDEXED_TYPES or also_type not in INDEXED_TYPES:
        raise ValueError("only indexed event types can be looked up across matches")
    ids = sorted({u for u in user_ids if isinstance(u, int) and not isinstance(u, bool)})
    if not ids:
        return None
    db = sql.database()
    user = "a.payload ->> 'user_id'" if db.vendor == "postgresql" else "json_extract(a.payload, '$.user_id')"
    return (f"SELECT DISTINCT a.match_id FROM eventstore_matchevent a WHERE a.type = '{user_type}'"
            f" AND {user} IN ({', '.join(['%s'] * len(ids))})"
            f" AND EXISTS (SELECT 1 FROM eventstore_matchevent b WHERE b.match_id = a.match_id AND b.type = '{also_type}')",
            [str(u) for u in ids] if db.vendor == "postgresql" else ids)


def matches_from_rows(rows) -> set:
    return {row[0] if isinstance(row[0], uuid.UUID) else uuid.UUID(row[0]) for row in rows}


def snapshot_latest(match: Match, *, until: int | None = None) -> Snapshot | None:
    snaps = Snapshot.objects.filter(match=match, engine_version=match.engine_version)
    if until is not None:
        snaps = snaps.filter(seq__lte=until)
    return snaps.order_by("-seq").first()


def snapshot_due(before_seq: int, after_seq: int) -> bool:
    every = settings.SNAPSHOT_EVERY
    return every > 0 and after_seq // every > before_seq // every


def snapshot_save(match: Match, seq: int, state) -> None:
    """Store (or replace) the snapshot at ``seq``: one upsert."""
    sql.run("INSERT INTO eventstore_snapshot (match_id, seq, engine_version, state) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (match_id, seq) DO UPDATE SET engine_version = excluded.engine_version, state = excluded.state",
            [sql.uuid_param(match.pk), seq, match.engine_version, sql.json_param(state)])


# -- time and turns (a spectator delay's reads) ------------------------------------------------


def seqs_of_types(match: Match, types, *, newest: int) -> list[int]:
    """The seqs of the ``newest`` latest events whose type is one of ``types``, newest first."""
    if not types or newest < 1:
        return []
    rows = MatchEvent.objects.filter(match=match, type__in=list(types)).order_by("-seq")
    return list(rows.values_list("seq", flat=True)[:newest])


def first_seq_of_type(match: Match, type_: str) -> int | None:
    """The seq of the first event of ``type_`` (e.g. the match's start), or None."""
    return MatchEvent.objects.filter(match=match, type=type_).order_by("seq").values_list("seq", flat=True).first()


def seq_appended_by(match: Match, when) -> int:
    """The highest seq appended at or before ``when`` (0 when none was)."""
    seq = MatchEvent.objects.filter(match=match, at__lte=when).order_by("-seq").values_list("seq", flat=True).first()
    return seq or 0


def appended_at(match: Match, seq: int):
    """When event ``seq`` was appended, or None."""
    return MatchEvent.objects.filter(match=match, seq=seq).values_list("at", flat=True).first()
