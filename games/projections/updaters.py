"""Projection updaters: pure-ish functions of (match, folded state, new events).

``summary_values`` derives the summary from the folded state; ``records_delta`` counts finished
matches per user from MatchFinished events; ``deadline_values`` derives the current clock.
Incremental update and full rebuild call the same functions, which is what makes them agree.

The write path passes the state before the command too: what is stored now is the same functions of
that state (projections are written in the command's transaction), so only what changed is written.
"""

from datetime import timedelta

from django.db.models import F
from django.utils import timezone

from games.application.lobby import ACTIVE, CLOCK_RELEASED, FINISHED, OPEN, match_phase
from games.application.statuses import engine_status
from games.eventstore import sql, store
from games.eventstore.models import Match
from games.kernel import SYSTEM

from .models import MatchDeadline, MatchSummary, PlayerRecord


def summary_values(engine, state: dict, seq: int) -> dict:
    lobby = state["lobby"]
    phase, awaiting = "lobby", []
    if lobby["status"] != OPEN and state["game"] is not None:
        st = engine_status(engine, state["game"])
        phase = match_phase(engine, state, st)
        awaiting = list(st.awaiting) if lobby["status"] == ACTIVE else []
    return {
        "status": lobby["status"],
        "phase": phase,
        "seq": seq,
        "seats": lobby["seats"],
        "awaiting": awaiting,
        "winners": lobby["winners"],
    }


_SUMMARY_JSON = frozenset({"seats", "awaiting", "winners"})


def summary_changes(previous: dict | None, values: dict) -> dict | None:
    """The fields of ``values`` that differ from ``previous`` (None: everything is to be written)."""
    if previous is None:
        return None
    return {k: v for k, v in values.items() if k not in previous or previous[k] != v or type(previous[k]) is not type(v)}


def _summary_update(changed: dict, at, db) -> tuple[str, list]:
    """The UPDATE of the summary's ``changed`` fields (without its WHERE) and its params."""
    columns = ", ".join(f"{k} = %s" for k in changed)  # keys are summary_values' own field names
    params = [sql.json_param(v, db) if k in _SUMMARY_JSON else v for k, v in changed.items()]
    return (f"UPDATE projections_matchsummary SET {columns}, updated_at = %s",
            [*params, db.ops.adapt_datetimefield_value(at)])


def summary_write(match: Match, values: dict, at, previous: dict | None = None) -> None:
    """Store the summary. With ``previous``, the values stored now, only the changed fields are
    written in one UPDATE, and players are synced only when the seats changed."""
    changed = summary_changes(previous, values)
    if changed is not None:
        if not changed:
            return
        db = sql.database()
        update, params = _summary_update(changed, at, db)
        found = sql.run(f"{update} WHERE match_id = %s", [*params, sql.uuid_param(match.pk, db)],
                        prepare=True, db=db) == 1
        if found:
            if "seats" in changed:
                _players_sync(match, values["seats"])
            return
    updated = MatchSummary.objects.filter(match=match)
    seats_changed = updated.values_list("seats", flat=True).first() != values["seats"]
    if not updated.update(**values, updated_at=at):
        MatchSummary.objects.create(match=match, **values, updated_at=at)
    if seats_changed:  # players only change in the lobby: skip the M2M sync on game moves
        _players_sync(match, values["seats"])


def _players_sync(match: Match, seats: list) -> None:
    user_ids = sorted({s["user_id"] for s in seats if s and s.get("user_id")})
    MatchSummary.objects.get(match=match).players.set(user_ids)


def records_delta(state: dict, events: list[dict]) -> list[tuple[int, str, int]]:
    """[(user_id, game, won 0/1)] for each human seat when ``events`` finish the match."""
    if not any(ev["type"] == FINISHED for ev in events):
        return []
    lobby = state["lobby"]
    winners = set(lobby["winners"])
    return [
        (s["user_id"], lobby["game"], int(i in winners))
        for i, s in enumerate(lobby["seats"])
        if s and s.get("user_id") and not s.get("bot")
    ]


def records_apply(delta) -> None:
    for user_id, game, won in delta:
        PlayerRecord.objects.get_or_create(user_id=user_id, game=game)
        PlayerRecord.objects.filter(user_id=user_id, game=game).update(played=F("played") + 1, won=F("won") + won)


def deadline_values(engine, state: dict, seq: int, at, last_type: str | None = None) -> dict | None:
    """The decision clock at ``seq``, whose last event (of type ``last_type``) was appended ``at``:
    none while the platform holds the clock (a tournament's pause); right after it lets the clock
    go, what the clock had left when it stopped; otherwise the decision's full time."""
    lobby = state["lobby"]
    if lobby["status"] != ACTIVE or state["game"] is None or lobby.get("clock_held"):
        return None
    st = engine_status(engine, state["game"])
    seats = [s for s in st.awaiting if s != SYSTEM]
    if not st.deadline_seconds or not seats:
        return None
    seconds = st.deadline_seconds
    if last_type == CLOCK_RELEASED and lobby.get("clock_remaining") is not None:
        seconds = lobby["clock_remaining"]
    return {"seq": seq, "seats": seats, "due_at": at + timedelta(seconds=seconds)}


def clock_row(match: Match) -> MatchDeadline | None:
    """The stored clock of ``match``, whatever seq it was set at (one row per match)."""
    return MatchDeadline.objects.filter(match=match).first()


def open_matches_created(user) -> int:
    """How many open matches ``user`` created and still sits in (the lobby's per-user cap)."""
    return MatchSummary.objects.filter(status=OPEN, match__created_by=user, players=user).count()


def deadline_write(match: Match, values: dict | None, *, stored: bool | None = None) -> None:
    """Store the clock (None: no clock). ``stored``, whether a clock row exists now, if known,
    saves the look-up: nothing is written when there was no clock and there is none."""
    if values is None:
        if stored is not False:
            MatchDeadline.objects.filter(match=match).delete()
        return
    if stored and MatchDeadline.objects.filter(match=match).update(**values):
        return
    MatchDeadline.objects.update_or_create(match=match, defaults=values)


def projections_update(engine, match: Match, state: dict, events: list[dict], at=None, before: dict | None = None) -> None:
    """Update every projection for ``events`` just appended (``match.head_seq`` is the new head,
    ``state`` the new fold). ``before``, the fold before the events, if any, limits the writes
    to what changed."""
    at = at or timezone.now()
    previous_seq = match.head_seq - len(events)
    summary_write(match, summary_values(engine, state, match.head_seq), at,
                  previous=summary_values(engine, before, previous_seq) if before is not None else None)
    records_apply(records_delta(state, events))
    had_clock = deadline_values(engine, before, previous_seq, at) is not None if before is not None else None
    deadline_write(match, deadline_values(engine, state, match.head_seq, at, events[-1]["type"] if events else None),
                   stored=had_clock)


def projection_writes(engine, match: Match, state: dict, events: list[dict], at, before: dict, head: int):
    """``projections_update``'s writes as ``store.Write`` statements for the append's own statement,
    or None when they need the locked path: a finished match (players' records), seats that changed
    (the players' list). The summary's UPDATE must find its row (``one_row``), as ``summary_write``
    creates a missing one; the clock is an upsert or a delete either way."""
    previous_seq = head - len(events)
    values = summary_values(engine, state, head)
    changed = summary_changes(summary_values(engine, before, previous_seq), values)
    if "seats" in changed or records_delta(state, events):
        return None
    db = sql.database()
    writes = []
    matched = f"(SELECT id FROM {store.CHECKED_HEAD})"
    if changed:
        update, params = _summary_update(changed, at, db)
        writes.append(store.Write(f"{update} WHERE match_id = {matched} RETURNING 1", params, one_row=True))
    clock = deadline_values(engine, state, head, at, events[-1]["type"] if events else None)
    if clock is not None:
        writes.append(store.Write("INSERT INTO projections_matchdeadline (match_id, seq, seats, due_at)"
                                  f" SELECT id, %s, %s, %s FROM {store.CHECKED_HEAD} ON CONFLICT (match_id) DO UPDATE"
                                  " SET seq = excluded.seq, seats = excluded.seats, due_at = excluded.due_at",
                                  [clock["seq"], sql.json_param(clock["seats"], db),
                                   db.ops.adapt_datetimefield_value(clock["due_at"])]))
    elif deadline_values(engine, before, previous_seq, at) is not None:
        writes.append(store.Write(f"DELETE FROM projections_matchdeadline WHERE match_id = {matched}", []))
    return writes
