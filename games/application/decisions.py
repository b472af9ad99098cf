"""What a command decides: the events it appends, given the state it is decided on.

Every command is data (``Request``: its kind, type, args and seat), so that the same function can
decide it twice: the write path (``services``) calls ``outcome`` under the match row lock and
appends what it returns, and ``verify`` calls it again, with another engine, on a command kept in
the log. Nothing here touches the store.

Kinds:

- ``GAME``: a seat's (or a worker's for a seat or SYSTEM) game command, refused unless that seat is
  awaited;
- ``SYSTEM_ANY``: a SYSTEM command the engine may accept whenever the match is active (e.g. a
  tournament round's ``time_limit``);
- ``LOBBY``: the platform's own commands (``LOBBY_TYPES``: create, join, add_bot, leave, start,
  load_scenario, resign), with the acting user's id (and name) in their args; and the platform's
  own ``hold_clock`` / ``release_clock`` (a tournament's pause), which no player can send.
"""

import logging
from dataclasses import dataclass, field

from games.kernel import Command, EngineBase, RuleViolation, Rng, canonical
from games.kernel import event as make_event

from . import lobby as L
from .errors import LobbyError, NotYourDecision
from .statuses import engine_status

log = logging.getLogger(__name__)

GAME, SYSTEM_ANY, LOBBY = "game", "system", "lobby"
KINDS = (GAME, SYSTEM_ANY, LOBBY)


@dataclass(frozen=True)
class Request:
    kind: str
    type: str
    args: dict = field(default_factory=dict)
    seat: object = None  # an int seat, SYSTEM, or None (lobby commands, spectators)


class EngineFailed(RuleViolation):
    """The engine raised something other than a RuleViolation (a bug): refused, never a 500."""

    def __init__(self, engine, exc: Exception):
        super().__init__("rejected_by_engine", "the rules engine could not process this command")
        self.cause = f"{type(exc).__name__}: {exc}"
        log.error("engine %s failed: %s", engine.slug, self.cause, exc_info=exc)


def rng_for(match, head_seq: int) -> Rng:
    """The randomness of the command decided at ``head_seq``: from the match's secret seed, one
    stream per position in the log, so deciding it again draws the same numbers."""
    return Rng(bytes.fromhex(match.seed), f"{match.pk}:{head_seq}")


def outcome(match, engine, state: dict | None, request: Request, rng: Rng) -> tuple[list[dict], dict]:
    """(events, canonical state after them) for ``request`` decided on ``state`` (the fold of the
    log so far; None before the first event). The platform's MatchFinished is added when the events
    end the game. Raises RuleViolation or a PlatformError (LobbyError, NotYourDecision)."""
    events = decide(match, engine, state, request, rng)
    if not events:
        raise RuleViolation("no_effect", "this command changes nothing")
    new_state = L.aggregate_fold(engine, events, state)
    if new_state["lobby"]["status"] == L.ACTIVE and engine_status(engine, new_state["game"]).finished:
        finished = make_event(L.FINISHED, {"winners": list(engine_status(engine, new_state["game"]).winners), "seed": match.seed})
        events = [*events, finished]
        new_state = L.aggregate_fold(engine, [finished], new_state)
    return events, canonical(new_state)  # the same key order a reload from the store gives


def decide(match, engine, state: dict | None, request: Request, rng: Rng) -> list[dict]:
    if request.kind == LOBBY:
        try:
            lobby_decide = LOBBY_TYPES[request.type]
        except KeyError:
            raise RuleViolation("unknown_command", f"no lobby command {request.type!r}")
        return lobby_decide(match, engine, state, request.args, rng)
    if request.kind not in (GAME, SYSTEM_ANY):
        raise RuleViolation("unknown_command", f"no kind of command {request.kind!r}")
    if state["lobby"]["status"] != L.ACTIVE:
        raise RuleViolation("match_not_active", f"the match is {state['lobby']['status']}")
    if request.kind == GAME and (request.seat is None or request.seat not in engine_status(engine, state["game"]).awaiting):
        raise NotYourDecision("it is not your decision now")
    try:
        events = engine.decide(state["game"], Command(type=request.type, args=request.args, seat=request.seat), rng)
    except RuleViolation:
        raise
    except Exception as exc:  # an engine bug must not become a 500 nor a half-applied command
        raise EngineFailed(engine, exc) from exc
    return refuse_reserved(engine, events)


def refuse_reserved(engine, events: list[dict]) -> list[dict]:
    reserved = [ev["type"] for ev in events if ev["type"] in L.PLATFORM_EVENTS]
    if reserved:
        log.error("engine %s emitted reserved event types %s", engine.slug, reserved)
        raise RuleViolation("rejected_by_engine", "the rules engine emitted a platform event type")
    return events


# -- lobby commands: fn(match, engine, state, args, rng) -> events --------------------------------


def _create(match, engine, state, args, rng):
    if state is not None:
        raise LobbyError("match_exists", "the match was already created")
    events = [make_event(L.CREATED, {
        "game": match.game, "engine_version": match.engine_version, "seats": args["seats"], "options": args["options"],
        "rated": args["rated"], "seed_hash": match.seed_hash, "creator_id": args["creator_id"],
    })]
    if args.get("join") and args["creator_id"] is not None:
        events.append(make_event(L.SEAT_TAKEN, {"seat": 0, "user_id": args["creator_id"], "username": args["username"]}))
    return events


_NOT_OPEN = {L.ACTIVE: "the match has already started", L.DONE: "the match is over",
             L.ABANDONED_STATUS: "the match was abandoned"}


def _require_open(state):
    status = state["lobby"]["status"]
    if status != L.OPEN:
        raise LobbyError("match_not_open", _NOT_OPEN.get(status, "the match is not open"))


def _require_creator(state, user_id):
    if state["lobby"]["creator_id"] != user_id:
        raise LobbyError("not_creator", "only the match's creator can do this", status=403)


def _valid_seat(lobby, seat):
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(lobby["seats"]):
        raise LobbyError("bad_seat", "no such seat", status=400)
    if lobby["seats"][seat] is not None:
        raise LobbyError("seat_taken", "that seat is taken")
    return seat


def _join(match, engine, state, args, rng):
    _require_open(state)
    lobby = state["lobby"]
    if L.seat_of_user(lobby, args["user_id"]) is not None:
        raise LobbyError("already_seated", "you already have a seat in this match")
    free = [i for i, s in enumerate(lobby["seats"]) if s is None]
    if args.get("seat") is None:
        if not free:
            raise LobbyError("match_full", "every seat is taken")
        chosen = free[0]
    else:
        chosen = _valid_seat(lobby, args["seat"])
    return [make_event(L.SEAT_TAKEN, {"seat": chosen, "user_id": args["user_id"], "username": args["username"]})]


def _add_bot(match, engine, state, args, rng):
    _require_open(state)
    _require_creator(state, args["user_id"])
    lobby = state["lobby"]
    free = [i for i, s in enumerate(lobby["seats"]) if s is None]
    chosen = args["seat"] if args.get("seat") is not None else (free[0] if free else None)
    if chosen is None:
        raise LobbyError("match_full", "every seat is taken")
    chosen = _valid_seat(lobby, chosen)
    return [make_event(L.SEAT_TAKEN, {"seat": chosen, "user_id": None, "username": f"Bot {chosen + 1}", "bot": True})]


def _leave(match, engine, state, args, rng):
    _require_open(state)
    seat = L.seat_of_user(state["lobby"], args["user_id"])
    if seat is None:
        raise LobbyError("not_seated", "you have no seat in this match")
    return [make_event(t, p) for t, p in L.leave_payloads(state["lobby"], seat, args["user_id"], match.seed)]


def _resign(match, engine, state, args, rng):
    """A seated player concedes a running match. With two sides (two players, or two teams) the other
    side wins at once (``MatchFinished`` with ``resigned``). With three or more the game goes on
    without them: ``SeatConceded`` names the seat, then the engine's own events take it out of play
    (``EngineBase.concede``), and ``outcome`` finishes the match when those leave one side. A
    cooperative game has no other side to hand a win to: the player leaves and the party plays on
    where its engine concedes (Harakiri: the characters pass to another player), else refused."""
    lobby = state["lobby"]
    _require_running(state)
    seat = L.seat_of_user(lobby, args["user_id"])
    if seat is None:
        raise LobbyError("not_seated", "you have no seat in this match", status=403)
    if engine.cooperative and type(engine).concede is EngineBase.concede:
        raise LobbyError("resign_unavailable", "in a cooperative game the party wins or loses together: "
                                               "there is no one to resign to")
    if seat in L.conceded_seats(lobby) or engine.out_of_play(state["game"], seat):
        raise LobbyError("already_out", "you are already out of this game")
    username = lobby["seats"][seat]["username"]
    sides = engine.sides(state["game"], len(lobby["seats"]))
    if len(sides) == 2 and not engine.cooperative:
        winners = next(side for side in sides if seat not in side)
        return [make_event(L.FINISHED, {"winners": sorted(winners), "seed": match.seed, "resigned": seat,
                                        "username": username})]
    conceded = _concession(engine, state["game"], seat, rng)
    return [make_event(L.SEAT_CONCEDED, {"seat": seat, "username": username}), *conceded]


# How long a cooperative match must have waited on a seat, with no move by anyone, before another
# player may take that seat's characters over (docs/platform.md, "An absent player"): a day, so a
# player in another time zone always gets a full day to play.
IDLE_TAKE_OVER_SECONDS = 24 * 3600


def _take_over(match, engine, state, args, rng):
    """In a cooperative game whose engine allows it (``take_over``), a seated player still in play
    takes over the characters of another seat the match has waited on, with no move by anyone, for
    ``IDLE_TAKE_OVER_SECONDS`` (``idle_seconds``: measured by the service from the last event, and
    kept with the command so deciding it again gives the same events). That seat leaves the game as
    if it resigned (``SeatConceded`` with ``taken_over_by``), then the engine's own events."""
    lobby = state["lobby"]
    _require_running(state)
    by = L.seat_of_user(lobby, args["user_id"])
    if by is None:
        raise LobbyError("not_seated", "you have no seat in this match", status=403)
    if getattr(engine, "take_over", None) is None:
        raise LobbyError("take_over_unavailable", "this game does not let a player take over another's seat")
    if by in L.conceded_seats(lobby) or engine.out_of_play(state["game"], by):
        raise LobbyError("already_out", "you are already out of this game")
    seat = args.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(lobby["seats"]) or seat == by:
        raise LobbyError("bad_seat", "name another player's seat", status=400)
    if seat in L.conceded_seats(lobby) or engine.out_of_play(state["game"], seat):
        raise LobbyError("already_out", "that player has already left the game")
    if seat not in engine_status(engine, state["game"]).awaiting:
        raise LobbyError("not_awaited", "the game is not waiting for that player")
    idle = int(args.get("idle_seconds") or 0)
    if idle < IDLE_TAKE_OVER_SECONDS:
        hours = -(-(IDLE_TAKE_OVER_SECONDS - idle) // 3600)
        raise LobbyError("not_idle_long_enough", f"the game has waited on that player for less than a day: "
                                                 f"you may take over in {hours} hour{'s' if hours != 1 else ''}")
    try:
        events = engine.take_over(state["game"], seat, by, rng)
    except RuleViolation as exc:
        raise LobbyError(exc.code, exc.message) from exc
    except Exception as exc:  # an engine bug must not become a 500 nor a half-applied command
        raise EngineFailed(engine, exc) from exc
    seats = lobby["seats"]
    return [make_event(L.SEAT_CONCEDED, {"seat": seat, "username": seats[seat]["username"], "taken_over_by": by,
                                         "by_username": seats[by]["username"], "idle_seconds": idle}),
            *refuse_reserved(engine, events)]


def _concession(engine, game, seat, rng) -> list[dict]:
    """The engine's events taking ``seat`` out of play; its refusal keeps its code, as a lobby refusal."""
    try:
        events = engine.concede(game, seat, rng)
    except RuleViolation as exc:
        raise LobbyError(exc.code, exc.message) from exc
    except Exception as exc:  # an engine bug must not become a 500 nor a half-applied command
        raise EngineFailed(engine, exc) from exc
    if events is None:
        raise LobbyError("resign_unavailable", "this game cannot go on without a player: resigning is possible "
                                               "in a game of two sides (two players or two teams) only")
    return refuse_reserved(engine, events)


def _hold_clock(match, engine, state, args, rng):
    """The platform stops the match's decision clock (a tournament's organizer paused the round):
    ``remaining``, the seconds the running clock had left (None: none ran), comes with the request so
    that deciding it again gives the same event."""
    _require_running(state)
    if state["lobby"].get("clock_held"):
        raise LobbyError("clock_held", "the clock is already stopped")
    remaining = args.get("remaining")
    return [make_event(L.CLOCK_HELD, {"remaining": remaining, "reason": str(args.get("reason") or "")[:500]})]


def _release_clock(match, engine, state, args, rng):
    """The clock runs again with what it had left (``projections``: due ``remaining`` seconds after
    this event while the decision is the same one)."""
    _require_running(state)
    if not state["lobby"].get("clock_held"):
        raise LobbyError("clock_not_held", "the clock is running")
    return [make_event(L.CLOCK_RELEASED, {})]


def _require_running(state):
    status = state["lobby"]["status"]
    if status != L.ACTIVE:
        raise LobbyError("match_not_active", _NOT_RUNNING.get(status, "the match is not running"))


_NOT_RUNNING = {L.OPEN: "the match has not started", L.DONE: "the match is over",
                L.ABANDONED_STATUS: "the match was abandoned"}


def _seats_filled(state):
    if any(s is None for s in state["lobby"]["seats"]):
        raise LobbyError("seats_not_filled", "every seat must be filled before the start")


def _engine_events(engine, make):
    try:
        return refuse_reserved(engine, make())
    except RuleViolation:
        raise
    except Exception as exc:
        raise EngineFailed(engine, exc) from exc


def _start(match, engine, state, args, rng):
    _require_open(state)
    _require_creator(state, args["user_id"])
    _seats_filled(state)
    lobby = state["lobby"]
    return [make_event(L.STARTED, {}), *_engine_events(engine, lambda: engine.setup(lobby["options"], len(lobby["seats"]), rng))]


def _load_scenario(match, engine, state, args, rng):
    """Staff: start an open match from a scenario document (reproducing a disputed position)."""
    _require_open(state)
    _seats_filled(state)
    return [make_event(L.STARTED, {"scenario": True}), *_engine_events(engine, lambda: engine.scenario(args["document"]))]


LOBBY_TYPES = {
    "create": _create,
    "join": _join,
    "add_bot": _add_bot,
    "leave": _leave,
    "resign": _resign,
    "take_over": _take_over,
    "hold_clock": _hold_clock,
    "release_clock": _release_clock,
    "start": _start,
    "load_scenario": _load_scenario,
}
