"""Harakiri (Exploration Phase) played to the end THROUGH THE REST API, by random legal choices.

Modelled on tests/games/yokai/test_api_random_play.py. Each seat is its own authenticated user
(DRF APIClient, in-process); the match is created with POST /api/matches/ (options
``{"round_cap": ROUND_CAP}``, a party vote now and then), joined and started through the API.
Until the game ends, one of the awaited seats (several during a party vote) is picked with a
seeded ``games.kernel.Rng``; it GETs its /view/, picks one of its ``legal_commands`` and POSTs it
to /commands/ with ``expected_seq``. Every write runs inside
``django_capture_on_commit_callbacks(execute=True)``, so the platform's eager follow-ups play the
SYSTEM steps (oracle draws, enemy activations) as after a real request. Every seat and a
spectator follow the log through /events/ like the web client does.

Checked: no response is a 5xx; every posted legal command is accepted (201); never stuck (while
not finished a seat, never SYSTEM, is awaited once the follow-ups ran, with something to do);
the match ends in victory, failure or the clean round cap with winners consistent with the final
view; and the hidden deck orders never leave the server: at every /view/ (every seat and the
spectator) the unredacted engine state at that seq (``selectors.state_load``) gives the oracle
deck, every chosen enemy's AI deck and every zone's event decks; the view shows only their sizes,
and no list in the view (nor in any /events/ or command response) is a run of two or more cards
of a hidden order; no "deck" in any response is a list.
"""

import uuid

import pytest
from rest_framework.test import APIClient

from games.application import selectors
from games.eventstore.models import Match
from games.kernel import SYSTEM, Rng

pytestmark = pytest.mark.django_db

GAMES = 40  # seats 1 + seed % 4: ten games each for 1, 2, 3 and 4 seats
ROUND_CAP = 2
MAX_COMMANDS = 4000
FOLLOW_EVERY = 10


def hidden_orders(game: dict) -> dict:
    """The engine's hidden deck orders in the unredacted state: name -> list of card ids."""
    out = {"oracle": list(game["oracle"]["deck"])}
    for e, en in game["enemies"].items():
        if "ai" in en:
            out[f"ai:{e}"] = list(en["ai"]["deck"])
    for z, zs in game["zones"].items():
        for name, deck in zs["events"].items():
            out[f"zone:{z}:{name}"] = list(deck)
    return out


def _lists(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "deck":
                assert not isinstance(v, list), f"a deck order was sent: {v}"
            yield from _lists(v)
    elif isinstance(node, list):
        yield node
        for v in node:
            yield from _lists(v)


def assert_no_run_of(orders: dict, doc, where: str):
    """No list in ``doc`` is two or more consecutive cards of a hidden order."""
    runs = {}
    for name, order in orders.items():
        for i in range(len(order) - 1):
            runs[(order[i], order[i + 1])] = name
    for lst in _lists(doc):
        for a, b in zip(lst, lst[1:]):
            if isinstance(a, str) and isinstance(b, str) and (a, b) in runs:
                raise AssertionError(f"{where}: the hidden {runs[(a, b)]} order shows in {lst}")


class Client:
    """One seat's (or the spectator's) API client; every view is checked against the hidden state."""

    def __init__(self, user, seat, match_url, match_pk, on_commit, stats):
        self.api = APIClient()
        self.on_commit = on_commit
        if user is not None:
            self.api.force_authenticate(user)
        self.seat = seat
        self.url = match_url
        self.match_pk = match_pk
        self.after = 0
        self.stats = stats

    def _check(self, resp, path):
        assert resp.status_code < 500, f"{path} -> {resp.status_code}: {resp.content[:500]!r}"
        return resp

    def view(self):
        resp = self._check(self.api.get(f"{self.url}view/"), "view")
        assert resp.status_code == 200, resp.json()
        doc = resp.json()
        assert doc["seat"] == self.seat
        game = selectors.state_load(Match.objects.get(pk=self.match_pk), until=doc["seq"])["game"]
        orders = hidden_orders(game)
        view = doc["view"]
        assert view["oracle"]["deck"] == len(orders["oracle"])
        for e, en in game["enemies"].items():
            if "ai" in en:
                assert view["enemies"][e]["ai"]["deck"] == len(en["ai"]["deck"])
                assert view["enemies"][e]["ai"]["discard"] == en["ai"]["discard"]
        for z, zs in game["zones"].items():
            assert view["zones"][z]["events"] == {k: len(v) for k, v in zs["events"].items()}
        for key in ("zones_def", "forced", "next_initiative"):
            assert key not in view
        assert_no_run_of(orders, doc, f"seat {self.seat} /view/ at seq {doc['seq']}")
        self.stats["views"] += 1
        self.stats["hidden_cards"] = max(self.stats["hidden_cards"], sum(len(o) for o in orders.values()))
        return doc

    def follow(self, orders):
        resp = self._check(self.api.get(f"{self.url}events/", {"after": self.after}), "events")
        assert resp.status_code == 200, resp.json()
        body = resp.json()
        seqs = [e["seq"] for e in body["events"]]
        assert seqs == list(range(self.after + 1, body["seq"] + 1)), "the log must be contiguous"
        self.after = body["seq"]
        assert_no_run_of(orders, body, f"seat {self.seat} /events/")
        return body["events"]

    def command(self, cmd, expected_seq, orders):
        payload = {"command_id": str(uuid.uuid4()), "expected_seq": expected_seq, "type": cmd["type"],
                   "args": cmd["args"]}
        with self.on_commit(execute=True):  # as after a real request: cache, publish, SYSTEM follow-ups
            resp = self._check(self.api.post(f"{self.url}commands/", payload, format="json"), "commands")
        assert resp.status_code == 201, f"legal command {cmd} refused: {resp.status_code} {resp.json()}"
        body = resp.json()
        assert_no_run_of(orders, body, f"seat {self.seat} command response")
        return body


def current_orders(match_pk):
    return hidden_orders(selectors.state_load(Match.objects.get(pk=match_pk))["game"])


def play_one(seats, options, seed, make_user, fixed_match_seed, on_commit):
    options = {"round_cap": ROUND_CAP, **options}
    label = f"harakiri-api-{seats}-{seed}"
    fixed_match_seed(label)
    rng = Rng(label.encode(), "choices")
    users = [make_user() for _ in range(seats)]
    stats = {"views": 0, "hidden_cards": 0, "votes": 0}

    creator = APIClient()
    creator.force_authenticate(users[0])
    resp = creator.post("/api/matches/", {"game": "harakiri", "seats": seats, "options": options}, format="json")
    assert resp.status_code == 201, resp.json()
    match_id = resp.json()["id"]
    url = f"/api/matches/{match_id}/"
    clients = [Client(u, i, url, match_id, on_commit, stats) for i, u in enumerate(users)]
    spectator = Client(None, None, url, match_id, on_commit, stats)
    for c in clients[1:]:
        with on_commit(execute=True):
            resp = c.api.post(f"{url}join/", {"seat": c.seat}, format="json")
        assert resp.status_code == 200, resp.json()
    with on_commit(execute=True):
        resp = clients[0].api.post(f"{url}start/")
    assert resp.status_code == 200, resp.json()
    assert resp.json()["status"] == "active"

    commands = 0
    doc = spectator.view()
    while True:
        if commands % FOLLOW_EVERY == 0 or doc["status"]["finished"]:
            orders = current_orders(match_id)  # hidden orders only shrink or get reshuffled later
            for c in clients + [spectator]:
                c.follow(orders)
        if doc["status"]["finished"]:
            break
        awaiting = doc["status"]["awaiting"]
        assert awaiting, f"stuck: nobody awaited in phase {doc['status']['phase']}"
        assert SYSTEM not in awaiting, f"a SYSTEM step was left pending after the follow-ups ran: {doc['status']}"
        stats["votes"] += len(awaiting) > 1
        seat = rng.choice(sorted(awaiting))
        mine = doc if doc["seat"] == seat else clients[seat].view()
        assert mine["seq"] == doc["seq"]
        legal = mine["legal_commands"]
        assert legal, f"seat {seat} is awaited but has nothing to do"
        if commands % 25 == 0:
            for viewer in [c for c in clients if c.seat not in awaiting] + [spectator]:
                assert viewer.view()["legal_commands"] == []
        # prefer not to end the activation at once so the game moves on (as the engine-level test)
        pool = [c for c in legal if c["type"] != "end_activation"] if rng.below(4) else legal
        clients[seat].command(rng.choice(pool or legal), mine["seq"], current_orders(match_id))
        commands += 1
        assert commands < MAX_COMMANDS, "the game did not end"
        doc = clients[seat].view()

    finals = [c.view() for c in clients] + [spectator.view()]
    final = finals[0]
    for f in finals[1:]:
        assert f["status"] == final["status"]
    status, view = final["status"], final["view"]
    assert status["finished"] and status["phase"] == "ended" and status["awaiting"] == []
    assert final["match"]["status"] == "finished"
    assert view["phase"] == "ended" and view["result"] in ("victory", "failure", "round_cap")
    assert status["winners"] == (list(range(seats)) if view["result"] == "victory" else [])
    if view["result"] == "round_cap":
        # RoundEnded moves the counter on before the cap ends the phase: ROUND_CAP rounds were played.
        assert view["round"] == ROUND_CAP + 1
    detail = creator.get(url).json()
    assert detail["status"] == "finished" and sorted(detail["winners"]) == sorted(status["winners"])
    assert detail["seed"], "the seed is revealed at the end"
    orders = current_orders(match_id)
    for c in clients + [spectator]:
        c.after = 0
        c.follow(orders)
    assert stats["hidden_cards"] > 0 and stats["views"] > commands
    return commands, view["result"], stats


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_legal_play_through_the_api(seed, make_user, fixed_match_seed, django_capture_on_commit_callbacks,
                                          record_property):
    seats = 1 + seed % 4
    options = {"party_vote": True} if seed % 5 == 0 else {}
    commands, result, stats = play_one(seats, options, seed, make_user, fixed_match_seed,
                                       django_capture_on_commit_callbacks)
    record_property("commands", commands)  # in --junitxml: compare two runs, count the outcomes
    record_property("result", result)
    assert commands > 0 and result in ("victory", "failure", "round_cap")
    if options and seats > 1:
        assert stats["votes"] > 0, "a party vote awaits every seat at once"
