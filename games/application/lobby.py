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
# A tournament's organizer paused the round: the decision clock stops and later resumes with what was left.
CLOCK_HELD = "ClockHeld"
CLOCK_RELEASED = "ClockReleased"
# A player resigned from a game of three or more sides: their seat is out of play, the others play on.
SEAT_CONCEDED = "SeatConceded"

PLATFORM_EVENTS = frozenset({CREATED, SEAT_TAKEN, SEAT_LEFT, STARTED, FINISHED, ABANDONED, CLOCK_HELD, CLOCK_RELEASED,
                             SEAT_CONCEDED})

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
        if "creator_id" in p:  # the creator left: their rights pass to the next seated user
            lobby["creator_id"] = p["creator_id"]
    elif t == STARTED:
        lobby["status"] = ACTIVE
    elif t == FINISHED:
        lobby["status"] = DONE
        lobby["winners"] = list(p["winners"])
        lobby["seed"] = p["seed"]
        if "resigned" in p:  # a seat conceded (decisions._resign); kept only then, so older states fold as before
            lobby["resigned"] = p["resigned"]
    elif t == ABANDONED:
        lobby["status"] = ABANDONED_STATUS
        lobby["seed"] = p.get("seed")
    elif t == CLOCK_HELD:  # the keys appear only with the first hold, so older states fold as before
        lobby["clock_held"] = True
        lobby["clock_remaining"] = p.get("remaining")
        lobby["clock_reason"] = str(p.get("reason") or "")
    elif t == CLOCK_RELEASED:
        lobby["clock_held"] = False
    elif t == SEAT_CONCEDED:  # the key appears only with the first concession, so older states fold as before
        lobby["conceded"] = [*lobby.get("conceded", []), p["seat"]]
    return lobby


def aggregate_evolve(engine, state: dict | None, ev: dict) -> dict:
    if ev["type"] in PLATFORM_EVENTS:
        lobby = lobby_evolve(state["lobby"] if state else None, ev)
        return {"lobby": lobby, "game": state["game"] if state else None}
    return {"lobby": state["lobby"], "game": engine.evolve(state["game"], {"type": ev["type"], "v": ev.get("v", 1), "payload": ev["payload"]})}


def aggregate_fold(engine, events, state=None) -> dict:
    """``aggregate_evolve`` over ``events`` in turn. The lobby and the game evolve independently (a
    lobby event leaves the game as it is, a game event the lobby), so the pair is built once at the
    end rather than at every event, and each run of game events goes to the engine's
    ``evolve_all`` at once: a long log folds at the speed of its game's ``evolve``."""
    lobby, game = (state["lobby"], state["game"]) if state else (None, None)
    run = []  # game events not folded yet
    for ev in events:
        t = ev["type"]
        if t in PLATFORM_EVENTS:
            if run:
                game, run = engine.evolve_all(game, run), []
            lobby = lobby_evolve(lobby, ev)
        elif lobby is None:
            raise ValueError(f"a game event ({t}) before the match was created")
        else:
            run.append({"type": t, "v": ev.get("v", 1), "payload": ev["payload"]})
    if run:
        game = engine.evolve_all(game, run)
    return state if lobby is None else {"lobby": lobby, "game": game}


def seat_of_user(lobby: dict, user_id) -> int | None:
    for i, s in enumerate(lobby["seats"]):
        if s and not s.get("bot") and s.get("user_id") == user_id:
            return i
    return None


def creator_heir(lobby: dict, leaving_seat: int) -> int | None:
    """The user who takes the creator's rights when the creator leaves ``leaving_seat``: the next
    seated user after it (wrapping round), or None when no other user is seated (bots don't count)."""
    seats = lobby["seats"]
    n = len(seats)
    for step in range(1, n):
        s = seats[(leaving_seat + step) % n]
        if s and not s.get("bot") and s.get("user_id") is not None:
            return s["user_id"]
    return None


def leave_payloads(lobby: dict, seat: int, user_id, seed: str) -> list[tuple[str, dict]]:
    """The events (type, payload) of ``user_id`` leaving ``seat`` of an open match. A creator who
    leaves hands their rights to the next seated user; with nobody left to hold them the match is
    closed (abandoned, its unused seed revealed), so no one keeps rights without a seat."""
    if lobby.get("creator_id") != user_id:
        return [(SEAT_LEFT, {"seat": seat})]
    heir = creator_heir(lobby, seat)
    if heir is not None:
        return [(SEAT_LEFT, {"seat": seat, "creator_id": heir})]
    return [(SEAT_LEFT, {"seat": seat, "creator_id": None}), (ABANDONED, {"reason": "creator_left", "seed": seed})]


def conceded_seats(lobby: dict) -> list[int]:
    """The seats whose players resigned from a game that went on without them (``SEAT_CONCEDED``)."""
    return list(lobby.get("conceded", []))


def rated_match(lobby: dict) -> bool:
    """Does this (finished) match count for ratings: the rated flag on and every seat a human."""
    seats = lobby["seats"]
    return bool(lobby.get("rated")) and bool(seats) and all(s and s.get("user_id") and not s.get("bot") for s in seats)


def bot_seats(lobby: dict) -> list[int]:
    return [i for i, s in enumerate(lobby["seats"]) if s and s.get("bot")]


def match_phase(engine, state: dict, status) -> str:
    """The ``phase`` a match shows (``status``: the engine's ``Status`` of ``state["game"]``): the
    engine's own while it runs; once the match is finished, the engine's end word
    (``EngineBase.finished_phase``) even where the platform ended it while the game's own state ran on
    (the other side won by a resignation or a tournament drop), so that a finished match says so
    everywhere, as one played to its end does."""
    if state["lobby"]["status"] == DONE and not status.finished:
        return engine.finished_phase(state["game"])
    return status.phase
