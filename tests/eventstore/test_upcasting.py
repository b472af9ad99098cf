"""Old event versions are brought up to date on read by upcasters; the stored row is untouched."""

import pytest

from games.application import selectors, services
from games.eventstore import store
from games.eventstore.codec import upcast
from games.eventstore.models import MatchEvent
from games.kernel import registry
from tests.engines.counter import Counter

pytestmark = pytest.mark.django_db


class CounterV2(Counter):
    """Version 2 renamed Added's ``n`` to ``amount``; an upcaster reads v1 rows as v2."""

    version = "2"
    upcasters = {("Added", 1): lambda p: {"seat": p["seat"], "amount": p["n"]}}

    def decide(self, state, command, rng):
        events = super().decide(state, command, rng)
        return [{**e, "v": 2, "payload": {"seat": e["payload"]["seat"], "amount": e["payload"]["n"]}} for e in events]

    def evolve(self, state, ev):
        if ev["type"] == "Added":
            assert ev["v"] == 2, "the engine only ever sees current versions"
            return {**state, "total": state["total"] + ev["payload"]["amount"], "adds": state["adds"] + 1}
        return super().evolve(state, ev)


def test_upcasters_chain_until_the_current_version():
    table = {("E", 1): lambda p: {**p, "b": 1}, ("E", 2): lambda p: {**p, "c": 2}}
    assert upcast("E", 1, {"a": 0}, table) == (3, {"a": 0, "b": 1, "c": 2})
    assert upcast("E", 3, {"a": 0}, table) == (3, {"a": 0})


def test_a_match_logged_under_v1_replays_under_v2(make_user):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    import uuid
    for _ in range(3):
        services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=uuid.uuid4(),
                                      expected_seq=match.head_seq, type_="add", args={"n": 2})
        match.refresh_from_db()
    assert match.engine_version == "1"

    registry.register(CounterV2())  # the rules change; the old match keeps its recorded version
    try:
        Match = type(match)
        Match.objects.filter(pk=match.pk).update(engine_version="2")  # replay the v1 log under v2
        match.refresh_from_db()
        selectors.cache_clear()
        events = store.events_load(match, engine_upcasters=CounterV2.upcasters)
        added = [e for e in events if e["type"] == "Added"]
        assert all(e["v"] == 2 and e["payload"] == {"seat": 0, "amount": 2} for e in added)
        assert selectors.state_load(match, use_cache=False)["game"]["total"] == 6
        assert MatchEvent.objects.filter(match=match, type="Added", version=1).count() == 3, "rows never rewritten"
    finally:
        registry._engines["counter"].pop("2", None)
        selectors.cache_clear()
