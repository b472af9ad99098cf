"""A conceded match says it is finished (docs/platform.md, "Resigning"): the ``phase`` of the match
document, of the match list and of the view's ``status`` is the game's own end word once the match
is over, whether the game was played to its end or the platform ended it (the other side won by a
resignation, or by a tournament drop), never the phase the board was in when it stopped ("combat").

# rules: Yokai Battle, "Winning the game"; Yashima core, "Restoration and Winning the Game" (a
# master out of the game); Harakiri core, "The Characters" (the last player leaving ends the phase)
"""

import pytest

from games.application import selectors
from games.engines.harakiri.engine import ENGINE as HARAKIRI
from games.engines.yashima.engine import ENGINE as YASHIMA
from games.engines.yokai.engine import ENGINE as YOKAI
from games.projections import rebuild
from games.tournaments import services as tournaments
from games.tournaments.models import EntrantMember, TournamentTable
from games.tournaments.policies import tournament_start_and_play

from .test_resign_three_sides import started, system_steps

pytestmark = pytest.mark.django_db


def phases(client, match) -> tuple:
    """The phase as the match document, the match list and the view document say it."""
    detail = client.get(f"/api/matches/{match.pk}/").json()
    listed = next(x for x in client.get(f"/api/matches/?game={match.game}").json()["results"] if x["id"] == str(match.pk))
    view = client.get(f"/api/matches/{match.pk}/view/").json()
    assert detail["status"] == listed["status"] == view["match"]["status"] == "finished"
    return detail["phase"], listed["phase"], view["status"]["phase"]


@pytest.mark.parametrize("game, end_word", [("yokai", "finished"), ("yashima", "over")])
def test_a_resignation_of_two_sides_leaves_a_finished_phase_everywhere(make_user, client_for, game, end_word):
    # given a running two-player match, still in its first phase
    match, users = started(make_user, game, 2)
    assert selectors.status_of(match, selectors.state_load(match))["phase"] not in ("finished", "over")
    # when seat 1 resigns, the other side wins at once
    res = client_for(users[1]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["winners"] == [0], res.json()
    # then every document says the game's end word (before: the phase it stopped in, "combat"/"setup")
    assert res.json()["phase"] == end_word
    for user in users:
        assert phases(client_for(user), match) == (end_word, end_word, end_word)
    # and a spectator and the rebuilt projection agree
    match.refresh_from_db()
    assert selectors.view_for_seat(match, None)["status"]["phase"] == end_word
    assert rebuild.check(match.pk).clean


def test_a_harakiri_party_that_all_resigned_says_ended(make_user, client_for):
    match, users = started(make_user, "harakiri", 2)
    system_steps(match, users)
    for user in users:
        assert client_for(user).post(f"/api/matches/{match.pk}/resign/").status_code == 200
    assert phases(client_for(users[0]), match) == ("ended", "ended", "ended")


def test_each_engine_names_its_end_word_as_its_status_says_of_a_game_played_to_its_end():
    assert (YOKAI.finished_phase({}), YASHIMA.finished_phase({})) == ("finished", "over")
    yashima = {"phase": "over", "result": {"winners": [0]}}
    assert YASHIMA.status(yashima).phase == YASHIMA.finished_phase(yashima)
    assert HARAKIRI.finished_phase({"phase": "ended"}) == "ended"  # the Exploration Phase
    assert HARAKIRI.finished_phase({"flow": {"stage": "finished"}}) == "finished"  # an Adventure Phase


def test_a_tournament_drop_mid_match_leaves_a_finished_phase(make_user, organizer, client_for):
    # given a 1-round Yokai event, its one match running
    t = tournaments.tournament_create(creator=organizer, name="Club night", game="yokai", format="swiss", table_size=2,
                                      rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
    players = [make_user(), make_user()]
    for player in players:
        tournaments.tournament_register(tournament_id=t.pk, user=player)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    entrant = {m.user_id: str(m.entrant_id) for m in EntrantMember.objects.filter(tournament=t)}
    match = TournamentTable.objects.get(tournament=t).match
    # when the organizer drops one player
    res = client_for(organizer).post(f"/api/tournaments/{t.pk}/drop/", {"entrant_id": entrant[players[1].pk]},
                                     format="json")
    assert res.status_code == 200, res.content
    # then the match is finished and says so
    assert phases(client_for(players[0]), match) == ("finished", "finished", "finished")
