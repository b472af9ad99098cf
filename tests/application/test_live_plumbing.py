"""Live-play plumbing that must not fail a page or a request: advisory spectator counts, publishes."""

import pytest

from games.application.presence import RedisPresence
from tests.distributed.services import free_port


def test_counts_read_as_zero_while_redis_is_unreachable():
    # given a presence backend whose Redis refuses connections (nothing listens on the port)
    presence = RedisPresence(f"redis://127.0.0.1:{free_port()}/0", "kamiza-test")
    # when a page asks for the counts of two matches
    counts = presence.spectators(["m1", "m2"])
    # then it gets zeros, not an exception (which would be a 503 for the whole page)
    assert counts == {"m1": 0, "m2": 0}


def test_a_publish_to_a_hung_channel_layer_gives_up_and_is_logged(monkeypatch, caplog):
    """The write it announces is committed: a Redis that hangs must not hold the request."""
    import asyncio

    from asgiref.sync import async_to_sync
    from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer

    from games.application import hooks

    # given a channel layer with a listener on the match's group, whose sends never finish
    channel_layers.backends.pop("default", None)
    layer = get_channel_layer()
    async_to_sync(layer.group_add)(hooks.match_group("m1"), "listener")

    async def hang(self, group, message):
        await asyncio.sleep(3600)

    monkeypatch.setattr(InMemoryChannelLayer, "group_send", hang)
    monkeypatch.setattr(hooks, "PUBLISH_TIMEOUT_SECONDS", 0.05)
    try:
        # when the write path announces an append
        hooks.publish_appended("m1", 7)
    finally:
        channel_layers.backends.pop("default", None)
    # then it returned (no exception, no wait for the hung send) and said why nothing was pushed
    assert any("publish to match.m1 failed: TimeoutError" in r.getMessage() for r in caplog.records)


async def test_a_publish_from_a_servers_thread_is_handed_to_its_loop_without_waiting(monkeypatch, caplog):
    """A request's or a socket's thread does not wait for Redis: the loop it serves sends, in order."""
    import asyncio

    from asgiref.sync import sync_to_async
    from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer

    from games.application import hooks

    # given a listener on two matches' groups, and sends that take a while (a slow Redis); the second fails
    channel_layers.backends.pop("default", None)
    layer = get_channel_layer()
    await layer.group_add(hooks.match_group("m1"), "listener")
    await layer.group_add(hooks.match_group("m2"), "listener")
    sent, send = [], InMemoryChannelLayer.group_send

    async def slow(self, group, message):
        await asyncio.sleep(0.2)
        if group.endswith("m2"):
            raise ConnectionError("Redis went away")
        sent.append(message["seq"])
        await send(self, group, message)

    monkeypatch.setattr(InMemoryChannelLayer, "group_send", slow)
    loop = asyncio.get_running_loop()
    try:
        # when a thread that does this loop's sync work announces three appends
        def announce():
            t0 = loop.time()
            for seq in (7, 8):
                hooks.publish_appended("m1", seq)
            hooks.publish_appended("m2", 1)
            return loop.time() - t0

        took = await sync_to_async(announce, thread_sensitive=False)()
        # then it did not wait for any of them, and the loop sent them in the order given
        assert took < 0.2 and sent == []
        got = [await asyncio.wait_for(layer.receive("listener"), 2) for _ in range(2)]
        assert [m["seq"] for m in got] == [7, 8] == sent
        await asyncio.sleep(0.05)
        assert any("publish to match.m2 failed" in r.getMessage() for r in caplog.records)
    finally:
        channel_layers.backends.pop("default", None)


@pytest.mark.django_db
def test_a_paged_batch_never_caches_a_page_end_state_as_the_head_state(started_pebbles, settings):
    """A hub more than a page behind reads one page; the state it keeps for the head must be the
    head's, not the fold of the cached state plus that page (which stops short of the head)."""
    from games.application import live, selectors

    from .social_play import play_to_the_end

    # given a finished match, a cached fold at seq 2 and a socket page of 3 events
    match, users = started_pebbles()
    play_to_the_end(match, users, seed=3)
    match.refresh_from_db()
    head = match.head_seq
    assert head > 8
    settings.SOCKET_SYNC_PAGE = 3
    selectors.cache_clear()
    selectors.cache_put(match.pk, 2, selectors.state_load(match, until=2, use_cache=False))
    # when a hub at seq 2 reads its batch
    out = live.batch(match.pk, after=2, user_ids=[users[0].pk], spectators_after=None, policy=None)
    # then it got one page that says more follow, and the state used (and cached) is the head's
    assert (out.until, out.head) == (5, head) and out.seats[0].more
    assert out.status == "finished"
    cached = selectors.cache_behind(match.pk, head)
    assert cached is None or cached[0] < head or cached[1] == selectors.state_load(match, use_cache=False)


def test_the_fold_cache_keeps_as_many_matches_as_configured_the_least_recent_going_first(settings):
    from games.application import selectors

    selectors.cache_clear()
    # given a cache sized for two matches
    settings.FOLD_CACHE_MATCHES = 2
    try:
        # when three matches' folds are cached, the first one used again before the third
        selectors.cache_put("m1", 5, {"n": 1})
        selectors.cache_put("m2", 6, {"n": 2})
        selectors.cache_put("m1", 7, {"n": 3})
        selectors.cache_put("m3", 8, {"n": 4})
        # then the least recently stored (m2) is gone and the other two answer at their seqs
        assert selectors.cache_behind("m2", 100) is None
        assert selectors.cache_behind("m1", 7) == (7, {"n": 3})
        assert selectors.cache_behind("m3", 8) == (8, {"n": 4})
        # and a size of a thousand live matches keeps them all
        settings.FOLD_CACHE_MATCHES = 1024
        for i in range(600):
            selectors.cache_put(f"live{i}", i, {"n": i})
        assert all(selectors.cache_behind(f"live{i}", i) is not None for i in range(600))
    finally:
        selectors.cache_clear()
