"""A seat's (or the spectator's) REST client for the random-play-through-the-API suites: every
response is checked for 5xx and recorded for the canary checks."""

import json
import uuid

from rest_framework.test import APIClient

from games.kernel import Rng


class Client:
    """One seat's (or the spectator's) API client; every response is recorded for the canary check."""

    def __init__(self, user, seat, match_url, record, on_commit):
        self.api = APIClient()
        self.on_commit = on_commit
        if user is not None:
            self.api.force_authenticate(user)
        self.seat = seat
        self.url = match_url
        self.record = record
        self.after = 0  # last event seq this client has seen

    def _check(self, resp, path):
        assert resp.status_code < 500, f"{path} -> {resp.status_code}: {resp.content[:500]!r}"
        return resp

    def view(self):
        resp = self._check(self.api.get(f"{self.url}view/"), "view")
        assert resp.status_code == 200, resp.json()
        doc = resp.json()
        assert doc["seat"] == self.seat
        self.record(self.seat, doc["seq"], resp.content)
        return doc

    def follow(self):
        events, params = [], {"after": self.after}
        while True:  # /events/ is paged: follow `next` to the head
            resp = self._check(self.api.get(f"{self.url}events/", params), "events")
            assert resp.status_code == 200, resp.json()
            body = resp.json()
            seqs = [e["seq"] for e in body["events"]]
            last = seqs[-1] if seqs else self.after
            assert seqs == list(range(self.after + 1, last + 1)), "the log must be contiguous"
            self.after = last
            # An event must hide what was hidden once it happened (hidden ids only ever become
            # visible, never hidden again), so each is checked at its own seq, however late fetched.
            for ev in body["events"]:
                assert isinstance(ev["text"], str)  # the sentence is recorded with the rest: canaries search it too
                self.record(self.seat, ev["seq"], json.dumps(ev).encode())
            events.extend(body["events"])
            if body["next"] is None:
                assert self.after == body["seq"], "the last page reaches the head"
                return events
            params = {"after": self.after}

    def command(self, cmd, expected_seq):
        payload = {"command_id": str(uuid.uuid4()), "expected_seq": expected_seq, "type": cmd["type"],
                   "args": cmd["args"]}
        with self.on_commit(execute=True):  # as after a real request: cache, publish, follow-ups
            resp = self._check(self.api.post(f"{self.url}commands/", payload, format="json"), "commands")
        assert resp.status_code == 201, f"legal command {cmd} refused: {resp.status_code} {resp.json()}"
        body = resp.json()
        for ev in body["events"]:
            self.record(self.seat, ev["seq"], json.dumps(ev).encode())
        return body


def open_match(game, seats, options, users, make_client, on_commit):
    """Create a match through the API as ``users[0]``, seat everyone else by ``join``, start it.

    ``make_client(user, seat, url, match_id)`` builds one client (``user``/``seat`` None for the
    spectator); each needs ``.api`` and ``.seat``. Returns (match_id, url, seat clients, spectator)."""
    creator = APIClient()
    creator.force_authenticate(users[0])
    resp = creator.post("/api/matches/", {"game": game, "seats": seats, "options": options}, format="json")
    assert resp.status_code == 201, resp.json()
    match_id = resp.json()["id"]
    url = f"/api/matches/{match_id}/"
    clients = [make_client(u, i, url, match_id) for i, u in enumerate(users)]
    spectator = make_client(None, None, url, match_id)
    for c in clients[1:]:
        with on_commit(execute=True):
            resp = c.api.post(f"{url}join/", {"seat": c.seat}, format="json")
        assert resp.status_code == 200, resp.json()
    with on_commit(execute=True):
        resp = clients[0].api.post(f"{url}start/")
    assert resp.status_code == 200, resp.json()
    assert resp.json()["status"] == "active"
    return match_id, url, clients, spectator


def open_recorded_match(game, label, seats, options, make_user, fixed_match_seed, on_commit):
    """One seeded game's setup for the random-play suites: the match seed and id fixed by ``label``,
    a choice RNG from it, ``seats`` new users seated through the API, every response recorded.
    Returns (rng, responses, match_id, url, seat clients, spectator)."""
    fixed_match_seed(label)
    rng = Rng(label.encode(), "choices")
    users = [make_user() for _ in range(seats)]
    responses = []

    def record(seat, seq, body):
        responses.append((seat, seq, body))

    match_id, url, clients, spectator = open_match(
        game, seats, options, users, lambda u, i, url, mid: Client(u, i, url, record, on_commit), on_commit)
    return rng, responses, match_id, url, clients, spectator
