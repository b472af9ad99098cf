"""GET /view/ and /events/: each caller sees its own seat's redaction, and nothing hidden leaks."""

import re
import uuid

import pytest

from games.application import selectors
from games.eventstore import store

pytestmark = pytest.mark.django_db

CANARY = re.compile(r"canary-[0-9a-zA-Z_-]+")


def test_view_for_a_seat(started_pebbles, client_for):
    match, users = started_pebbles()
    res = client_for(users[0]).get(f"/api/matches/{match.pk}/view/")
    assert res.status_code == 200
    v = res.json()
    assert v["seq"] == match.head_seq and v["seat"] == 0
    assert v["status"] == {"phase": "play", "awaiting": [0], "finished": False, "winners": []}
    assert len(v["view"]["my_hand"]) == 3
    assert {c["type"] for c in v["legal_commands"]} == {"play", "pass"}
    assert all(set(c) == {"type", "args"} for c in v["legal_commands"])
    assert v["match"]["status"] == "active" and v["match"]["seed"] is None


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_view_for_a_spectator(started_pebbles, client_for, make_user, api, who):
    match, users = started_pebbles()
    client = api if who == "anonymous" else client_for(make_user())
    v = client.get(f"/api/matches/{match.pk}/view/").json()
    assert v["seat"] is None and v["view"]["my_hand"] == [] and v["legal_commands"] == []


def test_view_of_an_open_match(make_user, client_for):
    c = client_for(make_user())
    mid = c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").json()["id"]
    v = c.get(f"/api/matches/{mid}/view/").json()
    assert v["seat"] == 0 and v["view"] is None and v["status"]["phase"] == "lobby" and v["legal_commands"] == []


def test_events_after(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    c0 = client_for(users[0])
    head = match.head_seq
    res = c0.get(f"/api/matches/{match.pk}/events/")
    assert res.status_code == 200
    body = res.json()
    assert body["seq"] == head and [e["seq"] for e in body["events"]] == list(range(1, head + 1))
    assert [e["type"] for e in body["events"]][:2] == ["MatchCreated", "SeatTaken"]
    assert all(set(e) >= {"seq", "type", "payload", "actor", "at"} for e in body["events"])
    c0.post(f"/api/matches/{match.pk}/commands/", command("pass", expected_seq=head), format="json")
    tail = c0.get(f"/api/matches/{match.pk}/events/", {"after": head}).json()
    assert tail["seq"] == head + 1 and [e["type"] for e in tail["events"]] == ["TurnPassed"]
    assert c0.get(f"/api/matches/{match.pk}/events/", {"after": head + 5}).json() == {"events": [], "seq": head + 1, "next": None}


@pytest.mark.parametrize("after", ["-1", "abc", "1.5", "99999999999999999999"])
def test_bad_after_is_400(started_pebbles, api, after):
    match, _ = started_pebbles()
    res = api.get(f"/api/matches/{match.pk}/events/", {"after": after})
    assert res.status_code == 400 and res.json()["code"] == "malformed" and "after" in res.json()["extra"]


def test_view_and_events_of_unknown_match_are_404(api):
    for tail in ("view", "events"):
        res = api.get(f"/api/matches/{uuid.uuid4()}/{tail}/")
        assert res.status_code == 404 and res.json()["code"] == "not_found"


def _play_some(match, clients, command, moves):
    for i in range(moves):
        v0 = clients[0].get(f"/api/matches/{match.pk}/").json()
        if v0["status"] != "active":
            return
        seat = v0["awaiting"][0]
        view = clients[seat].get(f"/api/matches/{match.pk}/view/").json()
        # alternate plays and passes so tiles are both revealed and drawn in secret
        legal = sorted(view["legal_commands"], key=lambda c: c["type"] != ("pass" if i % 3 else "play"))[0]
        res = clients[seat].post(f"/api/matches/{match.pk}/commands/",
                                 command(legal["type"], legal["args"], view["seq"]), format="json")
        assert res.status_code == 201, res.content


def _canaries_and_visible(match, seat):
    """(every canary in the full log, the canaries ``seat`` may legitimately know)."""
    log = store.events_load(match)
    every = set(CANARY.findall(repr([e["payload"] for e in log])))
    state = selectors.state_load(match, use_cache=False)["game"]
    own = {t["secret"] for t in state["hands"].get(str(seat), [])} if seat is not None else set()
    played = {e["payload"]["tile"]["secret"] for e in log if e["type"] == "TilePlayed"}
    return every, own | played


@pytest.mark.parametrize("moves", [0, 7])
def test_no_other_seats_canary_ever_leaves_through_view_or_events(started_pebbles, client_for, make_user, api,
                                                                 command, moves):
    match, users = started_pebbles(seats=3, options={"bonus_rolls": False, "target": 99})
    clients = [client_for(u) for u in users]
    _play_some(match, clients, command, moves)
    match.refresh_from_db()
    callers = [(0, clients[0]), (1, clients[1]), (2, clients[2]), (None, client_for(make_user())), (None, api)]
    for seat, client in callers:
        every, allowed = _canaries_and_visible(match, seat)
        forbidden = every - allowed
        assert len(every) == 24 and forbidden
        texts = [client.get(f"/api/matches/{match.pk}/view/").content.decode(),
                 client.get(f"/api/matches/{match.pk}/events/").content.decode(),
                 client.get(f"/api/matches/{match.pk}/events/", {"after": 3}).content.decode(),
                 client.get(f"/api/matches/{match.pk}/").content.decode(),
                 # a running match has no replay: refused for every seat, carrying nothing
                 *(client.get(f"/api/matches/{match.pk}/replay/", {"seat": s, "at": 1}).content.decode()
                   for s in range(3))]
        for text in texts:
            leaked = set(CANARY.findall(text)) & forbidden
            assert not leaked, (seat, leaked)
        if seat is not None:  # the seat's own hand is there: the search can find canaries
            own_now = {t["secret"] for t in selectors.state_load(match, use_cache=False)["game"]["hands"][str(seat)]}
            assert own_now and own_now <= set(CANARY.findall(texts[0]))


def test_command_response_events_are_redacted_for_the_submitter(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    c1 = client_for(users[1])
    c0 = client_for(users[0])
    res = c0.post(f"/api/matches/{match.pk}/commands/", command("pass", expected_seq=match.head_seq), format="json")
    drawn = res.json()["events"][0]["payload"]["drawn"]
    assert isinstance(drawn, dict) and drawn["secret"].startswith("canary-")  # my own draw
    seen_by_1 = c1.get(f"/api/matches/{match.pk}/events/", {"after": match.head_seq}).json()["events"][0]
    assert seen_by_1["payload"]["drawn"] is True and drawn["secret"] not in str(seen_by_1)


def test_events_carry_a_sentence_for_the_caller(started_pebbles, client_for, command):
    """``text``: one sentence per event made from the caller's redaction, players by their names; a
    game without its own ``describe`` (Pebbles) reads the generic sentence built from the event type."""
    match, users = started_pebbles(options={"bonus_rolls": False})
    c0, c1 = client_for(users[0]), client_for(users[1])
    head = match.head_seq
    events = c0.get(f"/api/matches/{match.pk}/events/").json()["events"]
    assert all(isinstance(e["text"], str) for e in events)
    by_type = {e["type"]: e["text"] for e in events}
    assert by_type["MatchCreated"] == "The match is created"
    assert [e["text"] for e in events if e["type"] == "SeatTaken"] == [
        f"{users[0].username} takes seat 1", f"{users[1].username} takes seat 2"]
    res = c0.post(f"/api/matches/{match.pk}/commands/", command("pass", expected_seq=head), format="json")
    # the command's own response carries the sentence too (seat names there are the services' to pass)
    assert res.json()["events"][0]["text"].endswith(": turn passed")
    seen_by_1 = c1.get(f"/api/matches/{match.pk}/events/", {"after": head}).json()["events"][0]
    assert seen_by_1["text"] == f"{users[0].username}: turn passed"


def test_event_text_follows_the_engines_describe_and_hides_hidden_events(started_pebbles, client_for,
                                                                      monkeypatch):
    match, users = started_pebbles()
    engine = selectors.engine_of(match)
    calls = []

    def describe(event, seat, names=()):
        calls.append((event["type"], seat, list(names)))
        return f"{event['type']} for {seat}"

    monkeypatch.setattr(engine, "describe", describe)
    events = client_for(users[1]).get(f"/api/matches/{match.pk}/events/").json()["events"]
    dealt = next(e for e in events if e["type"] == "TilesDealt")
    assert dealt["text"] == "TilesDealt for 1"
    assert ("TilesDealt", 1, [users[0].username, users[1].username]) in calls
    hidden = {"seq": 1, "type": "ScenarioLoaded", "v": 1, "payload": {"state": {}}, "actor": {}, "at": None}
    assert selectors.redact_for_seat(engine, hidden, 0)["text"] == ""  # Pebbles hides it: no sentence either
