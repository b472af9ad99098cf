"""Fair play: spectators of a match under a watch policy never see a seq newer than the policy lets
them, on any path (the socket's hello, pushes and sync; REST /view/, /events/, the match detail and
list; the match page's embedded state), and a barred user sees no live view at all; the seated
players are not affected, and once the match ends everything opens.

The policy is given by a test provider (the tournaments app is one such provider, tested in
tests/tournaments/test_fair_play.py). The limit is recomputed here from the full log by the rule
docs/tournaments.md states, so the server's own computation is checked, not trusted.
"""

import json
import random
import re
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.application import selectors, services, watch
from games.eventstore import store
from games.eventstore.models import MatchEvent

from .conftest import HOST, close_all, collect_until, db, head_of, open_socket, recv, send
from .test_canary import CANARY, knowledge_from_log, leaks

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = {"TilesDealt", "TilePlayed", "TurnPassed"}  # the pebbles engine's turn_events


@pytest.fixture
def watched(monkeypatch):
    """{match_id: WatchPolicy}: the matches this test provider puts under a watch policy."""
    policies = {}
    monkeypatch.setattr(watch, "_providers", [*watch._providers, lambda ids: {i: policies[i] for i in ids if i in policies}])
    return policies


def allowed(match_id, delay_seconds, delay_turns, now=None) -> int:
    """The last seq a spectator may see, from the log: not newer than ``delay_seconds`` ago, not past
    the start of the turn ``delay_turns`` before the current one, never before the match started;
    the head once the match is over."""
    match = selectors.match_get(match_id)
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "type", "at"))
    if any(t in ("MatchFinished", "MatchAbandoned") for _, t, _ in rows):
        return match.head_seq
    limit = match.head_seq
    starts = [seq for seq, t, _ in rows if t in TURNS][::-1]
    if delay_turns and len(starts) > delay_turns:
        limit = starts[delay_turns]
    elif delay_turns and starts:
        limit = starts[-1] - 1
    if delay_seconds:
        cutoff = (now or timezone.now()) - timedelta(seconds=delay_seconds)
        limit = min(limit, max([seq for seq, _, at in rows if at <= cutoff], default=0))
    started = next(seq for seq, t, _ in rows if t == "MatchStarted")
    return max(limit, started)


def _rest(match_id, user=None):
    """Every REST read a spectator (or ``user``) can make: status codes and the seqs they show."""
    client = Client(HTTP_HOST=HOST)
    if user is not None:
        client.force_login(user)
    view = client.get(f"/api/matches/{match_id}/view/")
    events = client.get(f"/api/matches/{match_id}/events/?after=0&limit=500")
    detail = client.get(f"/api/matches/{match_id}/")
    listed = client.get("/api/matches/?page_size=100")
    page = client.get(f"/matches/{match_id}/")
    out = {"codes": (view.status_code, events.status_code, page.status_code), "text": view.content.decode()}
    if view.status_code == 200:
        out["view"] = view.json()["seq"]
        body = events.json()
        out["events"] = (body["seq"], max([e["seq"] for e in body["events"]], default=0))
        out["text"] += events.content.decode()
    else:
        out["refused"] = (view.json()["code"], events.json()["code"])
    d = detail.json()
    out["detail"] = (d["seq"], d["phase"], d["awaiting"], d["deadline"])
    items = [x for x in listed.json()["results"] if x["id"] == str(match_id)]
    assert len(items) == 1, listed.json()  # (an exception, not StopIteration: it crosses sync_to_async)
    item = items[0]
    out["list"] = (item["seq"], item["phase"], item["awaiting"])
    if page.status_code == 200:
        boot = re.search(r'<script id="match-boot" type="application/json">(.*?)</script>', page.content.decode(), re.S)
        doc = json.loads(boot.group(1)) if boot else None
        out["page"] = doc and (doc["doc"]["seq"], max([e["seq"] for e in doc["events"]], default=0))
    return out


async def _drain(comm, until_seq, received, timeout=10.0):
    """Read the spectator's messages until its state reaches ``until_seq``."""
    if received and max(m.get("seq", 0) for m in received if m["type"] in ("hello", "state")) >= until_seq:
        return
    received.extend(await collect_until(comm, until_seq, timeout=timeout))


async def test_spectators_stay_a_turn_behind_on_every_path_and_the_barred_see_nothing(started_pebbles, make_user,
                                                                                     watched):
    rng = random.Random(7)
    m, (u0, u1) = await db(started_pebbles)(options={"bonus_rolls": False, "target": 25})
    barred, stranger = await db(make_user)(), await db(make_user)()
    watched[str(m.pk)] = watch.WatchPolicy(delay_seconds=0, delay_turns=1, barred=frozenset({barred.pk, u0.pk}))

    c0, _ = await open_socket(m.pk, user=u0)  # barred too, but seated here: unaffected
    c1, _ = await open_socket(m.pk, user=u1, via="token")
    spec, _ = await open_socket(m.pk)
    lurker, _ = await open_socket(m.pk, user=stranger)  # signed in, no seat: a spectator
    refused, _ = await open_socket(m.pk, user=barred)
    assert (await recv(refused))["code"] == "live_view_refused"
    assert await recv(refused) == {"type": "__close__", "code": 4403}

    hello0, hello1 = await recv(c0), await recv(c1)
    seen = {id(spec): [await recv(spec)], id(lurker): [await recv(lurker)]}
    assert hello0["seq"] == hello1["seq"] == await db(head_of)(m.pk), "players see the head"
    for msgs in seen.values():
        assert msgs[0]["seq"] == await db(allowed)(m.pk, 0, 1)

    latest = {0: hello0["state"], 1: hello1["state"]}
    moves = 0
    while not latest[0]["status"]["finished"]:
        seat = next(s for s in (0, 1) if latest[s]["legal_commands"])
        comm = (c0, c1)[seat]
        await send(comm, {"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": latest[seat]["seq"],
                          "command": rng.choice(latest[seat]["legal_commands"])})
        moves += 1
        while (reply := await recv(comm))["type"] != "command_result":  # the answer comes before its pushes
            assert reply["type"] != "error", reply
        head = await db(head_of)(m.pk)
        for c, s in ((c0, 0), (c1, 1)):
            msgs = await collect_until(c, head)
            latest[s] = [x for x in msgs if x["type"] == "state"][-1]["state"]
            assert latest[s]["seq"] == head, "the seated players are live"
        if latest[0]["status"]["finished"]:
            break
        limit = await db(allowed)(m.pk, 0, 1)
        assert limit < head
        for c in (spec, lurker):
            before = len(seen[id(c)])
            await _drain(c, limit, seen[id(c)])
            if moves % 3 == 1 and c is spec:  # a spectator's sync stops at the limit too
                await send(spec, {"type": "sync", "after": 0})
                seen[id(spec)].extend(await collect_until(spec, limit))
            for msg in seen[id(c)][before:]:
                seqs = [msg.get("seq", 0)] + [e["seq"] for e in msg.get("events", [])]
                assert max(seqs) <= limit, (limit, msg)
        rest = await db(_rest)(m.pk)
        assert rest["codes"] == (200, 200, 200)
        assert rest["view"] == limit and rest["events"] == (limit, limit) and rest["page"] == (limit, limit)
        at_limit = await db(lambda: selectors.spectator_view_at(selectors.match_get(m.pk), limit))()
        progress = (limit, at_limit["status"]["phase"], at_limit["status"]["awaiting"])
        assert rest["detail"] == (*progress, None) and rest["list"] == progress
        assert (await db(_rest)(m.pk, stranger))["view"] == limit
        other = await db(_rest)(m.pk, barred)
        assert other["codes"] == (403, 403, 403) and other["refused"] == ("live_view_refused",) * 2
        assert other["detail"][0] == limit, "the match list shows a barred player no more than a spectator"
        assert (await db(_rest)(m.pk, u0))["view"] == head
        assert moves < 80

    # Every spectator message, all game long: no seq past what the log allowed when it was sent.
    owned, public, _ = await db(knowledge_from_log)(m.pk)
    for msgs in seen.values():
        for msg in msgs:
            assert not leaks(msg, None, owned, public), msg
            if msg["type"] == "events" and msg["events"]:
                assert msg["events"][-1]["seq"] == msg["seq"], "a spectator's head is its limit, never the live one"

    # The end opens everything: the spectators catch up, the barred user may watch.
    head = await db(head_of)(m.pk)
    assert await db(allowed)(m.pk, 0, 1) == head
    for c in (spec, lurker):
        msgs = await collect_until(c, head)
        assert msgs[-1]["state"]["match"]["seed"] is not None
    opened = await db(_rest)(m.pk, barred)
    assert opened["codes"] == (200, 200, 200) and opened["view"] == head
    late, _ = await open_socket(m.pk, user=barred)
    assert (await recv(late))["seq"] == head
    await close_all(c0, c1, spec, lurker, late, refused)


async def test_the_time_delay_holds_on_the_socket_and_moves_on_by_itself(started_pebbles, watched):
    """Spectators see an append only ``delay_seconds`` after it happened, pushed by the server's timer."""
    m, (u0, u1) = await db(started_pebbles)(options={"bonus_rolls": False})
    delay = 2
    watched[str(m.pk)] = watch.WatchPolicy(delay_seconds=delay, delay_turns=0)
    spec, _ = await open_socket(m.pk)
    hello = await recv(spec)
    assert hello["seq"] <= await db(allowed)(m.pk, delay, 0)
    c0, _ = await open_socket(m.pk, user=u0)
    state = (await recv(c0))["state"]
    await send(c0, {"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": state["seq"],
                    "command": state["legal_commands"][0]})
    head = state["seq"] + 1
    got = []
    while not got or got[-1].get("seq", 0) < head:
        msg = await recv(spec, timeout=delay + 10)
        got.append(msg)
        # checked when it arrived: it cannot be newer than what the log allowed at that moment
        assert msg.get("seq", 0) <= await db(allowed)(m.pk, delay, 0), msg
    assert [e["seq"] for x in got if x["type"] == "events" for e in x["events"]][-1] == head
    await close_all(spec, c0)


def test_the_time_delay_on_rest_follows_the_clock(started_pebbles, watched, monkeypatch):
    api = Client(HTTP_HOST=HOST)
    m, (u0, _) = started_pebbles()
    watched[str(m.pk)] = watch.WatchPolicy(delay_seconds=60, delay_turns=0)
    legal = selectors.view_for_seat(m, 0)["legal_commands"][0]
    services.match_submit_command(match_id=m.pk, seat=0, actor=services.Actor.user(u0), command_id=uuid.uuid4(),
                                  expected_seq=m.head_seq, type_=legal["type"], args=legal["args"])
    m.refresh_from_db()
    started = store.first_seq_of_type(m, "MatchStarted")
    assert api.get(f"/api/matches/{m.pk}/view/").json()["seq"] == started, "a minute has not passed"
    later = timezone.now() + timedelta(seconds=61)
    monkeypatch.setattr(watch.timezone, "now", lambda: later)
    assert api.get(f"/api/matches/{m.pk}/view/").json()["seq"] == m.head_seq
    assert allowed(m.pk, 60, 0, now=later) == m.head_seq
