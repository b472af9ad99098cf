"""What an organizer does to a running round reaches its matches: a dropped entrant concedes the match
it is playing (its opponents win at once instead of waiting out its clock, and the round can end; at a
pod of three or more its seat leaves the game and the match plays on), and a paused round stops the
matches' decision clocks."""

import pytest

from games.application import selectors
from games.application.services import match_resign
from games.eventstore.models import MatchEvent
from games.projections.models import MatchDeadline
from games.tournaments import services
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import Entrant, TournamentTable

pytestmark = pytest.mark.django_db

YOKAI = {"turn_seconds": 120}


def _running_swiss(make_user, organizer, players=4):
    t = services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   round_minutes=30, match_options=YOKAI)
    users = [make_user() for _ in range(players)]
    for user in users:
        services.tournament_register(tournament_id=t.pk, user=user)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)
    return t, users


def _entrant_of(t, user) -> Entrant:
    return Entrant.objects.get(tournament=t, members__user=user, members__active=True)


def _seat_of(match, user):
    match.refresh_from_db()
    return selectors.seat_for_user(match, user)


def test_a_dropped_player_concedes_the_match_they_are_playing(make_user, organizer, django_capture_on_commit_callbacks):
    # given round 1 of a Swiss running, two tables with their matches
    t, users = _running_swiss(make_user, organizer)
    first, second = TournamentTable.objects.filter(tournament=t, round=1).order_by("table")
    dropped = next(u for u in users if _seat_of(first.match, u) is not None)
    seat = _seat_of(first.match, dropped)
    # when the organizer drops a player of the first table
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=_entrant_of(t, dropped).pk)
    # then that match ends with the other player winning, recorded as asked by the organizer
    finished = MatchEvent.objects.get(match=first.match, type="MatchFinished")
    assert finished.payload["resigned"] == seat and finished.payload["winners"] == [1 - seat]
    assert finished.actor["user_id"] == organizer.pk and finished.actor["purpose"] == "tournament_drop"
    # and the table has its result, while the other table plays on
    assert 1 in services.state_of(t.pk).rounds[0].results
    assert not MatchEvent.objects.filter(match=second.match, type="MatchFinished").exists()
    # when a player of the second table withdraws (a drop once started), their match ends too
    leaver = next(u for u in users if _seat_of(second.match, u) is not None)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_withdraw(tournament_id=t.pk, user=leaver)
    finished = MatchEvent.objects.get(match=second.match, type="MatchFinished")
    assert finished.payload["resigned"] == _seat_of(second.match, leaver) and finished.actor["user_id"] == leaver.pk
    # and the round is complete: round 2 is paired without the two who left
    t.refresh_from_db()
    assert t.round == 2
    left = {str(_entrant_of_any(t, u).pk) for u in (dropped, leaver)}
    assert all(not left & set(table.entrant_ids) for table in TournamentTable.objects.filter(tournament=t, round=2))


def _entrant_of_any(t, user) -> Entrant:
    return Entrant.objects.get(tournament=t, members__user=user)


def test_at_a_pod_of_three_the_match_plays_on(make_user, organizer, django_capture_on_commit_callbacks):
    t = services.tournament_create(creator=organizer, name="Pods", game="yokai", format="swiss", table_size=3,
                                   round_minutes=30, match_options=YOKAI)
    users = [make_user() for _ in range(3)]
    for user in users:
        services.tournament_register(tournament_id=t.pk, user=user)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)
    (table,) = TournamentTable.objects.filter(tournament=t, round=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=_entrant_of(t, users[0]).pk)
    assert not MatchEvent.objects.filter(match=table.match, type="MatchFinished").exists()
    assert _entrant_of_any(t, users[0]).status == Entrant.DROPPED
    # the dropped player's seat resigned and left the game (docs/platform.md, "Resigning"), asked by the organizer
    dropped_seat = _seat_of(table.match, users[0])
    conceded = MatchEvent.objects.get(match=table.match, type="SeatConceded")
    assert conceded.payload["seat"] == dropped_seat and conceded.actor["purpose"] == "tournament_drop"
    # when a second player resigns, the last one wins the table: both who resigned lose, sharing the last places
    second = next(u for u in users[1:] if _seat_of(table.match, u) is not None)
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(match_id=table.match_id, user=second)
    (winner,) = [u for u in users[1:] if u != second]
    assert MatchEvent.objects.get(match=table.match, type="MatchFinished").payload["winners"] == [_seat_of(table.match, winner)]
    places = services.state_of(t.pk).rounds[0].results[1].places
    assert places == {str(_entrant_of_any(t, winner).pk): 1, str(_entrant_of_any(t, users[0]).pk): 2,
                      str(_entrant_of_any(t, second).pk): 2}


# docs/tournaments.md, "The round clock": a pause stops the players' decision clocks too
def test_pausing_the_round_stops_the_matches_clocks_and_resuming_gives_them_back(make_user, organizer):
    t, users = _running_swiss(make_user, organizer)
    matches = [table.match for table in TournamentTable.objects.filter(tournament=t, round=1)]
    assert all(MatchDeadline.objects.filter(match=m).exists() for m in matches)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="lunch")
    assert not MatchDeadline.objects.filter(match__in=matches).exists()
    for m in matches:
        m.refresh_from_db()
        assert selectors.view_for_seat(m, 0)["match"]["clock_held"] is True
    services.tournament_resume_clock(tournament_id=t.pk, user=organizer)
    assert MatchDeadline.objects.filter(match__in=matches).count() == len(matches)
    held = MatchEvent.objects.filter(match__in=matches, type="ClockHeld")
    assert held.count() == len(matches) and all(e.actor["purpose"] == "tournament_pause" for e in held)


def test_a_match_created_while_the_round_is_paused_starts_with_its_clock_held(make_user, organizer):
    # given a round paired and paused before its matches exist
    t = services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   round_minutes=30, match_options=YOKAI)
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="lunch")
    # when the worker creates the match
    (match,) = tournament_create_matches(tournament_id=t.pk, round_no=1)
    # then no clock runs until the organizer resumes
    assert not MatchDeadline.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert selectors.view_for_seat(match, 0)["match"]["clock_held"] is True
    # and its players are told the organizer's reason, as in the matches the pause found running (not
    # "The round is paused by the organizer: the round is paused")
    assert selectors.view_for_seat(match, 0)["match"]["clock_reason"] == "lunch"
    services.tournament_resume_clock(tournament_id=t.pk, user=organizer)
    assert MatchDeadline.objects.filter(match=match).exists()
