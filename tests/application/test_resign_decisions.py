"""``decisions._resign`` with three sides or more: ``SeatConceded`` then the engine's own events
(``EngineBase.concede``), the usual ``MatchFinished`` when those end the game, and the engine's
refusals and bugs kept from becoming anything but a stable refusal (docs/platform.md, "Resigning")."""

from types import SimpleNamespace

import pytest

from games.application import decisions as D
from games.application import lobby as L
from games.application.errors import LobbyError
from games.engines.yokai.engine import YokaiEngine
from games.kernel import RuleViolation, Rng, event

MATCH = SimpleNamespace(pk="m", seed="00" * 16, seed_hash="h", game="yokai", engine_version="1")


def running(engine, seats=3):
    """A started match of ``seats`` users (user ids 10, 11, ...)."""
    events = [event(L.CREATED, {"game": "yokai", "engine_version": "1", "seats": seats, "options": {}, "rated": True,
                                "seed_hash": "h", "creator_id": 10})]
    events += [event(L.SEAT_TAKEN, {"seat": i, "user_id": 10 + i, "username": f"u{i}"}) for i in range(seats)]
    events += [event(L.STARTED, {}), *engine.setup({}, seats, Rng(b"setup", "x"))]
    return L.aggregate_fold(engine, events)


def resign(engine, state, seat):
    request = D.Request(D.LOBBY, "resign", {"user_id": 10 + seat})
    return D.outcome(MATCH, engine, state, request, Rng(b"resign", str(seat)))


def test_a_concession_records_the_seat_then_the_engines_events_and_the_game_goes_on():
    engine = YokaiEngine()
    events, state = resign(engine, running(engine), 1)
    assert [e["type"] for e in events][:2] == [L.SEAT_CONCEDED, "PlayerConceded"]
    assert events[0]["payload"] == {"seat": 1, "username": "u1"}
    assert state["lobby"]["status"] == L.ACTIVE and L.conceded_seats(state["lobby"]) == [1]
    with pytest.raises(LobbyError) as again:
        resign(engine, state, 1)
    assert (again.value.code, again.value.status) == ("already_out", 409)


def test_the_engines_ending_leads_to_one_match_finished():
    engine = YokaiEngine()
    _, state = resign(engine, running(engine), 1)
    events, state = resign(engine, state, 0)
    assert [e["type"] for e in events] == [L.SEAT_CONCEDED, "PlayerConceded", "GameWon", L.FINISHED]
    assert events[-1]["payload"]["winners"] == [2] and "resigned" not in events[-1]["payload"]
    assert state["lobby"]["status"] == L.DONE and state["lobby"]["winners"] == [2]


class Refusing(YokaiEngine):
    def concede(self, state, seat, rng):
        raise RuleViolation("not_now", "wait for the end of the step")


class Broken(YokaiEngine):
    def concede(self, state, seat, rng):
        raise KeyError("a bug")


class Usurping(YokaiEngine):
    def concede(self, state, seat, rng):
        return [event(L.FINISHED, {"winners": [seat], "seed": "x"})]


class Unsupported(YokaiEngine):
    def concede(self, state, seat, rng):
        return None


def test_an_engines_refusal_keeps_its_code_as_a_409():
    engine = Refusing()
    with pytest.raises(LobbyError) as refused:
        resign(engine, running(engine), 1)
    assert (refused.value.code, refused.value.status) == ("not_now", 409)


@pytest.mark.parametrize("engine", [Broken(), Usurping()], ids=["bug", "platform_event"])
def test_an_engine_bug_is_refused_never_half_applied(engine):
    with pytest.raises(RuleViolation) as refused:
        resign(engine, running(engine), 1)
    assert refused.value.code == "rejected_by_engine"


def test_an_engine_that_cannot_go_on_without_a_player_refuses_three_sides():
    engine = Unsupported()
    with pytest.raises(LobbyError) as refused:
        resign(engine, running(engine), 1)
    assert (refused.value.code, refused.value.status) == ("resign_unavailable", 409)
    # two sides still end at once, whatever the engine
    events, state = resign(engine, running(engine, seats=2), 1)
    assert [e["type"] for e in events] == [L.FINISHED] and events[0]["payload"]["resigned"] == 1
