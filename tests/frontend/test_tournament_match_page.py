"""The match page of a tournament table after its match ended: a judge's ruling that replaced the
result is said there too, and the rematch box says when the next round comes while the tournament is
paused (docs/tournaments.md)."""

import re

import pytest

from games.application import rematch
from games.eventstore.models import Match
from games.tournaments import services
from games.tournaments.models import Entrant, TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play

from ..tournaments.play import end_by_time_limit, yokai_cup
from .test_pages import boot_of

pytestmark = pytest.mark.django_db


def _a_cup_whose_first_match_ended(make_user, rounds=1, pause_with=None):
    organizer, t, players = yokai_cup(make_user, players=2, rounds=rounds)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    if pause_with is not None:
        services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason=pause_with)
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)  # the test database never commits: react by hand
    return organizer, t, table, players


def test_a_judges_correction_is_said_on_the_match_page(client, make_user):
    # given a tournament match that ended, whose result a judge then replaced with a written reason
    organizer, t, table, players = _a_cup_whose_first_match_ended(make_user)
    first, second = table.entrant_ids
    services.tournament_override(tournament_id=t.pk, user=organizer, round=1, table=1,
                                 places={first: 1, second: 2}, reason="the clock skipped a turn")
    names = dict(Entrant.objects.filter(tournament=t).values_list("pk", "name"))
    # when a player opens the match page
    client.force_login(players[0])
    page = client.get(f"/matches/{table.match_id}/").content.decode()
    # then the end section says the judge's ruling, the places best first, and the reason
    line = re.search(r'<p id="judge-correction"[^>]*>([^<]*)</p>', page).group(1)
    assert line == (f"A judge corrected this result: {names[int(first)]} first, {names[int(second)]} second "
                    "(“the clock skipped a turn”).")


def test_no_correction_line_without_a_ruling_that_changed_the_result(client, make_user):
    organizer, t, table, players = _a_cup_whose_first_match_ended(make_user)
    services.tournament_uphold(tournament_id=t.pk, user=organizer, round=1, table=1)
    client.force_login(players[0])
    assert 'id="judge-correction"' not in client.get(f"/matches/{table.match_id}/").content.decode()


def test_while_the_round_is_paused_the_rematch_box_says_the_next_round_waits_for_the_organizer(make_user):
    # given a two-round cup whose organizer paused round 1 for a power cut, and its match then ended
    organizer, t, table, players = _a_cup_whose_first_match_ended(make_user, rounds=2, pause_with="power cut")
    # when the players look at the rematch box, then it says the next round waits for the resume
    match = Match.objects.get(pk=table.match_id)
    assert rematch.rematch_status(match)["reason"] == ("The round is paused (power cut): the next round will "
                                                       "be paired when the organizer resumes it.")
    # and once resumed (the next round paired), it says there is no rematch in a tournament
    services.tournament_resume_clock(tournament_id=t.pk, user=organizer)
    assert rematch.rematch_status(match)["reason"] == ("A tournament match has no rematch: the tournament "
                                                       "pairs the next round.")


def test_a_spectator_kept_behind_the_players_gets_the_delay_for_the_pages_badge(client, make_user):
    # given a running tournament match, watched 60 seconds and 1 turn behind the players (the default)
    organizer, t, players = yokai_cup(make_user, players=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    # when a spectator opens its page, then the page knows the delay (its badge says "Delayed 1 minute and 1 turn",
    # not "Live"), worded as the tournament page words it (before: "60 s" there, "1 minute" here)
    client.force_login(make_user())
    page = client.get(f"/matches/{table.match_id}/")
    assert boot_of(page)["spectator_delay"] == {"seconds": 60, "turns": 1, "words": "1 minute and 1 turn"}
    assert "spectators watch it\n1 minute and 1 turn behind the players" in page.content.decode()
    assert "spectators see each match 1 minute and 1 turn behind" in client.get(f"/tournaments/{t.pk}/").content.decode()
    # and a player of the table, who sees it live, gets none
    client.force_login(players[0])
    assert boot_of(client.get(f"/matches/{table.match_id}/"))["spectator_delay"] is None
