"""SQLite's way for a game command on a match whose fold this process holds
(``services._append_checked``): the locked path's transaction without its SELECT of the match and the
command id; the append's first statement moves the head only if it is still where the fold is and
the command id is new (``store.command_append_checked``), else nothing is written and the locked
path decides. Every guarantee of the locked path must hold through it: gapless seqs, one command row
per command id, replays, projections in the same transaction.

SQLite only (PostgreSQL's cached path is one statement: test_unlocked_write.py)."""

import uuid

import pytest
from django.db import connection

from games.application import selectors, services
from games.eventstore import sql, store
from tests.application.write_paths import add, assert_log_consistent, started_counter, write_concurrently

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="the checked append is SQLite's"),
]


@pytest.fixture
def counter(make_user):
    return started_counter(make_user)


@pytest.fixture
def paths(monkeypatch):
    """How many commands each path appended: ``checked`` (the compare-and-set held), ``moved`` (it
    found the head moved or the command id taken) and ``locked`` (``_write_once`` ran)."""
    counts = {"checked": 0, "moved": 0, "locked": 0}
    append, once = store.command_append_checked, services._write_once

    def counted_append(*args, **kwargs):
        try:
            done = append(*args, **kwargs)
        except store.HeadMoved:
            counts["moved"] += 1
            raise
        counts["checked"] += 1
        return done

    def counted_once(*args, **kwargs):
        counts["locked"] += 1
        return once(*args, **kwargs)

    monkeypatch.setattr(store, "command_append_checked", counted_append)
    monkeypatch.setattr(services, "_write_once", counted_once)
    return counts


def _assert_log_consistent(match_id, commands: int):
    match = assert_log_consistent(match_id, commands)
    assert selectors.state_load(match, use_cache=False)["game"]["adds"] == commands
    return match


def test_a_command_on_a_held_fold_skips_the_locked_select(counter, paths, monkeypatch):
    match, actor = counter
    statements, run = [], sql.run
    monkeypatch.setattr(sql, "run", lambda query, *a, **k: statements.append(query) or run(query, *a, **k))
    seq = match.head_seq
    for _ in range(3):
        seq = add(match, actor, expected=seq).seq
    assert paths == {"checked": 3, "moved": 0, "locked": 0}
    assert not any(q.startswith("SELECT m.id") for q in statements), "no match_lock SELECT"
    assert sum(q.startswith("UPDATE eventstore_match SET head_seq") for q in statements) == 3
    _assert_log_consistent(match.pk, commands=3)


def test_a_head_another_process_moved_writes_nothing_and_the_locked_path_decides(counter, paths, monkeypatch):
    match, actor = counter
    add(match, actor)
    # Another process's append: committed, but this process's fold is left where it was.
    with monkeypatch.context() as m:
        m.setattr(selectors, "cache_put", lambda *a, **k: None)
        m.setattr(services, "cache_put", lambda *a, **k: None)
        add(match, actor)
    answer = add(match, actor)
    assert paths == {"checked": 2, "moved": 1, "locked": 1}
    done = _assert_log_consistent(match.pk, commands=3)
    assert answer.seq == done.head_seq


def test_a_retried_command_id_is_replayed_not_appended_again(counter, paths):
    match, actor = counter
    command_id = uuid.uuid4()
    first = add(match, actor, command_id=command_id)
    again = add(match, actor, command_id=command_id)
    assert again.replayed and again.seq == first.seq
    assert [e["seq"] for e in again.events] == [e["seq"] for e in first.events]
    assert paths == {"checked": 1, "moved": 1, "locked": 1}
    _assert_log_consistent(match.pk, commands=1)


def test_concurrent_writers_on_one_held_fold_stay_gapless(counter, paths):
    # rules: the transaction's write lock and the compare-and-set order every writer, whichever path
    match, actor = counter
    writers, each = 4, 15
    write_concurrently(match, actor, writers, each)
    assert paths["checked"] > 0
    _assert_log_consistent(match.pk, commands=writers * each)
