"""Rematch: every human seat accepts, then the same game with the same seats and options is created
once, even under concurrent accepts (runs on PostgreSQL too in CI, tests/application)."""

import threading

import pytest
from django.db import connections

from accounts import selfservice
from games.application import rematch, selectors, services
from games.application.errors import SocialRefused
from games.eventstore.models import Match, Rematch, RematchVote

from .social_play import play_to_the_end


def lobby_of(match):
    return selectors.state_load(selectors.match_get(match.pk))["lobby"]


@pytest.mark.django_db
def test_the_last_acceptance_creates_the_same_game_with_the_same_seats(finished_pebbles, api, client_for):
    match, (p0, p1) = finished_pebbles()
    before = Match.objects.count()
    status = rematch.rematch_accept(match_id=match.pk, user=p1)
    assert status == {"available": True, "reason": None, "accepted": [1], "waiting": [0], "match_id": None}
    assert rematch.rematch_accept(match_id=match.pk, user=p1)["waiting"] == [0]  # idempotent
    assert Match.objects.count() == before

    res = client_for(p0).post(f"/api/matches/{match.pk}/rematch/")
    assert res.status_code == 200
    body = res.json()
    assert body["accepted"] == [0, 1] and body["waiting"] == [] and body["match_id"]
    new = Match.objects.get(pk=body["match_id"])
    old, fresh = lobby_of(match), lobby_of(new)
    assert (new.game, new.seat_count, fresh["options"], fresh["rated"]) == (match.game, 2, old["options"], old["rated"])
    assert [(s["user_id"], s["bot"]) for s in fresh["seats"]] == [(p0.pk, False), (p1.pk, False)]
    assert fresh["status"] == "active" and new.seed != match.seed  # started, with its own secret seed
    assert api.get(f"/api/matches/{match.pk}/rematch/").json()["match_id"] == str(new.pk)  # anyone may look
    # Accepting again changes nothing: one rematch, ever.
    assert client_for(p1).post(f"/api/matches/{match.pk}/rematch/").json()["match_id"] == str(new.pk)
    assert Match.objects.count() == before + 1 and Rematch.objects.count() == 1


@pytest.mark.django_db
def test_bots_accept_by_themselves_and_stay_bots(started_pebbles):
    match, users = started_pebbles(seats=3, bots=(2,), options={"bonus_rolls": False, "target": 5})
    play_to_the_end(match, users)
    rematch.rematch_accept(match_id=match.pk, user=users[0])
    status = rematch.rematch_accept(match_id=match.pk, user=users[1])
    assert status["accepted"] == [0, 1, 2] and status["match_id"]
    seats = lobby_of(Match.objects.get(pk=status["match_id"]))["seats"]
    assert [s["bot"] for s in seats] == [False, False, True] and seats[2]["user_id"] is None


@pytest.mark.django_db
def test_refusals_have_stable_codes(started_pebbles, finished_pebbles, make_user, client_for, api, monkeypatch):
    running, (r0, _) = started_pebbles()
    res = client_for(r0).post(f"/api/matches/{running.pk}/rematch/")
    assert (res.status_code, res.json()["code"]) == (409, "match_not_finished")
    assert client_for(r0).get(f"/api/matches/{running.pk}/rematch/").json()["available"] is False

    match, (p0, p1) = finished_pebbles()
    res = client_for(make_user()).post(f"/api/matches/{match.pk}/rematch/")
    assert (res.status_code, res.json()["code"]) == (403, "not_a_player")
    assert api.post(f"/api/matches/{match.pk}/rematch/").status_code == 401
    assert client_for(p0).post("/api/matches/00000000-0000-0000-0000-000000000000/rematch/").status_code == 404

    # A match another app schedules (a tournament table, a campaign chapter) has no rematch.
    monkeypatch.setattr(rematch, "_guards", [lambda match_id: "A tournament pairs its own next round."])
    res = client_for(p0).post(f"/api/matches/{match.pk}/rematch/")
    assert (res.status_code, res.json()["code"]) == (409, "rematch_unavailable")
    assert res.json()["message"] == "A tournament pairs its own next round."
    assert api.get(f"/api/matches/{match.pk}/rematch/").json()["reason"] == "A tournament pairs its own next round."
    monkeypatch.setattr(rematch, "_guards", [])

    # A player whose account is gone cannot accept: no rematch.
    selfservice.account_anonymize(p1)
    with pytest.raises(SocialRefused) as refused:
        rematch.rematch_accept(match_id=match.pk, user=p0)
    assert refused.value.code == "rematch_unavailable"
    assert not RematchVote.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_tournament_tables_and_campaign_chapters_register_their_guards():
    names = {g.__name__ for g in rematch._guards}
    assert {"no_rematch_of_a_table", "no_rematch_of_a_chapter"} <= names


@pytest.mark.django_db(transaction=True)
def test_concurrent_accepts_create_one_match(started_pebbles):
    match, users = started_pebbles(seats=4, options={"bonus_rolls": False, "target": 5})
    play_to_the_end(match, users)
    before = Match.objects.count()
    attempts = 3  # every player accepts three times, all released at once
    barrier = threading.Barrier(len(users) * attempts)
    results, errors = [], []

    def accept(user):
        try:
            barrier.wait()
            results.append(rematch.rematch_accept(match_id=match.pk, user=user))
        except Exception as exc:  # surfaced below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=accept, args=(u,)) for u in users for _ in range(attempts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert Match.objects.count() == before + 1
    assert Rematch.objects.filter(match=match).count() == 1
    new_id = str(Rematch.objects.get(match=match).new_match_id)
    assert {r["match_id"] for r in results if r["match_id"]} == {new_id}
    assert RematchVote.objects.filter(match=match).count() == 4
    seats = lobby_of(Match.objects.get(pk=new_id))["seats"]
    assert [s["user_id"] for s in seats] == [u.pk for u in users]
