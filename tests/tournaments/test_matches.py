"""Each paired table gets exactly one started match, seated by the pairing (teams: partners across)."""

import pytest

from games.application import selectors
from games.eventstore.models import Match
from games.tournaments import services
from games.tournaments.errors import TournamentServiceError
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import TournamentTable

from .helpers import register_team

pytestmark = pytest.mark.django_db


def _event(make_user, **fields):
    organizer = make_user(is_staff=True)
    base = dict(creator=organizer, name="Cup", round_minutes=30, match_options={"turn_seconds": 120})
    base.update(fields)
    return organizer, services.tournament_create(**base)


def _seats(match):
    match.refresh_from_db()
    lobby = selectors.state_load(match)["lobby"]
    return lobby["status"], [s["user_id"] for s in lobby["seats"]]


def test_every_two_player_table_gets_one_started_match_and_a_repeat_call_creates_none(make_user):
    organizer, t = _event(make_user, game="yashima", format="swiss", table_size=2,
                          match_options={"turn_seconds": 120})
    entrants = [services.tournament_register(tournament_id=t.pk, user=make_user()) for _ in range(5)]
    services.tournament_start(tournament_id=t.pk, user=organizer)
    created = tournament_create_matches(tournament_id=t.pk, round_no=1)
    assert len(created) == 2
    assert tournament_create_matches(tournament_id=t.pk, round_no=1) == []
    user_of = {str(e.pk): e.members.get().user_id for e in entrants}
    for table in TournamentTable.objects.filter(tournament=t, round=1):
        if len(table.entrant_ids) == 1:
            assert table.match is None  # the bye
            continue
        status, seats = _seats(table.match)
        assert status == "active"
        assert seats == [user_of[e] for e in table.entrant_ids]
        assert table.match.options["turn_seconds"] == 120 and table.match.seat_count == 2
        assert table.match.rated  # tournament matches are rated by default


def test_an_unrated_tournament_creates_unrated_matches(make_user):
    organizer, t = _event(make_user, game="yokai", format="swiss", table_size=2, rated=False)
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    (match,) = tournament_create_matches(tournament_id=t.pk, round_no=1)
    match.refresh_from_db()
    assert match.rated is False


def test_team_partners_sit_across_and_pods_seat_one_entrant_a_seat(make_user):
    organizer, t = _event(make_user, game="yokai", format="swiss", table_size=4, teams=True)
    teams = [register_team(t.pk, make_user(), make_user()) for _ in range(2)]
    services.tournament_start(tournament_id=t.pk, user=organizer)
    (match,) = tournament_create_matches(tournament_id=t.pk, round_no=1)
    table = TournamentTable.objects.get(tournament=t, round=1)
    users = {str(e.pk): [m.user_id for m in e.members.order_by("id")] for e in teams}
    first, second = (users[e] for e in table.entrant_ids)
    assert _seats(match) == ("active", [first[0], second[0], first[1], second[1]])
    assert match.options == {"teams": True, "turn_seconds": 120} and match.seat_count == 4

    organizer, pods = _event(make_user, game="yokai", format="swiss", table_size=4)
    for _ in range(6):
        services.tournament_register(tournament_id=pods.pk, user=make_user())
    services.tournament_start(tournament_id=pods.pk, user=organizer)
    matches = tournament_create_matches(tournament_id=pods.pk, round_no=1)
    assert sorted(m.seat_count for m in matches) == [3, 3]  # 6 in a 4-player event: two tables of 3


def test_one_table_whose_match_cannot_be_created_does_not_hold_up_the_others(make_user, monkeypatch):
    """Each table's match is created in a transaction of its own: a refused one is rolled back alone
    (the error is raised once the others are done) and the next delivery creates just that one."""
    from games.application import services as app
    from games.application.errors import PlatformError

    organizer, t = _event(make_user, game="yokai", format="swiss", table_size=2)
    for _ in range(6):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    real, calls = app.match_start, []

    def flaky(**kwargs):
        calls.append(kwargs["match_id"])
        if len(calls) == 2:
            raise PlatformError("the match server is busy")
        return real(**kwargs)

    monkeypatch.setattr(app, "match_start", flaky)
    with pytest.raises(TournamentServiceError) as refused:
        tournament_create_matches(tournament_id=t.pk, round_no=1)
    assert refused.value.code == "match_creation_failed" and "table 2" in refused.value.message
    tables = {tt.table: tt.match_id for tt in TournamentTable.objects.filter(tournament=t, round=1)}
    assert tables[1] is not None and tables[2] is None and tables[3] is not None
    assert not Match.objects.filter(pk=calls[1]).exists()  # the refused table's match was rolled back with it
    (again,) = tournament_create_matches(tournament_id=t.pk, round_no=1)
    assert TournamentTable.objects.get(tournament=t, round=1, table=2).match_id == again.pk
