"""Staff writes: access records, annotations, and importing a log into a new match.

Importing reproduces a match from a downloaded log: a NEW match is created through the write
path (``match_create``, creator = the staff member, nobody seated) and the log's events after its
own ``MatchCreated`` are appended exactly as they were (type, version, payload, actor, command_id)
under the new match's row lock, then the projections are brought up to date from the folded state.
The new stream differs from the original only where the platform must stamp it afresh: its
``MatchCreated`` (new match's creator and seed commitment) and the events' ``at`` (append time).
"""

import json
from itertools import groupby

from django.contrib.auth import get_user_model
from django.db import transaction

from games.application import hooks, selectors, services
from games.eventstore import store
from games.eventstore.models import EventAnnotation, Match, StaffAccess
from games.kernel import RuleViolation
from games.projections.updaters import projections_update

from .logfile import LogError, ParsedLog, seated_user_ids

MAX_NOTE_LENGTH = 5000


class StaffError(Exception):
    """A staff action refused for a reason the form shows."""


def access_record(*, user, match: Match | None, what: str) -> StaffAccess:
    return StaffAccess.objects.create(user=user, match=match, what=what[:200])


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


def match_import_log(*, parsed: ParsedLog, user) -> Match:
    """Create a new match reproducing ``parsed`` (validated by ``logfile.parse_log``)."""
    header = parsed.header
    user_ids = seated_user_ids(parsed.final_state)
    known = set(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", flat=True))
    missing = [uid for uid in user_ids if uid not in known]
    if missing:
        # The summary's players and the player records point at these users.
        raise LogError(f"the log seats user ids that do not exist here: {', '.join(map(str, missing))}")
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
                match, [{"type": ev["type"], "v": ev["v"], "payload": ev["payload"]} for ev in group],
                actor=group[0]["actor"], command_id=command_id,
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
