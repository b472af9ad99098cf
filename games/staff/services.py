"""Staff writes: access records, annotations, and importing a log into a new match.

Importing reproduces a match from a downloaded log: a NEW match is created through the write
path (``match_create``, creator = the staff member, nobody seated) and the log's events after its
own ``MatchCreated`` are appended exactly as they were (type, version, payload, actor, command_id)
under the new match's row lock, then the projections are brought up to date from the folded state.
The new stream differs from the original only where the platform must stamp it afresh: its
``MatchCreated`` (new match's creator and seed commitment) and the events' ``at`` (append time).

A reproduction is for review, not for play: its seats are taken by nobody (``SeatTaken`` keeps
the original name, marked imported, without a user id, so no local account can read a seat's
hidden cards nor gain a record), and a match imported before its end is closed at once with
``MatchAbandoned`` so no player, bot or worker moves it on. Staff step through it like any match.
"""

import json
from itertools import groupby

from django.db import transaction

from games.application import audit, hooks, lobby as L, selectors, services
from games.application.readmodels import projections_update
from games.eventstore import store
from games.eventstore.models import EventAnnotation, Match, StaffAccess
from games.kernel import RuleViolation
from games.kernel import event as make_event

from .logfile import LogError, ParsedLog

MAX_NOTE_LENGTH = 5000


class StaffError(Exception):
    """A staff action refused for a reason the form shows."""


def access_record(*, user, match: Match | None, what: str) -> StaffAccess:
    return audit.staff_access_record(user=user, match=match, what=what)


def annotation_create(*, match: Match, seq: int, note: str, author) -> EventAnnotation:
    note = (note or "").strip()
    if not note:
        raise StaffError("the note is empty")
    if len(note) > MAX_NOTE_LENGTH:
        raise StaffError(f"the note is longer than {MAX_NOTE_LENGTH} characters")
    if not isinstance(seq, int) or not 1 <= seq <= match.head_seq:
        raise StaffError(f"seq must be between 1 and {match.head_seq}")
    return EventAnnotation.objects.create(match=match, seq=seq, note=note, author=author)


def _group_key(ev: dict):
    return json.dumps(ev["actor"], sort_keys=True, default=str), ev["command_id"]


def _unseated(ev: dict) -> dict:
    if ev["type"] != L.SEAT_TAKEN:
        return ev["payload"]
    name = ev["payload"].get("username") or f"seat {ev['payload'].get('seat')}"
    return {**ev["payload"], "user_id": None, "bot": False, "username": f"{name} (imported)"}


def match_import_log(*, parsed: ParsedLog, user) -> Match:
    """Create a new match reproducing ``parsed`` (validated by ``logfile.parse_log``)."""
    header = parsed.header
    with transaction.atomic():
        try:
            created = services.match_create(
                game=header["game"], seats=header["seat_count"], options=header.get("options", {}),
                creator=user, join=False,
            )
        except RuleViolation as exc:
            raise LogError(f"the match cannot be created: {exc.message}")
        match = Match.objects.select_for_update().get(pk=created.pk)
        engine = selectors.engine_of(match)
        tail = parsed.events[1:]  # seq 1 is the original's MatchCreated; the new match has its own
        rows = []
        for (_, command_id), group in groupby(tail, key=_group_key):
            group = list(group)
            rows += store.events_append(
                match, [{"type": ev["type"], "v": ev["v"], "payload": _unseated(ev)} for ev in group],
                actor=group[0]["actor"], command_id=command_id,
            )
        state = selectors.state_load(match, use_snapshots=False, use_cache=False)
        if state["lobby"]["status"] in (L.OPEN, L.ACTIVE):
            rows += store.events_append(
                match, [make_event(L.ABANDONED, {"reason": "imported copy for review", "seed": None})],
                actor={"kind": "user", "user_id": user.pk, "seat": None}, command_id=None,
            )
            state = selectors.state_load(match, use_snapshots=False, use_cache=False)
        if rows:
            appended = [{"type": r.type, "v": r.version, "payload": r.payload} for r in rows]
            projections_update(engine, match, state, appended, at=rows[-1].at)
            if store.snapshot_due(1, match.head_seq):
                store.snapshot_save(match, match.head_seq, state)
        source = parsed.source_id or "unknown match"
        EventAnnotation.objects.create(
            match=match, seq=1, author=user,
            note=f"Imported by {user.get_username()} from the log of match {source} "
                 f"({len(parsed.events)} events; original times are in that log).",
        )
        access_record(user=user, match=match, what=f"import log from {source}")
        head = match.head_seq
        transaction.on_commit(lambda: hooks.publish_appended(match.pk, head))
    return match
