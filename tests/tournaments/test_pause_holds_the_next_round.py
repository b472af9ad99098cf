"""A paused tournament does not move on (docs/tournaments.md, "The round clock"): when the last match of
a paused round ends, the next round is not paired (nor the tournament finished) by the match's
reaction, the beat's sweep or a redelivery; the organizer's resume pairs it, and its matches start
with their clocks running. The pages and the live detail say the next round waits for the resume."""

import pytest
from django.test import Client

from games.application import selectors as match_selectors
from games.projections.models import MatchDeadline
from games.tournaments import rebuild, selectors, services
from games.tournaments.models import FINISHED, RUNNING, Tournament, TournamentRecord, TournamentTable
from games.tournaments.policies import tournament_advance, tournament_match_finished, tournament_start_and_play
from games.tournaments.records import ClockPaused, ClockResumed, Paired, Registered, Result, Started, Table
from games.tournaments.records import TournamentError
from games.tournaments.state import fold
from workers import tasks

from .play import end_by_time_limit, round_matches, yokai_cup

pytestmark = pytest.mark.django_db


def _running(make_user, *, players=4, rounds=2):
    organizer, t, users = yokai_cup(make_user, players=players, rounds=rounds)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    return organizer, t, users


def _end_round(t, round_no):
    for match_id in round_matches(t.pk, round_no):
        end_by_time_limit(match_id)
        tournament_match_finished(match_id=match_id)  # the test database never commits: react by hand


def _paired_rounds(t):
    return sorted(TournamentRecord.objects.filter(tournament=t, kind="paired").values_list("round", flat=True))


def test_the_next_round_waits_for_the_resume_when_a_paused_round_ends(make_user, client_for):
    # given round 1 of a 2-round Swiss, paused by its organizer
    organizer, t, _users = _running(make_user)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="a fire drill")
    # when every match of round 1 ends during the pause, and the beat's sweep runs too
    _end_round(t, 1)
    tasks.sweep_tournaments()
    tournament_advance(tournament_id=t.pk)
    # then round 2 is not paired: the detail says it waits for the resume
    assert _paired_rounds(t) == [1]
    detail = client_for(organizer).get(f"/api/tournaments/{t.pk}/").json()
    assert detail["round"] == 1 and detail["status"] == RUNNING
    assert detail["clock"]["paused"] is True and detail["clock"]["next_round_waits"] is True
    assert rebuild.check(t.pk) == []
    # when the organizer resumes
    r = client_for(organizer).post(f"/api/tournaments/{t.pk}/resume/")
    # then round 2 is paired at once, its matches are created and their clocks run
    assert r.status_code == 200, r.json()
    assert r.json()["round"] == 2 and r.json()["clock"]["paused"] is False
    assert r.json()["clock"]["next_round_waits"] is False
    assert _paired_rounds(t) == [1, 2]
    matches = [table.match for table in TournamentTable.objects.filter(tournament=t, round=2)]
    assert len(matches) == 2 and all(m is not None for m in matches)
    assert MatchDeadline.objects.filter(match__in=matches).count() == 2
    for match in matches:
        assert match_selectors.view_for_seat(match, 0)["match"]["clock_held"] is False


def test_a_paused_last_round_does_not_finish_the_tournament_until_the_resume(make_user, client_for):
    # given the only round of an event, paused
    organizer, t, _users = _running(make_user, players=2, rounds=1)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer)
    # when its match ends
    _end_round(t, 1)
    # then the tournament is still running (the organizer may still judge before the standings are final)
    assert Tournament.objects.get(pk=t.pk).status == RUNNING
    assert rebuild.check(t.pk) == []
    # and the resume ends it
    assert client_for(organizer).post(f"/api/tournaments/{t.pk}/resume/").json()["status"] == FINISHED
    assert rebuild.check(t.pk) == []


def test_a_round_paused_but_not_over_still_resumes_as_before(make_user, client_for):
    # given a paused round whose matches are still being played
    organizer, t, _users = _running(make_user)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer)
    assert selectors.tournament_detail(Tournament.objects.get(pk=t.pk))["clock"]["next_round_waits"] is False
    # when the organizer resumes, nothing is paired: the round plays on
    r = client_for(organizer).post(f"/api/tournaments/{t.pk}/resume/")
    assert r.status_code == 200 and r.json()["round"] == 1 and _paired_rounds(t) == [1]
    # and a second resume is refused with its code
    again = client_for(organizer).post(f"/api/tournaments/{t.pk}/resume/")
    assert (again.status_code, again.json()["code"]) == (409, "not_paused")


def test_the_fold_resumes_a_round_that_ended_while_paused_and_refuses_pausing_one_that_is_over():
    # given a round paused, then over
    log = [Registered("a", "A"), Registered("b", "B"), Started(("a", "b")),
           Paired(1, "swiss", (Table(1, ("a", "b")),)), ClockPaused(1, "lunch"), Result(1, 1, {"a": 1, "b": 2})]
    state = fold(log)
    assert state.round_complete() and state.round_paused
    # then it can be resumed, and then it is no longer paused
    state = fold(log + [ClockResumed(1)])
    assert not state.round_paused
    # but a round that is over and running cannot be paused or resumed
    for record in (ClockPaused(1), ClockResumed(1)):
        with pytest.raises(TournamentError) as err:
            fold(log + [ClockResumed(1), record])
        assert err.value.code == "round_over"


def test_the_pages_say_the_next_round_waits_for_the_organizer(make_user):
    # given round 1 over during a pause
    organizer, t, users = _running(make_user)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="lunch break")
    _end_round(t, 1)
    as_player, as_organizer = Client(), Client()
    as_player.force_login(users[0])
    as_organizer.force_login(organizer)
    # then a player reads that round 2 waits for the organizer to resume
    live = as_player.get(f"/tournaments/{t.pk}/?fragment=live").content.decode()
    assert 'data-testid="next-round-waits"' in live
    assert "round 2 waits for the organizer to resume the tournament" in live and "lunch break" in live
    assert "is paired automatically" not in live
    # and the organizer is offered to resume and pair round 2
    entry = as_organizer.get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert "Resume and pair round 2" in entry
    # when the organizer resumes from the page
    page = as_organizer.post(f"/tournaments/{t.pk}/resume/", follow=True).content.decode()
    # then round 2 is paired and the page says so
    assert "round 2 is paired and its matches start" in page
    assert _paired_rounds(t) == [1, 2] and len(round_matches(t.pk, 2)) == 2


def test_while_a_round_is_paused_the_page_says_the_next_round_will_wait(make_user):
    organizer, t, users = _running(make_user)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer)
    as_player = Client()
    as_player.force_login(users[0])
    live = as_player.get(f"/tournaments/{t.pk}/?fragment=live").content.decode()
    assert "round 2 is not paired, even once every match of round 1 has ended" in live
