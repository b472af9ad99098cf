"""Store contract: concurrency, idempotency, immutability. Runs on whatever DATABASES says:
SQLite under the README's test command, PostgreSQL in the distributed suite (.ci/run)."""

import threading
import uuid

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import DatabaseError

from games.application import services
from games.application.errors import CommandIdReused, VersionConflict
from games.application.verify import SAME, logs_verify
from games.eventstore import store
from games.eventstore.models import Match, MatchCommand, MatchEvent
from games.kernel import event
from tests.concurrency import run_threads

WRITERS = 8
ROUNDS = 500

pytestmark = pytest.mark.django_db(transaction=True)


def _counter_match(make_user):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, user


def test_barrier_started_writers_commit_exactly_once_per_round(make_user):
    match, user = _counter_match(make_user)
    start = match.head_seq
    barrier = threading.Barrier(WRITERS)
    outcomes = [[None] * WRITERS for _ in range(ROUNDS)]

    def writer(i):
        for r in range(ROUNDS):
            barrier.wait()
            try:
                services.match_submit_command(
                    match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=uuid.uuid4(),
                    expected_seq=start + r, type_="add", args={"n": 1},
                )
                outcomes[r][i] = "commit"
            except VersionConflict as conflict:
                assert conflict.current_seq == start + r + 1
                outcomes[r][i] = "conflict"

    run_threads(WRITERS, writer)

    for r, row in enumerate(outcomes):
        assert row.count("commit") == 1, f"round {r}: {row}"
        assert row.count("conflict") == WRITERS - 1, f"round {r}: {row}"
    match.refresh_from_db()
    assert match.head_seq == start + ROUNDS
    seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, start + ROUNDS + 1)), "gapless, no partial rows"
    added = MatchCommand.objects.filter(match=match, first_seq__gt=start)
    assert added.count() == ROUNDS
    assert all(c.first_seq == c.last_seq for c in added)
    # each winner's command was kept with its row, as asked: every one decides again to its events
    assert all((c.kind, c.type, c.args, c.expected_seq) == ("game", "add", {"n": 1}, c.first_seq - 1) for c in added)
    check = next(c for c in logs_verify(game="counter").checks if c.match_id == str(match.pk))
    assert (check.outcome, check.commands_redecided) == (SAME, ROUNDS + 2)


def test_an_append_past_a_stale_head_is_an_integrity_error_and_leaves_nothing(make_user):
    """The plain-SQL append raises Django's IntegrityError (what the write path retries on), not the
    driver's, and the transaction leaves no partial row: a writer that slipped past the lock with
    an old head collides with the unique (match, seq)."""
    match, user = _counter_match(make_user)
    stale = Match.objects.get(pk=match.pk)
    stale.head_seq -= 1
    counts = (MatchEvent.objects.count(), MatchCommand.objects.count())
    with pytest.raises(IntegrityError):
        with transaction.atomic():
            store.command_append(stale, [event("Added", {"seat": 0, "n": 1}), event("Added", {"seat": 0, "n": 1})],
                                 actor={"kind": "user", "user_id": user.pk, "seat": 0}, command_id=uuid.uuid4(),
                                 seat=0, fingerprint="x", body=store.CommandBody("game", "add", {"n": 1}, None))
    assert (MatchEvent.objects.count(), MatchCommand.objects.count()) == counts
    assert Match.objects.get(pk=match.pk).head_seq == match.head_seq


def test_json_the_append_writes_reads_back_as_the_orm_stores_it(make_user):
    """The append writes its JSON values itself (orjson on PostgreSQL): what orjson cannot write
    (an integer past 64 bits) falls back to the standard library, and keys that are not strings
    become strings, as Django's JSONField makes them."""
    match, user = _counter_match(make_user)
    payload = {"seat": 0, "n": 1, "huge": 2**70, 7: ["x", {"é": None}]}
    args = {"n": 1, 2: True}
    with transaction.atomic():
        first, _ = store.command_append(match, [event("Added", payload)], actor={"kind": "user", "user_id": user.pk},
                                        command_id=uuid.uuid4(), seat=0, fingerprint="x",
                                        body=store.CommandBody("game", "add", args, None))
    stored = MatchEvent.objects.get(match=match, seq=first)
    assert stored.payload == {"seat": 0, "n": 1, "huge": 2**70, "7": ["x", {"é": None}]}
    assert MatchCommand.objects.get(match=match, first_seq=first).args == {"n": 1, "2": True}


def test_duplicate_command_id_yields_one_set_of_events_and_identical_responses(make_user):
    match, user = _counter_match(make_user)
    start = match.head_seq
    command_id = uuid.uuid4()
    barrier = threading.Barrier(WRITERS)
    responses = [None] * WRITERS

    def writer(i):
        barrier.wait()
        result = services.match_submit_command(
            match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=command_id,
            expected_seq=start, type_="add", args={"n": 3},
        )
        responses[i] = result.as_dict()

    run_threads(WRITERS, writer)

    assert all(r == responses[0] for r in responses)
    assert responses[0]["seq"] == start + 1
    assert MatchEvent.objects.filter(match=match).count() == start + 1
    assert MatchCommand.objects.filter(match=match, command_id=command_id).count() == 1


def test_duplicate_command_id_without_expected_seq_yields_one_set_of_events(make_user):
    """No expected seq to conflict on: the idempotency check alone decides. A writer that waited for
    the lock while another committed the same command_id must replay it (the look-up taken with the
    lock may predate that commit; the unique (match, command_id) then rolls the append back)."""
    match, user = _counter_match(make_user)
    start = match.head_seq
    command_id = uuid.uuid4()
    barrier = threading.Barrier(WRITERS)
    responses = [None] * WRITERS

    def writer(i):
        barrier.wait()
        result = services.match_submit_command(
            match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=command_id,
            expected_seq=None, type_="add", args={"n": 2},
        )
        responses[i] = (result.as_dict(), result.replayed)

    run_threads(WRITERS, writer)

    assert all(r[0] == responses[0][0] for r in responses)
    assert sorted(r[1] for r in responses) == [False] + [True] * (WRITERS - 1)
    assert responses[0][0]["seq"] == start + 1
    assert MatchEvent.objects.filter(match=match).count() == start + 1
    assert MatchCommand.objects.filter(match=match, command_id=command_id).count() == 1


def test_reused_command_id_racing_other_content_is_refused(make_user):
    """Writers racing with one command_id and different args: one commits, every other is refused."""
    match, user = _counter_match(make_user)
    start = match.head_seq
    command_id = uuid.uuid4()
    barrier = threading.Barrier(WRITERS)
    outcomes = [None] * WRITERS

    def writer(i):
        barrier.wait()
        try:
            services.match_submit_command(
                match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=command_id,
                expected_seq=None, type_="add", args={"n": i + 1},
            )
            outcomes[i] = "commit"
        except CommandIdReused:
            outcomes[i] = "refused"

    run_threads(WRITERS, writer)

    assert sorted(outcomes) == ["commit"] + ["refused"] * (WRITERS - 1)
    assert MatchEvent.objects.filter(match=match).count() == start + 1


def test_same_command_id_with_other_content_is_refused(make_user):
    match, user = _counter_match(make_user)
    command_id = uuid.uuid4()
    submit = dict(match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=command_id, type_="add")
    services.match_submit_command(expected_seq=match.head_seq, args={"n": 1}, **submit)
    with pytest.raises(CommandIdReused):
        services.match_submit_command(expected_seq=match.head_seq + 1, args={"n": 2}, **submit)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the append-only trigger is PostgreSQL's")
@pytest.mark.parametrize("statement", [
    "UPDATE eventstore_matchevent SET payload = '{}' WHERE match_id = %s",
    "DELETE FROM eventstore_matchevent WHERE match_id = %s",
    "UPDATE eventstore_matchcommand SET fingerprint = 'x' WHERE match_id = %s",
    "DELETE FROM eventstore_matchcommand WHERE match_id = %s",
])
def test_postgresql_refuses_update_and_delete_of_events(make_user, statement):
    match, _ = _counter_match(make_user)
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, [match.pk])
    assert MatchEvent.objects.filter(match=match).count() == Match.objects.get(pk=match.pk).head_seq


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_the_write_paths_statements_are_prepared_on_the_server_once_per_connection(make_user):
    # Django switches psycopg's preparing off for its connections; the write path's plain SQL asks
    # for it (games.eventstore.sql, prepare=True) and must get it.
    match, user = _counter_match(make_user)
    submit = dict(match_id=match.pk, seat=0, actor=services.Actor.user(user), type_="add", args={"n": 1})
    for _ in range(3):
        services.match_submit_command(command_id=uuid.uuid4(), expected_seq=None, **submit)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE OF m" in text for text in prepared), prepared
    assert any(text.startswith("WITH e AS (INSERT INTO eventstore_matchevent") for text in prepared), prepared


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_the_api_token_look_up_is_prepared_too(make_user):
    # Every API request with a token asks it (accounts.tokens.token_with_user).
    from rest_framework.authtoken.models import Token

    from accounts.tokens import token_with_user

    token = Token.objects.create(user=make_user())
    assert token_with_user(token.key).user_id == token.user_id
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(text.startswith("SELECT t.") and "authtoken_token" in text for text in prepared), prepared


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_the_statements_that_take_arrays_are_planned_once_by_their_indexes(make_user):
    # PostgreSQL would re-plan a prepared statement taking an array on every call, and its generic
    # plan of a join on "= ANY(array)" scans whole tables (config.settings: DATABASES; a push asks
    # both statements on every append).
    from rest_framework.authtoken.models import Token

    from accounts.services import _fresh_tokens
    from games.eventstore import store

    # given two matches with events, two tokens, and tables too small for an index to look cheaper
    matches = [_counter_match(make_user)[0] for _ in range(2)]
    keys = [Token.objects.create(user=make_user()).key for _ in range(2)]

    def plans():  # {is the token statement: (its name, generic plans, custom plans)} on this connection
        with connection.cursor() as cursor:
            cursor.execute("SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements"
                           " WHERE statement LIKE %s", ["%unnest(%"])
            return {"authtoken_token" in text: (name, generic, custom) for name, text, generic, custom in cursor.fetchall()}

    before = plans()
    # when each statement runs more often than PostgreSQL's custom-plan trials (5)
    for _ in range(7):
        assert set(_fresh_tokens(keys)) == set(keys)
        pages = store.events_pages([(m, 0, m.head_seq) for m in matches], [None, None])
        assert [len(p) for p in pages] == [m.head_seq for m in matches]
    # then each was planned once, generically, and that plan reads by index only
    after = plans()
    assert set(after) == {True, False}, after
    for token_statement, (_name, generic, custom) in after.items():
        _, generic_before, custom_before = before.get(token_statement, (None, 0, 0))
        assert (generic - generic_before, custom - custom_before) == (7, 0)
    plan_arguments = {True: ("(%s, now())", [keys]),
                      False: ("(%s::uuid[], %s::integer[], %s::integer[])",
                              [[m.pk for m in matches], [0, 0], [m.head_seq for m in matches]])}
    for token_statement, (arguments, params) in plan_arguments.items():
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN EXECUTE {after[token_statement][0]}{arguments}", params)
            plan = "\n".join(row[0] for row in cursor.fetchall())
        assert "Seq Scan" not in plan and "Index Scan" in plan, plan


def test_the_live_page_read_gives_exactly_what_events_load_gives(started_pebbles):
    """store.events_page (one plain SELECT, what every push reads) against the ORM read."""
    from games.eventstore import store

    match, _ = started_pebbles()
    assert match.head_seq > 3
    assert store.events_page(match, after=0, until=match.head_seq) == store.events_load(match)
    assert store.events_page(match, after=2, until=3) == store.events_load(match, after=2, until=3)
