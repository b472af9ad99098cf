"""The pool's check before lending a connection (config.postgresql). Here so that CI's PostgreSQL run
(tests/eventstore and tests/application) checks the pool really uses it."""

import pytest

from config.postgresql import base as pool_backend

pytest.importorskip("psycopg_pool")


class FakeConnection:
    autocommit = True

    def __init__(self, broken=False):
        self.checks = 0
        self.broken = broken

    def execute(self, query):
        self.checks += 1
        if self.broken:
            raise OSError("server closed the connection")


def test_a_connection_is_checked_on_its_first_loan_and_again_once_it_was_idle(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(pool_backend.time, "monotonic", lambda: clock[0])
    conn = FakeConnection()
    pool_backend.check_unless_recent(conn)
    assert conn.checks == 1
    clock[0] += pool_backend.RECENT_SECONDS / 2
    pool_backend.check_unless_recent(conn)
    assert conn.checks == 1, "lent a moment ago: not asked again"
    clock[0] += pool_backend.RECENT_SECONDS
    pool_backend.check_unless_recent(conn)
    assert conn.checks == 2, "idle for longer: checked again"


def test_a_broken_connection_fails_its_check():
    with pytest.raises(OSError):
        pool_backend.check_unless_recent(FakeConnection(broken=True))


def test_the_pool_uses_this_check(settings):
    from django.db import connection

    if connection.vendor != "postgresql" or not settings.DATABASES["default"]["OPTIONS"].get("pool"):
        pytest.skip("the pool is PostgreSQL's")
    assert connection.pool._check is pool_backend.check_unless_recent
