"""What the staff pages say, in words (PURE): seats as players see them (1-based, with the player's
name), actors with their usernames, a tournament record in one line with its entrants' names, and the
runs of events without a sentence folded into one row. The raw values stay in the folded JSON."""

from __future__ import annotations

import json

PLACE_WORDS = {1: "1st", 2: "2nd", 3: "3rd"}
RESULT_BY_WORDS = {"play": "played", "time": "on time", "judge": "judge's ruling", "bye": "bye"}
# a run of this many events with no sentence, one after another, is shown as one row
QUIET_RUN = 3


# the seat the game itself acts for (its automatic steps: shuffles, draws, enemies), as the status
# line's "awaiting the game" says it
SYSTEM_SEAT = "system"


def seat_words(seat, names=()) -> str:
    """Seat 0 of the stored log as players read it: ``seat 1 (alice)``; a seat nobody holds: ``seat 1``;
    the game's own: ``the game``."""
    if seat == SYSTEM_SEAT:
        return "the game"
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "" if seat is None else str(seat)
    name = names[seat] if 0 <= seat < len(names) else None
    return f"seat {seat + 1} ({name})" if name else f"seat {seat + 1}"


def _and(items) -> str:
    """``a``, ``a and b``, ``a, b and c`` (words.js ``nameList`` says names the same way)."""
    items = list(items)
    return "".join(items) if len(items) < 2 else f"{', '.join(items[:-1])} and {items[-1]}"


def sides_words(sides, names=(), together: bool = False) -> str:
    """Who plays with whom: ``seat 1 (alice) and seat 3 (carol) vs seat 2 (bob) and seat 4 (dave)``
    (a team a side), ``seat 1 (alice) vs seat 2 (bob)``; a cooperative game's party ``together``."""
    if together:
        return _and(seat_words(seat, names) for side in sides for seat in side) + ", together against the game"
    return " vs ".join(_and(seat_words(seat, names) for seat in side) for side in sides if side)


def user_words(user_id, users: dict) -> str:
    """``admin (user #3)``, or ``user #3`` for an account that is gone."""
    name = users.get(user_id)
    return f"{name} (user #{user_id})" if name else f"user #{user_id}"


def actor_text(actor, names=(), users: dict | None = None) -> str:
    """Who appended an event or record: ``admin (user #3), seat 1 (alice)``, ``worker advance_match``,
    ``worker advance_match, for the game`` (the game's automatic steps), ``system``; any other key of
    the actor follows as ``key=value``."""
    if not isinstance(actor, dict):
        return "" if actor is None else str(actor)
    users = users or {}
    kind = str(actor.get("kind") or "unknown")
    words = user_words(actor["user_id"], users) if actor.get("user_id") is not None else kind
    if actor.get("user_id") is not None and kind != "user":
        words = f"{kind} {words}"
    if actor.get("task"):  # the task's own name (``advance_match``); its module path stays in the raw actor
        words += f" {str(actor['task']).rsplit('.', 1)[-1]}"
    if actor.get("seat") == SYSTEM_SEAT:  # a worker's step of the game's own
        words += ", for the game"
    elif actor.get("seat") is not None:
        words += f", {seat_words(actor['seat'], names)}"
    rest = {k: v for k, v in actor.items() if k not in ("kind", "user_id", "task", "seat")}
    return words + "".join(f", {k}={json.dumps(v, sort_keys=True, default=str)}" for k, v in sorted(rest.items()))


def actor_user_ids(actors) -> set:
    """The user ids named by these actors (for one look-up of their usernames)."""
    return {a["user_id"] for a in actors if isinstance(a, dict) and isinstance(a.get("user_id"), int)}


def place_words(places: dict, entrants: dict) -> str:
    """``{"3": 1, "1": 2}`` -> ``carol 1st, alice 2nd``."""
    ranked = sorted(places.items(), key=lambda item: (item[1], entrants.get(item[0], item[0])))
    return ", ".join(f"{entrants.get(e, e)} {PLACE_WORDS.get(p, f'{p}th')}" for e, p in ranked)


def _where(p: dict) -> str:
    return f"round {p.get('round')} table {p.get('table')}"


def _reason(p: dict) -> str:
    return f": {p['reason']}" if p.get("reason") else ""


# a judge's decision on a table's result (records ``adjudicated`` and ``overridden``)
RULING_WORDS = {"adjudicated": "upheld", "overridden": "overridden"}


def _ruling(p: dict, entrants: dict) -> str:
    """A judge's decision in a line: ``result overridden, round 1 table 1: carol 1st, alice 2nd, by admin
    (staff): misclick``: what became of the result (an override gives its places), who ruled in what
    capacity (a decision from before organizers judged has no role: it was staff's), and why."""
    places = f": {place_words(p['places'], entrants)}" if p.get("places") else ""
    return (f"result {RULING_WORDS[p['kind']]}, {_where(p)}{places}, by {p.get('judge')} ({p.get('role') or 'staff'})"
            f"{_reason(p)}")


def _table_words(table: dict, entrants: dict) -> str:
    ids = table.get("entrant_ids") or []
    who = " vs ".join(entrants.get(e, e) for e in ids) + (" (bye)" if len(ids) == 1 else "")
    return f"table {table.get('table')} {who}"


def record_summary(payload: dict, entrants: dict) -> str:
    """One tournament record in a line, its entrants by name (``entrants``: entrant id -> name)."""
    kind = payload.get("kind", "")
    name = entrants.get(payload.get("entrant_id"), payload.get("entrant_id"))
    p = payload
    if kind == "registered":
        return f"{p.get('name') or name} registered"
    if kind == "withdrawn":
        return f"{name} withdrew"
    if kind == "started":
        return "started; seeding: " + ", ".join(entrants.get(e, e) for e in p.get("order", []))
    if kind == "paired":
        return f"round {p.get('round')} paired: " + "; ".join(_table_words(t, entrants) for t in p.get("tables", []))
    if kind == "result":
        by = RESULT_BY_WORDS.get(p.get("by"), p.get("by"))
        return f"result, {_where(p)} ({by}): {place_words(p.get('places', {}), entrants)}"
    if kind == "dropped":
        return f"{name} dropped{_reason(p)}"
    if kind == "reported":
        return f"{name} reported {_where(p)} (report #{p.get('report_id')}, match seq {p.get('seq')})"
    if kind in RULING_WORDS:
        return _ruling(p, entrants)
    if kind == "clock_paused":
        return f"round {p.get('round')} clock paused{_reason(p)}"
    if kind == "clock_resumed":
        return f"round {p.get('round')} clock resumed"
    if kind == "spectator_delay_set":
        return f"spectator delay set to {p.get('seconds')} s and {p.get('turns')} turns"
    if kind == "settings_changed":
        reason = f" ({p['reason']})" if p.get("reason") else ""
        return "settings changed: " + ", ".join(sorted(p.get("changes", {}))) + reason
    if kind == "cancelled":
        return f"cancelled{_reason(p)}"
    return kind.replace("_", " ")


# The events an engine gives no sentence (its bookkeeping, docs/engines.md ``BOOKKEEPING``) in a few
# words each: Yashima's control (turn, phase, the decision waited on), Harakiri's work queue and turn
# state, Yokai's pending choices; any other reads "<Type> (bookkeeping)".
QUIET_WORDS = {
    "ControlSet": "control changes",
    "WorkPushed": "work queued",
    "WorkUpdated": "work step updated",
    "WorkDone": "work step done",
    "TurnChanged": "turn state changes",
    "ForcedRollsUsed": "forced rolls used",
    "PendingChanged": "pending choices change",
}


def _waiting_on(prompts, names) -> str:
    """``waiting on seat 1 (alice) for defense, seat 3 (carol) for a choice`` for the prompts that name a seat."""
    waited = [p for p in prompts if isinstance(p, dict) and isinstance(p.get("seat"), int)]
    return "waiting on " + ", ".join(f"{seat_words(p['seat'], names)} for {str(p.get('kind') or 'a choice').replace('_', ' ')}"
                                     for p in waited) if waited else ""


def _work_item(item) -> str:
    """One step of Harakiri's work queue: its ``op``, and its stage when it has one: ``initiative (sixth)``."""
    if not isinstance(item, dict):
        return str(item)
    return f"{item.get('op')} ({item['stage']})" if item.get("stage") else str(item.get("op"))


def _control_details(payload: dict, names) -> list[str]:
    """Yashima's ``ControlSet``: what of the control changed (it lists only that)."""
    parts = [f"phase {payload['phase']}"] if payload.get("phase") else []
    if payload.get("round"):
        parts.append(f"round {payload['round']}")
    setup = payload.get("setup")
    if isinstance(setup, dict) and setup.get("step"):
        parts.append(f"setup step {setup['step']}")
    turn = payload.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("seat"), int):
        parts.append(f"{seat_words(turn['seat'], names)}'s turn")
    stacks = payload.get("stacks")
    if isinstance(stacks, dict):
        tops = [stack[-1] for stack in stacks.values() if isinstance(stack, list) and stack]
        waiting = _waiting_on([frame.get("prompt") for frame in tops if isinstance(frame, dict)], names)
        parts.append(waiting or ("" if tops else "no decision pending"))
    return parts


def _quiet_details(kind: str, payload: dict, names) -> list[str]:
    """The few facts of a bookkeeping event's payload worth a word; the rest stays in its JSON."""
    if kind == "ControlSet":
        return _control_details(payload, names)
    if kind == "WorkPushed":
        return [", ".join(_work_item(item) for item in payload.get("items") or [])]
    if kind == "WorkUpdated":
        return [_work_item(payload.get("item"))]
    if kind == "WorkDone":
        return [str(payload.get("op") or "")]
    if kind == "TurnChanged" and isinstance(payload.get("set"), dict):
        return [", ".join(f"{key} {json.dumps(value, default=str)}" for key, value in sorted(payload["set"].items()))]
    if kind == "PendingChanged" and isinstance(payload.get("pending"), list):
        return [_waiting_on(payload["pending"][:1], names) or "nothing pending"]
    return []


def quiet_sentence(ev: dict, names=()) -> str:
    """A short line for an event the engine gives no sentence (bookkeeping such as Yashima's
    ``ControlSet``): what it is, then what changed when its payload says so
    (``control changes: seat 3 (carol)'s turn, waiting on seat 1 (alice) for defense``)."""
    payload = ev.get("payload") if isinstance(ev.get("payload"), dict) else {}
    words = QUIET_WORDS.get(ev.get("type"), f"{ev.get('type')} (bookkeeping)")
    details = [d for d in _quiet_details(ev.get("type"), payload, names) if d]
    return f"{words}: {', '.join(details)}" if details else words


def run_words(kind: str, count: int) -> str:
    """A folded run's line: ``6 events in a row: control changes``."""
    return f"{count} events in a row: {QUIET_WORDS.get(kind, kind)}"


def fold_quiet_runs(timeline: list[dict], keep: set) -> list[dict]:
    """The history's rows: runs of at least ``QUIET_RUN`` events of one type with no sentence, one after
    another in the list shown, become one row ``{"run": [events], "type", "first", "last"}``; an event in ``keep`` (the
    one shown, one with a note or a report) stays a row of its own and ends the run."""
    rows, run = [], []

    def flush():
        if len(run) >= QUIET_RUN:
            rows.append({"run": list(run), "type": run[0]["type"], "first": run[0]["seq"], "last": run[-1]["seq"],
                         "words": run_words(run[0]["type"], len(run))})
        else:
            rows.extend(run)
        run.clear()

    for ev in timeline:
        quiet = not ev.get("text") and ev["seq"] not in keep
        if quiet and (not run or run[-1]["type"] == ev["type"]):
            run.append(ev)
            continue
        flush()
        if quiet:
            run.append(ev)
        else:
            rows.append(ev)
    flush()
    return rows
