"""The one write path.

``match_submit_command`` is the only way anything is appended to a match: REST, sockets and
workers all end here, and so do the lobby services below (they are commands too). Under the
match row lock it checks idempotency and the expected seq, folds snapshot + tail, decides
(``decisions.outcome``), appends the events with the command itself, updates projections, and on
commit publishes and schedules follow-up work.

On PostgreSQL a game command on a match whose fold this process holds is first tried without the
lock's transaction (``_write_unlocked``): decided on the fold this process holds, and appended,
with its projections, in one statement that only applies if the head is still that fold's (a
compare-and-set on the match row, which takes the same row lock). Every check stays: the unique
(match, command_id) and (match, seq), the expected seq, the projections in the same transaction.
Whatever that path cannot settle (the head moved, a refusal, a replay) goes to the locked path,
which decides it as before.
"""

import hashlib
import json
import math
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import jsonschema
import orjson
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import SYSTEM, RuleViolation, registry, seed_commitment

from . import decisions as D
from . import hooks, lobby as L, readmodels
from .accounts_lock import accounts_entering
from .errors import CommandIdReused, LobbyError, MatchNotFound, MatchPaused, PlatformError, VersionConflict
from .readmodels import projection_writes, projections_update
from .selectors import (
    awaiting_automation, cache_put, engine_of, events_for_seat, match_cached, narration_facts, open_matches_created,
    redact_for_seat, seat_names_running, state_load,
)

MAX_LOBBY_RETRIES = 5


@dataclass
class Actor:
    kind: str  # "user" | "worker" | "system"
    user_id: int | None = None
    extra: dict = field(default_factory=dict)

    def as_dict(self, seat) -> dict:
        return {"kind": self.kind, "user_id": self.user_id, "seat": seat, **self.extra}

    @classmethod
    def user(cls, user) -> "Actor":
        return cls(kind="user", user_id=user.pk)

    @classmethod
    def worker(cls, task: str) -> "Actor":
        return cls(kind="worker", extra={"task": task})


class CommandResult:
    """A command's head and its events, redacted for the submitting seat. Given an ``answer``
    instead of ``events``, the events are made when first read: a worker's step (a bot's move, a
    clock, a tournament's or a campaign's step) never reads them, and naming and redacting them is a
    good part of the write path's own work."""

    __slots__ = ("seq", "replayed", "_events", "_answer")

    def __init__(self, seq: int, events: list | None = None, replayed: bool = False, *,
                 answer: Callable[[], list] | None = None):
        if (events is None) == (answer is None):
            raise TypeError("a CommandResult needs exactly one of its events and an answer")
        self.seq, self.replayed, self._events, self._answer = seq, replayed, events, answer

    @property
    def events(self) -> list:
        if self._events is None:
            self._events, self._answer = self._answer(), None
        return self._events

    def as_dict(self) -> dict:
        return {"seq": self.seq, "events": self.events}

    def __repr__(self) -> str:
        return f"CommandResult(seq={self.seq}, replayed={self.replayed})"


def server_command_id(name: str) -> uuid.UUID:
    """The command id of a step the server takes itself (a worker's timeout, bot move or SYSTEM step;
    a tournament round's time limit), named by what it is (``"<match>:<seq>:timeout:0"``): the same
    name gives the same id, so a retried step appends nothing twice. Keyed with SECRET_KEY so that no
    client can compute it: a player who sent a move under the id of the server's next step would make
    that step a ``command_id_reused`` for ever (a clock that never fires, a bot that never moves)."""
    digest = salted_hmac("kamiza.server-command-id", name, algorithm="sha256").digest()
    return uuid.UUID(bytes=digest[:16], version=5)


def fingerprint(seat, type_: str, args: dict) -> str:
    """What a command asked, hashed: a repeated command id must ask the same to be replayed. The
    hash is of the text ``json.dumps`` makes with sorted keys, compact, ASCII only and ``str`` for
    what JSON has no value for, as stored fingerprints were made. orjson makes the same bytes for
    what commands carry (strings, whole numbers, booleans, null, lists and objects keyed by strings)
    several times faster; anything else goes to ``json.dumps`` (``_fingerprint_text``)."""
    command = {"seat": seat, "type": type_, "args": args}
    text = _fingerprint_bytes(command) if _orjson_writes_as_json(command) else None
    return hashlib.sha256(text or _fingerprint_text(command).encode()).hexdigest()


def _fingerprint_text(command: dict) -> str:
    return json.dumps(command, sort_keys=True, separators=(",", ":"), default=str)


def _fingerprint_bytes(command: dict) -> bytes | None:
    """orjson's text of ``command`` when it is ``_fingerprint_text``'s byte for byte: ASCII, with no
    escaped character (the two spell some escapes differently, and only ``json.dumps`` escapes
    DEL); else None."""
    try:
        text = orjson.dumps(command, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:  # an integer past 64 bits
        return None
    return text if text.isascii() and b"\\" not in text and b"\x7f" not in text else None


def _orjson_writes_as_json(value) -> bool:
    """Whether ``value`` holds only what orjson writes as ``json.dumps`` does: strings, whole
    numbers, booleans and null, in lists and in objects keyed by strings (no floats, whose exponents
    the two spell differently, no tuples, no subclasses, nothing written by ``default``)."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _orjson_writes_as_json(v) for k, v in value.items())
    if kind is list:
        return all(_orjson_writes_as_json(v) for v in value)
    return kind is str or kind is int or kind is bool or value is None


def _normalise_command_id(command_id) -> uuid.UUID:
    if isinstance(command_id, uuid.UUID):
        return command_id
    try:
        return uuid.UUID(str(command_id))
    except ValueError:
        raise RuleViolation("bad_command_id", "command_id must be a UUID")


def _write(match_id, *, actor: Actor, command_id, expected_seq, fp: str, request: D.Request) -> CommandResult:
    """Decide and append, by the unlocked path when it can (``_write_unlocked``), else by the
    locked one: lock, check, decide, append (the command with its events), project; publish and
    schedule on commit.

    ``request`` is decided by ``decisions.outcome``, which may raise RuleViolation / PlatformError.
    The unique (match, command_id) and (match, seq) are the last word: if the append hits one (a
    writer that got there first), the whole transaction rolls back and is tried once more, which
    then sees that writer's command (a replay) or its head (a version conflict).
    """
    done = _write_unlocked(match_id, actor=actor, command_id=command_id, expected_seq=expected_seq, fp=fp,
                           request=request)
    if done is not None:
        return done
    try:
        return _write_once(match_id, actor=actor, command_id=command_id, expected_seq=expected_seq, fp=fp,
                           request=request)
    except IntegrityError:
        pass
    try:
        return _write_once(match_id, actor=actor, command_id=command_id, expected_seq=expected_seq, fp=fp,
                           request=request)
    except IntegrityError:
        raise VersionConflict(Match.objects.get(pk=match_id).head_seq)


def _write_unlocked(match_id, *, actor: Actor, command_id, expected_seq, fp: str, request: D.Request):
    """The common case in one statement: a game command on a match whose fold this process holds
    (``match_cached``: its own last write, or a push it folded), on PostgreSQL, outside any
    transaction. It is decided on that fold and appended with its projections only if the match's
    head is still where the fold is (``store.command_append_if_head``); on SQLite, in a short
    transaction that checks the head the same way (``_append_checked``). None, having written
    nothing, whenever the locked path must decide instead: nothing cached, a lobby command, another
    expected seq, a refusal (the locked path looks for a replay of the command id first), read
    models that need more than blind writes, a head another writer moved or a command id the match
    has (a retry), or an append that failed (a concurrent writer's command id or seq)."""
    if request.kind == D.LOBBY:
        return None
    one_statement = store.appends_unlocked()
    if not one_statement and not store.appends_checked():
        return None
    cached = match_cached(match_id)
    if cached is None:
        return None
    match, state = cached
    if paused_for(actor, request, state) is not None:
        return None  # the locked path refuses it, after looking for a replay of its command id
    if expected_seq is not None and expected_seq != match.head_seq:
        if expected_seq < match.head_seq:
            _refuse_unless_replay(match_id, command_id)
        return None
    engine = engine_of(match)
    try:
        events, new_state = D.outcome(match, engine, state, request, D.rng_for(match, match.head_seq))
    except (RuleViolation, PlatformError):
        return None
    if not one_statement:
        return _append_checked(match, engine, state, new_state, events, actor=actor, command_id=command_id,
                               expected_seq=expected_seq, fp=fp, request=request)
    before, at = match.head_seq, timezone.now()
    head = before + len(events)
    writes = projection_writes(engine, match, new_state, events, at, state, head)
    if writes is None:
        return None
    if store.snapshot_due(before, head):
        writes.append(store.snapshot_write(match, head, new_state))
    event_actor = actor.as_dict(request.seat)
    try:
        first = store.command_append_if_head(
            match, events, actor=event_actor, command_id=command_id, seat=request.seat, fingerprint=fp,
            body=store.CommandBody(request.kind, request.type, request.args, expected_seq), at=at, writes=writes)
    except IntegrityError:
        return None
    if first is None:  # another writer moved the head
        return None
    return _appended(match, engine, new_state, events, first=first, at=at, event_actor=event_actor, seat=request.seat,
                     committed_already=True)


def _append_checked(match: Match, engine, state: dict, new_state: dict, events: list, *, actor: Actor, command_id,
                    expected_seq, fp: str, request: D.Request) -> CommandResult | None:
    """SQLite's way for a command decided on the fold this process holds: the locked path's
    transaction without its SELECT of the match and the command id, whose work the append's first
    statement does as a compare-and-set (``store.command_append_checked``). None, having written
    nothing, when the head had moved or the command id was taken, or an append failed (the locked
    path then decides, or replays)."""
    seat, before = request.seat, match.head_seq
    event_actor = actor.as_dict(seat)
    try:
        with transaction.atomic():
            first, at = store.command_append_checked(
                match, events, actor=event_actor, command_id=command_id, seat=seat, fingerprint=fp,
                body=store.CommandBody(request.kind, request.type, request.args, expected_seq))
            projections_update(engine, match, new_state, events, at=at, before=state)
            if store.snapshot_due(before, match.head_seq):
                store.snapshot_save(match, match.head_seq, new_state)
            return _appended(match, engine, new_state, events, first=first, at=at, event_actor=event_actor, seat=seat)
    except (store.HeadMoved, IntegrityError):
        return None


def paused_for(actor: Actor, request: D.Request, state: dict | None) -> MatchPaused | None:
    """The refusal of a player's game command while the match's clock is held (its tournament is
    paused: docs/platform.md, "Holding the clock"), None otherwise. Decided here, by who sends it,
    and not in ``decisions``: workers (the system's steps, a bot, a round's time limit) and lobby
    commands (a resignation: a tournament drop resigns during a pause) go on, and commands kept in
    the log are decided again without knowing who sent them."""
    if actor.kind != "user" or request.kind != D.GAME or state is None:
        return None
    lobby = state["lobby"]
    if not lobby.get("clock_held") or lobby["status"] != L.ACTIVE:
        return None
    return MatchPaused(lobby.get("clock_reason") or "")


def _refuse_unless_replay(match_id, command_id) -> None:
    """A command expecting a seq behind a head this process saw committed (heads only grow) is a
    version conflict, unless its id is a command the match has, which the locked path replays:
    told apart by one read, without a transaction or the match's lock. Raises VersionConflict with
    the head as read; returns for a replay (or a match that is not there: the locked path says so)."""
    try:
        match, existing = store.match_peek(match_id, command_id)
    except Match.DoesNotExist:
        return
    if existing is None:
        raise VersionConflict(match.head_seq)


def _write_once(match_id, *, actor: Actor, command_id, expected_seq, fp: str, request: D.Request) -> CommandResult:
    seat = request.seat
    with transaction.atomic():
        try:
            match, existing = store.match_lock(match_id, command_id)
        except Match.DoesNotExist:
            raise MatchNotFound("no such match")
        if existing is None and expected_seq is not None and expected_seq != match.head_seq:
            existing = store.command_find(match, command_id)  # committed while we waited for the lock?
            if existing is None:
                raise VersionConflict(match.head_seq)
        if existing is not None:
            if existing.fingerprint != fp:
                raise CommandIdReused("this command_id was already used for a different command")
            return _replay(match, existing, seat)
        engine = engine_of(match)
        state = state_load(match)
        paused = paused_for(actor, request, state)
        if paused is not None:
            raise paused
        events, new_state = D.outcome(match, engine, state, request, D.rng_for(match, match.head_seq))
        before = match.head_seq
        event_actor = actor.as_dict(seat)
        body = store.CommandBody(request.kind, request.type, request.args, expected_seq)
        first, at = store.command_append(match, events, actor=event_actor, command_id=command_id, seat=seat,
                                         fingerprint=fp, body=body)
        projections_update(engine, match, new_state, events, at=at, before=state)
        if store.snapshot_due(before, match.head_seq):
            store.snapshot_save(match, match.head_seq, new_state)
        return _appended(match, engine, new_state, events, first=first, at=at, event_actor=event_actor, seat=seat)


def _appended(match: Match, engine, new_state: dict, events: list, *, first: int, at, event_actor: dict,
              seat, committed_already: bool = False) -> CommandResult:
    """After an append (in its transaction, or ``committed_already``: the unlocked path's one
    statement, outside any transaction): cache the fold, publish and schedule follow-ups once
    committed; the answer, redacted for ``seat`` when it is first read (``CommandResult``)."""
    match_id, head = match.pk, match.head_seq
    awaiting, bots = awaiting_automation(new_state)
    finished_by = [ev for ev in events if ev["type"] == L.FINISHED]

    def committed():
        cache_put(match_id, head, new_state, match=match)
        hooks.publish_appended(match_id, head)
        if SYSTEM in awaiting or bots:
            hooks.schedule_followups(match_id, head, awaiting, bots)
        if finished_by:
            hooks.match_finished(match_id, list(finished_by[0]["payload"]["winners"]), event_actor)

    if committed_already:
        committed()  # what on_commit would do outside a transaction, without its look-ups
    else:
        transaction.on_commit(committed)

    def answer() -> list:
        stamp = at.isoformat()
        stored = [{**ev, "seq": seq, "v": ev.get("v", 1), "actor": event_actor, "at": stamp}
                  for seq, ev in enumerate(events, start=first)]
        names = seat_names_running(match_id, new_state["lobby"])  # the same sentences a replay or /events/ gives
        facts = narration_facts(engine, new_state)
        return [redact_for_seat(engine, ev, seat, names, facts) for ev in stored]

    return CommandResult(seq=head, answer=answer)


def _replay(match: Match, existing, seat) -> CommandResult:
    events = events_for_seat(match, seat, after=existing.first_seq - 1, until=existing.last_seq)
    return CommandResult(seq=existing.last_seq, events=events, replayed=True)


# -- game commands ----------------------------------------------------------------------


def match_submit_command(*, match_id, seat, actor: Actor, command_id, expected_seq, type_: str, args: dict) -> CommandResult:
    """Submit a game command for ``seat`` (an int, SYSTEM for workers, None for a spectator)."""
    return _game_command(match_id=match_id, seat=seat, actor=actor, command_id=command_id,
                         expected_seq=expected_seq, type_=type_, args=args, kind=D.GAME)


def match_submit_system_command(*, match_id, actor: Actor, command_id, type_: str, args: dict) -> CommandResult:
    """Submit a SYSTEM command the engine accepts whenever the match is active, not only when it
    awaits the system (e.g. ``time_limit`` when a tournament round's time runs out). Only workers
    call this; the engine alone decides whether it accepts the command."""
    return _game_command(match_id=match_id, seat=SYSTEM, actor=actor, command_id=command_id,
                         expected_seq=None, type_=type_, args=args, kind=D.SYSTEM_ANY)


def _game_command(*, match_id, seat, actor: Actor, command_id, expected_seq, type_: str, args: dict,
                  kind: str) -> CommandResult:
    command_id = _normalise_command_id(command_id)
    if not isinstance(args, dict):
        raise RuleViolation("bad_args", "args must be an object")
    return _write(match_id, actor=actor, command_id=command_id, expected_seq=expected_seq,
                  fp=fingerprint(seat, type_, args), request=D.Request(kind, type_, args, seat))


# -- lobby ----------------------------------------------------------------------------------


def _lobby_write(match_id, *, actor: Actor, type_: str, args: dict) -> CommandResult:
    """Lobby actions carry no client seq: retry on a concurrent append, each time re-deciding."""
    request = D.Request(D.LOBBY, type_, args)
    for _ in range(MAX_LOBBY_RETRIES):
        try:
            return _write(match_id, actor=actor, command_id=uuid.uuid4(), expected_seq=None, fp="lobby", request=request)
        except VersionConflict:
            continue
    raise VersionConflict(Match.objects.get(pk=match_id).head_seq)


# Casual matches are rated unless their creator turns it off (a bot seat makes any match unrated).
RATED_DEFAULT = True


def match_create(*, game: str, seats: int, options: dict | None, creator, join: bool = True,
                 rated: bool = RATED_DEFAULT) -> Match:
    engine = registry.get(game)
    if not isinstance(rated, bool):
        raise RuleViolation("bad_rated", "rated must be true or false")
    rated = rated and not engine.cooperative
    options = {} if options is None else options
    if not isinstance(seats, int) or isinstance(seats, bool) or not engine.min_seats <= seats <= engine.max_seats:
        raise RuleViolation("bad_seats", f"{engine.name} is played by {engine.min_seats} to {engine.max_seats} seats")
    if not isinstance(options, dict):
        raise RuleViolation("bad_options", "options must be an object")
    try:
        jsonschema.validate(options, engine.options_schema)
    except jsonschema.ValidationError as err:
        raise RuleViolation("bad_options", err.message)
    engine.validate_options(options, seats)
    if creator is not None and join:
        open_matches_check(creator)
    seed = secrets.token_bytes(32)
    with transaction.atomic():
        match = Match.objects.create(
            game=engine.slug, engine_version=str(engine.version), seat_count=seats, options=options, rated=rated,
            created_by=creator, seed=seed.hex(), seed_hash=seed_commitment(seed),
        )
        args = {"seats": seats, "options": options, "rated": rated, "creator_id": creator.pk if creator else None,
                "username": creator.get_username() if creator else None, "join": bool(join and creator is not None)}
        _write(match.pk, actor=Actor.user(creator) if creator else Actor("system"), command_id=uuid.uuid4(),
               expected_seq=0, fp="create", request=D.Request(D.LOBBY, "create", args))
    match.refresh_from_db()
    return match


def open_matches_check(user) -> None:
    """Lobby flooding: refuse a new match while ``user`` already has MAX_OPEN_MATCHES_PER_USER open
    matches they created and still sit in."""
    cap = settings.MAX_OPEN_MATCHES_PER_USER
    if open_matches_created(user) >= cap:
        raise LobbyError("too_many_open_matches", f"you already have {cap} open matches; start or leave one first")


def match_join(*, match_id, user, seat: int | None = None) -> CommandResult:
    return _lobby_write(match_id, actor=Actor.user(user), type_="join",
                        args={"user_id": user.pk, "username": user.get_username(), "seat": seat})


def player_join(*, match_id, user, seat: int | None = None) -> CommandResult:
    """``match_join`` for a player taking a seat themself (the API, the pages, an invitation):
    the account's row is locked first, as its deletion locks it before looking where it sits, so a
    join under way when the account is deleted either commits first (and the deletion leaves the
    seat again) or waits and is refused (``account_inactive``, 403). Workers seating players (a
    tournament's table, a campaign's phase) call ``match_join``: the deletion meets them on the
    tournament's or the campaign's own lock, which it takes after the account's (docs/platform.md,
    "Accounts and the log")."""
    with accounts_entering([user]):
        return match_join(match_id=match_id, user=user, seat=seat)


def player_create(*, game: str, seats: int, options: dict | None, creator, rated: bool = RATED_DEFAULT) -> Match:
    """``match_create`` for a player opening a match and taking its first seat, with the creator's
    account locked first (see ``player_join``)."""
    with accounts_entering([creator]):
        return match_create(game=game, seats=seats, options=options, creator=creator, rated=rated)


def match_add_bot(*, match_id, user, seat: int | None = None) -> CommandResult:
    return _lobby_write(match_id, actor=Actor.user(user), type_="add_bot", args={"user_id": user.pk, "seat": seat})


def match_leave(*, match_id, user) -> CommandResult:
    return _lobby_write(match_id, actor=Actor.user(user), type_="leave", args={"user_id": user.pk})


def match_resign(*, match_id, user, actor: Actor | None = None) -> CommandResult:
    """``user`` concedes the running match they sit in: the other side wins (``decisions._resign``).
    ``actor``: who asked, when it is not ``user`` (a tournament's organizer dropping them)."""
    return _lobby_write(match_id, actor=actor or Actor.user(user), type_="resign", args={"user_id": user.pk})


def match_take_over(*, match_id, user, seat) -> CommandResult:
    """``user`` takes over the characters of ``seat``, an absent player of a cooperative match
    (``decisions._take_over``): the time the match has waited, with no move by anyone, is measured
    here from its last event and recorded with the command. The write expects the head the wait was
    measured at: a move appended meanwhile ends the wait, so the wait is measured again (and then
    refuses: the match has not waited a day any more)."""
    for _ in range(MAX_LOBBY_RETRIES):
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise MatchNotFound("no such match")
        last = store.event_last_at(match)  # read after head_seq: an append in between only shortens the wait
        idle = 0 if last is None else max(0, int((timezone.now() - last).total_seconds()))
        request = D.Request(D.LOBBY, "take_over", {"user_id": user.pk, "seat": seat, "idle_seconds": idle})
        try:
            return _write(match_id, actor=Actor.user(user), command_id=uuid.uuid4(), expected_seq=match.head_seq,
                          fp="lobby", request=request)
        except VersionConflict:
            continue
    raise VersionConflict(Match.objects.get(pk=match_id).head_seq)


def match_hold_clock(*, match_id, actor: Actor, reason: str = "") -> CommandResult:
    """Stop the running match's decision clock (a tournament's organizer paused its round): the time
    its clock had left is recorded, and ``match_release_clock`` gives it back."""
    clock = readmodels.clock_row(Match(pk=match_id))
    remaining = None if clock is None else max(0, math.ceil((clock.due_at - timezone.now()).total_seconds()))
    return _lobby_write(match_id, actor=actor, type_="hold_clock", args={"remaining": remaining, "reason": reason})


def match_release_clock(*, match_id, actor: Actor) -> CommandResult:
    """Let the stopped clock run again, from where it stood."""
    return _lobby_write(match_id, actor=actor, type_="release_clock", args={})


def match_start(*, match_id, user) -> CommandResult:
    return _lobby_write(match_id, actor=Actor.user(user), type_="start", args={"user_id": user.pk})


def match_create_with_bots(*, game: str, seats: int, options: dict | None, creator) -> Match:
    """A match against bots in one step (the home page's "Play against a bot"): ``creator`` takes
    the first seat, a bot each other one, and the match starts, all in one transaction with the
    creator's account locked first (see ``player_join``). Bots make a match unrated."""
    with accounts_entering([creator]):
        match = match_create(game=game, seats=seats, options=options, creator=creator, rated=False)
        for seat in range(1, seats):
            match_add_bot(match_id=match.pk, user=creator, seat=seat)
        match_start(match_id=match.pk, user=creator)
    match.refresh_from_db()
    return match


def match_load_scenario(*, match_id, user, document: dict) -> CommandResult:
    """Staff: start an open match from a scenario document (reproducing a disputed position)."""
    return _lobby_write(match_id, actor=Actor.user(user), type_="load_scenario",
                        args={"user_id": user.pk, "document": document})
