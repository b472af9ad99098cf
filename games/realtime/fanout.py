"""Fan-out inside one server process: one hub per watched match, one channel for the process.

The write path publishes ``{"type": "match.appended", "match", "seq"}`` to the group
``match.<id>`` after each commit. Sockets do not join that group one by one: each server process
has one channel (``Fanout``), which joins the group of every match it has sockets on, so a
publish costs one message per server, not one per socket. The message carries no game data.

On a publish the match's ``Hub`` makes one store read for all its sockets
(``games.application.live.batch``): the new events, redacted once per seat that has sockets here
and once for all spectators, and one ``/view/`` document each; every message is encoded once and
the same text is queued on every socket of that viewer. A busy server gathers its hubs' reads
(``Gathered``): those asked while a read runs go together in the next one, one hop to a database
thread, one query for all their logins and one for all their new events (``live.batches``).
Nothing a socket receives ever crossed the channel layer, and each seat's text only goes to the
sockets of that seat (the seat is resolved from the head's lobby for every batch, as a push always
did).

Delivery is in order and gapless per socket: the hub sends a shared page only to a socket whose
last sent seq is where the page starts; any other socket (it synced, joined or changed seat in
between) gets a page read for it alone. The layer stays at-most-once: a lost publish is healed by
the next one (the hub reads from its own last seq to the head) or by the client's ``sync``.

Spectators of a match with a watch policy (``games.application.watch``) follow the limit it sets:
their page stops there, and a timer moves them on when the limit moves by time alone.

Chat and rematch news (``games.application.social``) arrive on the same channel, name their
audience, and are encoded once and queued on the hub's sockets of that audience.

The process also re-checks every authenticated socket's login in one batch every
``SOCKET_AUTH_RECHECK_SECONDS``, and reports its spectator counts (``games.application.presence``)
every ``SPECTATOR_REPORT_SECONDS``, each report expiring after three intervals.

Every socket is told how many spectators watch its match, summed over every server: the hello's
``spectators``, then ``{"type": "watchers", "spectators": N}`` whenever that number changes. A server
whose own count of a match changed publishes ``{"type": "match.watchers", "match"}`` to the match's
group once its report is written (a settled burst of joins and leaves is one report); each server
with sockets there then reads the sum from the presence store, once for all its matches that asked
(one read per server per change, never one per socket, and no database), and queues the same text
on each of the hub's sockets when the sum differs from what they were last told. Every report
interval each server also re-reads the sums of all its matches, which heals a lost notice and a
killed server's expired counts.
"""

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
import uuid
import weakref
from collections import deque

import orjson
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from games.application import live, presence, social, watch
from games.application.errors import as_unavailable
from games.application.hooks import match_group

from .auth import still_authorised_many
from .dbthreads import db

log = logging.getLogger(__name__)

GROUP_REFRESH_SECONDS = 3600  # re-join every group well within channels_redis's group expiry (a day)
OUTBOX_LIMIT = 2000  # messages queued for one socket that does not read: it is closed (1013, try again)
WATCHERS_TYPE = "match.watchers"  # a server's spectator count of the match changed: re-read the sum


def encode(payload: dict) -> str:
    try:
        return orjson.dumps(payload).decode()
    except TypeError:  # an integer past 64 bits, or a type orjson does not know
        return json.dumps(payload, separators=(",", ":"), default=str)


# -- one socket's outgoing queue -------------------------------------------------------------------


class _Gate:
    """A place held in an outbox (a command being decided); released with the text to send there."""

    __slots__ = ("text", "open")

    def __init__(self):
        self.text, self.open = None, False


class Outbox:
    """Messages for one socket, sent in the order they were queued by one writer task, so the hub
    never waits on a slow client. ``hold()`` reserves the next place (a command's answer comes
    before the pushes its append causes); ``close(code)`` sends what is queued, then closes."""

    def __init__(self, send_text, close):
        self._send_text, self._close = send_text, close
        self._queue: deque = deque()
        self._wake = asyncio.Event()
        self._done = False
        self._task = asyncio.get_running_loop().create_task(self._run())

    def put(self, text: str) -> None:
        if self._done:
            return
        self._queue.append(text)
        if len(self._queue) > OUTBOX_LIMIT:
            log.warning("a socket is not reading; closing it")
            self._queue.clear()
            self._queue.append(("close", 1013))
        self._wake.set()

    def hold(self) -> _Gate:
        gate = _Gate()
        self._queue.append(gate)
        return gate

    def release(self, gate: _Gate, text: str | None) -> None:
        gate.text, gate.open = text, True
        self._wake.set()

    def close(self, code: int) -> None:
        if not self._done:
            self._queue.append(("close", code))
            self._wake.set()

    def stop(self) -> None:
        self._done = True
        self._queue.clear()
        if self._task is not asyncio.current_task():
            self._task.cancel()

    async def _run(self):
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    item = self._queue[0]
                    if isinstance(item, _Gate):
                        if not item.open:
                            break
                        self._queue.popleft()
                        if item.text is not None:
                            await self._send_text(item.text)
                    elif isinstance(item, tuple):
                        self._queue.clear()
                        self._done = True
                        await self._close(item[1])
                        return
                    else:
                        self._queue.popleft()
                        await self._send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away mid-send: nothing more can reach it
            self._done = True
            self._queue.clear()


# -- one match ---------------------------------------------------------------------------------------


class Hub:
    POLICY_SECONDS = 30.0  # a match's watch policy is set when it is created; re-read now and then

    def __init__(self, fanout: "Fanout", match_id: str):
        self.fanout, self.match_id = fanout, match_id
        self.sockets: set = set()
        self.joining = 0  # sockets between attach() and the end of join()
        self.subscribed = False
        self.seq: int | None = None  # the head the seat sockets were brought to
        self.spec_seq: int | None = None  # where the spectators were brought to
        self.lock = asyncio.Lock()
        self._task: asyncio.Task | None = None
        self._again = False
        self._timer: asyncio.TimerHandle | None = None
        self._policy, self._policy_at = None, float("-inf")
        self.closed = False
        self.watching = 0  # spectators of the match over every server, as its sockets were last told

    # membership
    async def join(self, sock) -> bool:
        """Greet ``sock`` (its hello) and start pushing to it; False when this hub closed meanwhile
        (ask the fanout for a new one). Raises what ``live.page_for`` raises (not found, refused)."""
        try:
            async with self.lock:
                if self.closed:
                    return False
                if not self.subscribed:  # before the first read, so an append landing in between is pushed
                    await self.fanout.subscribe(self.match_id)
                    self.subscribed = True
                viewer, page = await db(_page_read)(self.match_id, sock, None)
                if viewer is None:  # the login ended
                    await sock.end_session()
                    return True
                sock.seat, sock.last_sent = viewer.seat, page.until
                if self.seq is None:
                    self.seq = page.head
                if viewer.seat is None and self.spec_seq is None:
                    self.spec_seq = page.until
                first = not self.sockets
                self.sockets.add(sock)
                sock.hello(page, self.watching)
                if viewer.next_at is not None:
                    self._arm(viewer.next_at)
            if first:  # a new hub here: spectators may already watch on other servers
                self.fanout.want_counts([self.match_id])
            self.fanout.presence_changed()
            return True
        finally:
            self.joining -= 1
            if not self.sockets and not self.joining:
                await self.close()

    async def leave(self, sock) -> None:
        if sock not in self.sockets:
            return
        self.sockets.discard(sock)
        if not any(s.seat is None for s in self.sockets):
            self.spec_seq = None
        self.fanout.presence_changed()
        if not self.sockets and not self.joining:
            await self.close()

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        await self.fanout.hub_closed(self)

    def spectators(self) -> int:
        return sum(1 for s in self.sockets if s.seat is None)

    def watchers(self, count: int) -> None:
        """The match's spectators over every server are now ``count``: tell each socket here, once
        per change (one text for all of them)."""
        if count == self.watching or self.closed:
            return
        self.watching = count
        text = encode(watchers_message(count))
        for sock in list(self.sockets):
            if not sock.ended:
                sock.outbox.put(text)

    def _seat_changed(self, sock, seat) -> None:
        """Set the seat ``sock`` is now pushed as; a socket that took a seat or left its seat changes
        the spectator count."""
        if (sock.seat is None) != (seat is None):
            self.fanout.presence_changed()
        sock.seat = seat

    def social(self, audience, body: dict) -> None:
        """Chat or rematch news: encoded once, queued on each socket whose seat (as of the last push
        or hello it was sent) is in ``audience``: the players' chat never reaches a spectator's socket."""
        text = encode(body)
        for sock in list(self.sockets):
            sock.social(audience, text)

    # new events
    def announce(self, seq) -> None:
        if isinstance(seq, int) and self.seq is not None and seq <= self.seq and self.spec_seq in (None, self.seq):
            return  # already pushed (a duplicate or late publish)
        self.kick()

    def kick(self) -> None:
        if self.closed:
            return
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._run())

    def _arm(self, when) -> None:
        delay = max((when - timezone.now()).total_seconds(), 0.0) + 0.05
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(delay, self.kick)

    async def _run(self):
        while True:
            self._again = False
            try:
                await self.refresh()
            except Exception as exc:
                if as_unavailable(exc) is not None:  # close 1013: each client reconnects and syncs what it missed
                    self.fail(exc)
                    return
                log.exception("push on match %s failed; its sockets recover with the next push or sync", self.match_id)
            if not self._again or self.closed:
                return

    def fail(self, exc) -> None:
        for sock in list(self.sockets):
            sock.fail(exc)

    async def _policy_now(self):
        now = time.monotonic()
        if now - self._policy_at > self.POLICY_SECONDS:
            self._policy = await self.fanout.policies(self.match_id)
            self._policy_at = now
        return self._policy

    async def refresh(self) -> None:
        """Bring every socket to the head (page by page), each by the shared page of its viewer."""
        async with self.lock:
            while self.sockets and self.seq is not None and not self.closed:
                spectators = [s for s in self.sockets if s.seat is None]
                if spectators and self.spec_seq is None:
                    self.spec_seq = min(s.last_sent for s in spectators)
                spec_after = self.spec_seq if spectators else None
                policy = await self._policy_now() if spectators else None
                signed_in = [s for s in self.sockets if s.authenticated and not s.ended]
                ok, b = await self.fanout.reads(self.match_id, [s.auth for s in signed_in], {
                    "after": self.seq, "user_ids": {s.user_id for s in signed_in}, "spectators_after": spec_after,
                    "policy": policy})
                for sock, fine in zip(signed_in, ok):
                    if not fine:  # its login ended: no more pushes, even before the timer sees it
                        await sock.end_session()
                texts = {seat: _page_texts(page) for seat, page in b.seats.items()}
                spec_texts = _page_texts(b.spectators)
                for sock in list(self.sockets):
                    seat = b.seat_of.get(sock.user_id) if sock.user_id is not None else None
                    page, shared = (b.seats.get(seat), texts.get(seat)) if seat is not None else (b.spectators, spec_texts)
                    self._seat_changed(sock, seat)
                    try:
                        await self._deliver(sock, page, shared)
                    except Exception as exc:  # one socket's own read failed: close it alone (it reconnects and syncs)
                        if as_unavailable(exc) is not None:
                            raise
                        log.exception("push to a socket on match %s failed; closing that socket", self.match_id)
                        sock.fail(exc)
                self.seq = b.until
                if b.spectators is not None:
                    self.spec_seq = b.spectators.until
                if b.next_at is not None:
                    self._arm(b.next_at)
                if b.until >= b.head and not (b.spectators is not None and b.spectators.more):
                    return

    async def _deliver(self, sock, page, shared) -> None:
        if sock.ended:
            return
        if page is not None and sock.last_sent == page.after:
            if page.until > page.after:
                for text in shared:
                    sock.outbox.put(text)
                sock.last_sent = page.until
            return
        if page is not None and sock.last_sent >= page.until:
            return  # it already has these (it synced past them)
        await self.catch_up(sock)

    async def catch_up(self, sock, *, after: int | None = None, always: bool = False) -> None:
        """A page read for ``sock`` alone after ``after`` (default: its last sent seq), with the hub's
        lock held. ``always``: a ``sync`` answer, sent even when empty."""
        after = sock.last_sent if after is None else after
        viewer, page = await db(_page_read)(self.match_id, sock, after)
        if viewer is None:
            await sock.end_session()
            return
        self._seat_changed(sock, viewer.seat)
        if not page.events and not always and not page.more:
            return
        for text in _page_texts(page):
            sock.outbox.put(text)
        sock.last_sent = page.until if always else max(sock.last_sent, page.until)
        if page.more and not always:
            await self.catch_up(sock)

    async def sync(self, sock, after: int) -> None:
        async with self.lock:
            await self.catch_up(sock, after=after, always=True)


def watchers_message(count: int) -> dict:
    return {"type": "watchers", "spectators": count}


def _page_texts(page) -> list[str]:
    """The ``events`` message (its ``seq``: the head as this viewer may know it) and, when the page
    reaches that, the ``state`` message."""
    if page is None:
        return []
    msg = {"type": "events", "events": page.events, "seq": page.seq}
    if page.more:
        msg["more"] = True
    out = [encode(msg)]
    if page.doc is not None:
        out.append(encode({"type": "state", "seq": page.doc["seq"], "state": page.doc}))
    return out


class Gathered:
    """A sync database read ``many`` that hubs ask for one at a time, gathered: while a call runs
    for some of them (on a socket database thread), those asked meanwhile wait, then go together in
    the next call, so a busy server makes one hop and one query for many. At most ``parallel``
    calls run at once; when the server is idle a read goes alone, at once. ``many`` takes each
    read's arguments (a tuple) and returns each one's result, or the exception that is that read's
    alone; an exception it raises (the database is down, say) is every read's of the call."""

    def __init__(self, many, parallel: int = 2):
        self.many, self.parallel = many, parallel
        self.running = 0
        self.waiting: list = []
        self.tasks: set = set()  # the loop keeps only weak references to tasks

    async def __call__(self, *args):
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.waiting.append((args, future))
        if self.running < self.parallel:
            self.running += 1
            task = loop.create_task(self._run())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await future

    async def _run(self):
        try:
            while self.waiting:
                reads, self.waiting = self.waiting, []
                try:
                    results = await db(self.many)([args for args, _ in reads])
                except Exception as exc:
                    results = [exc] * len(reads)
                for (_, future), result in zip(reads, results):
                    if future.done():  # its hub stopped waiting
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self.running -= 1


def _push_reads(reads: list) -> list:
    """For each ``(match_id, auths, batch kwargs)``: (each login in ``auths`` still valid?, its hub's
    ``live.batch``), or the error its batch raised (one hub's failure is that hub's). Every login of
    every read is checked in one query (for token logins), and the new events of all are read in
    one more."""
    checked = still_authorised_many([auth for _, auths, _ in reads for auth in auths])
    batches = live.batches([{"match_id": match_id, **kwargs} for match_id, _, kwargs in reads])
    out, at = [], 0
    for (_, auths, _), batch in zip(reads, batches):
        ok, at = checked[at:at + len(auths)], at + len(auths)
        out.append(batch if isinstance(batch, Exception) else (ok, batch))
    return out


def _page_read(match_id, sock, after):
    """(viewer, page) for one socket, or (None, None) once its login has ended."""
    if sock.authenticated and not still_authorised_many([sock.auth])[0]:
        return None, None
    return live.page_for(match_id, sock.user if sock.authenticated else None, after)


def _policy_reads(reads: list) -> list:
    """For each ``(match_id,)``: its watch policy (None: it has none), all read at once."""
    policies = watch.policies_of([match_id for match_id, in reads])
    return [policies.get(str(match_id)) for match_id, in reads]


# -- one process --------------------------------------------------------------------------------


_fanouts: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class Fanout:
    """This process's subscription to the channel layer, its hubs, its login re-check and its
    spectator counts. One per event loop and channel layer."""

    @classmethod
    def get(cls) -> "Fanout":
        layer = get_channel_layer()
        loop = asyncio.get_running_loop()
        fanout = _fanouts.get(loop)
        if fanout is None or fanout.layer is not layer or fanout.stopped:
            fanout = cls(layer)
            _fanouts[loop] = fanout
        return fanout

    def __init__(self, layer):
        self.layer = layer
        self.hubs: dict[str, Hub] = {}
        self.channel: str | None = None
        self.process = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.stopped = False
        self._tasks: list[asyncio.Task] = []
        self._started = False
        self._starting: asyncio.Task | None = None
        self._presence_dirty = asyncio.Event()
        self._reported: dict = {}  # this process's spectator counts as last reported
        self._counts_wanted: set = set()  # matches whose sum over every server to re-read
        self._counts_wake = asyncio.Event()
        self.reads = Gathered(_push_reads)  # the hubs' reads for their pushes
        self.policies = Gathered(_policy_reads)  # and for their spectators' watch policies

    async def _start(self):
        """Open this process's channel and start its loops, once (concurrent callers wait for it).
        A fanout that could not open (Redis is down) is stopped, so the next socket gets a new one
        instead of the same failure forever."""
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(self._open())
        try:
            await asyncio.shield(self._starting)
        except Exception:
            if not self.stopped:
                await self.stop()
            raise

    async def _open(self):
        loop = asyncio.get_running_loop()
        if self.layer is not None:
            self.channel = await self.layer.new_channel(prefix="kamiza-fanout")
            self._tasks.append(loop.create_task(self._receive()))
            if getattr(settings, "REDIS_URL", "") and getattr(settings, "CHANNEL_LAYER", "") == "pubsub":
                self._tasks.append(loop.create_task(self._watch_redis()))
        self._tasks.append(loop.create_task(self._recheck()))
        self._tasks.append(loop.create_task(self._report()))
        self._tasks.append(loop.create_task(self._read_counts()))
        self._started = True

    async def attach(self, match_id: str, sock) -> Hub:
        """Join ``sock`` to its match's hub here (creating it), and greet it."""
        fanout = self
        while fanout.stopped:  # its last hub closed meanwhile: this loop gets a new one
            fanout = Fanout.get()
        if fanout is not self:
            return await fanout.attach(match_id, sock)
        while True:
            await self._start()
            hub = self.hubs.get(match_id)
            if hub is None:
                hub = self.hubs[match_id] = Hub(self, match_id)
            hub.joining += 1  # no await since the look-up: a closing hub sees it
            if await hub.join(sock):
                return hub
            if self.stopped:
                return await Fanout.get().attach(match_id, sock)

    async def subscribe(self, match_id: str) -> None:
        if self.layer is not None:
            await self.layer.group_add(match_group(match_id), self.channel)

    async def hub_closed(self, hub: Hub) -> None:
        if self.hubs.get(hub.match_id) is hub:
            del self.hubs[hub.match_id]
            if self.layer is not None and hub.subscribed and not self.stopped:
                try:
                    await self.layer.group_discard(match_group(hub.match_id), self.channel)
                except Exception as exc:  # Redis is gone: the membership goes with the connection (or expires)
                    if as_unavailable(exc) is None:
                        log.exception("leaving the group of match %s failed", hub.match_id)
        if not self.hubs and not self.stopped:
            await self.stop()

    async def stop(self) -> None:
        self.stopped = True
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            if task is not asyncio.current_task():
                task.cancel()
        if self._started:
            await self._report_once({})

    # the channel layer
    async def _receive(self):
        refreshed = time.monotonic()
        while True:
            try:
                msg = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if as_unavailable(exc) is not None:  # Redis is gone: every socket here reconnects and syncs
                    await self.outage(exc)
                    return
                log.exception("receiving from the channel layer failed")
                await asyncio.sleep(1.0)
                continue
            hub = self.hubs.get(str(msg.get("match")))
            if hub is not None and msg.get("type") == "match.appended":
                hub.announce(msg.get("seq"))
            elif hub is not None and msg.get("type") == WATCHERS_TYPE:
                self.want_counts([hub.match_id])
            elif hub is not None and msg.get("type") == social.PUSH_TYPE and isinstance(msg.get("body"), dict):
                hub.social(msg.get("audience"), msg["body"])
            if time.monotonic() - refreshed > GROUP_REFRESH_SECONDS:
                refreshed = time.monotonic()
                for match_id in list(self.hubs):
                    await self.layer.group_add(match_group(match_id), self.channel)

    async def outage(self, exc) -> None:
        """Redis (or the database) is unreachable: tell every socket here (``unavailable``, close 1013),
        so each reconnects, to whichever server is up, and syncs from its last seq; new sockets get a
        new fanout, subscribed afresh."""
        log.warning("live fan-out lost its connection: %s: %s", type(exc).__name__, str(exc).strip()[:200])
        for hub in list(self.hubs.values()):
            hub.fail(exc)
        await self.stop()

    async def _watch_redis(self):
        """Wait on an idle pub/sub connection of our own: it fails as soon as Redis goes away.
        (channels_redis's pub/sub layer reconnects quietly and never tells its receivers, so messages
        published meanwhile would be lost without anyone knowing.)"""
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5)
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(f"{settings.CHANNELS_PREFIX}:liveness")
            while True:
                await pubsub.get_message(timeout=None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if as_unavailable(exc) is None:
                log.exception("the Redis watch failed")
                return
            await self.outage(exc)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
                await client.aclose()

    # logins
    async def _recheck(self):
        while True:
            await asyncio.sleep(float(getattr(settings, "SOCKET_AUTH_RECHECK_SECONDS", 2.0)))
            sockets = [s for hub in list(self.hubs.values()) for s in hub.sockets if s.authenticated and not s.ended]
            if not sockets:
                continue
            try:
                ok = await db(still_authorised_many)([s.auth for s in sockets])
            except Exception as exc:  # a transient DB error must not drop every socket; commands fail closed
                if as_unavailable(exc) is None:
                    log.exception("socket auth re-check failed")
                continue
            for sock, fine in zip(sockets, ok):
                if not fine:
                    await sock.end_session()

    # spectator counts
    def presence_changed(self) -> None:
        self._presence_dirty.set()

    def counts(self) -> dict:
        return {match_id: hub.spectators() for match_id, hub in self.hubs.items() if hub.spectators()}

    async def _report(self):
        reread = time.monotonic()
        while True:
            interval = float(settings.SPECTATOR_REPORT_SECONDS)
            counts = self.counts()
            await self._report_once(counts, ttl=3 * interval)
            await self._tell_changes(counts)
            if time.monotonic() - reread >= interval:  # every sum again: a lost notice, an expired server
                reread = time.monotonic()
                self.want_counts(list(self.hubs))
            try:
                await asyncio.wait_for(self._presence_dirty.wait(), timeout=interval)
                await asyncio.sleep(min(0.5, interval))  # let a burst of joins settle into one report
            except asyncio.TimeoutError:
                pass
            self._presence_dirty.clear()

    async def _tell_changes(self, counts: dict) -> None:
        """After a report: every server with sockets on a match whose count here changed re-reads its sum."""
        changed = [m for m in {*counts, *self._reported} if counts.get(m, 0) != self._reported.get(m, 0)]
        self._reported = dict(counts)
        if self.layer is None:
            self.want_counts(changed)
            return
        for match_id in changed:
            try:
                await self.layer.group_send(match_group(match_id), {"type": WATCHERS_TYPE, "match": match_id})
            except Exception as exc:  # advisory: the next interval's re-read heals it
                if as_unavailable(exc) is None:
                    log.exception("telling the servers of match %s about its spectators failed", match_id)

    def want_counts(self, match_ids) -> None:
        self._counts_wanted.update(match_ids)
        if self._counts_wanted:
            self._counts_wake.set()

    async def _read_counts(self):
        """Re-read the asked matches' sums, all in one read, and tell their hubs."""
        while True:
            await self._counts_wake.wait()
            self._counts_wake.clear()
            wanted, self._counts_wanted = self._counts_wanted, set()
            match_ids = [m for m in wanted if m in self.hubs]
            if not match_ids:
                continue
            try:
                sums = await asyncio.to_thread(presence.spectators, match_ids)
            except Exception as exc:  # advisory: the next change or interval tries again
                if as_unavailable(exc) is None:
                    log.exception("reading spectator counts failed")
                continue
            for match_id, count in sums.items():
                hub = self.hubs.get(match_id)
                if hub is not None:
                    hub.watchers(count)

    async def _report_once(self, counts: dict, ttl: float = 0.0) -> None:
        ttl = ttl or 3 * float(settings.SPECTATOR_REPORT_SECONDS)
        try:
            await asyncio.to_thread(presence.report, self.process, counts, ttl)
        except Exception as exc:  # counts are advisory; they expire on their own
            if as_unavailable(exc) is None:
                log.exception("reporting spectator counts failed")
