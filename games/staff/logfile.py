"""The match log file (JSON Lines): writing it and checking one before it is imported.

Line 1 is a header ``{"format": "kamiza.match-log", "version": 1, "match": {id, game, engine_version,
seat_count, options, seed_hash, created_at, head_seq, seed?}}`` (``seed`` only once the match has
revealed it). Every further line is one stored event ``{seq, type, v, payload, actor, command_id, at}``,
seq 1 being the match's own ``MatchCreated``. Payloads are written unredacted: the file is a staff
artefact, and downloading it is recorded as a staff access.

``parse_log`` is pure apart from the engine registry: it never touches the database, and every
problem it finds is a ``LogError`` with a message fit for a form, never another exception.
"""

import json
import uuid
from dataclasses import dataclass, field

from games.application.lobby import CREATED, PLATFORM_EVENTS, STARTED, aggregate_evolve
from games.eventstore.codec import upcast
from games.kernel import RuleViolation, registry

FORMAT = "kamiza.match-log"
FORMAT_VERSION = 1
MAX_TYPE_LENGTH = 60  # MatchEvent.type max_length
MAX_ERRORS = 10


class LogError(Exception):
    def __init__(self, messages):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


@dataclass
class ParsedLog:
    header: dict
    events: list = field(default_factory=list)  # [{seq, type, v, payload, actor, command_id, at}]
    final_state: dict | None = None

    @property
    def source_id(self) -> str | None:
        return self.header.get("id")


def _dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def log_lines(header: dict, events) -> "iter[str]":
    """Each line of the file, newline-terminated."""
    yield _dumps({"format": FORMAT, "version": FORMAT_VERSION, "match": header}) + "\n"
    for ev in events:
        yield _dumps({
            "seq": ev["seq"], "type": ev["type"], "v": ev["v"], "payload": ev["payload"],
            "actor": ev["actor"], "command_id": ev["command_id"], "at": ev["at"],
        }) + "\n"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_header(obj) -> dict:
    if not isinstance(obj, dict) or not isinstance(obj.get("match"), dict):
        raise LogError('line 1 must be the header object {"match": {...}} written by the log download')
    if obj.get("format", FORMAT) != FORMAT:
        raise LogError(f"unknown file format {obj.get('format')!r}")
    header = obj["match"]
    problems = []
    if not isinstance(header.get("game"), str) or not header.get("game"):
        problems.append("header: match.game must be a game slug")
    if not _is_int(header.get("seat_count")) or header["seat_count"] < 1:
        problems.append("header: match.seat_count must be a positive integer")
    if not isinstance(header.get("options", {}), dict):
        problems.append("header: match.options must be an object")
    if "engine_version" in header and not isinstance(header["engine_version"], str):
        problems.append("header: match.engine_version must be a string")
    if problems:
        raise LogError(problems)
    return header


def _check_event(obj, lineno: int, expected_seq: int) -> tuple[dict | None, list[str]]:
    where = f"line {lineno}"
    if not isinstance(obj, dict):
        return None, [f"{where}: an event must be a JSON object"]
    problems = []
    seq = obj.get("seq")
    if not _is_int(seq):
        problems.append(f"{where}: seq must be an integer")
    elif seq != expected_seq:
        problems.append(f"{where}: expected seq {expected_seq}, found {seq} (events must be contiguous from 1)")
    type_ = obj.get("type")
    if not isinstance(type_, str) or not type_ or len(type_) > MAX_TYPE_LENGTH:
        problems.append(f"{where}: type must be a non-empty string of at most {MAX_TYPE_LENGTH} characters")
    v = obj.get("v", 1)
    if not _is_int(v) or not 1 <= v <= 32767:
        problems.append(f"{where}: v must be a positive integer")
    payload = obj.get("payload", {})
    if not isinstance(payload, dict):
        problems.append(f"{where}: payload must be an object")
    actor = obj.get("actor") or {}
    if not isinstance(actor, dict):
        problems.append(f"{where}: actor must be an object")
    command_id = obj.get("command_id")
    if command_id is not None:
        try:
            command_id = str(uuid.UUID(str(command_id)))
        except ValueError:
            problems.append(f"{where}: command_id must be a UUID or null")
    if problems:
        return None, problems
    return {
        "seq": seq, "type": type_, "v": v, "payload": payload, "actor": actor,
        "command_id": command_id, "at": obj.get("at"),
    }, []


def parse_log(text: str) -> ParsedLog:
    """Parse and validate a log file's text; raise LogError listing what is wrong."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise LogError("the file is empty")
    objects = []
    for n, line in lines:
        try:
            objects.append((n, json.loads(line)))
        except (ValueError, RecursionError):
            raise LogError(f"line {n} is not valid JSON (expected one JSON object per line)")
    header = _check_header(objects[0][1])
    try:
        engine = registry.get(header["game"], header.get("engine_version"))
    except RuleViolation:
        raise LogError(f"unknown game {header['game']!r}: no such engine is installed here")
    if not engine.min_seats <= header["seat_count"] <= engine.max_seats:
        raise LogError(f"header: {engine.name} is played by {engine.min_seats} to {engine.max_seats} seats")

    events, problems = [], []
    for expected, (n, obj) in enumerate(objects[1:], start=1):
        ev, errs = _check_event(obj, n, expected)
        problems.extend(errs)
        if len(problems) >= MAX_ERRORS:
            break
        if ev is not None:
            events.append(ev)
    if problems:
        raise LogError(problems[:MAX_ERRORS])
    if not events:
        raise LogError("the file holds no events (the first event must be MatchCreated, seq 1)")

    first = events[0]
    if first["type"] != CREATED:
        raise LogError(f"event seq 1 must be {CREATED}, found {first['type']}")
    created = first["payload"]
    if created.get("game") != header["game"] or created.get("seats") != header["seat_count"]:
        raise LogError(f"{CREATED} (seq 1) does not match the header's game and seat count")
    if created.get("options", {}) != header.get("options", {}):
        raise LogError(f"{CREATED} (seq 1) does not match the header's options")
    for ev in events[1:]:
        if ev["type"] == CREATED:
            raise LogError(f"seq {ev['seq']}: {CREATED} may only be the first event")

    state = None
    for ev in events:
        try:
            version, payload = upcast(ev["type"], ev["v"], ev["payload"], engine.upcasters)
            if ev["type"] not in PLATFORM_EVENTS and state["lobby"]["status"] == "open":
                raise ValueError(f"a game event before {STARTED}")
            state = aggregate_evolve(engine, state, {"type": ev["type"], "v": version, "payload": payload})
        except Exception as exc:  # any engine/lobby failure: the file does not describe a valid match
            raise LogError(f"seq {ev['seq']} ({ev['type']}) does not fold: {type(exc).__name__}: {exc}"[:500])
    try:
        if state["lobby"]["status"] != "open" and state["game"] is not None:
            engine.status(state["game"])
        seats = state["lobby"]["seats"]
        if len(seats) != header["seat_count"]:
            raise ValueError("seat count changed")
        for i, s in enumerate(seats):
            if s is None:
                continue
            if not isinstance(s, dict) or not isinstance(s.get("username"), str):
                raise ValueError(f"seat {i} has no username")
            if s.get("user_id") is not None and not _is_int(s["user_id"]):
                raise ValueError(f"seat {i} has a user_id that is not an integer")
    except Exception as exc:
        raise LogError(f"the folded match is not readable: {type(exc).__name__}: {exc}"[:500])
    return ParsedLog(header=header, events=events, final_state=state)

