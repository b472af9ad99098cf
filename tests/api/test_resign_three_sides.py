"""Resigning from a game of three sides or more (docs/platform.md, "Resigning"): the player leaves,
the others play on, and the last side left wins; two sides still end at once."""

import uuid

import pytest

from games.application import seedcheck, selectors, services
from games.application.verify import SAME, match_check
from games.eventstore.models import MatchEvent
from games.kernel import SYSTEM, Rng
from games.projections import rebuild
from games.projections.models import MatchDeadline

pytestmark = pytest.mark.django_db


def started(make_user, game, seats, options=None):
    users = [make_user() for _ in range(seats)]
    match = services.match_create(game=game, seats=seats, options=options or {}, creator=users[0])
    for seat, user in enumerate(users[1:], start=1):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    return match, users


def state_of(match):
    match.refresh_from_db()
    return selectors.state_load(match)


def advance(match, users, until, limit=400):
    """Play the awaited seats with the engine's bot (SYSTEM steps by the engine) until ``until(game state)``."""
    engine = selectors.engine_of(match)
    rng = Rng(b"three-sides", str(match.pk))
    for _ in range(limit):
        state = state_of(match)
        if state["lobby"]["status"] != "active" or until(state["game"]):
            return state
        awaiting = engine.status(state["game"]).awaiting
        if SYSTEM in awaiting:
            seat, command, actor = SYSTEM, engine.system_command(state["game"]), services.Actor.worker("test")
        else:
            seat = awaiting[0]
            command, actor = engine.bot_command(state["game"], seat, rng), services.Actor.user(users[seat])
        services.match_submit_command(match_id=match.pk, seat=seat, actor=actor, command_id=uuid.uuid4(),
                                      expected_seq=match.head_seq, type_=command["type"], args=command.get("args", {}))
    raise AssertionError("the condition was never reached")


def system_steps(match, users):
    engine = selectors.engine_of(match)
    return advance(match, users, lambda game: SYSTEM not in engine.status(game).awaiting)


def test_three_yokai_players_one_resigns_on_their_turn_play_goes_on_then_the_last_one_wins(
        make_user, client_for, django_capture_on_commit_callbacks):
    # given a rated three-player Yokai Battle match with a turn clock, at seat 1's turn
    match, users = started(make_user, "yokai", 3, {"turn_seconds": 300})
    assert match.rated
    advance(match, users, lambda game: game["turn"] == 1 and not game["pending"])
    assert MatchDeadline.objects.get(match=match).seats == [1]
    # when seat 1 resigns
    res = client_for(users[1]).post(f"/api/matches/{match.pk}/resign/")
    # then the match runs on without them: the log names them, their monsters leave the board
    assert res.status_code == 200, res.json()
    assert res.json()["status"] == "active" and res.json()["conceded"] == [1] and res.json()["resigned"] is None
    conceded = MatchEvent.objects.filter(match=match, type="SeatConceded").get()
    assert conceded.payload == {"seat": 1, "username": users[1].username} and conceded.actor["user_id"] == users[1].pk
    texts = [e["text"] for e in selectors.events_for_seat(match, None, after=conceded.seq - 1)]
    assert texts[0] == f"{users[1].username} resigns and leaves the game"
    assert texts[1].startswith(f"{users[1].username} leaves the game")
    state = state_of(match)
    assert state["game"]["out"] == [1] and all(m["owner"] != 1 for m in state["game"]["monsters"].values())
    # and the turn passes to seat 2, whose clock runs (none runs for seat 1)
    assert state["game"]["turn"] == 2 and MatchDeadline.objects.get(match=match).seats == [2]
    view = selectors.view_for_seat(match, 1)
    assert view["match"]["conceded"] == [1] and view["resignable"] is False and view["legal_commands"] == []
    assert selectors.view_for_seat(match, 2)["resignable"] is True
    again = client_for(users[1]).post(f"/api/matches/{match.pk}/resign/")
    assert (again.status_code, again.json()["code"]) == (409, "already_out")
    # seat 2 ends the turn: the round goes round to seat 0, then seat 0 hands on to seat 2, never to 1
    advance(match, users, lambda game: game["turn"] == 0)
    state = advance(match, users, lambda game: game["turn"] != 0)
    assert state["lobby"]["status"] != "active" or state["game"]["turn"] == 2
    # when seat 0 resigns too, seat 2 is the last player in the game and wins
    with django_capture_on_commit_callbacks(execute=True):
        res = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["status"] == "finished" and res.json()["winners"] == [2]
    assert res.json()["conceded"] == [1, 0]
    finished = MatchEvent.objects.get(match=match, type="MatchFinished")
    assert finished.payload["winners"] == [2] and "resigned" not in finished.payload
    assert not MatchDeadline.objects.filter(match=match).exists()
    # and the result counts: the winner won, both players who resigned lost
    results = {u.pk: client_for(u).get(f"/api/users/{u.username}/").json()["recent_matches"][0]["result"] for u in users}
    assert results == {users[0].pk: "lost", users[1].pk: "lost", users[2].pk: "won"}
    # the log folds to the same state, the projections rebuild clean, every command is decided again alike
    match.refresh_from_db()
    assert rebuild.check(match.pk).clean
    assert match_check(match).outcome == SAME
    # and the revealed seed accounts for the resignations too (decided again by the engine's concede)
    doc = seedcheck.seed_check(match)
    assert doc["verdict"] == "verified" and doc["unchecked"] == [], doc["summary"]


def test_two_against_two_still_ends_at_once(make_user, client_for):
    match, users = started(make_user, "yashima", 4, {"teams": True})
    res = client_for(users[1]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["winners"] == [0, 2] and res.json()["resigned"] == 1
    assert not MatchEvent.objects.filter(match=match, type="SeatConceded").exists()
