"""Fair play for tournament matches: the watch policy the application asks for (games.application.watch).

Every match a tournament created (its ``TournamentTable.match``, set in the transaction that creates
and starts it) is watched under the tournament's settings: spectators see it
``spectator_delay_seconds`` and ``spectator_delay_turns`` turns behind, and every player of the
tournament (each member of any of its entrants) is barred from its live view; the players seated in
the match are not affected, and everything opens once the match ends (both decided by the
application). Registered from ``TournamentsConfig.ready()``: ``games`` never imports this app.
"""

from games.application.watch import WatchPolicy
from games.tournaments.models import EntrantMember, TournamentTable


def tournament_players(tournament_id) -> set:
    """The user ids barred from the live view of the tournament's running matches they are not seated
    in: every member of any of its entrants (withdrawn and dropped ones included)."""
    return set(EntrantMember.objects.filter(tournament_id=tournament_id).values_list("user_id", flat=True))


def watch_policies(match_ids: list) -> dict:
    """{match_id: WatchPolicy} for the tournament matches among ``match_ids``."""
    tables = list(TournamentTable.objects.filter(match_id__in=match_ids).select_related("tournament")
                  .only("match_id", "tournament__id", "tournament__spectator_delay_seconds",
                        "tournament__spectator_delay_turns"))
    if not tables:
        return {}
    players: dict = {}
    for tournament_id, user_id in (EntrantMember.objects.filter(tournament_id__in={t.tournament_id for t in tables})
                                   .values_list("tournament_id", "user_id")):
        players.setdefault(tournament_id, set()).add(user_id)
    return {
        str(t.match_id): WatchPolicy(delay_seconds=t.tournament.spectator_delay_seconds,
                                     delay_turns=t.tournament.spectator_delay_turns,
                                     barred=frozenset(players.get(t.tournament_id, ())))
        for t in tables
    }
