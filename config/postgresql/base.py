"""Django's PostgreSQL backend with a cheaper pool check.

psycopg_pool's own check (what Django installs with CONN_HEALTH_CHECKS) sends an empty query on
every loan: under ASGI that is every request and every socket database call, a round trip each.
This pool skips the check for a connection lent less than ``RECENT_SECONDS`` ago, which worked
then; one the database dropped since fails its next statement (the request answers 503
``unavailable``, as during an outage) and the pool discards it when it comes back broken. A
connection idle for longer is checked as before, so after an outage every pooled one is.
"""

import time
import weakref

from django.db.backends.postgresql import base

RECENT_SECONDS = 1.0

_lent_at: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def check_unless_recent(conn) -> None:
    """psycopg_pool ``check`` callback: raise if ``conn`` does not work (not asked again within
    ``RECENT_SECONDS`` of its last loan)."""
    from psycopg_pool import ConnectionPool

    now = time.monotonic()
    lent = _lent_at.get(conn)
    if lent is None or now - lent >= RECENT_SECONDS:
        ConnectionPool.check_connection(conn)
    _lent_at[conn] = now


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if options and self.alias not in self._connection_pools and self.settings_dict["CONN_HEALTH_CHECKS"]:
            from psycopg_pool import ConnectionPool

            if options is True:
                options = {}
            # As Django builds it (django.db.backends.postgresql.base), but with this check.
            params = {**self.get_connection_params(), "autocommit": True}
            self._connection_pools.setdefault(self.alias, ConnectionPool(
                kwargs=params, open=False, configure=self._configure_connection, check=check_unless_recent, **options))
        return super().pool
