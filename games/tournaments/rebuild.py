"""Rebuild a tournament's projections from its record log and compare them with what is stored.

The log (``TournamentRecord``) is the truth; ``Tournament.status``/``round`` (and the spectator delay
an organizer changed: its last ``spectator_delay_set``; each pre-start setting an organizer changed or
the start sweep cleared: its last ``settings_changed``; ``cancelled``), ``Entrant.status``, the
``TournamentTable`` rows and the stored standings (``StandingsView``) are derived from it.
``expected(...)`` derives them with the pure fold (pure function of the records);
``check(tournament_id)`` reads the database and lists every difference; ``fix=True`` rewrites what
differs (tables are only added or re-pointed, never dropped: a table row may hold its match). The
append-only report rows (``MatchReport``, ``ReportResolution``) are compared with the log's
``reported`` records and the decisions naming them; those differences are listed, never "fixed" (both
sides are append-only). ``check_all`` is the checker ``manage.py rebuild_projections`` runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_datetime

from games.projections.rebuild import Difference as ProjectionDifference

from games.tournaments import rounds
from games.tournaments.models import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    Entrant,
    MatchReport,
    StandingsView,
    Tournament,
    TournamentTable,
)
from games.tournaments.records import Registered, Settings, Withdrawn
from games.tournaments.selectors import standings_at
from games.tournaments.services import load_records, settings_of
from games.tournaments.state import OPEN, fold


@dataclass(frozen=True)
class Difference:
    what: str
    stored: Any
    rebuilt: Any

    def line(self) -> str:
        return f"{self.what}: stored {self.stored!r}, rebuilt {self.rebuilt!r}"


def expected(settings: Settings, records: list) -> dict:
    """Status, round, entrant statuses and tables as the log says they are."""
    state = fold(records)
    if state.cancelled:
        status = CANCELLED
    elif not state.started:
        status = REGISTERING
    elif state.round_complete() and not state.round_paused and rounds.next_pairing(settings, state) is None:
        status = FINISHED
    else:
        status = RUNNING
    entrants = {}
    for record in records:
        if isinstance(record, Registered):
            entrants[record.entrant_id] = Entrant.REGISTERED
        elif isinstance(record, Withdrawn):
            entrants[record.entrant_id] = Entrant.WITHDRAWN
    for entrant in state.dropped:
        entrants[entrant] = Entrant.DROPPED
    tables = {(r.round, n): list(t.entrant_ids) for r in state.rounds for n, t in r.tables.items()}
    reports = {r.report_id: r.status for r in state.reports()}
    return {"status": status, "round": state.current_round, "entrants": entrants, "tables": tables,
            "reports": reports, "spectator_delay": state.spectator_delay, "settings": dict(state.settings)}


def check(tournament_id, *, fix: bool = False) -> list[Difference]:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        want = expected(settings_of(tournament), load_records(tournament.pk))
        diffs = []
        for name in ("status", "round"):
            if getattr(tournament, name) != want[name]:
                diffs.append(Difference(f"tournament.{name}", getattr(tournament, name), want[name]))
                if fix:
                    setattr(tournament, name, want[name])
        delay = (tournament.spectator_delay_seconds, tournament.spectator_delay_turns)
        if want["spectator_delay"] is not None and delay != want["spectator_delay"]:  # None: as created
            diffs.append(Difference("tournament.spectator_delay", delay, want["spectator_delay"]))
            if fix:
                tournament.spectator_delay_seconds, tournament.spectator_delay_turns = want["spectator_delay"]
        changed = []
        for name, logged in sorted(want["settings"].items()):  # only what an organizer changed: else as created
            value = parse_datetime(logged) if name == "starts_at" and logged is not None else logged
            if getattr(tournament, name) != value:
                diffs.append(Difference(f"tournament.{name}", getattr(tournament, name), value))
                if fix:
                    setattr(tournament, name, value)
                    changed.append(name)
        if fix:
            tournament.save(update_fields=["status", "round", "spectator_delay_seconds", "spectator_delay_turns",
                                           *changed])
        stored = {str(e.pk): e for e in Entrant.objects.filter(tournament=tournament)}
        for entrant_id in sorted(set(stored) | set(want["entrants"]), key=lambda e: (len(e), e)):
            have = stored[entrant_id].status if entrant_id in stored else None
            if have != want["entrants"].get(entrant_id):
                diffs.append(Difference(f"entrant {entrant_id}.status", have, want["entrants"].get(entrant_id)))
                if fix and entrant_id in stored and entrant_id in want["entrants"]:
                    Entrant.objects.filter(pk=stored[entrant_id].pk).update(status=want["entrants"][entrant_id])
        rows = {(t.round, t.table): t for t in TournamentTable.objects.filter(tournament=tournament)}
        for key in sorted(set(rows) | set(want["tables"])):
            have = rows[key].entrant_ids if key in rows else None
            if have != want["tables"].get(key):
                diffs.append(Difference(f"round {key[0]} table {key[1]}", have, want["tables"].get(key)))
                if fix and key in want["tables"]:
                    TournamentTable.objects.update_or_create(tournament=tournament, round=key[0], table=key[1],
                                                             defaults={"entrant_ids": want["tables"][key]})
        diffs += _report_differences(tournament, want["reports"])
        diffs += _standings_differences(tournament, fix)
        return diffs


def _report_differences(tournament: Tournament, logged: dict) -> list[Difference]:
    """Each report row against the log: recorded, and open or resolved as its resolution row says."""
    rows = {r.pk: r for r in MatchReport.objects.filter(tournament=tournament).select_related("resolution")}
    diffs = []
    for report_id in sorted(set(rows) | set(logged)):
        row = rows.get(report_id)
        resolution = getattr(row, "resolution", None) if row else None
        have = None if row is None else (OPEN if resolution is None else
                                         {"uphold": "upheld", "override": "overridden"}[resolution.decision])
        if have != logged.get(report_id):
            diffs.append(Difference(f"report {report_id}.status", have, logged.get(report_id)))
    return diffs


def _standings_differences(tournament: Tournament, fix: bool) -> list[Difference]:
    """The stored standings against a fold from scratch at the same seq (a stored view behind the head
    is only stale, which the next read refreshes; one that differs at its own seq is wrong)."""
    view = StandingsView.objects.filter(tournament=tournament).first()
    if view is None:
        return []
    rebuilt = standings_at(tournament, view.seq)
    if view.rows == rebuilt:
        return []
    if fix:
        StandingsView.objects.filter(pk=view.pk).update(rows=rebuilt)
    return [Difference(f"standings at seq {view.seq}", view.rows, rebuilt)]


def check_all(fix: bool):
    """``manage.py rebuild_projections``'s checker: every tournament, as ``(differences, fixed)``."""
    diffs, fixed = [], 0
    for pk in Tournament.objects.order_by("created_at", "pk").values_list("pk", flat=True):
        found = check(pk, fix=fix)
        diffs += [ProjectionDifference(str(pk), "tournament", d.what, d.stored, d.rebuilt,
                                       fixable=not d.what.startswith("report ")) for d in found]
        fixed += sum(1 for d in found if not d.what.startswith("report ")) if fix else 0
    return diffs, fixed
