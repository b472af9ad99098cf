"""Fair play: who may watch a running match live, and how far behind its spectators are.

A match may have a **watch policy**. While the match is active, its spectators (anyone without a
seat in it, signed in or not) see it as it stood ``delay_seconds`` ago and at least
``delay_turns`` turns behind (the position at the start of the turn before the current one, for
one turn), but never before its start (the lobby is public), so nobody can coach a player live; and the users in ``barred`` (e.g. the other players
of the same tournament) may not watch it at all until it ends. Players seated in the match always
see their own seat live, and once the match is no longer active (finished or abandoned) every
view opens.

Turns are counted with the engine's ``turn_events`` (the event types that begin a turn); an engine
without any is delayed by time alone. Every event of one command shares its append time.

The application knows nothing of tournaments: an app above it registers a **policy provider**,
``fn(match_ids) -> {match_id: WatchPolicy}`` (the tournaments app does it from its ``ready()``, for
the matches it created), with :func:`policy_provider_register`. Every read a spectator can make
asks :func:`viewer_for` (or :func:`spectator_limit` for lists), so the delay holds on every path:
REST ``/view/`` and ``/events/``, the match page, the socket's hello, pushes and sync, the match
list and detail.
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from games.eventstore import store
from games.kernel import registry

from .errors import PlatformError
from .lobby import ACTIVE, STARTED, seat_of_user


@dataclass(frozen=True)
class WatchPolicy:
    delay_seconds: int = 0
    delay_turns: int = 0
    barred: frozenset = field(default_factory=frozenset)  # user ids refused the live view

    @property
    def delayed(self) -> bool:
        return self.delay_seconds > 0 or self.delay_turns > 0


@dataclass(frozen=True)
class Viewer:
    """Who reads a match and up to where. ``until`` is None for a live view (players, and anyone
    once the match is over); for a delayed spectator it is the last seq they may see now, and
    ``next_at`` when that limit moves on by time alone (None: only a new turn moves it)."""

    seat: int | None
    until: int | None = None
    next_at: datetime | None = None

    def limit(self, head: int) -> int:
        return head if self.until is None else min(self.until, head)


class LiveViewRefused(PlatformError):
    code = "live_view_refused"
    status = 403


class StaffConflict(PlatformError):
    """A staff member asked for the unredacted log, state or chat of a match they play in (or may not
    watch: a player of its tournament) before it ended (``selectors.staff_read_check``)."""
    code = "conflict_of_interest"
    status = 403


_providers: list = []


def policy_provider_register(fn) -> None:
    """Register ``fn(match_ids: list[str]) -> {match_id: WatchPolicy}`` (matches without a policy
    are left out). Called with a list, so a match list asks once for a whole page."""
    if fn not in _providers:
        _providers.append(fn)


def policies_of(match_ids) -> dict:
    """{match_id (str): WatchPolicy} for the matches that have one."""
    ids = [str(m) for m in match_ids]
    out: dict = {}
    if not ids:
        return out
    for fn in _providers:
        out.update({str(k): v for k, v in (fn(ids) or {}).items() if v is not None})
    return out


def policy_of(match) -> WatchPolicy | None:
    return policies_of([match.pk]).get(str(match.pk))


def spectator_limit(match, policy: WatchPolicy | None, *, now=None) -> tuple[int, datetime | None]:
    """(the last seq a spectator may see now, when that moves on by time alone or None)."""
    head = match.head_seq
    if policy is None or not policy.delayed:
        return head, None
    limit = head
    if policy.delay_turns:
        engine = registry.get(match.game, match.engine_version)
        starts = store.seqs_of_types(match, engine.turn_events, newest=policy.delay_turns + 1)
        if len(starts) > policy.delay_turns:
            limit = starts[policy.delay_turns]  # the start of the turn delay_turns before the current one
        elif starts:
            limit = starts[-1] - 1  # too few turns yet: the position before the first one began
    next_at = None
    if policy.delay_seconds:
        delay = timedelta(seconds=policy.delay_seconds)
        by_time = store.seq_appended_by(match, (now or timezone.now()) - delay)
        if by_time < limit:
            limit = by_time
            appended = store.appended_at(match, by_time + 1)
            next_at = appended + delay if appended is not None else None
    if limit < head:  # never before the start: the lobby (who sits where) is public anyway
        started = store.first_seq_of_type(match, STARTED)
        limit = max(limit, started or head)
    return limit, next_at


def viewer_for(match, user, state: dict, *, policy: WatchPolicy | None = None, policy_known: bool = False,
               now=None) -> Viewer:
    """The viewer ``user`` (None or anonymous: a spectator) is on ``match`` folded to ``state``.

    Raises LiveViewRefused for a barred user while the match is active."""
    lobby = state["lobby"]
    user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    seat = seat_of_user(lobby, user_id) if user_id is not None else None
    if seat is not None or lobby["status"] != ACTIVE:
        return Viewer(seat)
    if not policy_known:
        policy = policy_of(match)
    if policy is None:
        return Viewer(None)
    if user_id is not None and user_id in policy.barred:
        raise LiveViewRefused("players in this tournament cannot watch its other matches while they run; "
                              "this one opens when it ends")
    if not policy.delayed:
        return Viewer(None)
    until, next_at = spectator_limit(match, policy, now=now)
    return Viewer(None, until=until, next_at=next_at)
