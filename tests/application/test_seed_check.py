"""The seed verification (games.application.seedcheck): once a match is over, every recorded command
is decided again with the kernel's Rng from the revealed seed and must give exactly the recorded
events; the seed must hash to the commitment published at creation."""

import uuid

import pytest

from games.application import seedcheck, selectors, services
from games.application.errors import SocialRefused
from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import SYSTEM, Rng

from .social_play import play_to_the_end

pytestmark = pytest.mark.django_db

GAMES = [("yokai", 2, {}), ("yashima", 2, {}), ("harakiri", 2, {"round_cap": 1})]


def _bot_played(make_user, game, seats, options):
    """A finished match of ``game`` whose every decision was the engine's bot's (the system's steps the
    engine's), submitted through the write path."""
    users = [make_user() for _ in range(seats)]
    match = services.match_create(game=game, seats=seats, options=options, creator=users[0])
    for seat, user in enumerate(users[1:], start=1):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    rng = Rng(game.encode(), "seed-check-test")
    engine = selectors.engine_of(match)
    for _ in range(3000):
        match.refresh_from_db()
        state = selectors.state_load(match)
        if state["lobby"]["status"] != "active":
            return match
        awaiting = engine.status(state["game"]).awaiting
        if SYSTEM in awaiting:
            seat, command = SYSTEM, engine.system_command(state["game"])
        else:
            seat = rng.choice(sorted(awaiting))
            command = engine.bot_command(state["game"], seat, rng)
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[0]),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq,
                                      type_=command["type"], args=command.get("args", {}))
    raise AssertionError(f"{game} did not end")


def test_a_finished_match_verifies_its_deal_and_every_roll(started_pebbles, api):
    match, users = started_pebbles(seats=3, bots=(2,), options={"target": 20})  # bonus rolls by the system
    play_to_the_end(match, users)
    doc = seedcheck.seed_check(match)
    assert doc["verdict"] == "verified" and doc["seed_matches_hash"] and not doc["unchecked"]
    rolls = [e for e in store.events_load(match) if e["type"] == "BonusRolled"]
    assert rolls, "the system rolled during the match"
    assert doc["random_steps"] == 1 + len(rolls)  # the deal, then each roll (plays draw nothing)
    assert doc["steps"][0]["text"] == "The setup (shuffles and deals)" and doc["steps"][0]["draws"] > 20
    assert all(s["ok"] for s in doc["steps"]) and doc["draws"] == sum(s["draws"] for s in doc["steps"])
    assert doc["checked"] > doc["random_steps"]  # the plain moves are decided again too
    assert doc["summary"].startswith("Verified")
    res = api.get(f"/api/matches/{match.pk}/verify/")
    assert res.status_code == 200 and res.json()["verdict"] == "verified" and res.json()["seed"] == match.seed


def test_an_outcome_that_the_seed_did_not_give_is_found(started_pebbles, monkeypatch):
    match, users = started_pebbles(seats=2, options={"target": 30})
    play_to_the_end(match, users)
    real = store.events_load

    changed = []

    def tampered(m, **kw):
        events = real(m, **kw)
        for ev in events:
            if ev["type"] == "BonusRolled":
                ev["payload"] = {**ev["payload"], "die": ev["payload"]["die"] % 6 + 1}  # another face
                changed.append(ev["seq"])
                break
        return events

    monkeypatch.setattr(store, "events_load", tampered)
    doc = seedcheck._seed_check(match, selectors.state_load(match)["lobby"])
    assert doc["verdict"] == "failed" and doc["summary"].startswith("Verification failed")
    bad = [s for s in doc["steps"] if not s["ok"]]
    assert bad and bad[0]["seq"] == changed[0] and bad[0]["draws"] == 1


def test_a_seed_that_does_not_hash_to_the_commitment_fails(finished_pebbles):
    match, _ = finished_pebbles()
    Match.objects.filter(pk=match.pk).update(seed_hash="0" * 64)  # the match row, not the log
    match.refresh_from_db()
    doc = seedcheck._seed_check(match, selectors.state_load(match)["lobby"])
    assert doc["verdict"] == "failed" and not doc["seed_matches_hash"]


def test_a_staff_prepared_start_is_reported_as_not_checked(make_user):
    users = [make_user(), make_user()]
    match = services.match_create(game="pebbles", seats=2, options={}, creator=users[0])
    services.match_join(match_id=match.pk, user=users[1], seat=1)
    tile = {"id": "t", "value": 9, "secret": "canary-0"}
    services.match_load_scenario(match_id=match.pk, user=users[0], document={
        "seats": 2, "target": 5, "bonus_rolls": False, "hands": {"0": [tile], "1": [{**tile, "id": "u"}]}, "pile": []})
    play_to_the_end(Match.objects.get(pk=match.pk), users)
    doc = seedcheck.seed_check(Match.objects.get(pk=match.pk))
    assert doc["verdict"] == "partial"
    assert doc["unchecked"][0]["reason"] == "the match was started from a position prepared by staff"


def test_the_seed_is_checked_only_once_it_is_revealed(started_pebbles, api):
    match, _ = started_pebbles()
    with pytest.raises(SocialRefused):
        seedcheck.seed_check(match)
    res = api.get(f"/api/matches/{match.pk}/verify/")
    assert (res.status_code, res.json()["code"]) == (409, "seed_not_revealed")


@pytest.mark.parametrize("game, seats, options", GAMES, ids=[g for g, _, _ in GAMES])
def test_every_game_verifies_a_bot_played_match(game, seats, options, make_user):
    match = _bot_played(make_user, game, seats, options)
    doc = seedcheck.seed_check(match)
    assert doc["unchecked"] == [] and doc["verdict"] == "verified", doc["summary"]
    assert doc["random_steps"] >= 1 and doc["checked"] > doc["random_steps"]
    assert all(step["ok"] and step["draws"] for step in doc["steps"])
