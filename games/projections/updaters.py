"""Projection updaters: pure-ish functions of (match, folded state, new events).

``summary_values`` derives the summary from the folded state; ``records_delta`` counts finished
matches per user from MatchFinished events; ``deadline_values`` derives the current clock.
Incremental update and full rebuild call the same functions, which is what makes them agree.
"""

from datetime import timedelta

from django.db.models import F
from django.utils import timezone

from games.application.lobby import ACTIVE, FINISHED, OPEN
from games.eventstore.models import Match
from games.kernel import SYSTEM

from .models import MatchDeadline, MatchSummary, PlayerRecord


def summary_values(engine, state: dict, seq: int) -> dict:
    lobby = state["lobby"]
    phase, awaiting = "lobby", []
    if lobby["status"] != OPEN and state["game"] is not None:
        st = engine.status(state["game"])
        phase = st.phase
        awaiting = list(st.awaiting) if lobby["status"] == ACTIVE else []
    return {
        "status": lobby["status"],
        "phase": phase,
        "seq": seq,
        "seats": lobby["seats"],
        "awaiting": awaiting,
        "winners": lobby["winners"],
    }


def summary_write(match: Match, values: dict, at) -> None:
    updated = MatchSummary.objects.filter(match=match)
    seats_changed = updated.values_list("seats", flat=True).first() != values["seats"]
    if not updated.update(**values, updated_at=at):
        MatchSummary.objects.create(match=match, **values, updated_at=at)
    if seats_changed:  # players only change in the lobby: skip the M2M sync on game moves
        user_ids = sorted({s["user_id"] for s in values["seats"] if s and s.get("user_id")})
        MatchSummary.objects.get(match=match).players.set(user_ids)
    return None


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


def deadline_values(engine, state: dict, seq: int, at) -> dict | None:
    lobby = state["lobby"]
    if lobby["status"] != ACTIVE or state["game"] is None:
        return None
    st = engine.status(state["game"])
    seats = [s for s in st.awaiting if s != SYSTEM]
    if not st.deadline_seconds or not seats:
        return None
    return {"seq": seq, "seats": seats, "due_at": at + timedelta(seconds=st.deadline_seconds)}


def clock_row(match: Match) -> MatchDeadline | None:
    """The stored clock of ``match``, whatever seq it was set at (one row per match)."""
    return MatchDeadline.objects.filter(match=match).first()


def open_matches_created(user) -> int:
    """How many open matches ``user`` created and still sits in (the lobby's per-user cap)."""
    return MatchSummary.objects.filter(status=OPEN, match__created_by=user, players=user).count()


def deadline_write(match: Match, values: dict | None) -> None:
    if values is None:
        MatchDeadline.objects.filter(match=match).delete()
    else:
        MatchDeadline.objects.update_or_create(match=match, defaults=values)


def projections_update(engine, match: Match, state: dict, events: list[dict], at=None) -> None:
    at = at or timezone.now()
    summary_write(match, summary_values(engine, state, match.head_seq), at)
    records_apply(records_delta(state, events))
    deadline_write(match, deadline_values(engine, state, match.head_seq, at))
