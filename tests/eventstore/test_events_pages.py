"""``store.events_pages``: several matches' event pages read at once (a busy server's pushes, gathered
by ``games.realtime.fanout.PushReads``), each exactly what ``store.events_page`` reads for it. Runs
on SQLite under the README's test command (one query per page) and on PostgreSQL in .ci/run (one
query for all)."""

import uuid

import pytest
from django.db import connection

from games.application import services
from games.eventstore import sql, store

pytestmark = pytest.mark.django_db(transaction=True)


def _counter_with_adds(make_user, adds: int):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    for n in range(adds):
        services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(user),
                                      command_id=uuid.uuid4(), expected_seq=None, type_="add", args={"n": n + 1})
    match.refresh_from_db()
    return match


def test_each_page_is_what_its_own_read_gives(make_user, monkeypatch):
    # given three matches with logs of different lengths
    a, b, c = (_counter_with_adds(make_user, adds) for adds in (6, 2, 4))
    # when their pages are read at once: a middle page, one past the head, one empty range, and a
    # match twice (the same match may be asked for by two readers)
    pages = [(a, 2, 5), (b, b.head_seq - 1, b.head_seq + 10), (c, c.head_seq, c.head_seq + 3), (a, 0, a.head_seq)]
    queries, run = [], sql.run
    monkeypatch.setattr(sql, "run", lambda query, *args, **kwargs: queries.append(query) or run(query, *args, **kwargs))
    got = store.events_pages(pages, [None] * len(pages))
    monkeypatch.setattr(sql, "run", run)
    # then each is its own page, in seq order, with nothing of another match
    assert got == [store.events_page(m, after=after, until=until) for m, after, until in pages]
    assert [ev["seq"] for ev in got[0]] == [3, 4, 5] and [ev["seq"] for ev in got[1]] == [b.head_seq]
    assert got[2] == [] and len(got[3]) == a.head_seq
    # and PostgreSQL read them in one statement
    assert len(queries) == (1 if connection.vendor == "postgresql" else len(pages))
