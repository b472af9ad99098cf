"""No socket ever receives a secret its seat may not know, across whole random games.

Every Pebbles tile carries a ``secret: "canary-..."``. From the full log (store.events_load) we
know, for every canary, from which seq each seat legitimately knows it (dealt to / drawn by that
seat) and from which seq it is public (the tile was played: TilePlayed shows the tile face up).
Every message every socket receives is scanned: each canary found must be known to that socket's
seat at the seq the message speaks for. Spectators may only ever see played tiles.

The players and a signed-in spectator chat during the game: the players' channel never reaches a
spectator's socket, and the spectators' one never reaches a player's socket while the match runs
(the chat's own hidden information), while each socket gets every message it may read.
"""

import json
import random
import re
import uuid

import pytest

from games.application import chat, selectors
from games.eventstore import store

from .conftest import close_all, collect_until, db, head_of, open_socket, recv, send

CHAT_MARK = re.compile(r"chatmark-(players|spectators)-\d+")

pytestmark = pytest.mark.django_db(transaction=True)

CANARY = re.compile(r"canary-[0-9a-f]+")
NEVER = float("inf")


def knowledge_from_log(match_id):
    """({canary: {seat: seq known from}}, {canary: seq public from}, all canaries)."""
    match = selectors.match_get(match_id)
    owned, public, every = {}, {}, set()
    for ev in store.events_load(match):
        p, seq = ev["payload"], ev["seq"]
        if ev["type"] == "TilesDealt":
            for seat, hand in p["hands"].items():
                for tile in hand:
                    owned.setdefault(tile["secret"], {})[int(seat)] = seq
            every |= {t["secret"] for hand in p["hands"].values() for t in hand}
            every |= {t["secret"] for t in p["pile"]}
        if ev["type"] == "TilePlayed":
            public.setdefault(p["tile"]["secret"], seq)
        if ev["type"] in ("TilePlayed", "TurnPassed") and p.get("drawn"):
            owned.setdefault(p["drawn"]["secret"], {}).setdefault(p["seat"], seq)
    return owned, public, every


def leaks(message, seat, owned, public):
    """Canaries in ``message`` that ``seat`` may not know at the seq the message (or event) is at."""
    parts = []
    if message.get("type") in ("events", "command_result"):
        parts = [(ev["seq"], ev) for ev in message["events"]]
        rest = {k: v for k, v in message.items() if k != "events"}
        parts.append((message.get("seq", 0), rest))
    else:
        parts = [(message.get("seq", 0), message)]
    bad = []
    for seq, part in parts:
        for c in set(CANARY.findall(json.dumps(part))):
            mine = seat is not None and owned.get(c, {}).get(seat, NEVER) <= seq
            if not mine and public.get(c, NEVER) > seq:
                bad.append((seq, c))
    return bad


async def play_random_game(seed, started_pebbles, make_user, options):
    rng = random.Random(seed)
    m, users = await db(started_pebbles)(options=options)
    c0, _ = await open_socket(m.pk, user=users[0], via="session")
    c1, _ = await open_socket(m.pk, user=users[1], via="token")
    spec, _ = await open_socket(m.pk)
    lurker_user = await db(make_user)()
    lurker, _ = await open_socket(m.pk, user=lurker_user)  # logged in, no seat
    sockets = [(c0, 0), (c1, 1), (spec, None), (lurker, None)]
    received = {id(c): [] for c, _ in sockets}
    latest = {}
    for comm, seat in sockets:
        hello = await recv(comm)
        received[id(comm)].append(hello)
        latest[seat] = hello["state"]
    seq = latest[0]["seq"]
    moves = 0
    posted = {"players": set(), "spectators": set()}
    while True:
        seat = next((s for s in (0, 1) if latest[s]["legal_commands"]), None)
        if seat is None:
            assert latest[0]["status"]["finished"], latest[0]["status"]
            break
        if rng.random() < 0.3:  # someone chats while the match runs: a player at the table, or the spectator
            author, channel = rng.choice([(users[0], "players"), (users[1], "players"), (lurker_user, "spectators")])
            text = f"chatmark-{channel}-{len(posted[channel])}"
            await db(chat.chat_post)(match_id=m.pk, user=author, channel=channel, text=text)
            posted[channel].add(text)
        comm = (c0, c1)[seat]
        choice = rng.choice(latest[seat]["legal_commands"])
        # Now and then, a stale or foreign attempt first: refused, and it must leak nothing either.
        if rng.random() < 0.15:
            other = (c1, c0)[seat]
            await send(other, {"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": seq, "command": choice})
            while True:  # a chat push may come first
                err = await recv(other)
                received[id(other)].append(err)
                if err["type"] == "error":
                    break
            assert err["code"] in ("not_your_decision", "illegal_tile"), err
        await send(comm, {"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": seq, "command": choice})
        moves += 1
        while True:  # the reply comes first; pushes follow it
            reply = await recv(comm)
            received[id(comm)].append(reply)
            if reply["type"] in ("command_result", "error"):
                break
        assert reply["type"] == "command_result", reply
        assert reply["events"][0]["seq"] == seq + 1
        head = await db(head_of)(m.pk)
        for c, s in sockets:
            msgs = await collect_until(c, head)
            received[id(c)].extend(msgs)
            states = [x for x in msgs if x["type"] == "state"]
            latest[s] = states[-1]["state"]
        seq = head
        assert moves < 500
    for c, _ in sockets:  # the last chat pushes
        while not await c.receive_nothing(timeout=0.2):
            received[id(c)].append(await recv(c, skip=()))  # every message, the spectator count's too
    return m, sockets, received, moves, posted


@pytest.mark.parametrize("seed, options", [(1, {}), (2, {"tiles": 12}), (3, {"target": 60})])
async def test_no_socket_ever_sees_a_secret_of_another_seat(seed, options, started_pebbles, make_user):
    m, sockets, received, moves, posted = await play_random_game(seed, started_pebbles, make_user, options)
    owned, public, every = await db(knowledge_from_log)(m.pk)
    assert moves >= 4 and len(every) >= 12
    for comm, seat in sockets:
        msgs = received[id(comm)]
        found = set(CANARY.findall(json.dumps(msgs)))
        assert found <= every, "every canary seen comes from this match's tiles"
        for msg in msgs:
            assert not leaks(msg, seat, owned, public), (seat, msg)
        if seat is None:
            assert found <= set(public), "spectators only ever see tiles that were played face up"
        else:
            assert {c for c, s in owned.items() if seat in s} <= found, "a seat does see its own tiles"
        marks = {mark.group(0) for mark in CHAT_MARK.finditer(json.dumps(msgs))}
        mine = posted["players"] if seat is not None else posted["spectators"]
        assert marks == mine, (seat, marks ^ mine)  # all of its own channel, nothing of the other
    # The stream each seat got, end to end, is exactly its redacted log.
    for comm, seat in sockets:
        pushed = [e for x in received[id(comm)] if x["type"] == "events" for e in x["events"]]
        hello_seq = received[id(comm)][0]["seq"]
        assert [e["seq"] for e in pushed] == list(range(hello_seq + 1, [x for x in received[id(comm)] if x["type"] == "state"][-1]["seq"] + 1))
        assert pushed == await db(selectors.events_for_seat)(await db(selectors.match_get)(m.pk), seat, after=hello_seq)
    await close_all(*(c for c, _ in sockets))


async def test_the_leak_detector_catches_a_leak(started_pebbles):
    """Negative control: the raw (unredacted) deal, shown to seat 1 or a spectator, is a leak."""
    m, _ = await db(started_pebbles)()
    owned, public, _ = await db(knowledge_from_log)(m.pk)
    raw = await db(lambda: store.events_load(selectors.match_get(m.pk)))()
    dealt = next(ev for ev in raw if ev["type"] == "TilesDealt")
    as_message = {"type": "events", "seq": dealt["seq"], "events": [dealt]}
    assert leaks(as_message, 1, owned, public)
    assert leaks(as_message, None, owned, public)
    seat0_only = {"type": "state", "seq": dealt["seq"], "state": {"my_hand": dealt["payload"]["hands"]["0"]}}
    assert not leaks(seat0_only, 0, owned, public)
    assert leaks(seat0_only, 1, owned, public)
