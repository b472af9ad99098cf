"""How many spectators watch each match: sockets without a seat, counted across every server.

Each server process reports its own counts (``report``) every few seconds, under its own key that
expires after ``ttl`` seconds: a server that is killed stops reporting and its counts vanish with
its key, so no count outlives its sockets by more than ``ttl``. ``spectators(match_ids)`` sums the
live reports. With ``REDIS_URL`` the reports live in Redis (one hash per process, and a sorted set
of the processes by expiry); without it (the embedded default: one server process) in memory.
The counts are advisory: while Redis is unreachable they read as 0 instead of failing the page
or the API answer that shows them.
"""

import logging
import threading
import time

from django.conf import settings

log = logging.getLogger(__name__)


class MemoryPresence:
    def __init__(self):
        self._lock = threading.Lock()
        self._reports: dict[str, tuple[float, dict]] = {}

    def report(self, process: str, counts: dict, ttl: float) -> None:
        with self._lock:
            if counts:
                self._reports[process] = (time.monotonic() + ttl, dict(counts))
            else:
                self._reports.pop(process, None)

    def spectators(self, match_ids) -> dict:
        now = time.monotonic()
        out = {m: 0 for m in match_ids}
        with self._lock:
            for process, (expires, counts) in list(self._reports.items()):
                if expires < now:
                    del self._reports[process]
                    continue
                for m in out:
                    out[m] += counts.get(m, 0)
        return out


class RedisPresence:
    def __init__(self, url: str, prefix: str):
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self.procs = f"{prefix}:spectators:procs"
        self.prefix = f"{prefix}:spectators:"

    def report(self, process: str, counts: dict, ttl: float) -> None:
        key = self.prefix + process
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(key)
        if counts:
            pipe.hset(key, mapping={m: n for m, n in counts.items()})
            pipe.expire(key, max(int(ttl), 1))
            pipe.zadd(self.procs, {process: time.time() + ttl})
        else:
            pipe.zrem(self.procs, process)
        pipe.execute()

    def spectators(self, match_ids) -> dict:
        out = {m: 0 for m in match_ids}
        if not out:
            return out
        import redis

        try:
            return self._sum(out)
        except redis.RedisError as exc:  # advisory figures: a page must not fail because Redis is away
            log.warning("spectator counts unavailable: %s: %s", type(exc).__name__, str(exc).strip()[:200])
            return {m: 0 for m in match_ids}

    def _sum(self, out: dict) -> dict:
        self.client.zremrangebyscore(self.procs, "-inf", time.time())
        procs = [p.decode() for p in self.client.zrange(self.procs, 0, -1)]
        if not procs:
            return out
        ids = list(out)
        pipe = self.client.pipeline(transaction=False)
        for process in procs:
            pipe.hmget(self.prefix + process, ids)
        for values in pipe.execute():
            for m, value in zip(ids, values):
                if value is not None:
                    out[m] += int(value)
        return out


_backend = None
_backend_lock = threading.Lock()


def backend():
    global _backend
    with _backend_lock:
        if _backend is None:
            url = getattr(settings, "REDIS_URL", "")
            _backend = (RedisPresence(url, settings.PRESENCE_PREFIX) if url else MemoryPresence())
        return _backend


def report(process: str, counts: dict, ttl: float) -> None:
    """Replace ``process``'s counts ({match_id: spectators}); they expire after ``ttl`` seconds."""
    backend().report(process, {str(m): int(n) for m, n in counts.items() if n}, ttl)


def spectators(match_ids) -> dict:
    """{match_id (str): spectators watching it now, summed over every server}."""
    return backend().spectators([str(m) for m in match_ids])
