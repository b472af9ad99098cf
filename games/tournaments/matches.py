"""Create and start the match of every paired table (Django, through the application's one write path).

Exactly one match per table: each table is served in a transaction of its own, under its row's lock,
only while it has no match; its match is created, seated, started and tied to it in that transaction
(``TournamentTable.match`` is one-to-one, and the tie is a conditional update of a match-less row), so
a duplicated task or a worker killed half-way leaves each table with no match or one. One table whose
match cannot be created does not hold up the others (its refusal is raised once they are done, and the
next delivery or beat's backstop tries it again). A bye has no match.

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
from games.tournaments.clock import round_pause_reason
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import EntrantMember, Tournament, TournamentTable


def seating(entrant_ids: list[str], members: dict[str, list], teams: bool) -> list:
    """The users of a table, by seat."""
    if teams:
        first, second = (members[e] for e in entrant_ids)
        return [first[0], second[0], first[1], second[1]]
    return [members[e][0] for e in entrant_ids]


def tournament_create_matches(*, tournament_id, round_no: int) -> list:
    """Create the missing matches of round ``round_no``, one table per transaction; returns the matches
    created by this call."""
    tournament = Tournament.objects.select_related("created_by").filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentServiceError("not_found", "no such tournament")
    if tournament.created_by is None:
        raise TournamentServiceError("no_organizer", "the tournament has no organizer to create its matches")
    missing = [pk for pk, entrants in TournamentTable.objects.filter(
        tournament=tournament, round=round_no, match__isnull=True).order_by("table").values_list("pk", "entrant_ids")
        if len(entrants) >= 2]  # a bye has no match
    if not missing:
        return []
    members: dict[str, list] = {}
    for m in (EntrantMember.objects.filter(tournament=tournament).select_related("user").order_by("entrant", "id")):
        members.setdefault(str(m.entrant_id), []).append(m.user)
    created, refused = [], []
    for pk in missing:
        try:
            match = tournament_create_table_match(tournament=tournament, table_pk=pk, members=members)
        except TournamentServiceError as err:
            refused.append(err)
            continue
        if match is not None:
            created.append(match)
    if refused:
        raise TournamentServiceError("match_creation_failed", "; ".join(e.message for e in refused), 409)
    return created


class _Lost(Exception):
    """Another delivery tied its match to the table first: this one's match is rolled back."""


def tournament_create_table_match(*, tournament: Tournament, table_pk: int, members: dict):
    """Create, seat and start one table's match and tie it to the table, in one transaction: None if
    the table already has its match (another delivery created it, before or meanwhile)."""
    try:
        return _create_table_match(tournament, table_pk, members)
    except _Lost:
        return None


PAUSED_AT_THE_START = app.Actor("worker", extra={"task": "tournament", "purpose": "tournament_pause"})


def _create_table_match(tournament: Tournament, table_pk: int, members: dict):
    with transaction.atomic():
        table = TournamentTable.objects.select_for_update().filter(pk=table_pk).first()
        if table is None or table.match_id is not None:
            return None
        users = seating(table.entrant_ids, members, tournament.teams)
        options = dict(tournament.match_options)
        if "teams" in options:
            options["teams"] = tournament.teams
        organizer = tournament.created_by
        try:
            match = app.match_create(game=tournament.game, seats=len(users), options=options, creator=organizer,
                                     join=False, rated=tournament.rated)
            for seat, user in enumerate(users):
                app.match_join(match_id=match.pk, user=user, seat=seat)
            app.match_start(match_id=match.pk, user=organizer)
            reason = round_pause_reason(tournament, table.round)
            if reason is not None:  # paused before this match existed: it starts held, for the organizer's reason
                app.match_hold_clock(match_id=match.pk, actor=PAUSED_AT_THE_START, reason=reason)
        except (PlatformError, RuleViolation) as err:
            raise TournamentServiceError("match_creation_failed",
                                         f"round {table.round} table {table.table}: {err}", 409) from err
        if not TournamentTable.objects.filter(pk=table.pk, match__isnull=True).update(match=match):
            raise _Lost()  # (where row locks are not real, as on SQLite) the unique tie decides
        live.publish_on_commit(tournament.pk)  # the pairings now show this match
        return match
