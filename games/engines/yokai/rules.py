"""Yokai Battle: state queries shared by the decider, the legal-command lister and the views.

Every function here is a pure read of a JSON-shaped state (see ``engine.py`` for its shape).
"""

from .board import FACING, OPPOSITE, cross, direction
from .content import MONSTERS

HAND_LIMIT = 5
MAX_LP = 10
MAX_METER = 10
MAX_SUMMONS = 2
CONQUEST = 5

SUMMON_ABILITIES = {"fire_summon_burn", "water_summon_heal", "colorless_double", "colorless_draw", "metal_stealth"}
DEATH_ABILITIES = {"fire_death_burn", "wood_no_draw", "wood_drop"}


def team(state, seat) -> int:
    return seat % 2 if state["teams"] else seat


def allied(state, a, b) -> bool:
    return team(state, a) == team(state, b)


def team_seats(state, seat) -> list[int]:
    return [s for s in range(state["seats"]) if allied(state, s, seat)]


def enemy_seats(state, seat) -> list[int]:
    """The opposing players still in the game (a player who resigned is no one's enemy any more)."""
    return [s for s in range(state["seats"]) if not allied(state, s, seat) and in_play(state, s)]


def out_seats(state) -> list[int]:
    """The players who resigned and left the game (``actions.concede``); the key appears with the first."""
    return list(state.get("out", []))


def in_play(state, seat) -> bool:
    return seat not in state.get("out", ())


def next_in_play(state, seat) -> int:
    """The next player clockwise after ``seat`` who is still in the game."""
    n = state["seats"]
    return next((seat + k) % n for k in range(1, n + 1) if in_play(state, (seat + k) % n))


def card(monster) -> dict:
    return MONSTERS[monster["card"]]


def favourable(state, pos, key) -> bool:
    element = MONSTERS[key]["element"]
    return element == "colorless" or state["terrain"][pos] == element


def summoned_lp(state, pos, key) -> int:
    """Total LPs of ``key`` summoned on ``pos``: card LPs +/- the terrain modifier, 1..10."""
    info = MONSTERS[key]
    lp = info["lp"]
    if info["element"] != "colorless":
        modifier = 1 if state["seats"] == 2 else 2
        lp += modifier if favourable(state, pos, key) else -modifier
    return max(1, min(MAX_LP, lp))


def effective_dakis(state) -> list[str]:
    """Positions of the cancelling earth monsters whose ability is in force.

    Taken in summoning order: a Daki on unfavourable terrain does nothing, and one standing within
    2 squares of an earlier enemy Daki in force is itself cancelled (the first summoned prevails).
    """
    monsters = state["monsters"]
    candidates = sorted(
        (m["uid"], pos)
        for pos, m in monsters.items()
        if MONSTERS[m["card"]]["ability"] == "earth_cancel" and favourable(state, pos, m["card"])
    )
    in_force = []
    for _, pos in candidates:
        owner = monsters[pos]["owner"]
        near = set(cross(state["terrain"], pos, 2))
        if not any(p in near and not allied(state, monsters[p]["owner"], owner) for p in in_force):
            in_force.append(pos)
    return in_force


def cancelled(state, pos, dakis=None) -> bool:
    owner = state["monsters"][pos]["owner"]
    if dakis is None:
        dakis = effective_dakis(state)
    for d in dakis:
        if d != pos and not allied(state, state["monsters"][d]["owner"], owner):
            if pos in cross(state["terrain"], d, 2):
                return True
    return False


def ability_active(state, pos, dakis=None) -> bool:
    """Can the monster on ``pos`` use its ability now (favourable terrain, not cancelled)?"""
    m = state["monsters"][pos]
    if not favourable(state, pos, m["card"]):
        return False
    return not cancelled(state, pos, dakis)


def active_ability(state, pos, dakis=None):
    if ability_active(state, pos, dakis):
        return MONSTERS[state["monsters"][pos]["card"]]["ability"]
    return None


def side_ap(monster, dir_name: str) -> int:
    side = FACING[monster["orientation"]][dir_name]
    ap = MONSTERS[monster["card"]]["attack"][side]
    return ap * 2 if monster.get("doubled") else ap


def duel_values(state, apos, dpos) -> dict:
    """The APs each side of a fight deals, and what a paid attack costs."""
    a, d = state["monsters"][apos], state["monsters"][dpos]
    way = direction(apos, dpos)
    a_ap, d_ap = side_ap(a, way), side_ap(d, OPPOSITE[way])
    dakis = effective_dakis(state)
    a_deal = a_ap - (1 if active_ability(state, dpos, dakis) == "earth_weaken" else 0)
    d_deal = d_ap - (1 if active_ability(state, apos, dakis) == "earth_weaken" else 0)
    return {"cost": a_ap, "attacker_deals": max(0, a_deal), "defender_deals": max(0, d_deal)}


def enemy_monsters_near(state, seat, origin, distance) -> list[str]:
    return [
        p
        for p in cross(state["terrain"], origin, distance)
        if p in state["monsters"] and not allied(state, state["monsters"][p]["owner"], seat)
    ]


def ally_monsters_near(state, seat, origin, distance) -> list[str]:
    return [
        p
        for p in cross(state["terrain"], origin, distance)
        if p in state["monsters"] and allied(state, state["monsters"][p]["owner"], seat)
    ]


def warded(state, seat, pos, dakis=None) -> bool:
    """Metal terrain closed to ``seat`` by an enemy metal_ward monster in force."""
    if state["terrain"][pos] != "metal":
        return False
    if dakis is None:
        dakis = effective_dakis(state)
    for p, m in state["monsters"].items():
        if not allied(state, m["owner"], seat) and MONSTERS[m["card"]]["ability"] == "metal_ward":
            if ability_active(state, p, dakis):
                return True
    return False


def find_uid(state, uid):
    for p, m in state["monsters"].items():
        if m["uid"] == uid:
            return p
    return None


def monsters_of(state, seat) -> int:
    return sum(1 for m in state["monsters"].values() if m["owner"] == seat)


def pending_options(state, item) -> list:
    """Concrete choices for a pending decision (empty = nothing to choose, the step is skipped)."""
    kind = item["kind"]
    if kind == "fire_burn":
        return enemy_monsters_near(state, item["seat"], item["origin"], item["range"])
    if kind == "wood_drop":
        return enemy_monsters_near(state, item["seat"], item["origin"], 1)
    if kind == "block_draw":
        return enemy_seats(state, item["seat"])
    if kind == "summon_attack":
        pos = find_uid(state, item["uid"])
        if pos is None:
            return []
        return enemy_monsters_near(state, item["seat"], pos, 1)
    return []
