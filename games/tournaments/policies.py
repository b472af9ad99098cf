"""Reactions to match events (Django): a tournament match finished -> its result is counted once, and
when that completes the round the next one is paired and its matches created.

``tournament_match_finished`` is what a ``MatchFinished`` reaction calls (the hook that delivers it
belongs to the application's follow-up machinery); it is idempotent, so a duplicated delivery changes
nothing.
"""

from __future__ import annotations

from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import TournamentTable
from games.tournaments.outcomes import places_from_winners
from games.tournaments.services import Actor, tournament_pair_next_round, tournament_record_result


def tournament_match_finished(*, match_id, winners: list[int], by: str = "play", actor: Actor | None = None) -> dict | None:
    """Record the result of the tournament table played as ``match_id`` (None if it is no tournament
    match), then pair and create the next round if this finished the current one."""
    table = TournamentTable.objects.select_related("tournament").filter(match_id=match_id).first()
    if table is None:
        return None
    actor = actor or Actor("worker", task="tournament_match_finished")
    places = places_from_winners(list(table.entrant_ids), table.tournament.teams, list(winners))
    counted = tournament_record_result(tournament_id=table.tournament_id, round=table.round, table=table.table,
                                       places=places, by=by, actor=actor)
    paired = tournament_pair_next_round(tournament_id=table.tournament_id, actor=actor)
    if paired is not None:
        tournament_create_matches(tournament_id=table.tournament_id, round_no=paired.round)
    return {"round": table.round, "table": table.table, "places": places, "counted": counted,
            "next_round": paired.round if paired is not None else None}
