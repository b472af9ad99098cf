"""The round clock (Django reads): when the time limit of the round being played runs out, counting
the organizer's pauses. A pause lasts from a ``clock_paused`` record to the next ``clock_resumed``
(the rows' times measure it), so the limit is the pairing time plus ``round_minutes`` plus every
finished pause, and there is none while the clock is paused."""

from __future__ import annotations

from datetime import datetime, timedelta

from games.tournaments.models import RUNNING, Tournament, TournamentRecord, TournamentTable


def _measure(tournament: Tournament, round_no: int):
    """(paired at, seconds of finished pauses, paused since or None) for ``round_no``, or None."""
    rows = list(TournamentRecord.objects.filter(tournament=tournament, round=round_no,
                                                kind__in=("paired", "clock_paused", "clock_resumed")).order_by("seq"))
    if not rows or rows[0].kind != "paired":
        return None
    paused_seconds, paused_since = 0.0, None
    for row in rows[1:]:
        if row.kind == "clock_paused":
            paused_since = row.at
        elif paused_since is not None:
            paused_seconds += (row.at - paused_since).total_seconds()
            paused_since = None
    return rows[0].at, paused_seconds, paused_since


def round_ends_at(tournament: Tournament, round_no: int) -> datetime | None:
    """When round ``round_no``'s time limit runs out; None while its clock is paused (or unpaired)."""
    measured = _measure(tournament, round_no)
    if measured is None or measured[2] is not None:
        return None
    started, paused_seconds, _ = measured
    return started + timedelta(minutes=tournament.round_minutes, seconds=paused_seconds)


def round_paused(tournament: Tournament, round_no: int) -> bool:
    """Whether round ``round_no``'s clock is paused now."""
    measured = _measure(tournament, round_no)
    return measured is not None and measured[2] is not None


def _pause_reason(tournament: Tournament, round_no: int) -> str:
    """The organizer's words for round ``round_no``'s latest pause (its last ``clock_paused``), "" when none."""
    payload = (TournamentRecord.objects.filter(tournament=tournament, round=round_no, kind="clock_paused")
               .order_by("-seq").values_list("payload", flat=True).first())
    return str((payload or {}).get("reason") or "")


def round_pause_reason(tournament: Tournament, round_no: int) -> str | None:
    """While round ``round_no``'s clock is paused, the organizer's reason ("" when none was given); None
    while it runs."""
    return _pause_reason(tournament, round_no) if round_paused(tournament, round_no) else None


def round_has_open_tables(tournament_id, round_no: int) -> bool:
    """Whether round ``round_no`` still has a played table (not a bye) without a result, read from the
    tables and the records' columns (two small indexed queries, no fold)."""
    played = {number for number, entrants in TournamentTable.objects.filter(
        tournament_id=tournament_id, round=round_no).values_list("table", "entrant_ids") if len(entrants) > 1}
    decided = set(TournamentRecord.objects.filter(tournament_id=tournament_id, round=round_no,
                                                  kind__in=("result", "overridden")).values_list("table", flat=True))
    return bool(played - decided)


def round_clock(tournament: Tournament) -> dict | None:
    """The time limit of the round being played: ``{round, started_at, minutes, paused, paused_seconds,
    ends_at, paused_reason, next_round_waits}`` (``ends_at`` moves later by every pause; null while
    paused; ``paused_reason``: the organizer's reason while paused, else null; ``next_round_waits``:
    the round is over while paused, so the next round is paired, or the tournament ends, only when
    the organizer resumes), or None when no round is being played."""
    if tournament.status != RUNNING or not tournament.round:
        return None
    measured = _measure(tournament, tournament.round)
    if measured is None:
        return None
    started, paused_seconds, paused_since = measured
    ends_at = round_ends_at(tournament, tournament.round)
    reason = _pause_reason(tournament, tournament.round) if paused_since is not None else None
    waits = paused_since is not None and not round_has_open_tables(tournament.pk, tournament.round)
    return {"round": tournament.round, "started_at": started.isoformat(), "minutes": tournament.round_minutes,
            "paused": paused_since is not None, "paused_seconds": round(paused_seconds, 3),
            "ends_at": ends_at.isoformat() if ends_at else None, "paused_reason": reason, "next_round_waits": waits}
