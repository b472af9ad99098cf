"""GET /api/matches/{id}/replay/?seat=N&at=K: a finished match as seat N saw it at seq K.

For a random finished match of each game (played to its end through the write path by the engines'
bots and SYSTEM steps), the replay at EVERY seq equals an independent fold of the log up to that seq:
the engine's ``view_for`` of it for the seat asked (a different seat, or the spectator, at each seq),
its status, its legal commands, and the event at that seq redacted for that seat with its sentence.
A match that is not finished has no replay (409 ``match_not_finished``), and no replay answer ever
carries a hidden tile or card a seat could not know at that point (the Pebbles canaries, and a real
game's: Yokai Battle's card ids)."""

import json
import re
import uuid

import pytest

from games.application import selectors, services
from games.application.lobby import aggregate_evolve
from games.eventstore import store
from games.kernel import SYSTEM, Rng
from games.kernel.canonical import canonical

pytestmark = pytest.mark.django_db

CANARY = re.compile(r"canary-[0-9a-zA-Z_-]+")
GAMES = [("yokai", 2, {}), ("yashima", 2, {}), ("harakiri", 2, {"round_cap": 1})]
MAX_COMMANDS = 3000


def _started(make_user, game, seats, options):
    users = [make_user() for _ in range(seats)]
    match = services.match_create(game=game, seats=seats, options=options, creator=users[0])
    for seat, user in enumerate(users[1:], start=1):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    return match, users


def _play_to_the_end(match, users, label: str):
    """Every decision by the engine's bot for that seat (SYSTEM steps by the engine), through the write path."""
    rng = Rng(label.encode(), "replay-test")
    engine = selectors.engine_of(match)
    for _ in range(MAX_COMMANDS):
        match.refresh_from_db()
        state = selectors.state_load(match)
        if state["lobby"]["status"] != "active":
            return
        awaiting = engine.status(state["game"]).awaiting
        if SYSTEM in awaiting:
            seat, command, actor = SYSTEM, engine.system_command(state["game"]), services.Actor.worker("test")
        else:
            seat = rng.choice(sorted(awaiting))
            command, actor = engine.bot_command(state["game"], seat, rng), services.Actor.user(users[seat])
        services.match_submit_command(match_id=match.pk, seat=seat, actor=actor, command_id=uuid.uuid4(),
                                      expected_seq=match.head_seq, type_=command["type"], args=command.get("args", {}))
    raise AssertionError(f"{match.game} did not end within {MAX_COMMANDS} commands")


def _json(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game, seats, options", GAMES, ids=[g for g, _, _ in GAMES])
def test_the_replay_equals_the_fold_at_every_seq(make_user, api, game, seats, options):
    match, users = _started(make_user, game, seats, options)
    running = api.get(f"/api/matches/{match.pk}/replay/", {"seat": 0})
    assert (running.status_code, running.json()["code"]) == (409, "match_not_finished")
    _play_to_the_end(match, users, f"replay-{game}")
    match.refresh_from_db()
    engine = selectors.engine_of(match)
    head = match.head_seq
    final = selectors.state_load(match)
    names, facts = selectors.seat_names(final["lobby"]), selectors.narration_facts(engine, final)  # as the history gets them
    rng = Rng(f"seats-{game}".encode(), "replay-test")
    state = None
    for ev in store.events_load(match, engine_upcasters=engine.upcasters):  # the oracle: a fold from scratch
        at = ev["seq"]
        state = canonical(aggregate_evolve(engine, state, ev))  # engines are always handed canonical states
        seat = rng.choice([None, *range(seats)])
        params = {"at": at, "after": at - 1, **({} if seat is None else {"seat": seat})}
        res = api.get(f"/api/matches/{match.pk}/replay/", params)
        assert res.status_code == 200, (at, res.content[:300])
        doc = res.json()
        assert (doc["seq"], doc["seat"], doc["head_seq"], doc["deadline"]) == (at, seat, head, None)
        game_state = state["game"]
        assert doc["view"] == (None if game_state is None else _json(engine.view_for(game_state, seat))), at
        status = selectors.status_of(match, state)
        assert doc["status"] == _json(status), at
        legal = (engine.legal_commands(game_state, seat) if state["lobby"]["status"] == "active" and seat is not None
                 and seat in status["awaiting"] else [])
        assert doc["legal_commands"] == _json(legal), at
        assert doc["match"]["status"] == state["lobby"]["status"]
        assert doc["events"] == _json([selectors.redact_for_seat(engine, ev, seat, names, facts)]), at
    assert state["lobby"]["status"] == "finished" and at == head
    whole = api.get(f"/api/matches/{match.pk}/replay/", {"seat": 1}).json()  # default: the end, every event
    assert whole["seq"] == head and [e["seq"] for e in whole["events"]] == list(range(1, head + 1))
    assert all(isinstance(e["text"], str) for e in whole["events"]) and any(e["text"] for e in whole["events"])
    assert whole["match"]["seed"] == match.seed  # revealed at the end


def test_replay_refusals_and_who_may_replay(finished_pebbles, started_pebbles, api, client_for, make_user):
    match, users = finished_pebbles()
    url = f"/api/matches/{match.pk}/replay/"
    for client in (api, client_for(make_user()), client_for(users[1])):  # anyone who could watch it
        assert client.get(url, {"seat": 0, "at": 3}).status_code == 200
    for params, status, code in [({"at": match.head_seq + 1}, 422, "seq_beyond_head"), ({"seat": 2}, 422, "unknown_seat"),
                                 ({"at": 0}, 400, "malformed"), ({"seat": -1}, 400, "malformed"),
                                 ({"at": "x"}, 400, "malformed"), ({"after": "-2"}, 400, "malformed")]:
        res = api.get(url, params)
        assert (res.status_code, res.json()["code"]) == (status, code), params
    assert api.get(url, {"at": 4, "after": 9}).json()["events"] == []  # nothing after 9 up to 4
    res = api.get(f"/api/matches/{uuid.uuid4()}/replay/")
    assert (res.status_code, res.json()["code"]) == (404, "not_found")
    lobby = services.match_create(game="pebbles", seats=2, options={}, creator=make_user())
    res = api.get(f"/api/matches/{lobby.pk}/replay/")
    assert (res.status_code, res.json()["code"]) == (409, "match_not_finished")


def test_no_replay_answer_carries_a_tile_its_seat_could_not_know(started_pebbles, api, client_for):
    """Hidden-information canaries: at every seq of a finished 3-seat match, each seat's replay (view and
    events) holds only the tiles that seat has held by then or that were played by then; the
    spectator's, only the played ones. Before the end, no replay answer carries any tile at all."""
    match, users = started_pebbles(seats=3, options={"bonus_rolls": False, "target": 14})
    every = set(CANARY.findall(repr([e["payload"] for e in store.events_load(match)])))
    early = [api.get(f"/api/matches/{match.pk}/replay/", {"seat": s}).content.decode() for s in (0, 1, 2)]
    assert every and not any(CANARY.findall(text) for text in early)  # 409s, no canary
    for _ in range(60):
        match.refresh_from_db()
        state = selectors.state_load(match)
        status = selectors.status_of(match, state)
        if status["finished"]:
            break
        seat = status["awaiting"][0]
        legal = sorted(selectors.view_for_seat(match, seat, state)["legal_commands"], key=lambda c: c["type"])[0]
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=legal["type"],
                                      args=legal.get("args") or {})
    match.refresh_from_db()
    engine = selectors.engine_of(match)
    held, played, state = {0: set(), 1: set(), 2: set()}, set(), None
    every = set(CANARY.findall(repr([e["payload"] for e in store.events_load(match)])))
    for ev in store.events_load(match):
        state = canonical(aggregate_evolve(engine, state, ev))  # engines are always handed canonical states
        if ev["type"] == "TilePlayed":
            played.add(ev["payload"]["tile"]["secret"])
        if state["game"]:
            for s in held:
                held[s] |= {t["secret"] for t in state["game"]["hands"].get(str(s), [])}
        for seat in (None, 0, 1, 2):
            allowed = played | (held[seat] if seat is not None else set())
            params = {"at": ev["seq"], **({} if seat is None else {"seat": seat})}
            text = client_for(users[0]).get(f"/api/matches/{match.pk}/replay/", params).content.decode()
            leaked = set(CANARY.findall(text)) - allowed
            assert not leaked, (ev["seq"], seat, leaked)
            assert (every - allowed), "something stays hidden, so the search could find a leak"


YOKAI_CARD_ID = re.compile(r"\b[0-9a-f]{16}\b")


def _hidden_ids(game_state) -> dict:
    """{seat: ids in that seat's hand} and the ids in any hand or deck (face down to someone)."""
    hands = {s: {c["id"] for c in p["hand"]} for s, p in enumerate(game_state["players"])}
    decks = {c["id"] for p in game_state["players"] for c in p["deck"]}
    return hands, decks | set().union(*hands.values())


def test_a_real_games_replay_never_shows_a_seat_a_card_it_could_not_know(make_user, client_for):
    """Canaries on a real game: every Yokai Battle card has a random 16-hex id. At every seq of a
    finished match, each seat's replay answer (view and events, words included) names only the cards
    that seat has held by then or that have been face up by then (on the board, in a discard); the
    spectator's, only the face-up ones. A card still in the other seat's hand or in any deck, in
    order, never appears."""
    match, users = _started(make_user, "yokai", 2, {})
    _play_to_the_end(match, users, "yokai-canary")
    match.refresh_from_db()
    engine = selectors.engine_of(match)
    events = store.events_load(match)
    started = next(ev for ev in events if ev["type"] == "GameStarted")
    every = set(YOKAI_CARD_ID.findall(json.dumps(started["payload"])))
    assert len(every) >= 40, "every card of both decks has an id"
    client = client_for(make_user())  # anyone may watch a finished match's replay
    held, public, state, checked = {0: set(), 1: set()}, set(), None, 0
    for ev in events:
        state = aggregate_evolve(engine, state, ev)
        if state["game"] is None:
            continue
        hands, face_down = _hidden_ids(state["game"])
        for s in held:
            held[s] |= hands[s]
        public |= every - face_down
        for seat in (None, 0, 1):
            allowed = public | (held[seat] if seat is not None else set())
            params = {"at": ev["seq"], **({} if seat is None else {"seat": seat})}
            res = client.get(f"/api/matches/{match.pk}/replay/", params)
            assert res.status_code == 200, res.json()
            leaked = (set(YOKAI_CARD_ID.findall(res.content.decode())) & every) - allowed
            assert not leaked, (ev["seq"], ev["type"], seat, leaked)
            assert every - allowed, "some cards stay hidden from this seat, so the search could find a leak"
            checked += 1
    assert checked > 30
