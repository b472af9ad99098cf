"""Reads: the folded state of a match, and what one seat may see of it."""

import threading
from collections import OrderedDict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import SYSTEM, EngineBase, RuleViolation, canonical, registry

from . import presence, readmodels, watch
from .decisions import IDLE_TAKE_OVER_SECONDS
from .errors import MatchNotFound, ReplayRefused
from .identities import human_ids, name_shown, names_among, names_among_seat_lists, names_in_running, running_clear, seats_display
from .lobby import (
    ABANDONED, ACTIVE, CLOCK_HELD, CLOCK_RELEASED, CREATED, DONE, FINISHED, OPEN, PLATFORM_EVENTS, SEAT_CONCEDED, SEAT_LEFT,
    SEAT_TAKEN, STARTED, aggregate_fold, bot_seats, conceded_seats, match_phase, seat_of_user,
)
from .statuses import engine_status

# Folded states by match id, keyed on the seq they were folded to. Events are immutable, so a
# state cached at the store's head seq is exactly the fold; entries are only added on commit.
# It holds FOLD_CACHE_MATCHES matches: when more matches are live than that, every command and
# push misses and reads the snapshot and the tail again.
_CACHE_FOLD_AHEAD = 50  # fold on from a cached state at most this many events behind the head (SNAPSHOT_EVERY)
_cache: "OrderedDict[str, tuple[int, dict]]" = OrderedDict()
_statics: dict = {}  # match id -> store.match_static(match), for cached matches whose fields were at hand
_cache_lock = threading.Lock()


def cache_put(match_id, seq: int, state: dict, *, match: Match | None = None) -> None:
    """Cache the fold of ``match_id`` at ``seq``; with ``match`` (the write path's), also what a
    command needs of the match row (``match_cached``)."""
    key = str(match_id)
    with _cache_lock:
        _cache[key] = (seq, state)
        _cache.move_to_end(key)
        static = None if match is None else store.match_static(match)
        if static is not None:
            _statics[key] = static
        while len(_cache) > settings.FOLD_CACHE_MATCHES:
            gone, _ = _cache.popitem(last=False)
            _statics.pop(gone, None)


def cache_clear() -> None:
    with _cache_lock:
        _cache.clear()
        _statics.clear()
    running_clear()


def _cache_get(match_id, seq: int):
    with _cache_lock:
        hit = _cache.get(str(match_id))
    return hit[1] if hit and hit[0] == seq else None


def cache_behind(match_id, seq: int):
    """The cached (seq, state) of a match when it is at or before ``seq``, else None."""
    with _cache_lock:
        hit = _cache.get(str(match_id))
    return hit if hit and hit[0] <= seq else None


def match_cached(match_id) -> tuple[Match, dict] | None:
    """(the match as ``store.match_lock`` loads it, its fold) at the head this process last wrote
    or folded, or None. Another process may have appended since: whoever writes on it must check
    the head (``store.command_append_if_head``)."""
    key = str(match_id)
    with _cache_lock:
        hit, static = _cache.get(key), _statics.get(key)
    if hit is None or static is None:
        return None
    return store.match_at(static, hit[0]), hit[1]


def match_get(match_id) -> Match:
    try:
        return Match.objects.get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchNotFound("no such match")
    except Exception as exc:  # a malformed uuid raises ValidationError on some backends
        if exc.__class__.__name__ == "ValidationError":
            raise MatchNotFound("no such match")
        raise


def open_matches_created(user) -> int:
    """How many open matches ``user`` created and still sits in (read from the lobby read model)."""
    return readmodels.open_matches_created(user)


def engine_of(match: Match):
    return registry.get(match.game, match.engine_version)


def state_load(match: Match, *, until: int | None = None, use_snapshots: bool = True, use_cache: bool = True) -> dict:
    """Snapshot + tail fold (or a full fold) of the stream up to ``until`` (default: the head)."""
    head = match.head_seq if until is None else min(until, match.head_seq)
    at_head = use_cache and head == match.head_seq
    behind = None
    if at_head:
        behind = cache_behind(match.pk, head)
        if behind is not None and behind[0] == head:
            return behind[1]
    engine = engine_of(match)
    state, after = None, 0
    if behind is not None and use_snapshots and head - behind[0] <= _CACHE_FOLD_AHEAD:
        state, after = behind[1], behind[0]  # a few events ahead of the cached fold: fold on from it
    elif use_snapshots:
        snap = store.snapshot_latest(match, until=head)
        if snap is not None:
            state, after = snap.state, snap.seq
    events = store.events_for_fold(match, after=after, until=head, engine_upcasters=engine.upcasters)
    state = canonical(aggregate_fold(engine, events, state))
    # Outside a transaction every event up to the head read is committed (immutable), so the fold
    # may be cached; inside one it could still roll back.
    if at_head and not transaction.get_connection().in_atomic_block:
        cache_put(match.pk, head, state, match=match)
    return state


def seat_for_user(match: Match, user, state: dict | None = None) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    state = state or state_load(match)
    return seat_of_user(state["lobby"], user.pk)


def seat_now(match_id, user) -> int | None:
    """``user``'s seat in the match now. Once a match has started its seats never change, so any
    fold of it this process has cached answers without a read; before that, from the store.
    Raises MatchNotFound."""
    if user is None or not getattr(user, "is_authenticated", False):
        match_get(match_id)  # still: not found is not found
        return None
    with _cache_lock:
        hit = _cache.get(str(match_id))
    if hit is not None and hit[1]["lobby"]["status"] != OPEN:
        return seat_of_user(hit[1]["lobby"], user.pk)
    return seat_for_user(match_get(match_id), user)


def status_of(match: Match, state: dict) -> dict:
    lobby = state["lobby"]
    if lobby["status"] == OPEN or state["game"] is None:
        return {"phase": "lobby", "awaiting": [], "finished": False, "winners": []}
    engine = engine_of(match)
    status = engine_status(engine, state["game"])
    st = {**status.as_dict(), "phase": match_phase(engine, state, status)}
    if lobby["status"] != ACTIVE:
        st["awaiting"] = []
        st["finished"] = True
        st["winners"] = lobby["winners"]
    return st


def lobby_public(lobby: dict, match: Match, names: dict | None = None) -> dict:
    return {
        "game": lobby["game"],
        "status": lobby["status"],
        "seats": seats_display(lobby["seats"], names),  # the current name, or "deleted player" (identities)
        "options": lobby["options"],
        "rated": lobby.get("rated", False),
        "seed_hash": lobby["seed_hash"],
        "seed": lobby["seed"],
        "winners": lobby["winners"],
        "resigned": lobby.get("resigned"),  # the seat that resigned, if the match ended so
        "conceded": conceded_seats(lobby),  # the seats that resigned while the others played on
        "clock_held": bool(lobby.get("clock_held")),  # the platform stopped the clock (a tournament's pause)
        "clock_reason": (lobby.get("clock_reason") or "") if lobby.get("clock_held") else "",  # why, as the organizer said
        "creator_id": lobby.get("creator_id"),  # who may start an open match (a creator who leaves hands it on)
    }


def deadline_doc(row, seq: int) -> dict | None:
    """A clock row (a ``projections`` MatchDeadline) as clients see it, ``{due_at, seats}`` (ISO 8601
    UTC), if it runs at ``seq``."""
    if row is None or row.seq != seq:
        return None
    return {"due_at": row.due_at.isoformat(), "seats": list(row.seats)}


def deadline_of(match: Match) -> dict | None:
    """The decision clock running at the head seq, or None.

    Read from the clock row the sweeper fires (not recomputed), so what a client is shown is exactly
    when the timeout command will be submitted (give or take the sweep interval)."""
    return deadline_doc(readmodels.clock_row(match), match.head_seq)


def _clock_may_run(engine, state: dict) -> bool:
    """Whether a decision clock can run in ``state``: the projections store one only for a decision
    the engine puts a deadline on, so without one there is no row to read."""
    if state["lobby"]["status"] != ACTIVE or state["game"] is None or state["lobby"].get("clock_held"):
        return False
    return bool(engine_status(engine, state["game"]).deadline_seconds)


def view_for_seat(match: Match, seat, state: dict | None = None, *, seq: int | None = None,
                  names: dict | None = None) -> dict:
    """The ``/view/`` document: seq, seat, status, deadline, view, legal_commands for ``seat`` (None = spectator).

    ``seq``: ``state`` is (or, when not given, is loaded as) the fold up to that earlier seq, a point
    in the past (a replay, a delayed spectator's view): the document says so and shows no running
    clock. ``names``: ``names_seated(lobby)``, when the caller builds many documents of one state."""
    behind = seq is not None
    state = state or state_load(match, until=seq)
    engine = engine_of(match)
    status = status_of(match, state)
    game_view, legal = None, []
    if state["game"] is not None:
        game_view = engine.view_for(state["game"], seat)
        if (state["lobby"]["status"] == ACTIVE and seat is not None and seat in status["awaiting"]
                and not state["lobby"].get("clock_held")):  # paused: a move would be refused (services.paused_for)
            legal = engine.legal_commands(state["game"], seat)
    clock = bool(status["awaiting"]) and not behind and _clock_may_run(engine, state)
    return {
        "seq": match.head_seq if seq is None else seq,
        "seat": seat,
        "status": status,
        "deadline": deadline_of(match) if clock else None,
        "match": lobby_public(state["lobby"], match, names),
        "view": game_view,
        "legal_commands": legal,
        "resignable": not behind and resignable(engine, state, seat),
        "resign_refused": None if behind else game_refuses_resigning(engine, state, seat),
        "take_over": [] if behind else take_over_seats(match, engine, state, seat, status),
    }


def take_over_seats(match: Match, engine, state: dict, seat, status: dict) -> list[int]:
    """The seats whose characters ``seat`` may take over now (``decisions._take_over``: a cooperative
    game that allows it, a seat the match has waited on with no move by anyone for a day); the
    decision is the write path's, this only spares the page a button that would be refused."""
    if getattr(engine, "take_over", None) is None or not _in_the_running(engine, state, seat):
        return []
    lobby = state["lobby"]
    awaited = [s for s in status["awaiting"] if isinstance(s, int) and s != seat and s not in conceded_seats(lobby)
               and not (lobby["seats"][s] or {}).get("bot")]
    if not awaited:
        return []
    last = store.event_last_at(match)
    if last is None or (timezone.now() - last).total_seconds() < IDLE_TAKE_OVER_SECONDS:
        return []
    return awaited


def resignable(engine, state: dict, seat) -> bool:
    """Whether ``seat`` may resign now (``decisions._resign`` decides; this only spares the page a
    button that would be refused): a seated player still in play in a running game that is not
    cooperative, of two sides, or of more whose engine lets the others play on now
    (``EngineBase.concede``, asked through the same rule: ``EngineBase.concede_refusal``)."""
    if not _in_the_running(engine, state, seat):
        return False
    if _two_sides(engine, state):
        return True
    return concedes(engine) and engine.concede_refusal(state["game"], seat) is None


def resign_heir(engine, state: dict, seat) -> int | None:
    """In a cooperative game that lets a player leave (Harakiri): the seat that would take over
    ``seat``'s characters if its player resigned now; None elsewhere, or for the last player."""
    heir = getattr(engine, "resign_heir", None)
    if heir is None or state.get("game") is None or seat is None:
        return None
    return heir(state["game"], seat)


def game_refuses_resigning(engine, state: dict, seat) -> str | None:
    """The code of the game's own rule that keeps ``seat`` from resigning now (``concede_in_setup``:
    the page says when it can), for a seated player who could otherwise; None when none does."""
    if not _in_the_running(engine, state, seat) or _two_sides(engine, state) or not concedes(engine):
        return None
    refusal = engine.concede_refusal(state["game"], seat)
    return refusal.code if refusal is not None else None


def _in_the_running(engine, state: dict, seat) -> bool:
    lobby = state["lobby"]
    return not (seat is None or lobby["status"] != ACTIVE or (engine.cooperative and not concedes(engine))
                or (lobby["seats"][seat] or {}).get("bot") or seat in conceded_seats(lobby)
                or engine.out_of_play(state["game"], seat))


def _two_sides(engine, state: dict) -> bool:
    """Two sides, where one resigning hands the other the win (never in a cooperative game)."""
    return not engine.cooperative and len(engine.sides(state["game"], len(state["lobby"]["seats"]))) == 2


def concedes(engine) -> bool:
    """Whether the game goes on when a player resigns from three sides or more (the engine overrides
    ``EngineBase.concede``), known without deciding a concession on every view."""
    return type(engine).concede is not EngineBase.concede


# The spectators' document at a past seq (a delayed view) is the same for all of them and never
# changes: computed once per process, shared by every socket and request.
_DELAYED_SIZE = 512
_delayed: "OrderedDict[tuple[str, int], dict]" = OrderedDict()


def spectator_view_at(match: Match, seq: int) -> dict:
    """The spectators' ``/view/`` document as of ``seq`` (the head's when ``seq`` is not behind it)."""
    if seq >= match.head_seq:
        return view_for_seat(match, None)
    key = (str(match.pk), seq)
    with _cache_lock:
        doc = _delayed.get(key)
        if doc is not None:
            _delayed.move_to_end(key)
            return doc
    doc = view_for_seat(match, None, seq=seq)
    with _cache_lock:
        _delayed[key] = doc
        while len(_delayed) > _DELAYED_SIZE:
            _delayed.popitem(last=False)
    return doc


def viewer_of(match: Match, user, state: dict | None = None) -> watch.Viewer:
    """Who ``user`` is on ``match`` (their seat, or a spectator's limit); raises LiveViewRefused."""
    return watch.viewer_for(match, user, state or state_load(match))


def staff_read_check(match: Match, user, state: dict | None = None) -> None:
    """Staff read any match unredacted (every seat's hand, the secret seed, both chat channels), but
    not one they play in, nor one they may not watch (a player of its tournament), before it ends:
    StaffConflict (403 ``conflict_of_interest``), as a tournament's player does not judge it."""
    state = state or state_load(match)
    if state["lobby"]["status"] not in (OPEN, ACTIVE):
        return
    try:
        seat = watch.viewer_for(match, user, state).seat
    except watch.LiveViewRefused:
        seat = -1
    if seat is not None:
        raise watch.StaffConflict("you play in this match (or in its tournament), so you cannot read it "
                                  "unredacted before it ends: another staff member can")


def view_for_viewer(match: Match, viewer: watch.Viewer, state: dict | None = None) -> dict:
    """The ``/view/`` document ``viewer`` may see now."""
    if viewer.until is not None and viewer.until < match.head_seq:
        return spectator_view_at(match, viewer.until)
    return view_for_seat(match, viewer.seat, state)


def events_for_viewer(match: Match, viewer: watch.Viewer, *, after: int = 0, until: int | None = None) -> list[dict]:
    """``events_for_seat``, never past what ``viewer`` may see now."""
    limit = viewer.limit(match.head_seq)
    until = limit if until is None else min(until, limit)
    if until <= after:
        return []
    return events_for_seat(match, viewer.seat, after=after, until=until)


def narration_facts(engine, state: dict | None):
    """What ``describe`` may use besides an event (``EngineBase.narration_facts``: public facts such
    as Yashima's map), from the match's ``state``; None before the game is set up."""
    game = (state or {}).get("game")
    return engine.narration_facts(game) if game is not None else None


def describe(engine, seen: dict, seat, names=(), facts=None) -> str:
    """``engine.describe`` of a redacted event, given ``facts`` when the engine has any."""
    if facts is None:
        return engine.describe(seen, seat, names)
    return engine.describe(seen, seat, names, facts)


def redact_for_seat(engine, ev: dict, seat, names=(), facts=None, users: dict | None = None) -> dict:
    """One stored event as ``seat`` may see it; hidden payloads become None with ``hidden: true``.

    ``text`` is one sentence about it for that seat, made from the redacted event and the public
    ``facts`` only (``narration_facts``; ``""`` for bookkeeping and hidden events); ``names`` are the
    seats' display names (``seat_names``). A platform event's names are shown, not as stored: each seat
    it names reads as ``names`` says, a ``SeatTaken``'s user as ``users`` (``names_among``) says, so
    a renamed or deleted account's old name is never shown (``platform_shown``); the stored event
    keeps it. Payloads come with their keys sorted (``canonical``), so an event reads the
    same whether it was just decided or loaded (PostgreSQL's jsonb reorders keys): a replayed
    command's answer is byte for byte the first."""
    out = {"seq": ev["seq"], "type": ev["type"], "actor": _public_actor(ev["actor"]), "at": ev["at"]}
    if ev["type"] in PLATFORM_EVENTS:
        payload = platform_shown(ev["type"], ev["payload"] or {}, names, users)
        out["payload"] = canonical(payload)
        out["text"] = platform_text(ev["type"], payload)
        return out
    seen = engine.redact_event({"type": ev["type"], "v": ev["v"], "payload": ev["payload"]}, seat)
    if seen is None:
        out["payload"], out["hidden"], out["text"] = None, True, ""
    else:
        out["type"], out["payload"] = seen["type"], canonical(seen["payload"])
        out["text"] = describe(engine, seen, seat, names, facts)
    return out


def _seat_name(names, seat, recorded):
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names or ()) and names[seat]:
        return names[seat]
    return recorded


def platform_shown(type_: str, payload: dict, names=(), users: dict | None = None) -> dict:
    """A platform event's payload with the names it recorded shown as they read now: a
    ``SeatTaken`` by its ``user_id`` (``users``: ``names_among``; a bot's seat as it is), a
    ``MatchFinished`` by resignation and a ``SeatConceded`` by their seats (``names``: ``seat_names``;
    a running or finished match's seats keep their players). A copy when a name changes."""
    if type_ == SEAT_TAKEN and users and payload.get("user_id") and not payload.get("bot"):
        shown = name_shown(payload["user_id"], payload.get("username"), users)
        return payload if shown == payload.get("username") else {**payload, "username": shown}
    out = payload
    for name_key, seat_key in (("username", "resigned" if type_ == FINISHED else "seat"), ("by_username", "taken_over_by")):
        if type_ not in (FINISHED, SEAT_CONCEDED) or name_key not in payload:
            continue
        shown = _seat_name(names, payload.get(seat_key), payload[name_key])
        if shown != payload[name_key]:
            out = {**out, name_key: shown}
    return out


def platform_text(type_: str, payload: dict) -> str:
    """The lobby events in words (their payloads are public)."""
    who = payload.get("username") or "A player"
    seat = payload.get("seat")
    place = f"seat {seat + 1}" if isinstance(seat, int) else "a seat"
    return {
        CREATED: "The match is created",
        SEAT_TAKEN: f"{who} takes {place}",
        SEAT_LEFT: f"{who} leaves {place}" if payload.get("username") else f"{place.capitalize()} is free again",
        STARTED: "The match starts",
        FINISHED: f"{who} resigns: the match is over" if "resigned" in payload else "The match is over",
        ABANDONED: "The match is abandoned",
        CLOCK_HELD: "The clock stops: the round is paused" + (f" ({payload['reason']})" if payload.get("reason") else ""),
        CLOCK_RELEASED: "The clock runs again",
        SEAT_CONCEDED: (f"{payload.get('by_username') or 'A player'} takes over from {who}, whom the game had "
                        f"waited on for over {int(payload.get('idle_seconds') or 0) // 3600} hours"
                        if "taken_over_by" in payload else f"{who} resigns and leaves the game"),
    }.get(type_, "")


def seat_names(lobby: dict, names: dict | None = None) -> list:
    """Display names by seat for ``describe`` and the platform events' text: each account's current
    name, or "deleted player" (``identities``)."""
    return [s.get("username") if isinstance(s, dict) else None for s in seats_display(lobby.get("seats"), names)]


def seat_names_running(match_id, lobby: dict) -> list:
    """``seat_names`` of a match's lobby, the names look-up kept while the match is active
    (``names_in_running``): the write path names the seats in every command's answer."""
    return seat_names(lobby, names_in_running(match_id, human_ids(lobby.get("seats")), lobby["status"] == ACTIVE))


def names_seated(lobby: dict) -> dict:
    """The names shown for the lobby's seats (one look-up for many documents of one state)."""
    return names_among_seat_lists([lobby.get("seats")])


def _public_actor(actor: dict) -> dict:
    return {k: actor.get(k) for k in ("kind", "seat", "user_id") if k in actor}


def events_for_seat(match: Match, seat, *, after: int = 0, until: int | None = None) -> list[dict]:
    engine = engine_of(match)
    rows = store.events_load(match, after=after, until=until, engine_upcasters=engine.upcasters)
    if not rows:
        return []
    state = state_load(match)
    lobby = state["lobby"]
    names = names_among(human_ids(lobby.get("seats")) | seated_by(rows))
    return redact_rows(engine, rows, seat, seat_names(lobby, names), names, narration_facts(engine, state))


def seated_by(rows: list[dict]) -> set:
    """The users ``rows`` seat (a ``SeatTaken`` names its user, who may have left the seat since)."""
    return {ev["payload"].get("user_id") for ev in rows
            if ev["type"] == SEAT_TAKEN and ev["payload"].get("user_id") and not ev["payload"].get("bot")}


def redact_rows(engine, rows: list[dict], seat, seat_names_shown, names: dict | None = None, facts=None) -> list[dict]:
    """Stored events (``store.events_load``) as ``seat`` may see them. ``seat_names_shown``:
    ``seat_names`` of the match's lobby; ``names``: ``names_among`` the users ``rows`` seat
    (``seated_by``) as well, so a ``SeatTaken`` whose player left the seat since is named too;
    ``facts``: ``narration_facts`` of the match's state."""
    return [redact_for_seat(engine, ev, seat, seat_names_shown, facts, names) for ev in rows]


def replay_for_seat(match: Match, seat, at: int | None = None, *, after: int = 0) -> dict:
    """A finished match as ``seat`` (None: a spectator) saw it at seq ``at`` (default: the end): the
    ``/view/`` document folded up to ``at`` (``seq`` is ``at``; no clock), plus ``head_seq`` and the
    events after ``after`` up to ``at`` redacted for that seat, each with its ``text``.

    Only a finished match has a replay: after the end every seat's view is open to anyone who could
    watch the match, while a running match's replay would bypass its live view's rules (a tournament's
    spectator delay, a seat's hidden cards), so it is refused, ``match_not_finished``."""
    final = state_load(match)
    head = match.head_seq
    if final["lobby"]["status"] != DONE:
        raise ReplayRefused("match_not_finished", "only a finished match can be replayed; watch it live", 409)
    at = head if at is None else at
    if not 1 <= at <= head:
        raise ReplayRefused("seq_beyond_head", f"the match log runs from seq 1 to {head}", 422)
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(final["lobby"]["seats"])):
        raise ReplayRefused("unknown_seat", f"the match has seats 0 to {len(final['lobby']['seats']) - 1}", 422)
    doc = view_for_seat(match, seat, state_load(match, until=at), seq=at)
    doc["head_seq"] = head
    doc["events"] = events_for_seat(match, seat, after=min(max(after, 0), at), until=at) if after < at else []
    return doc


def events_unredacted(match: Match, *, until: int | None = None, strict: bool = True) -> list[dict]:
    """Every stored event up to ``until``, hidden payloads included: staff reads only (the caller
    records a StaffAccess row, ``audit.staff_access_record``). Upcast by the match's engine; when
    that engine is not installed, ``strict`` raises ``unknown_game`` and otherwise the events come
    as stored (a staff page must still show the log of a match whose engine is gone)."""
    try:
        upcasters = engine_of(match).upcasters
    except RuleViolation:
        if strict:
            raise
        upcasters = None
    return store.events_load(match, until=until, engine_upcasters=upcasters)


def awaiting_automation(state: dict) -> tuple[list, list]:
    """(awaiting, bot seats among them) for scheduling follow-up work."""
    if state["lobby"]["status"] != ACTIVE or state["game"] is None:
        return [], []
    engine = registry.get(state["lobby"]["game"], state["lobby"]["engine_version"])
    awaiting = list(engine_status(engine, state["game"]).awaiting)
    bots = [s for s in bot_seats(state["lobby"]) if s in awaiting]
    return awaiting, bots


def needs_automation(state: dict) -> bool:
    awaiting, bots = awaiting_automation(state)
    return SYSTEM in awaiting or bool(bots)


# -- what a match list shows of running matches ---------------------------------------------


def spectator_counts(match_ids) -> dict:
    """{match_id (str): sockets without a seat watching it now, over every server}."""
    return presence.spectators(match_ids)


def delayed_progress(match: Match, policy: "watch.WatchPolicy | None") -> dict | None:
    """What a spectator may know of a running match's progress when its watch policy keeps them
    behind: ``{seq, phase, awaiting}`` as of the seq they may see now; None when they see the head."""
    if policy is None or not policy.delayed:
        return None
    until, _ = watch.spectator_limit(match, policy)
    if until >= match.head_seq:
        return None
    status = spectator_view_at(match, until)["status"]
    return {"seq": until, "phase": status["phase"], "awaiting": status["awaiting"]}
