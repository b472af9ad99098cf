"""The socket side's database threads.

Channels' ``database_sync_to_async`` is thread-sensitive: outside an HTTP request every socket's
database call in a process runs on one shared thread, so one slow call (a pool waiting for an
unreachable database) holds up every handshake and command behind it. Socket code uses ``db``
instead: a pool of ``SOCKET_DB_THREADS`` threads, with Channels' connection clean-up around each call.
"""

from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings

_executor: ThreadPoolExecutor | None = None


def db(fn):
    """``fn`` on one of this process's socket database threads: the sockets' reads and commands
    neither queue behind one thread nor behind the HTTP requests."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.SOCKET_DB_THREADS, thread_name_prefix="kamiza-socket-db")
    return DatabaseSyncToAsync(fn, thread_sensitive=False, executor=_executor)
