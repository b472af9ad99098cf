"""Create and start the match of every paired table (Django, through the application's one write path).

Exactly one match per table: the table rows of the round are locked, only tables without a match are
served, and the match is created, seated, started and tied to its table in one transaction, so a
duplicated task or a worker killed half-way leaves either no match or one (``TournamentTable.match`` is
also one-to-one). A bye has no match.

Seats: one entrant per seat in the table's order; in a 2v2 team event the first team takes seats 0 and
2, the second 1 and 3 (the engines' team layout: partners sit across). Every match is created with the
tournament's match options (decision clocks included) and its ``rated`` flag by the organizer, who
starts it.
"""

from __future__ import annotations

from django.db import transaction

from games.application import services as app
from games.application.errors import PlatformError
from games.kernel import RuleViolation
from games.tournaments import live
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import EntrantMember, Tournament, TournamentTable


def seating(entrant_ids: list[str], members: dict[str, list], teams: bool) -> list:
    """The users of a table, by seat."""
    if teams:
        first, second = (members[e] for e in entrant_ids)
        return [first[0], second[0], first[1], second[1]]
    return [members[e][0] for e in entrant_ids]


def tournament_create_matches(*, tournament_id, round_no: int) -> list:
    """Create the missing matches of round ``round_no``; returns the matches created by this call."""
    created = []
    with transaction.atomic():
        try:
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        except Tournament.DoesNotExist:
            raise TournamentServiceError("not_found", "no such tournament") from None
        live.publish_on_commit(tournament.pk)  # the pairings now show their match ids
        organizer = tournament.created_by
        if organizer is None:
            raise TournamentServiceError("no_organizer", "the tournament has no organizer to create its matches")
        tables = list(TournamentTable.objects.select_for_update()
                      .filter(tournament=tournament, round=round_no, match__isnull=True).order_by("table"))
        members: dict[str, list] = {}
        for m in (EntrantMember.objects.filter(tournament=tournament).select_related("user").order_by("entrant", "id")):
            members.setdefault(str(m.entrant_id), []).append(m.user)
        for table in tables:
            if len(table.entrant_ids) < 2:
                continue  # a bye
            users = seating(table.entrant_ids, members, tournament.teams)
            options = dict(tournament.match_options)
            if "teams" in options:
                options["teams"] = tournament.teams
            try:
                match = app.match_create(game=tournament.game, seats=len(users), options=options, creator=organizer,
                                         join=False, rated=tournament.rated)
                for seat, user in enumerate(users):
                    app.match_join(match_id=match.pk, user=user, seat=seat)
                app.match_start(match_id=match.pk, user=organizer)
            except (PlatformError, RuleViolation) as err:
                raise TournamentServiceError("match_creation_failed",
                                             f"round {round_no} table {table.table}: {err}", 409) from err
            table.match = match
            table.save(update_fields=["match"])
            created.append(match)
    return created
