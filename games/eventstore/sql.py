"""Plain SQL on the hot paths (the write path, the rebuild, the deleted-account look-up).

Statements run on the database driver's own cursor, inside Django's connection and therefore inside
its transaction (``transaction.atomic`` around the caller still commits or rolls them back), with
driver errors turned into Django's (``IntegrityError`` and so on) exactly as Django's cursors do.
What is skipped is Django's per-statement wrapper (the placeholder rewrite on SQLite, the debug
log), which cost several times the statement itself on SQLite. Values go through the backend's own
adapters (``connection.ops``), so rows are stored exactly as the ORM stores them.

Queries are written with ``%s`` placeholders; on SQLite they are rewritten to ``?`` once per
distinct statement. On PostgreSQL, statements asked with ``prepare=True`` are prepared on the
server once per connection (persistent connections keep them), which saves their parse and plan on
every later call; the default, as with Django's own cursors, binds on the client and prepares
nothing (connection poolers in transaction mode need that).
"""

import json
import uuid
import weakref
from functools import lru_cache

import orjson

from django.db import DEFAULT_DB_ALIAS, connections

from .codec import json_decode


@lru_cache(maxsize=512)
def _native(query: str, vendor: str) -> str:
    return query.replace("%s", "?") if vendor == "sqlite" else query


def database():
    """The default connection's wrapper, looked up once (each attribute of ``django.db.connection``
    is a look-up of its own)."""
    return connections[DEFAULT_DB_ALIAS]


def run(query: str, params=(), *, fetch: str | None = None, prepare: bool = False, db=None):
    """Execute ``query``; return ``fetchone()`` for ``fetch="one"``, ``fetchall()`` for
    ``fetch="all"``, else the row count. ``db``: the connection wrapper, if the caller has it."""
    if db is None:
        db = connections[DEFAULT_DB_ALIAS]
    if db.connection is None:
        db.ensure_connection()
    if prepare and db.vendor == "postgresql":
        with db.wrap_database_errors:
            cursor = _prepared_cursor(db.connection)
            cursor.execute(query, params, prepare=True)
            return _result(cursor, fetch)
    with db.wrap_database_errors:
        cursor = db.connection.cursor()
        try:
            cursor.execute(_native(query, db.vendor), params)
            return _result(cursor, fetch)
        finally:
            cursor.close()


def _result(cursor, fetch):
    if fetch == "one":
        return cursor.fetchone()
    if fetch == "all":
        return cursor.fetchall()
    return cursor.rowcount


# One psycopg Cursor per connection for the prepared statements (its plain Cursor binds on the
# server, which a prepared statement needs); made once, as making a cursor costs as much as a
# statement. A connection is only ever used by one thread.
_prepared_cursors: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
PREPARE_ONLY_WHEN_ASKED = 2**31 - 1  # a threshold no unasked statement reaches


def _prepared_cursor(raw):
    cursor = _prepared_cursors.get(raw)
    if cursor is None or cursor.closed:
        if raw.prepare_threshold is None:
            # Django turns psycopg's preparing off for the connection (``prepare_threshold=None``),
            # which silently ignores ``prepare=True`` too. Its own cursors bind on the client and
            # never prepare, so a threshold only enables the statements asked for here.
            raw.prepare_threshold = PREPARE_ONLY_WHEN_ASKED
        cursor = _prepared_cursors[raw] = _psycopg().Cursor(raw)
    return cursor


def fetch_many(statements, *, db=None) -> list[list]:
    """Run each ``(query, params)`` and return its rows ([] for a statement without rows). On
    PostgreSQL they are sent together and answered together: one round trip for all (a pipeline;
    psycopg still sends a transaction's BEGIN, when this opens one, in a round trip of its own),
    which counts when every round trip waits its turn on a busy machine. Elsewhere one after the other. Only for statements whose row counts nobody reads
    (in a pipeline they come with the answers)."""
    db = db or database()
    if db.vendor != "postgresql" or len(statements) < 2:
        return [run(query, params, fetch="all", db=db) for query, params in statements]
    if db.connection is None:
        db.ensure_connection()
    with db.wrap_database_errors:
        cursors = [db.connection.cursor() for _ in statements]
        try:
            with db.connection.pipeline():
                for cursor, (query, params) in zip(cursors, statements):
                    cursor.execute(query, params)
            return [cursor.fetchall() if cursor.description is not None else [] for cursor in cursors]
        finally:
            for cursor in cursors:
                cursor.close()


@lru_cache(maxsize=1)
def _psycopg():
    import psycopg  # only installed where PostgreSQL is used

    return psycopg


def uuid_param(value: uuid.UUID, db=None):
    """A UUID as this backend stores it (SQLite: 32 hex digits)."""
    return value if (db or database()).features.has_native_uuid_field else value.hex


def json_param(value, db=None):
    """A JSON value as this backend's JSONField stores it, written by orjson (``json_bytes``) rather
    than by Django's json.dumps, several times slower on the write path's handful of JSON values
    per command. On PostgreSQL the column is jsonb, which keeps no text; on SQLite it is the JSON
    text, compact where Django's has spaces, which every reader (Django's json.loads, SQLite's
    json_extract) reads as the same value."""
    db = db or database()
    if db.vendor == "postgresql":
        return _psycopg_jsonb()(value, dumps=json_bytes)
    text = json_bytes(value)
    return text.decode() if isinstance(text, bytes) else text


def json_bytes(value) -> bytes | str:
    """``value`` as JSON text: orjson (dict keys that are not strings become strings, as in
    json.dumps), or the standard library for what orjson refuses (integers past 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value)


@lru_cache(maxsize=1)
def _psycopg_jsonb():
    from psycopg.types.json import Jsonb  # only installed where PostgreSQL is used

    return Jsonb


def json_value(value):
    """A JSON column's value as the ORM returns it (the drivers hand over its text)."""
    return json_decode(value) if isinstance(value, (str, bytes)) else value


def datetime_value(value, db=None):
    """A datetime column's value as the ORM returns it (SQLite hands over a naive value)."""
    db = db or database()
    if value is None or db.vendor == "postgresql":
        return value
    return db.ops.convert_datetimefield_value(value, None, db)
