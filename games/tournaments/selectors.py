"""Read shapes of the tournament API contract (Django reads, pure folds): detail, pairings, standings."""

from __future__ import annotations

from games.tournaments import rounds, standings
from games.tournaments.models import Entrant, EntrantMember, Tournament, TournamentTable
from games.tournaments.records import as_number
from games.tournaments.scoring import table_points, winners
from games.tournaments.services import settings_of, state_of


def tournament_detail(tournament: Tournament) -> dict:
    """``{id, name, game, format, status, round, rounds, entrants: [{entrant_id, user_ids, name}], seed_hash}``
    plus the settings (table_size, teams, top_cut, round_minutes, rated, starts_at)."""
    members: dict[int, list[int]] = {}
    for m in EntrantMember.objects.filter(tournament=tournament).order_by("entrant", "id"):
        members.setdefault(m.entrant_id, []).append(m.user_id)
    entrants = [{"entrant_id": str(e.pk), "user_ids": members.get(e.pk, []), "name": e.name, "status": e.status}
                for e in Entrant.objects.filter(tournament=tournament).exclude(status=Entrant.WITHDRAWN)]
    settings = settings_of(tournament)
    field = len(entrants)
    return {
        "id": str(tournament.pk), "name": tournament.name, "game": tournament.game, "format": tournament.format,
        "status": tournament.status, "round": tournament.round,
        "rounds": rounds.planned_rounds(settings, field) if field >= 2 else tournament.rounds,
        "entrants": entrants, "seed_hash": tournament.seed_hash,
        "table_size": tournament.table_size, "teams": tournament.teams, "top_cut": tournament.top_cut,
        "round_minutes": tournament.round_minutes, "rated": tournament.rated,
        "starts_at": tournament.starts_at.isoformat() if tournament.starts_at else None,
    }


def tournament_pairings(tournament: Tournament, round_no: int | None = None) -> list[dict]:
    """``[{round, table, match_id, entrant_ids, result: null | {points, winners, by}}]``."""
    settings = settings_of(tournament)
    state = state_of(tournament.pk)
    match_of = {(t.round, t.table): t.match_id for t in TournamentTable.objects.filter(tournament=tournament)}
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
            match_id = match_of.get((rnd.round, number))
            out.append({"round": rnd.round, "table": number, "match_id": str(match_id) if match_id else None,
                        "entrant_ids": list(table.entrant_ids), "result": shown})
    return out


def tournament_standings(tournament: Tournament) -> list[dict]:
    """``[{rank, entrant_id, name, points, played, tiebreaks: {name: value}, dropped}]``."""
    return [row.to_dict() for row in standings.compute(settings_of(tournament), state_of(tournament.pk))]
