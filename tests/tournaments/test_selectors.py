"""The read shapes named in the API contract: tournament detail, pairings per round, standings."""

import pytest

from games.tournaments import selectors, services
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_match_finished

pytestmark = pytest.mark.django_db


def test_detail_pairings_and_standings_follow_the_contract(make_user):
    organizer = make_user(is_staff=True)
    t = services.tournament_create(creator=organizer, name="Cup", game="yashima", format="swiss", table_size=2,
                                   round_minutes=30, match_options={"turn_seconds": 60})
    users = [make_user() for _ in range(3)]
    entrants = [services.tournament_register(tournament_id=t.pk, user=u) for u in users]
    detail = selectors.tournament_detail(t)
    assert {k: detail[k] for k in ("name", "game", "format", "status", "round", "rounds", "seed_hash")} == {
        "name": "Cup", "game": "yashima", "format": "swiss", "status": "registering", "round": 0, "rounds": 2,
        "seed_hash": t.seed_hash}
    assert [e["user_ids"] for e in detail["entrants"]] == [[u.pk] for u in users]
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)
    game = TournamentTable.objects.get(tournament=t, round=1, table=1)
    tournament_match_finished(match_id=game.match_id, winners=[1])
    t.refresh_from_db()
    pairings = selectors.tournament_pairings(t, round_no=1)
    winner = game.entrant_ids[1]
    assert pairings[0] == {"round": 1, "table": 1, "match_id": str(game.match_id), "entrant_ids": game.entrant_ids,
                           "result": {"points": {game.entrant_ids[0]: 0, winner: 3}, "winners": [winner], "by": "play"},
                           "stage": "swiss", "reports": []}
    bye = pairings[1]
    assert bye["match_id"] is None and bye["result"]["by"] == "bye" and len(bye["entrant_ids"]) == 1
    assert selectors.tournament_pairings(t, round_no=2)[0]["round"] == 2  # round 1 complete: round 2 paired
    rows = selectors.tournament_standings(t)
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert set(rows[0]) == {"rank", "entrant_id", "name", "points", "played", "tiebreaks", "dropped",
                           "reports"}
    assert set(rows[0]["tiebreaks"]) == {"buchholz_cut1", "sonneborn_berger", "head_to_head", "seed_draw"}
    assert {r["entrant_id"] for r in rows} == {str(e.pk) for e in entrants}
