"""What the state means for each seat: whose decision it is (``status``), what they may do
(``legal_commands``) and what they may see (``view_for``, ``redact_event``). Reads only."""

from games.kernel import Status

from . import rules as R
from .board import ORIENTATIONS, squares
from .content import MONSTERS
from .state import clone, is_int


MAX_CLOCK_SECONDS = 86400


def status(state) -> Status:
    """Who decides now; with the ``turn_seconds`` option every decision runs the clock (docs/games/yokai.md,
    "Decision clock")."""
    if state["finished"]:
        return Status("finished", [], True, list(state["winners"]))
    clock = state.get("turn_seconds") or None
    if state["pending"]:
        return Status("choice", [state["pending"][0]["seat"]], deadline_seconds=clock)
    return Status("combat", [state["turn"]], deadline_seconds=clock)


def legal_commands(state, seat) -> list[dict]:
    if state["finished"] or seat not in status(state).awaiting or not is_int(seat):
        return []
    if state["pending"]:
        item = state["pending"][0]
        options = R.pending_options(state, item)
        if item["kind"] == "summon_attack":
            attacker = R.find_uid(state, item["uid"])
            return [{"type": "attack", "args": {"attacker": attacker, "defender": d}} for d in options]
        return [{"type": "choose_target", "args": {"target": o}} for o in options]
    out = []
    dakis = R.effective_dakis(state)
    chakra = state["chakra"][seat]
    if state["summons"] < R.MAX_SUMMONS:
        free = [
            pos
            for pos in squares(state["rows"])
            if pos not in state["monsters"] and not R.warded(state, seat, pos, dakis)
        ]
        for c in state["players"][seat]["hand"]:
            if MONSTERS[c["card"]]["cost"] <= chakra:
                for pos in free:
                    for o in ORIENTATIONS:
                        out.append({"type": "summon", "args": {"card": c["id"], "terrain": pos, "orientation": o}})
    # Board order, not dict order: a state rebuilt from the store may list keys differently.
    for apos in (p for p in squares(state["rows"]) if p in state["monsters"]):
        m = state["monsters"][apos]
        if m["owner"] != seat:
            continue
        for dpos in R.enemy_monsters_near(state, seat, apos, 1):
            if R.duel_values(state, apos, dpos)["cost"] <= chakra:
                out.append({"type": "attack", "args": {"attacker": apos, "defender": dpos}})
        if R.active_ability(state, apos, dakis) == "water_transfer":
            for tpos in R.ally_monsters_near(state, seat, apos, 2):
                room = R.MAX_LP - state["monsters"][tpos]["lp"]
                for amount in range(1, min(m["lp"], room) + 1):
                    out.append(
                        {"type": "transfer_lp", "args": {"source": apos, "target": tpos, "amount": amount}}
                    )
    out.append({"type": "end_turn", "args": {}})
    return out


def view_for(state, seat) -> dict:
    view = {k: clone(v) for k, v in state.items() if k != "players"}
    view["players"] = []
    for i, pl in enumerate(state["players"]):
        pv = {
            "hand_count": len(pl["hand"]),
            "deck_count": len(pl["deck"]),
            "discard": list(pl["discard"]),
            "no_draw": pl["no_draw"],
        }
        if seat == i and is_int(seat):
            pv["hand"] = clone(pl["hand"])
        view["players"].append(pv)
    return view


def view_open(state) -> dict:
    """Every hand and deck face up (staff review): the spectator's view plus each player's ``hand``
    and ``deck`` (in drawing order)."""
    view = view_for(state, None)
    for pv, pl in zip(view["players"], state["players"]):
        pv["hand"] = clone(pl["hand"])
        pv["deck"] = clone(pl["deck"])
    return view


def redact_event(ev, seat):
    t, p = ev["type"], ev["payload"]
    if t == "GameStarted":
        q = {k: clone(v) for k, v in p.items() if k not in ("hands", "decks")}
        q["hand_counts"] = {k: len(v) for k, v in p["hands"].items()}
        q["deck_counts"] = {k: len(v) for k, v in p["decks"].items()}
        if is_int(seat) and str(seat) in p["hands"]:
            q["hand"] = clone(p["hands"][str(seat)])
        return {"type": t, "v": ev["v"], "payload": q}
    if t == "CardsDrawn" and not (is_int(seat) and seat == p["seat"]):
        return {"type": t, "v": ev["v"], "payload": {k: v for k, v in p.items() if k != "cards"}}
    if t == "ScenarioLoaded":
        return {"type": t, "v": ev["v"], "payload": {"state": view_for(p["state"], seat)}}
    return ev
