"""The write path's unlocked case (``services._write_unlocked``): on PostgreSQL, a game command on
a match whose fold this process holds is decided on that fold and appended, with its read models,
in one statement that applies only if the match's head is still there. Every guarantee of the
locked path must hold through it: gapless seqs, one command row per command id, byte-identical
replays, projections in the same transaction, and the locked path deciding whatever it cannot.

PostgreSQL only (SQLite always takes the locked path); CI runs this file on PostgreSQL."""

import uuid

import orjson
import pytest
from django.db import connection
from django.test import override_settings

from games.application import selectors, services
from games.application.errors import CommandIdReused, VersionConflict
from games.eventstore import sql, store
from games.eventstore.models import Snapshot
from games.projections import rebuild
from games.projections.models import MatchDeadline, MatchSummary
from games.projections.updaters import deadline_values
from tests.application.write_paths import add, assert_log_consistent, started_counter, write_concurrently

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the unlocked append is PostgreSQL's"),
]


@pytest.fixture
def paths(monkeypatch):
    """Counts of commands appended by each path: ``unlocked`` (the one statement went through),
    ``moved`` (it found the head moved or the command id taken, and wrote nothing) and ``locked``
    (``_write_once`` ran). A statement that failed (IntegrityError) counts in none of them."""
    counts = {"unlocked": 0, "moved": 0, "locked": 0}
    append, once = store.command_append_if_head, services._write_once

    def counted_append(*args, **kwargs):
        first = append(*args, **kwargs)
        counts["unlocked" if first is not None else "moved"] += 1
        return first

    def counted_once(*args, **kwargs):
        counts["locked"] += 1
        return once(*args, **kwargs)

    monkeypatch.setattr(store, "command_append_if_head", counted_append)
    monkeypatch.setattr(services, "_write_once", counted_once)
    return counts


def _record_statements(monkeypatch) -> list:
    """The text of every statement ``sql.run`` runs from now on."""
    statements, run = [], sql.run

    def recorded(query, *args, **kwargs):
        statements.append(query)
        return run(query, *args, **kwargs)

    monkeypatch.setattr(sql, "run", recorded)
    return statements


@pytest.fixture
def statements(monkeypatch):
    return _record_statements(monkeypatch)


@pytest.fixture
def counter(make_user):
    return started_counter(make_user)


def test_a_game_command_on_a_match_this_process_holds_is_one_statement(counter, paths, statements):
    # given a started match whose fold this process cached when it wrote the start
    match, actor = counter
    # when a player adds
    result = add(match, actor, expected=match.head_seq, n=3)
    # then one statement appended the event, the command, the head and the summary, with no lock taken first
    assert paths == {"unlocked": 1, "moved": 0, "locked": 0}
    assert [q.split(" AS ")[0] for q in statements] == ["WITH h"]
    assert result.seq == match.head_seq + 1 and result.events[0]["payload"] == {"seat": 0, "n": 3}
    done = assert_log_consistent(match.pk, commands=1)
    assert selectors.state_load(done, use_cache=False)["game"]["total"] == 3


def test_a_head_another_process_moved_is_decided_again_under_the_lock(counter, paths):
    # rules: the write path checks the expected seq against the head, never against a cache
    match, actor = counter
    stale_head = match.head_seq
    stale = selectors.cache_behind(match.pk, stale_head)
    add(match, actor, n=2)
    selectors.cache_put(match.pk, *stale)  # as if another server had appended the last command
    # when a command without an expected seq comes in, decided first on the stale fold
    result = add(match, actor, n=5)
    # then its one statement found the head moved and wrote nothing (no error either), and the locked path
    # appended it after the other
    assert paths == {"unlocked": 1, "moved": 1, "locked": 1}
    assert result.seq == stale_head + 2
    done = assert_log_consistent(match.pk, commands=2)
    assert selectors.state_load(done, use_cache=False)["game"]["total"] == 7
    # and a client that expected the stale head is told the real one
    selectors.cache_put(match.pk, *stale)
    with pytest.raises(VersionConflict) as conflict:
        add(match, actor, expected=stale_head)
    assert conflict.value.current_seq == stale_head + 2
    assert_log_consistent(match.pk, commands=2)


def test_a_repeated_command_id_is_replayed_byte_for_byte(counter, paths):
    match, actor = counter
    command_id = uuid.uuid4()
    first = add(match, actor, expected=match.head_seq, command_id=command_id, n=4)
    # when the same command comes again, without an expected seq: it is legal on the new head too
    again = add(match, actor, command_id=command_id, n=4)
    # then the unlocked append found the id taken and wrote nothing, without failing (no database
    # error, no rolled-back transaction), and the locked path replayed it
    assert paths == {"unlocked": 1, "moved": 1, "locked": 1}
    assert again.replayed and orjson.dumps(again.as_dict()) == orjson.dumps(first.as_dict())
    assert_log_consistent(match.pk, commands=1)
    # and the same id for another command is refused, appending nothing
    with pytest.raises(CommandIdReused):
        add(match, actor, command_id=command_id, n=5)
    assert_log_consistent(match.pk, commands=1)


def test_a_command_behind_a_head_this_process_saw_is_refused_by_one_read_without_a_lock(counter, paths, monkeypatch):
    # rules: a stale expected seq is a version conflict unless the command id is one the match has (a replay)
    match, actor = counter
    stale = match.head_seq
    add(match, actor, expected=stale)
    head = add(match, actor).seq
    statements = _record_statements(monkeypatch)
    # when a client that saw only the start sends a new command
    with pytest.raises(VersionConflict) as conflict:
        add(match, actor, expected=stale)
    # then it is told the head after one plain read: no transaction, no lock, no append tried
    assert conflict.value.current_seq == head
    assert paths == {"unlocked": 2, "moved": 0, "locked": 0}
    assert len(statements) == 1 and statements[0].startswith("SELECT") and "FOR UPDATE" not in statements[0]
    assert connection.get_autocommit()
    assert_log_consistent(match.pk, commands=2)


def test_a_retry_behind_the_head_is_still_replayed_byte_for_byte(counter, paths):
    match, actor = counter
    command_id, expected = uuid.uuid4(), match.head_seq
    first = add(match, actor, expected=expected, command_id=command_id, n=6)
    add(match, actor)
    # when the first command comes again with the expected seq it was sent with, now behind the head
    again = add(match, actor, expected=expected, command_id=command_id, n=6)
    # then the read found its id, and the locked path replayed it unchanged
    assert paths == {"unlocked": 2, "moved": 0, "locked": 1}
    assert again.replayed and orjson.dumps(again.as_dict()) == orjson.dumps(first.as_dict())
    assert_log_consistent(match.pk, commands=2)


def test_a_missing_summary_row_fails_the_one_statement_and_the_locked_path_writes_it(counter, paths):
    match, actor = counter
    MatchSummary.objects.filter(match=match).delete()
    # when a command comes in
    result = add(match, actor, expected=match.head_seq)
    # then nothing of the unlocked attempt stayed, and the locked path appended it and created the summary
    assert paths == {"unlocked": 0, "moved": 0, "locked": 1}
    assert result.seq == match.head_seq + 1
    assert_log_consistent(match.pk, commands=1)


@override_settings(SNAPSHOT_EVERY=5)
def test_snapshots_fall_due_inside_the_one_statement(counter, paths):
    match, actor = counter
    for _ in range(12):
        add(match, actor)
    assert paths == {"unlocked": 12, "moved": 0, "locked": 0}
    done = assert_log_consistent(match.pk, commands=12)
    snaps = dict(Snapshot.objects.filter(match=done).values_list("seq", "state"))
    assert sorted(snaps) == [s for s in range(1, done.head_seq + 1) if s % 5 == 0 and s > match.head_seq]
    for seq, state in snaps.items():
        assert state == selectors.state_load(done, until=seq, use_snapshots=False, use_cache=False)


def test_concurrent_writers_on_one_cached_match_stay_gapless(counter, paths):
    # rules: unique (match, seq) and the match row's lock order every writer, whichever path it takes
    match, actor = counter
    writers, each = 4, 40
    write_concurrently(match, actor, writers, each)
    assert paths["unlocked"] > 0  # the race is real: some commands went through unlocked
    done = assert_log_consistent(match.pk, commands=writers * each)
    assert selectors.state_load(done, use_cache=False)["game"]["total"] == writers * each


def test_a_clocked_game_played_to_its_end_keeps_every_read_model(started_pebbles, paths):
    # rules: a seat's clock (MatchDeadline) is set on each turn, removed while the system rolls
    match, users = started_pebbles(options={"turn_seconds": 60, "target": 12})
    engine = selectors.engine_of(match)
    commands = 0
    while True:
        match.refresh_from_db()
        state = selectors.state_load(match)
        status = engine.status(state["game"])
        if status.finished:
            break
        seat = status.awaiting[0]
        move = engine.legal_commands(state["game"], seat)[0]
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=move["type"],
                                      args=move["args"])
        commands += 1
        match.refresh_from_db()
        state = selectors.state_load(match)
        clock = MatchDeadline.objects.filter(match=match).values("seq", "seats", "due_at").first()
        appended = store.appended_at(match, match.head_seq)
        assert clock == deadline_values(engine, state, match.head_seq, appended)
    # the players' moves went unlocked; the finish (players' records) and the system's rolls may not
    assert paths["unlocked"] >= commands // 2
    report = rebuild.check(match.pk)
    assert report.clean, report.lines()
    assert MatchSummary.objects.get(match=match).status == "finished"
