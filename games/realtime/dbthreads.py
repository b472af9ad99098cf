"""The socket side's database threads.

Channels' ``database_sync_to_async`` is thread-sensitive: outside an HTTP request every socket's
database call in a process runs on one shared thread, so one slow call (a pool waiting for an
unreachable database) holds up every handshake and command behind it. Socket code uses ``db``
instead: a pool of ``SOCKET_DB_THREADS`` threads, with Channels' connection clean-up around each call.

While the database's pool cannot hand out a connection (a call waited ``DB_POOL_TIMEOUT`` for one
in vain), the calls meet a breaker (``OutageBreaker``): one at a time tries the database, and every
other fails at once with ``Unavailable`` (the socket says "unavailable" and closes 1013) instead of
holding one of the few threads for the whole timeout. A storm of sockets reconnecting during an
outage is answered at once rather than a couple of calls every few seconds; the first call that
gets through closes the breaker.
"""

from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from psycopg_pool import PoolTimeout

from games.application.errors import Unavailable

_executor: ThreadPoolExecutor | None = None


class OutageBreaker:
    """Open from a call that timed out waiting for a pooled connection until a call gets through.
    While open, one call at a time (the probe) tries the database; the others are refused. Used
    from the event loop only, so it needs no lock."""

    def __init__(self):
        self.open = False
        self.probing = False

    def admit(self) -> bool:
        """Whether this call is the probe; raises ``Unavailable`` when another probe is under way."""
        if not self.open:
            return False
        if self.probing:
            raise Unavailable()
        self.probing = True
        return True

    def settle(self, probe: bool, exc: BaseException | None) -> None:
        if probe:
            self.probing = False
        if exc is None:
            self.open = False
        elif _waited_for_the_pool(exc):
            self.open = True


def _waited_for_the_pool(exc: BaseException) -> bool:
    """Whether ``exc`` (Django wraps the driver's errors) comes from the pool timing out."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, PoolTimeout):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


breaker = OutageBreaker()


def db(fn):
    """``fn`` on one of this process's socket database threads, past the outage breaker: the
    sockets' reads and commands neither queue behind one thread nor behind the HTTP requests."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.SOCKET_DB_THREADS, thread_name_prefix="kamiza-socket-db")
    call = DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_executor)

    async def guarded(*args, **kwargs):
        probe = breaker.admit()
        try:
            result = await call(*args, **kwargs)
        except BaseException as exc:
            breaker.settle(probe, exc)
            raise
        breaker.settle(probe, None)
        return result

    return guarded
