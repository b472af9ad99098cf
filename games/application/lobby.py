"""The platform's own slice of a match stream: who sits where, and the match lifecycle.

A match's folded state is ``{"lobby": LobbyState, "game": engine state or None}``. Lobby events
share the stream with the engine's events; their names are reserved for the platform.
"""

CREATED = "MatchCreated"
SEAT_TAKEN = "SeatTaken"
SEAT_LEFT = "SeatLeft"
STARTED = "MatchStarted"
FINISHED = "MatchFinished"
ABANDONED = "MatchAbandoned"

PLATFORM_EVENTS = frozenset({CREATED, SEAT_TAKEN, SEAT_LEFT, STARTED, FINISHED, ABANDONED})

OPEN, ACTIVE, DONE, ABANDONED_STATUS = "open", "active", "finished", "abandoned"


def lobby_evolve(lobby: dict | None, ev: dict) -> dict:
    t, p = ev["type"], ev["payload"]
    if t == CREATED:
        return {
            "game": p["game"],
            "engine_version": p["engine_version"],
            "options": p["options"],
            "rated": bool(p.get("rated", False)),  # streams from before the flag: unrated
            "seed_hash": p["seed_hash"],
            "creator_id": p["creator_id"],
            "seats": [None] * p["seats"],
            "status": OPEN,
            "winners": [],
            "seed": None,
        }
    lobby = {**lobby, "seats": list(lobby["seats"])}
    if t == SEAT_TAKEN:
        lobby["seats"][p["seat"]] = {"user_id": p.get("user_id"), "username": p["username"], "bot": p.get("bot", False)}
    elif t == SEAT_LEFT:
        lobby["seats"][p["seat"]] = None
    elif t == STARTED:
        lobby["status"] = ACTIVE
    elif t == FINISHED:
        lobby["status"] = DONE
        lobby["winners"] = list(p["winners"])
        lobby["seed"] = p["seed"]
    elif t == ABANDONED:
        lobby["status"] = ABANDONED_STATUS
        lobby["seed"] = p.get("seed")
    return lobby


def aggregate_evolve(engine, state: dict | None, ev: dict) -> dict:
    if ev["type"] in PLATFORM_EVENTS:
        lobby = lobby_evolve(state["lobby"] if state else None, ev)
        return {"lobby": lobby, "game": state["game"] if state else None}
    return {"lobby": state["lobby"], "game": engine.evolve(state["game"], {"type": ev["type"], "v": ev.get("v", 1), "payload": ev["payload"]})}


def aggregate_fold(engine, events, state=None) -> dict:
    for ev in events:
        state = aggregate_evolve(engine, state, ev)
    return state


def seat_of_user(lobby: dict, user_id) -> int | None:
    for i, s in enumerate(lobby["seats"]):
        if s and not s.get("bot") and s.get("user_id") == user_id:
            return i
    return None


def rated_match(lobby: dict) -> bool:
    """Does this (finished) match count for ratings: the rated flag on and every seat a human."""
    seats = lobby["seats"]
    return bool(lobby.get("rated")) and bool(seats) and all(s and s.get("user_id") and not s.get("bot") for s in seats)


def bot_seats(lobby: dict) -> list[int]:
    return [i for i, s in enumerate(lobby["seats"]) if s and s.get("bot")]
