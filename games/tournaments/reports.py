"""Disputes (Django services): a player seated in a tournament match files a report pinned to a ``seq``
of its log; a judge (staff, or the tournament's own organizer when they do not play in it:
``services.judge_role``) resolves it by upholding the table's result or overriding it with a written
reason. Reports and resolutions are append-only rows, and each is also a record of the tournament's
log (``reported``; ``adjudicated`` / ``overridden`` naming the report), so the standings show them.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.eventstore.models import Match
from games.tournaments import services
from games.tournaments.errors import TournamentServiceError
from games.tournaments.names import members_of, names_shown
from games.tournaments.models import (
    Entrant,
    EntrantMember,
    MatchReport,
    ReportResolution,
    Tournament,
    TournamentRecord,
    TournamentTable,
)

MAX_TEXT = 4000


def _table_of(match_id) -> TournamentTable:
    try:
        table = TournamentTable.objects.select_related("match", "tournament").filter(match_id=match_id).first()
    except (ValidationError, ValueError, TypeError):
        table = None
    if table is None:
        if Match.objects.filter(pk=match_id).exists():
            raise TournamentServiceError("not_tournament_match", "reports are for tournament matches", 404)
        raise TournamentServiceError("not_found", "no such match")
    return table


def _member_at(table: TournamentTable, user) -> EntrantMember | None:
    """``user``'s membership of one of the table's entrants (None: not a player of that table)."""
    if not (user and user.is_authenticated):
        return None
    return EntrantMember.objects.filter(tournament_id=table.tournament_id, user=user,
                                        entrant_id__in=[int(e) for e in table.entrant_ids]).first()


def can_report(match_id, user) -> bool:
    """Whether ``user`` plays the tournament table of ``match_id`` (and so may report it)."""
    table = TournamentTable.objects.filter(match_id=match_id).only("tournament_id", "entrant_ids").first()
    return table is not None and _member_at(table, user) is not None


def report_file(*, match_id, user, seq, text) -> MatchReport:
    """A player of the match reports what happened at ``seq`` (1..the match's head): a ``MatchReport``
    row and, in the same transaction, a ``reported`` record of the tournament log."""
    table = _table_of(match_id)
    member = _member_at(table, user)
    if member is None:
        raise TournamentServiceError("not_a_player", "only a player seated in this match can report it", 403)
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise TournamentServiceError("invalid_seq", "seq must be a positive integer", 422)
    if seq > table.match.head_seq:
        raise TournamentServiceError("seq_beyond_head", f"the match log ends at seq {table.match.head_seq}", 422)
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise TournamentServiceError("invalid_text", f"describe the problem in 1-{MAX_TEXT} characters", 422)
    with transaction.atomic():
        report = MatchReport.objects.create(tournament_id=table.tournament_id, match_id=table.match_id,
                                            round=table.round, table=table.table, seq=seq, text=text.strip(),
                                            reporter=user)
        services.tournament_report(tournament_id=table.tournament_id, user=user, round=table.round, table=table.table,
                                   report_id=report.pk, entrant_id=str(member.entrant_id), seq=seq)
    return report


def report_file_latest(*, tournament_id, round_no, table_no, user, text) -> MatchReport:
    """A player reports their table's match from the tournament page, pinned to the latest point of its
    log (the match's head seq when the report is filed)."""
    try:
        table = TournamentTable.objects.select_related("match").get(tournament_id=tournament_id, round=int(round_no),
                                                                     table=int(table_no))
    except (TournamentTable.DoesNotExist, ValidationError, ValueError, TypeError):
        raise TournamentServiceError("not_found", "no such table") from None
    if table.match is None:
        raise TournamentServiceError("no_match", "this table has no match to report", 409)
    return report_file(match_id=table.match_id, user=user, seq=table.match.head_seq, text=text)


STATUS_OF_DECISION = {ReportResolution.UPHOLD: "upheld", ReportResolution.OVERRIDE: "overridden"}


def reports_for_match(match_id) -> list[dict]:
    """The players' reports on one match, oldest first, for the staff log review to pin at their seq:
    ``[{id, seq, text, reporter, created_at, round, table, status, resolution}]``."""
    rows = (MatchReport.objects.filter(match_id=match_id).select_related("reporter", "resolution__judge")
            .order_by("created_at", "id"))
    out = []
    for report in rows:
        resolution = getattr(report, "resolution", None)
        out.append({"id": report.pk, "seq": report.seq, "text": report.text, "reporter": report.reporter.get_username(),
                    "created_at": report.created_at, "round": report.round, "table": report.table,
                    "status": "open" if resolution is None else STATUS_OF_DECISION[resolution.decision],
                    "resolution": resolution})
    return out


def reports_open():
    """Reports no judge has resolved yet, oldest first."""
    return (MatchReport.objects.filter(resolution__isnull=True)
            .select_related("tournament", "reporter").order_by("created_at", "id"))


def judge_roles(reports) -> dict[int, str]:
    """{report id: the role its judge ruled in (``staff`` / ``organizer``)} for the resolved reports
    among ``reports``, read from the decisions' log records (a decision recorded before organizers
    judged has none: it was staff's)."""
    resolved = [r for r in reports if getattr(r, "resolution", None) is not None]
    if not resolved:
        return {}
    wanted = {(r.tournament_id, r.resolution.record_seq): r.pk for r in resolved}
    rows = TournamentRecord.objects.filter(tournament_id__in={t for t, _ in wanted},
                                           seq__in={seq for _, seq in wanted},
                                           kind__in=("adjudicated", "overridden"))
    roles = {wanted[(t, seq)]: payload.get("role") or "staff"
             for t, seq, payload in rows.values_list("tournament_id", "seq", "payload") if (t, seq) in wanted}
    return {r.pk: roles.get(r.pk, "staff") for r in resolved}


def report_as_dict(report: MatchReport, roles: dict | None = None) -> dict:
    """The API's report; ``roles``: ``judge_roles`` of a batch (read for this report alone otherwise)."""
    resolution = getattr(report, "resolution", None)
    if resolution is not None and roles is None:
        roles = judge_roles([report])
    return {
        "id": report.pk, "tournament_id": str(report.tournament_id), "match_id": str(report.match_id),
        "round": report.round, "table": report.table, "seq": report.seq, "text": report.text,
        "reporter": report.reporter.get_username(), "created_at": report.created_at.isoformat(),
        "resolution": None if resolution is None else {
            "decision": resolution.decision, "reason": resolution.reason, "places": resolution.places,
            "judge": resolution.judge.get_username(), "record_seq": resolution.record_seq,
            "role": roles.get(report.pk, "staff"), "at": resolution.at.isoformat(),
        },
    }


def report_resolve(*, report_id, user, decision: str, reason: str = "", places: dict | None = None,
                   tournament_id=None) -> ReportResolution:
    """A judge upholds the result (``uphold``) or replaces it (``override``: ``places`` and a written
    ``reason``), once per report; both are recorded in the tournament log, with who ruled, in what
    role, when and why. Judges: staff, and the tournament's organizer unless they play in it
    (``services.judge_role``: ``not_judge``, ``conflict_of_interest``). ``tournament_id``, if given:
    the report must be one of that tournament's (``not_found`` otherwise)."""
    if not (user and user.is_authenticated and user.is_active):
        raise TournamentServiceError("not_judge", "only staff or the tournament's organizer judge reports")
    if decision not in (ReportResolution.UPHOLD, ReportResolution.OVERRIDE):
        raise TournamentServiceError("invalid_decision", "decision is uphold or override", 422)
    if not isinstance(reason, str) or len(reason) > MAX_TEXT:
        raise TournamentServiceError("invalid_reason", f"reason is text of at most {MAX_TEXT} characters", 422)
    with transaction.atomic():
        try:
            report = MatchReport.objects.select_for_update().get(pk=int(report_id))
        except (MatchReport.DoesNotExist, ValueError, TypeError):
            raise TournamentServiceError("not_found", "no such report") from None
        if tournament_id is not None and str(report.tournament_id) != str(tournament_id):
            raise TournamentServiceError("not_found", "no such report in this tournament")
        services.judge_role(user, report.tournament)  # refused before anything else is said about the report
        if ReportResolution.objects.filter(report=report).exists():
            raise TournamentServiceError("already_resolved", "this report has been resolved", 409)
        if decision == ReportResolution.UPHOLD:
            services.tournament_uphold(tournament_id=report.tournament_id, user=user, round=report.round,
                                       table=report.table, reason=reason, report_id=report.pk)
        else:
            if not isinstance(places, dict):
                raise TournamentServiceError("invalid_result", "an override gives each entrant of the table a place")
            services.tournament_override(tournament_id=report.tournament_id, user=user, round=report.round,
                                         table=report.table, places=_places(places), reason=reason,
                                         report_id=report.pk)
        record_seq = Tournament.objects.get(pk=report.tournament_id).head_seq
        try:
            with transaction.atomic():
                return ReportResolution.objects.create(report=report, decision=decision, reason=reason.strip(),
                                                       places=_places(places) if places else None, judge=user,
                                                       record_seq=record_seq)
        except IntegrityError as err:
            raise TournamentServiceError("already_resolved", "this report has been resolved", 409) from err


def _places(places: dict) -> dict:
    out = {}
    for entrant, place in places.items():
        if not isinstance(place, int) or isinstance(place, bool):
            raise TournamentServiceError("invalid_result", "places are integers (1 = first)")
        out[str(entrant)] = place
    return out


def entrant_names(tournament_ids) -> dict[str, str]:
    """{entrant id: the name the pages show} for the entrants of these tournaments."""
    entered = [{"entrant_id": str(pk), "name": name}
               for pk, name in Entrant.objects.filter(tournament_id__in=tournament_ids).values_list("pk", "name")]
    return {row["entrant_id"]: row["name"] for row in names_shown(entered, members_of(tournament_ids))}


def judge_queue(tournament: Tournament | None = None) -> list[dict]:
    """The open reports as the staff queue shows them (or, for ``tournament``, its own, as its
    organizer's page does): each with its table's entrants (id, name) and the result now standing
    (places), so a judge can uphold or override it in place."""
    rows = list(reports_open() if tournament is None else reports_open().filter(tournament=tournament))
    names = entrant_names({r.tournament_id for r in rows})
    tables = {(t.tournament_id, t.round, t.table): t for t in TournamentTable.objects.filter(
        tournament_id__in={r.tournament_id for r in rows})}
    out, states = [], {}
    for report in rows:
        table = tables.get((report.tournament_id, report.round, report.table))
        entrant_ids = list(table.entrant_ids) if table else []
        if report.tournament_id not in states:  # one fold per tournament, however many reports it has
            states[report.tournament_id] = services.state_of(report.tournament_id)
        state = states[report.tournament_id]
        standing = state.rounds[report.round - 1].results.get(report.table) if report.round <= len(state.rounds) else None
        out.append({
            "report": report, "tournament": report.tournament,
            # no result yet and its match still being played: nothing to decide until it ends
            "playing": services.match_in_progress(report.tournament, state, report.round, report.table),
            "entrants": [{"id": e, "name": names.get(e, e),
                          "place": standing.places.get(e) if standing else None} for e in entrant_ids],
            "result_by": standing.by if standing else None,
            # an elimination round the bracket has left: only upholding is possible
            "override_blocked": services.bracket_moved_on(state, report.round),
            # a Swiss round of a top-cut event whose cut is seeded: an override leaves the bracket as it is
            "cut_warning": services.CUT_WARNING if services.cut_seeded_after(state, report.round) else None,
        })
    return out


def reports_filed_by(tournament: Tournament, user) -> list[dict]:
    """The reports ``user`` filed in ``tournament``, newest first, as the reporting player reads them:
    ``[{report, status, reason, places, role, at}]`` (``status``: open, upheld or overridden; the
    judge's ``reason``, the one text a judge writes on a ruling, which the log records and the match
    page shows for a correction; ``places``: entrant id -> place, an override only). Staff
    annotations of the match log are never part of it; nor is anyone else's report."""
    if not (user and user.is_authenticated):
        return []
    rows = list(MatchReport.objects.filter(tournament=tournament, reporter=user)
                .select_related("resolution").order_by("-created_at", "-id"))
    roles = judge_roles(rows)
    out = []
    for report in rows:
        resolution = getattr(report, "resolution", None)
        out.append({"report": report,
                    "status": "open" if resolution is None else STATUS_OF_DECISION[resolution.decision],
                    "reason": resolution.reason if resolution else "",
                    "places": (resolution.places or {}) if resolution else {},
                    "role": roles.get(report.pk) if resolution else None,
                    "at": resolution.at if resolution else None})
    return out


def rulings(tournament: Tournament) -> list[dict]:
    """The tournament's resolved reports, newest decision first, as its organizer's page lists them:
    ``[{report, decision, judge, role, at, reason}]`` (who ruled, in what role, when, why)."""
    rows = list(MatchReport.objects.filter(tournament=tournament, resolution__isnull=False)
                .select_related("reporter", "resolution__judge").order_by("-resolution__at", "-id"))
    roles = judge_roles(rows)
    return [{"report": r, "decision": r.resolution.decision, "judge": r.resolution.judge.get_username(),
             "role": roles.get(r.pk, "staff"), "at": r.resolution.at, "reason": r.resolution.reason} for r in rows]
