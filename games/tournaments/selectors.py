"""Read shapes of the tournament API contract (Django reads, pure folds): detail, pairings, standings."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from games.tournaments import rounds, standings
from games.tournaments.names import members_of, names_shown
from games.tournaments.clock import round_clock
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import (
    CANCELLED,
    REGISTERING,
    Entrant,
    EntrantMember,
    StandingsView,
    TeamInvitation,
    Tournament,
    TournamentRecord,
    TournamentTable,
)
from games.tournaments.records import as_number
from games.tournaments.scoring import table_points, winners
from games.tournaments.services import settings_of, state_of


def tournament_detail(tournament: Tournament) -> dict:
    """``{id, name, game, format, status, round, rounds, entrants: [{entrant_id, user_ids, name}], seed_hash, seed}``
    plus the settings (table_size, teams, top_cut, round_minutes, rated, starts_at, spectator delay)."""
    members = members_of([tournament.pk])
    entrants = names_shown([{"entrant_id": str(e.pk), "user_ids": members.get(str(e.pk), []), "name": e.name,
                             "status": e.status}
                            for e in Entrant.objects.filter(tournament=tournament).exclude(status=Entrant.WITHDRAWN)],
                           members)
    settings = settings_of(tournament)
    field = len(entrants)
    return {
        "id": str(tournament.pk), "name": tournament.name, "game": tournament.game, "format": tournament.format,
        "status": tournament.status, "round": tournament.round,
        "rounds": rounds.planned_rounds(settings, field) if field >= 2 else tournament.rounds,
        "entrants": entrants, "seed_hash": tournament.seed_hash, "seed": tournament.seed_revealed,
        "table_size": tournament.table_size, "teams": tournament.teams, "top_cut": tournament.top_cut,
        "round_minutes": tournament.round_minutes, "rated": tournament.rated,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
        "max_entrants": tournament.max_entrants,
        "spectator_delay_seconds": tournament.spectator_delay_seconds,
        "spectator_delay_turns": tournament.spectator_delay_turns,
        "clock": round_clock(tournament),
        "scoring": {"pod_scoring": settings.pod_scoring, "bye_points": settings.bye_points,
                    "tiebreaks": list(settings.tiebreak_order)},
    }


def tournament_list(*, status: str | None = None, game: str | None = None, limit: int = 100) -> list[dict]:
    """The newest tournaments, lightest shape: ``[{id, name, game, format, status, round, table_size, teams,
    entrant_count, starts_at, created_at}]``; cancelled tournaments only with ``status="cancelled"``."""
    qs = Tournament.objects.annotate(
        entrant_count=Count("entrants", filter=Q(entrants__status__in=(Entrant.REGISTERED, Entrant.DROPPED))))
    if status:
        qs = qs.filter(status=status)
    else:  # a cancelled event is listed only when asked for
        qs = qs.exclude(status=CANCELLED)
    if game:
        qs = qs.filter(game=game)
    return [{"id": str(t.pk), "name": t.name, "game": t.game, "format": t.format, "status": t.status,
             "round": t.round, "table_size": t.table_size, "teams": t.teams, "entrant_count": t.entrant_count,
             "starts_at": t.starts_at.isoformat() if t.starts_at else None, "created_at": t.created_at.isoformat()}
            for t in qs.order_by("-created_at")[:limit]]


def tournaments_of(user, limit: int = 20) -> list[dict]:
    """The tournaments ``user`` entered (alone or in a team), newest first: ``[{id, name, game, format,
    status, entrant_id, entrant_status}]`` - the profile's tournaments section."""
    rows = (EntrantMember.objects.filter(user=user).select_related("entrant", "tournament")
            .order_by("-tournament__created_at", "-id")[:limit])
    return [{"id": str(m.tournament.pk), "name": m.tournament.name, "game": m.tournament.game,
             "format": m.tournament.format, "status": m.tournament.status, "entrant_id": str(m.entrant.pk),
             "entrant_status": m.entrant.status} for m in rows]


def tables_of_matches(match_ids) -> dict[str, dict]:
    """{match_id: {"tournament_id", "name", "round", "table"}} for the matches among ``match_ids``
    that a tournament created for one of its tables (one query)."""
    rows = (TournamentTable.objects.filter(match_id__in=list(match_ids))
            .values_list("match_id", "tournament_id", "tournament__name", "round", "table"))
    return {str(match_id): {"tournament_id": tournament_id, "name": name, "round": round_no, "table": table}
            for match_id, tournament_id, name, round_no, table in rows}


def correction_of_match(match_id) -> dict | None:
    """A judge's replacement of the result of the table ``match_id`` was played for (the latest
    ``overridden`` record of that table): ``{"places": [{"entrant_id", "name", "place"}] best first,
    "reason"}``; None when no judge changed it (none ruled, or the result was upheld)."""
    table = TournamentTable.objects.filter(match_id=match_id).values_list("tournament_id", "round", "table").first()
    if table is None:
        return None
    tournament_id, round_no, table_no = table
    record = (TournamentRecord.objects.filter(tournament_id=tournament_id, kind="overridden", round=round_no,
                                              table=table_no).order_by("-seq").first())
    if record is None:
        return None
    places = {str(entrant): place for entrant, place in (record.payload.get("places") or {}).items()}
    names = {str(pk): name for pk, name in Entrant.objects.filter(pk__in=list(places)).values_list("pk", "name")}
    rows = [{"entrant_id": entrant, "name": names.get(entrant, "?"), "place": place} for entrant, place in places.items()]
    rows = names_shown(rows, members_of([tournament_id]))
    return {"places": sorted(rows, key=lambda row: (row["place"], row["name"])), "reason": record.payload.get("reason") or ""}


def tournament_get(tournament_id) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValidationError, ValueError, TypeError):
        raise TournamentServiceError("not_found", "no such tournament") from None


def partner_by_username(username: str):
    """The active user a team registration names as partner (``unknown_partner`` otherwise)."""
    partner = get_user_model().objects.filter(username=username, is_active=True).first()
    if partner is None:
        raise TournamentServiceError("unknown_partner", f"no player named {username!r}")
    return partner


def invitation_as_dict(invitation: TeamInvitation) -> dict:
    return {"id": invitation.pk, "tournament_id": str(invitation.tournament_id),
            "tournament_name": invitation.tournament.name, "inviter": invitation.inviter.get_username(),
            "partner": invitation.partner.get_username(), "status": invitation.status,
            "created_at": invitation.created_at.isoformat(),
            "decided_at": invitation.decided_at.isoformat() if invitation.decided_at else None}


def invitations_pending(user, tournament: Tournament | None = None) -> list[TeamInvitation]:
    """The team invitations waiting for an answer that ``user`` sent or received (in ``tournament``,
    or in every tournament still registering), oldest first."""
    if not (user and user.is_authenticated):
        return []
    qs = (TeamInvitation.objects.filter(status=TeamInvitation.PENDING, tournament__status="registering")
          .filter(Q(inviter=user) | Q(partner=user)).select_related("tournament", "inviter", "partner"))
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    return list(qs.order_by("created_at", "id"))


def start_notes(tournament: Tournament) -> dict:
    """What the page says about the start that did not happen: ``{"cleared_at": when the start time
    passed with too few entrants (its ``settings_changed`` record) or None, "cancel_reason": the
    organizer's reason, or None}`` (read from the log: only a registering or cancelled event has any)."""
    out = {"cleared_at": None, "cancel_reason": None}
    if tournament.status not in (REGISTERING, CANCELLED):
        return out
    rows = (TournamentRecord.objects.filter(tournament=tournament, kind__in=("settings_changed", "cancelled"))
            .order_by("seq").values_list("kind", "payload", "at"))
    for kind, payload, at in rows:
        if kind == "cancelled":
            out["cancel_reason"] = payload.get("reason") or ""
        elif "starts_at" in payload.get("changes", {}):
            out["cleared_at"] = at if payload.get("reason") == "too_few_entrants" else None
    return out


def invitation_declined(user, tournament: Tournament) -> TeamInvitation | None:
    """The team invitation ``user`` sent last in ``tournament``, if its partner declined it (the
    inviter's page says so until they ask someone else or enter)."""
    if not (user and user.is_authenticated):
        return None
    last = (TeamInvitation.objects.filter(tournament=tournament, inviter=user).select_related("partner")
            .order_by("-created_at", "-id").first())
    return last if last is not None and last.status == TeamInvitation.DECLINED else None


def tournament_log(tournament: Tournament) -> list[dict]:
    """Every record of the append-only log, oldest first (staff review)."""
    return [{"seq": r.seq, "kind": r.kind, "payload": r.payload, "actor": r.actor, "at": r.at}
            for r in TournamentRecord.objects.filter(tournament=tournament).order_by("seq")]


def tournament_pairings(tournament: Tournament, round_no: int | None = None) -> list[dict]:
    """``[{round, table, match_id, entrant_ids, result: null | {points, winners, by}, stage, reports}]``;
    ``reports``: the players' reports on the table, ``[{id, status: open|upheld|overridden}]``."""
    settings = settings_of(tournament)
    state = state_of(tournament.pk)
    match_of = {(t.round, t.table): t.match_id for t in TournamentTable.objects.filter(tournament=tournament)}
    dropped_out = _dropped_before_result(tournament)
    out = []
    for rnd in state.rounds:
        if round_no is not None and rnd.round != round_no:
            continue
        for number, table in sorted(rnd.tables.items()):
            result = rnd.result_of(table)
            shown = None
            if result is not None:
                points = table_points(settings, result.places)
                shown = {"points": {e: as_number(p) for e, p in points.items()}, "winners": winners(result.places),
                         "by": result.by}
                gone = [e for e in table.entrant_ids if e in dropped_out.get((rnd.round, number), ())
                        and e not in shown["winners"]]
                if gone:  # the match was lost by dropping out of the tournament (its resignation)
                    shown["dropped_out"] = gone
            match_id = match_of.get((rnd.round, number))
            reports = [{"id": r.report_id, "status": r.status} for r in rnd.reports.values() if r.table == number]
            out.append({"round": rnd.round, "table": number, "match_id": str(match_id) if match_id else None,
                        "entrant_ids": list(table.entrant_ids), "result": shown, "stage": rnd.stage,
                        "reports": reports})
    return out


def _dropped_before_result(tournament: Tournament) -> dict[tuple, set]:
    """{(round, table): entrant ids dropped before that table's result was recorded}: the drop ended
    (resigned) the match, so its result is the drop's, not a game played out. Read from the log's
    order: a drop recorded after the result leaves it a played result."""
    rows = (TournamentRecord.objects.filter(tournament=tournament, kind__in=("dropped", "result"))
            .values_list("kind", "round", "table", "entrant_id", "seq"))
    drops = {str(entrant): seq for kind, _r, _t, entrant, seq in rows if kind == "dropped" and entrant is not None}
    if not drops:
        return {}
    out: dict[tuple, set] = {}
    for kind, rnd, table, _e, seq in rows:
        if kind == "result":
            out[(rnd, table)] = {e for e, dropped_at in drops.items() if dropped_at < seq}
    return out


def standings_at(tournament: Tournament, seq: int) -> list[dict]:
    """The standings folded from the log's records up to ``seq`` (no cache)."""
    return [row.to_dict() for row in standings.compute(settings_of(tournament), state_of(tournament.pk, until=seq))]


def tournament_standings(tournament: Tournament) -> list[dict]:
    """``[{rank, entrant_id, name, points, played, tiebreaks: {name: value}, dropped, reports}]``
    (``reports``: ``[{round, table, status}]`` for each report on a table the entrant sat at), each
    name as shown (``names``: a deleted account's part reads "deleted player"). None while entrants
    register: the last tiebreak draws from the seed kept secret until the start, and even the order of
    a field all on 0 points would tell an entrant where a new registration draws."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).first()
    if status in (None, REGISTERING):  # as stored now: a caller's copy may predate the start
        return []
    return names_shown(_standings_stored(tournament), members_of([tournament.pk]))


def _standings_stored(tournament: Tournament) -> list[dict]:
    """The standings with the names entered. Served from the ``StandingsView`` projection while the
    log's head has not moved; otherwise folded again (from the records up to the head read first, so
    the stored seq never claims more than was folded) and stored for the next reader."""
    head = Tournament.objects.filter(pk=tournament.pk).values_list("head_seq", flat=True).first() or 0
    view = StandingsView.objects.filter(tournament_id=tournament.pk).first()
    if view is not None and view.seq == head:
        return view.rows
    rows = standings_at(tournament, head)
    if view is None:
        try:
            with transaction.atomic():
                StandingsView.objects.create(tournament_id=tournament.pk, seq=head, rows=rows)
        except IntegrityError:  # another reader stored it first
            pass
    else:  # never move the stored seq backwards (a slower reader of an older head)
        StandingsView.objects.filter(tournament_id=tournament.pk, seq__lt=head).update(seq=head, rows=rows)
    return rows
