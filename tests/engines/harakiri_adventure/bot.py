"""A bot-like player of the Adventure Phase for the seeded play-to-the-end tests: it reads a seat's
view (or the state, which has the same shape) and picks one of the listed commands, heading for the
nearest mission token, clan token, personal token or enemy, interacting and attacking when it can.
Decisions (events, the party's orders, weapons, Kami, whether to activate a level 1 Kami skill) are
picked at random, so seeds vary the play."""

from games.engines.harakiri.adventure import board
from games.engines.harakiri.adventure import queries as q

FIRST = ("interact_clan", "interact_personal", "interact_mission", "interact_special")


def _goals(view, cid) -> set[str]:
    goals = {m["token"] for m in view["missions"].values() if m["status"] == "hidden" and m["token"]}
    for number, mission in view["missions"].items():
        for place in mission["clan_tokens"].get(cid, []) if mission["status"] == "active" else []:
            if q.meets(view, cid, q.clan_token_doc(view, number, place).get("requires")):
                goals.add(place)
    personal = view["personal"].get(cid)
    if personal and personal["status"] == "open":
        goals.add(personal["token"])
    goals |= {e["location"] for e in view["enemies"].values()}
    goals.discard(None)
    return goals - set(view["cities"]["razed"])


def _distance(view, here, there) -> int:
    """Locations by land (razed cities ignored: the bot only needs a direction)."""
    d = board.distance(here, there)
    return 99 if d is None else d


def _nearest(view, cid) -> tuple[str | None, int]:
    """The goal to head for and its distance; enemies marching on a city come first."""
    here = view["characters"][cid]["location"]
    raiders = {e["location"] for e in view["enemies"].values() if (e.get("target") or {}).get("location")}
    ranked = sorted((_distance(view, here, g) - (4 if g in raiders else 0), g) for g in _goals(view, cid))
    return (ranked[0][1], _distance(view, here, ranked[0][1])) if ranked else (None, 99)


def _travel_step(view, legal, cid, rng):
    here = view["characters"][cid]["location"]
    goal, dist = _nearest(view, cid)
    if goal is None or dist == 0:
        return _of(legal, "end_travel")
    steps = [c for c in legal if c["type"] in ("move", "sail", "guided_by_the_waves")]
    better = [c for c in steps if _distance(view, c["args"]["to"], goal) < dist]
    if better:
        return better[rng.below(len(better))]
    exert = _of(legal, "exert")
    if exert and view["flow"]["travel"]["mp"] == 0 and view["characters"][cid]["ap"] >= 2 and dist <= 2:
        return exert
    return _of(legal, "end_travel") or legal[rng.below(len(legal))]


def _of(legal, type_):
    return next((c for c in legal if c["type"] == type_), None)


def pick(view, legal, rng) -> dict:
    """One of ``legal`` (non-empty) for the seat that sees ``view``."""
    types = {c["type"] for c in legal}
    flow = view["flow"]
    if len(legal) == 1:
        return legal[0]
    if flow["stage"] != "activation" or "choose" in types:
        decisions = [c for c in legal if c["type"] != "end_activation"] or legal
        return decisions[rng.below(len(decisions))]
    cid = flow["active"]
    ch = view["characters"][cid]
    if flow.get("shop"):
        buys = [c for c in legal if c["type"] == "buy"]
        return buys[0] if buys and rng.below(2) else (_of(legal, "sell_heads") or _of(legal, "leave"))
    if flow.get("travel"):
        return _travel_step(view, legal, cid, rng)
    for type_ in FIRST:
        if type_ in types:
            return _of(legal, type_)
    attacks = [c for c in legal if c["type"] == "attack"]
    if attacks:  # with the most helpers; with or without a Kami skill, at random
        most = max(len(c["args"]["helpers"]) for c in attacks)
        attacks = [c for c in attacks if len(c["args"]["helpers"]) == most]
        return attacks[rng.below(len(attacks))]
    if ch["health"] <= q.max_health(view, cid) - 4 and "inn" in types:
        return _of(legal, "inn")
    if "travel" in types and _nearest(view, cid)[1] > 0:
        alone = [c for c in legal if c["type"] == "travel" and not c["args"]["group"]]
        return alone[rng.below(len(alone))]  # with Nine-tailed fox or not
    if ch["ap"] and rng.below(2):
        rest = [c for c in legal if c["type"] in ("camp", "work", "port", "market", "blacksmith")]
        if rest:
            return rest[rng.below(len(rest))]
    return _of(legal, "end_activation") or legal[rng.below(len(legal))]
