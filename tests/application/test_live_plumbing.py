"""Live-play plumbing that must not fail a page or a request: advisory spectator counts, publishes."""

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
