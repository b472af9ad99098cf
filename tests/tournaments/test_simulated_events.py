"""Whole tournaments through the services and the database, for every format and table shape: matches
are created for every table, finished with random winners through the MatchFinished reaction, an
entrant drops half-way (conceding the match it is playing where it has two sides), and at the end the projections still rebuild from the log with no difference."""

import random

import pytest

from games.tournaments import rebuild, selectors, services
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import Entrant, TournamentTable
from games.tournaments.policies import finish_of, tournament_match_finished

from .helpers import register_team

pytestmark = pytest.mark.django_db

EVENTS = [
    pytest.param(dict(game="yashima", format="swiss", table_size=2, rounds=3), 5, id="swiss-2p"),
    pytest.param(dict(game="yokai", format="swiss", table_size=4, rounds=2), 7, id="swiss-pods4"),
    pytest.param(dict(game="yokai", format="swiss", table_size=3, rounds=2, scoring={"pod_scoring": "shared_win"}), 5,
                 id="swiss-pods3-shared"),
    pytest.param(dict(game="yokai", format="swiss", table_size=4, teams=True, rounds=2), 4, id="swiss-teams"),
    pytest.param(dict(game="yashima", format="round_robin", table_size=2), 4, id="round-robin"),
    pytest.param(dict(game="yashima", format="single_elimination", table_size=2), 6, id="elimination"),
    pytest.param(dict(game="yashima", format="swiss_top_cut", table_size=2, rounds=2, top_cut=4), 6, id="top-cut"),
]


@pytest.mark.parametrize("fields, n", EVENTS)
def test_a_whole_event_runs_through_the_services(make_user, fields, n):
    rng = random.Random(n)
    organizer = make_user(is_staff=True)
    options = {"turn_seconds": 60}  # every game's decision clock is mandatory in a tournament
    t = services.tournament_create(creator=organizer, name="Sim", round_minutes=30, match_options=options, **fields)
    for _ in range(n):
        if fields.get("teams"):
            register_team(t.pk, make_user(), make_user())
        else:
            services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)
    dropped = None
    for _ in range(20):
        t.refresh_from_db()
        if t.status == "finished":
            break
        if t.round == 2 and dropped is None:
            dropped = Entrant.objects.filter(tournament=t).order_by("-id").first()
            services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=dropped.pk)
        for table in TournamentTable.objects.filter(tournament=t, round=t.round, match__isnull=False):
            if finish_of(table.match_id) is not None:
                continue  # the dropped entrant conceded it: its result is in
            seats = table.match.seat_count
            winners = [] if rng.random() < 0.15 else [rng.randrange(seats)]
            if fields.get("teams") and winners:
                winners = [winners[0] % 2, winners[0] % 2 + 2]
            tournament_match_finished(match_id=table.match_id, winners=winners)
    t.refresh_from_db()
    assert t.status == "finished"
    assert rebuild.check(t.pk) == []
    detail = selectors.tournament_detail(t)
    assert detail["round"] == t.round
    rows = selectors.tournament_standings(t)
    assert [r["rank"] for r in rows] == list(range(1, n + 1))
    if dropped is not None:
        assert next(r for r in rows if r["entrant_id"] == str(dropped.pk))["dropped"] is True
        later = [p for p in selectors.tournament_pairings(t) if p["round"] > 2]
        assert all(str(dropped.pk) not in p["entrant_ids"] for p in later)
    assert all(p["result"] is not None for p in selectors.tournament_pairings(t))
