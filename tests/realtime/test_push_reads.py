"""``Gathered``: a busy server's hubs read for their pushes (and their watch policies) together. While one database call runs,
the reads other hubs ask for wait and then go in one call; a read's failure stays with its hub."""

import asyncio
import threading

import pytest

from games.realtime import fanout

# The reads run on the socket database threads, whose connection clean-up touches the database.
pytestmark = pytest.mark.django_db


async def test_reads_asked_while_a_call_runs_go_together_and_a_failure_stays_with_its_hub():
    calls, release = [], threading.Event()

    def reads_of(reads):  # stands for the database call: logins and batches of several hubs
        calls.append([match for match, _, _ in reads])
        if len(calls) == 1:
            release.wait(5)
        return [ValueError(f"no batch for {match}") if match == "broken" else ([True] * len(auths), f"batch of {match}")
                for match, auths, _ in reads]

    reads = fanout.Gathered(reads_of, parallel=1)
    # given one hub's read under way
    first = asyncio.ensure_future(reads("m0", [], {"after": 0}))
    for _ in range(500):
        if calls:
            break
        await asyncio.sleep(0.01)
    assert calls == [["m0"]], first.exception() if first.done() else "the first read never started"
    # when three more hubs ask meanwhile, one of whose batches fails
    others = [asyncio.ensure_future(reads(match, [{"user_id": 1}], {"after": 3})) for match in ("m1", "broken", "m2")]
    await asyncio.sleep(0.05)
    assert calls == [["m0"]], "they wait for the call under way"
    release.set()
    # then they went together in the next call, and each hub got its own answer
    assert await first == ([], "batch of m0")
    assert await others[0] == ([True], "batch of m1") and await others[2] == ([True], "batch of m2")
    with pytest.raises(ValueError, match="broken"):
        await others[1]
    assert calls == [["m0"], ["m1", "broken", "m2"]]
    # and an idle server's read goes alone, at once
    assert await reads("m3", [], {"after": 0}) == ([], "batch of m3") and calls[-1] == ["m3"]


async def test_an_unreachable_database_fails_every_read_of_the_call():
    from django.db import OperationalError

    def down(reads):
        raise OperationalError("connection refused")

    reads = fanout.Gathered(down)
    got = await asyncio.gather(*(reads(m, [], {"after": 0}) for m in ("m1", "m2")), return_exceptions=True)
    assert [type(e) for e in got] == [OperationalError, OperationalError]
    assert reads.running == 0
