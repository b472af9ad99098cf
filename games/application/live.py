"""Reads for the live sockets: what one append shows each kind of viewer, read once per server.

A server keeps one hub per watched match (``games.realtime.fanout``). When the log grows, the hub
makes one :func:`batch` call for all its sockets: the new events are read from the store once,
redacted once per seat that has a socket there and once for all spectators, and each of those
viewers gets one ``/view/`` document, never one per socket. Spectators of a match with a watch
policy (``watch``) get their own page, which stops at the seq they may see now.

:func:`page_for` is the single-socket read (a hello, a ``sync``, a socket that is not where the
hub is). Both read only the store: nothing a socket receives travels through the channel layer.
"""

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings

from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import canonical

from . import watch
from .errors import as_unavailable
from .identities import names_in_running
from .lobby import ACTIVE, SEAT_TAKEN, aggregate_fold, seat_of_user
from .selectors import (
    cache_behind, cache_put, engine_of, match_get, narration_facts, redact_rows, seat_names, spectator_view_at,
    state_load, view_for_seat, view_for_viewer,
)


@dataclass
class Page:
    """Events after ``after`` up to ``until`` for one viewer; ``doc`` is the ``/view/`` document at
    ``until`` (None when ``more`` events follow: the next page comes first). ``seq`` is the head as
    this viewer may know it (a delayed spectator's limit), ``head`` the match's."""

    after: int
    until: int
    events: list
    doc: dict | None
    more: bool = False
    seq: int = 0
    head: int = 0


@dataclass
class Batch:
    head: int
    until: int  # the seat pages end here (the head, unless paged)
    status: str  # the lobby status at the head ("active", "finished"...)
    seat_of: dict  # user_id -> seat at the head (None: a spectator)
    seats: dict = field(default_factory=dict)  # seat -> Page
    spectators: Page | None = None
    next_at: datetime | None = None  # when the spectators' limit moves on by time alone


_lock = threading.Lock()
_matches: "OrderedDict[str, Match]" = OrderedDict()  # the fields a batch uses never change but the head
_LRU = 4096


def _remember(table: OrderedDict, key, value):
    with _lock:
        table[key] = value
        table.move_to_end(key)
        while len(table) > _LRU:
            table.popitem(last=False)


def _match(match_id) -> Match:
    with _lock:
        known = _matches.get(str(match_id))
    if known is None:
        known = match_get(match_id)
        _remember(_matches, str(match_id), known)
    return copy.copy(known)


def _names(match_id, lobby: dict, rows: list[dict]) -> dict:
    """One look-up of the names shown for the seats and the users the rows seat (kept while the
    match is active: ``names_in_running``)."""
    ids = {s.get("user_id") for s in lobby["seats"] if isinstance(s, dict) and not s.get("bot")}
    ids |= {ev["payload"].get("user_id") for ev in rows if ev["type"] == SEAT_TAKEN and not ev["payload"].get("bot")}
    return names_in_running(match_id, ids, lobby["status"] == ACTIVE)


def _head_state(match: Match, engine, after: int, rows: list[dict]) -> dict:
    """The state at ``match.head_seq``: the cached fold at ``after`` plus ``rows``, when the cache
    has it (the rows were just read anyway), else a load."""
    cached = cache_behind(match.pk, match.head_seq)
    if cached is not None and cached[0] == match.head_seq:
        return cached[1]
    reaches_head = (rows[-1]["seq"] if rows else after) == match.head_seq  # not when paged: the rows stop short
    if cached is not None and cached[0] == after and reaches_head and (not rows or rows[0]["seq"] == after + 1):
        state = canonical(aggregate_fold(engine, rows, cached[1]))
        cache_put(match.pk, match.head_seq, state, match=match)
        return state
    return state_load(match)


def batches(reads: list[dict]) -> list:
    """``batch(**read)`` for each of ``reads`` (several hubs' pushes at once), their first queries
    made as one (``store.events_pages``). Each gets its Batch, or the exception its own batch
    raised; an unreachable store raises for all."""
    matches, pages, upcasters = [], [], []
    for read in reads:
        try:
            match = _match(read["match_id"])
        except Exception as exc:
            if as_unavailable(exc) is not None:
                raise
            match = exc
        matches.append(match)
        if not isinstance(match, Exception):
            pages.append((match, read["after"], read["after"] + settings.SOCKET_SYNC_PAGE + 1))
            upcasters.append(engine_of(match).upcasters)
    rows = iter(store.events_pages(pages, upcasters))
    out = []
    for read, match in zip(reads, matches):
        if isinstance(match, Exception):
            out.append(match)
            continue
        try:
            out.append(batch(**read, rows=next(rows), match=match))
        except Exception as exc:
            if as_unavailable(exc) is not None:
                raise
            out.append(exc)
    return out


def batch(match_id, *, after: int, user_ids, spectators_after: int | None, policy: watch.WatchPolicy | None,
          rows: list[dict] | None = None, match: Match | None = None) -> Batch:
    """Everything a hub's sockets need after the hub's last seq ``after`` (``spectators_after``: its
    spectators' last seq, or None when it has none). Seats come from the head, as a push always did.

    Usually one query: the events after ``after`` (a page, and one more to know whether more follow),
    whose last seq is the head (the log is gapless); the match's other fields are kept per process.
    ``rows``: those events, and ``match`` this process's copy of the match, when ``batches`` has them."""
    match = _match(match_id) if match is None else match
    engine = engine_of(match)
    page = settings.SOCKET_SYNC_PAGE
    if rows is None:
        rows = store.events_page(match, after=after, until=after + page + 1, engine_upcasters=engine.upcasters)
    if len(rows) > page:  # more than a page behind: the head is further on
        match = match_get(match_id)
        rows = rows[:page]
    else:
        match.head_seq = rows[-1]["seq"] if rows else after
    head = match.head_seq
    state = _head_state(match, engine, after, rows)
    lobby = state["lobby"]
    seat_of = {u: seat_of_user(lobby, u) for u in user_ids}
    until = rows[-1]["seq"] if rows else after
    out = Batch(head=head, until=until, status=lobby["status"], seat_of=seat_of)
    users = _names(match_id, lobby, rows)
    names = seat_names(lobby, users)
    facts = narration_facts(engine, state)
    more = until < head
    for seat in sorted({s for s in seat_of.values() if s is not None}):
        if until <= after:  # nothing new for the seats (the spectators' limit moved on by time)
            out.seats[seat] = Page(after, after, [], None, False, head, head)
            continue
        out.seats[seat] = Page(after, until, redact_rows(engine, rows, seat, names, users, facts),
                               None if more else view_for_seat(match, seat, state, names=users), more, head, head)
    if spectators_after is not None:
        viewer = watch.viewer_for(match, None, state, policy=policy, policy_known=True)
        limit = viewer.limit(head)
        s_until = max(spectators_after, min(limit, spectators_after + page))
        if spectators_after == after and s_until <= until:
            s_rows = [ev for ev in rows if ev["seq"] <= s_until]
        elif s_until > spectators_after:
            s_rows = store.events_page(match, after=spectators_after, until=s_until, engine_upcasters=engine.upcasters)
        else:
            s_rows = []
        s_more = s_until < limit
        doc = None
        if not s_more:
            doc = spectator_view_at(match, s_until) if s_until < head else view_for_seat(match, None, state, names=users)
        out.spectators = Page(spectators_after, s_until, redact_rows(engine, s_rows, None, names, users, facts), doc, s_more,
                              limit, head)
        out.next_at = viewer.next_at
    return out


def page_for(match_id, user, after: int | None) -> tuple[watch.Viewer, Page]:
    """One socket's read: its viewer, and one page of its events after ``after`` (None: none, only
    the document: a hello) with the document when the page reaches what it may see. Raises
    MatchNotFound, LiveViewRefused."""
    match = match_get(match_id)
    state = state_load(match)
    viewer = watch.viewer_for(match, user, state)
    limit = viewer.limit(match.head_seq)
    head = match.head_seq
    if after is None:
        return viewer, Page(limit, limit, [], view_for_viewer(match, viewer, state), False, limit, head)
    after = max(after, 0)
    until = max(after, min(limit, after + settings.SOCKET_SYNC_PAGE)) if after < limit else limit
    events = []
    if until > after:
        engine = engine_of(match)
        rows = store.events_page(match, after=after, until=until, engine_upcasters=engine.upcasters)
        users = _names(match_id, state["lobby"], rows)
        events = redact_rows(engine, rows, viewer.seat, seat_names(state["lobby"], users), users,
                             narration_facts(engine, state))
    more = until < limit
    return viewer, Page(after, until, events, None if more else view_for_viewer(match, viewer, state), more, limit, head)
