"""The one write path.

``match_submit_command`` is the only way anything is appended to a match: REST, sockets and
workers all end here, and so do the lobby services below (they are commands too). Under the
match row lock it checks idempotency and the expected seq, folds snapshot + tail, decides,
appends, updates projections, and on commit publishes and schedules follow-up work.
"""

import hashlib
import json
import logging
import secrets
import uuid
from dataclasses import dataclass, field

import jsonschema
from django.conf import settings
from django.db import IntegrityError, transaction

from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import SYSTEM, Command, RuleViolation, Rng, canonical, registry, seed_commitment
from games.kernel import event as make_event

from . import hooks, lobby as L
from .errors import CommandIdReused, LobbyError, MatchNotFound, NotYourDecision, VersionConflict
from .readmodels import projections_update
from .selectors import (
    awaiting_automation, cache_put, engine_of, events_for_seat, open_matches_created, redact_for_seat, seat_names,
    state_load,
)

log = logging.getLogger(__name__)

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


@dataclass
class CommandResult:
    seq: int
    events: list  # redacted for the submitting seat
    replayed: bool = False

    def as_dict(self) -> dict:
        return {"seq": self.seq, "events": self.events}


def fingerprint(seat, type_: str, args: dict) -> str:
    text = json.dumps({"seat": seat, "type": type_, "args": args}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _normalise_command_id(command_id) -> uuid.UUID:
    if isinstance(command_id, uuid.UUID):
        return command_id
    try:
        return uuid.UUID(str(command_id))
    except ValueError:
        raise RuleViolation("bad_command_id", "command_id must be a UUID")


def _engine_decide(engine, game_state, command: Command, rng) -> list[dict]:
    try:
        events = engine.decide(game_state, command, rng)
    except RuleViolation:
        raise
    except Exception:  # an engine bug must not become a 500 nor a half-applied command
        log.exception("engine %s failed deciding %s", engine.slug, command)
        raise RuleViolation("rejected_by_engine", "the rules engine could not process this command")
    return _refuse_reserved(engine, events)


def _refuse_reserved(engine, events: list[dict]) -> list[dict]:
    reserved = [ev["type"] for ev in events if ev["type"] in L.PLATFORM_EVENTS]
    if reserved:
        log.error("engine %s emitted reserved event types %s", engine.slug, reserved)
        raise RuleViolation("rejected_by_engine", "the rules engine emitted a platform event type")
    return events


def _write(match_id, *, seat, actor: Actor, command_id, expected_seq, fp: str, decide) -> CommandResult:
    """Lock, check, decide, append, project; publish and schedule on commit.

    ``decide(match, state, rng) -> events`` may raise RuleViolation / PlatformError.
    The unique (match, command_id) and (match, seq) are the last word: if the append hits one (a
    writer that got there first), the whole transaction rolls back and is tried once more, which
    then sees that writer's command (a replay) or its head (a version conflict).
    """
    try:
        return _write_once(match_id, seat=seat, actor=actor, command_id=command_id, expected_seq=expected_seq,
                           fp=fp, decide=decide)
    except IntegrityError:
        pass
    try:
        return _write_once(match_id, seat=seat, actor=actor, command_id=command_id, expected_seq=expected_seq,
                           fp=fp, decide=decide)
    except IntegrityError:
        raise VersionConflict(Match.objects.get(pk=match_id).head_seq)


def _write_once(match_id, *, seat, actor: Actor, command_id, expected_seq, fp: str, decide) -> CommandResult:
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
        rng = Rng(bytes.fromhex(match.seed), f"{match.pk}:{match.head_seq}")
        events = decide(match, state, rng)
        if not events:
            raise RuleViolation("no_effect", "this command changes nothing")
        new_state = L.aggregate_fold(engine, events, state)
        if new_state["lobby"]["status"] == L.ACTIVE and engine.status(new_state["game"]).finished:
            finished = make_event(L.FINISHED, {"winners": list(engine.status(new_state["game"]).winners), "seed": match.seed})
            events = [*events, finished]
            new_state = L.aggregate_fold(engine, [finished], new_state)
        new_state = canonical(new_state)  # the same key order a reload from the store gives
        before = match.head_seq
        event_actor = actor.as_dict(seat)
        first, at = store.command_append(match, events, actor=event_actor, command_id=command_id, seat=seat,
                                         fingerprint=fp)
        projections_update(engine, match, new_state, events, at=at, before=state)
        if store.snapshot_due(before, match.head_seq):
            store.snapshot_save(match, match.head_seq, new_state)
        head = match.head_seq
        awaiting, bots = awaiting_automation(new_state)
        transaction.on_commit(lambda: cache_put(match_id, head, new_state))
        transaction.on_commit(lambda: hooks.publish_appended(match_id, head))
        if SYSTEM in awaiting or bots:
            transaction.on_commit(lambda: hooks.schedule_followups(match_id, head, awaiting, bots))
        finished_by = [ev for ev in events if ev["type"] == L.FINISHED]
        if finished_by:
            winners = list(finished_by[0]["payload"]["winners"])
            transaction.on_commit(lambda: hooks.match_finished(match_id, winners, event_actor))
        stamp = at.isoformat()
        stored = [{**ev, "seq": seq, "v": ev.get("v", 1), "actor": event_actor, "at": stamp}
                  for seq, ev in enumerate(events, start=first)]
        names = seat_names(new_state["lobby"])  # the same sentences a replay or /events/ gives
        return CommandResult(seq=head, events=[redact_for_seat(engine, ev, seat, names) for ev in stored])


def _replay(match: Match, existing, seat) -> CommandResult:
    events = events_for_seat(match, seat, after=existing.first_seq - 1, until=existing.last_seq)
    return CommandResult(seq=existing.last_seq, events=events, replayed=True)


# -- game commands ----------------------------------------------------------------------


def match_submit_command(*, match_id, seat, actor: Actor, command_id, expected_seq, type_: str, args: dict) -> CommandResult:
    """Submit a game command for ``seat`` (an int, SYSTEM for workers, None for a spectator)."""
    return _game_command(match_id=match_id, seat=seat, actor=actor, command_id=command_id,
                         expected_seq=expected_seq, type_=type_, args=args, awaited_only=True)


def match_submit_system_command(*, match_id, actor: Actor, command_id, type_: str, args: dict) -> CommandResult:
    """Submit a SYSTEM command the engine accepts whenever the match is active, not only when it
    awaits the system (e.g. ``time_limit`` when a tournament round's time runs out). Only workers
    call this; the engine alone decides whether it accepts the command."""
    return _game_command(match_id=match_id, seat=SYSTEM, actor=actor, command_id=command_id,
                         expected_seq=None, type_=type_, args=args, awaited_only=False)


def _game_command(*, match_id, seat, actor: Actor, command_id, expected_seq, type_: str, args: dict,
                  awaited_only: bool) -> CommandResult:
    command_id = _normalise_command_id(command_id)
    if not isinstance(args, dict):
        raise RuleViolation("bad_args", "args must be an object")

    def decide(match, state, rng):
        if state["lobby"]["status"] != L.ACTIVE:
            raise RuleViolation("match_not_active", f"the match is {state['lobby']['status']}")
        engine = engine_of(match)
        if awaited_only and (seat is None or seat not in engine.status(state["game"]).awaiting):
            raise NotYourDecision("it is not your decision now")
        return _engine_decide(engine, state["game"], Command(type=type_, args=args, seat=seat), rng)

    return _write(match_id, seat=seat, actor=actor, command_id=command_id, expected_seq=expected_seq,
                  fp=fingerprint(seat, type_, args), decide=decide)


# -- lobby ----------------------------------------------------------------------------------


def _lobby_write(match_id, *, actor: Actor, decide, seat=None) -> CommandResult:
    """Lobby actions carry no client seq: retry on a concurrent append, each time re-deciding."""
    for _ in range(MAX_LOBBY_RETRIES):
        try:
            return _write(match_id, seat=seat, actor=actor, command_id=uuid.uuid4(), expected_seq=None,
                          fp="lobby", decide=decide)
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
        created = make_event(L.CREATED, {
            "game": engine.slug, "engine_version": str(engine.version), "seats": seats, "options": options, "rated": rated,
            "seed_hash": match.seed_hash, "creator_id": creator.pk if creator else None,
        })
        events = [created]
        if join and creator is not None:
            events.append(make_event(L.SEAT_TAKEN, {"seat": 0, "user_id": creator.pk, "username": creator.get_username()}))
        _write(match.pk, seat=None, actor=Actor.user(creator) if creator else Actor("system"),
               command_id=uuid.uuid4(), expected_seq=0, fp="create", decide=lambda m, s, r: events)
    match.refresh_from_db()
    return match


def open_matches_check(user) -> None:
    """Lobby flooding: refuse a new match while ``user`` already has MAX_OPEN_MATCHES_PER_USER open
    matches they created and still sit in."""
    cap = settings.MAX_OPEN_MATCHES_PER_USER
    if open_matches_created(user) >= cap:
        raise LobbyError("too_many_open_matches", f"you already have {cap} open matches; start or leave one first")


def _require_open(state):
    if state["lobby"]["status"] != L.OPEN:
        raise LobbyError("match_not_open", "the match has already started")


def match_join(*, match_id, user, seat: int | None = None) -> CommandResult:
    def decide(match, state, rng):
        _require_open(state)
        lobby = state["lobby"]
        if L.seat_of_user(lobby, user.pk) is not None:
            raise LobbyError("already_seated", "you already have a seat in this match")
        free = [i for i, s in enumerate(lobby["seats"]) if s is None]
        if seat is None:
            if not free:
                raise LobbyError("match_full", "every seat is taken")
            chosen = free[0]
        else:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(lobby["seats"]):
                raise LobbyError("bad_seat", "no such seat", status=400)
            if lobby["seats"][seat] is not None:
                raise LobbyError("seat_taken", "that seat is taken")
            chosen = seat
        return [make_event(L.SEAT_TAKEN, {"seat": chosen, "user_id": user.pk, "username": user.get_username()})]

    return _lobby_write(match_id, actor=Actor.user(user), decide=decide)


def match_add_bot(*, match_id, user, seat: int | None = None) -> CommandResult:
    def decide(match, state, rng):
        _require_open(state)
        _require_creator(state, user)
        lobby = state["lobby"]
        free = [i for i, s in enumerate(lobby["seats"]) if s is None]
        chosen = seat if seat is not None else (free[0] if free else None)
        if chosen is None:
            raise LobbyError("match_full", "every seat is taken")
        if not isinstance(chosen, int) or isinstance(chosen, bool) or not 0 <= chosen < len(lobby["seats"]):
            raise LobbyError("bad_seat", "no such seat", status=400)
        if lobby["seats"][chosen] is not None:
            raise LobbyError("seat_taken", "that seat is taken")
        return [make_event(L.SEAT_TAKEN, {"seat": chosen, "user_id": None, "username": f"Bot {chosen + 1}", "bot": True})]

    return _lobby_write(match_id, actor=Actor.user(user), decide=decide)


def match_leave(*, match_id, user) -> CommandResult:
    def decide(match, state, rng):
        _require_open(state)
        seat = L.seat_of_user(state["lobby"], user.pk)
        if seat is None:
            raise LobbyError("not_seated", "you have no seat in this match")
        return [make_event(t, p) for t, p in L.leave_payloads(state["lobby"], seat, user.pk, match.seed)]

    return _lobby_write(match_id, actor=Actor.user(user), decide=decide)


def _require_creator(state, user):
    if state["lobby"]["creator_id"] != user.pk:
        raise LobbyError("not_creator", "only the match's creator can do this", status=403)


def match_start(*, match_id, user) -> CommandResult:
    def decide(match, state, rng):
        _require_open(state)
        _require_creator(state, user)
        lobby = state["lobby"]
        if any(s is None for s in lobby["seats"]):
            raise LobbyError("seats_not_filled", "every seat must be filled before the start")
        engine = engine_of(match)
        return [make_event(L.STARTED, {}), *_refuse_reserved(engine, engine.setup(lobby["options"], len(lobby["seats"]), rng))]

    return _lobby_write(match_id, actor=Actor.user(user), decide=decide)


def match_load_scenario(*, match_id, user, document: dict) -> CommandResult:
    """Staff: start an open match from a scenario document (reproducing a disputed position)."""

    def decide(match, state, rng):
        _require_open(state)
        lobby = state["lobby"]
        if any(s is None for s in lobby["seats"]):
            raise LobbyError("seats_not_filled", "every seat must be filled before the start")
        engine = engine_of(match)
        return [make_event(L.STARTED, {"scenario": True}), *_refuse_reserved(engine, engine.scenario(document))]

    return _lobby_write(match_id, actor=Actor.user(user), decide=decide)
