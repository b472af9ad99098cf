"""Derived values: attributes, defense, armor, occupancy, targeting."""

from . import act2_values, content, grid, passives
from .content import armor_cap, can_wield, wears_armor  # card rules, also read as rules.armor_cap etc.
from .setup import enemy_stats


# -- characters -----------------------------------------------------------------------------


def kami_mode_of(s, c):
    ch = s["characters"][c]
    return ch["kami_mode"].get("kami", ch["kami"]) if ch.get("kami_mode") else None


def attr(s, c, a):
    ch = s["characters"][c]
    if kami_mode_of(s, c) == "ryujin":
        return 3
    return min(3, ch["attrs"][a] + (ch.get("boost") or {}).get(a, 0))


def skill_active(s, c, sid):
    """A character skill is in effect "at all times as long as their requirements are met": a Ki die
    in its slot that meets or exceeds its Ki requirement (act2_values.active)."""
    return act2_values.active(s, c, sid)


def attacked_this_round(s, c):
    return s["characters"][c].get("attacked_round") == s["round"]


def attacks_barred(s, c):
    """Divine Fire: no attacks (counter attacks included) for the rest of the round."""
    return s["characters"][c].get("divine_fire") == s["round"]


def ki_in(s, c, sid):
    return s["characters"][c]["ki"]["slots"].get(sid, 0)


def weapon(s, c):
    return content.WEAPONS[s["characters"][c]["equipped"]]


def move_points(s, c):
    return 3 + attr(s, c, "dexterity")


def char_defense(s, c):
    ch = s["characters"][c]
    worn = content.ARMORS[ch["armor_card"]]["defense"] if wears_armor(ch) else 0
    d = worn + act2_values.defense_bonus(s, c)
    if ch["conditions"]["downed"]:
        d = max(0, d - 1)
    return d


def item_bonus(s, c, kind):
    """What the character's permanent items of effect ``kind`` add (``attack_bonus``: hits of its
    attacks; ``armor_bonus``: armor while it wears an armor of its class), for the items whose
    knowledge requirement it meets ("Permanent items do not require action points to be used, and
    their effect can only be applied once each time that their requirements are fulfilled")."""
    ch = s["characters"][c]
    know = attr(s, c, "knowledge")
    return sum(content.ITEMS[it["id"]]["effect"].get("amount", 0) for it in ch["items"]
               if content.ITEMS[it["id"]]["type"] == "permanent" and content.ITEMS[it["id"]]["effect"]["kind"] == kind
               and content.knowledge_needed(it["id"]) <= know)


def char_armor(s, c):
    ch = s["characters"][c]
    worn = ch["armor"] + item_bonus(s, c, "armor_bonus") if wears_armor(ch) else 0
    return worn + ch.get("armor_bonus", 0)


# -- enemies ---------------------------------------------------------------------------------


def double_of(s, c):
    """The id of character c's Multi-Form double on the table, or None."""
    return next((e for e, en in sorted(s["enemies"].items()) if en.get("double_of") == c), None)


def is_double(s, who):
    en = s["enemies"].get(who)
    return bool(en) and en["kind"] == "double"


def board(s, e):
    en = s["enemies"][e]
    return content.enemy_board(en["kind"], en["type"])


def estat(s, e, stat):
    en = s["enemies"][e]
    base = enemy_stats(en["kind"], en["type"], en["plus"])
    if stat == "armor":
        return max(0, base["armor"] - en["armor_tokens"])
    if stat == "defense":
        d = max(0, base["defense"] + passives.defense_bonus(s, e) - act2_values.lad_maluses(s, e)[1])
        if en["conditions"]["downed"]:
            d = max(0, d - 1)
        return d
    if stat == "movement":
        bonus = sum(fx["amount"] for fx in s["round_effects"]
                    if fx["type"] == "enemy_movement" and e in fx.get("creatures", []))
        return base["movement"] + bonus
    return base[stat]


def counter_reach(s, e):
    """The range an enemy counter attacks at: "use the highest range available" - its board's range
    or a longer one some line of its board attacks at; a downed enemy "can only attack adjacent
    targets" (range 1 at its own height level)."""
    if s["enemies"][e]["conditions"]["downed"]:
        return 1
    brd = board(s, e)
    lines = list(brd.get("lines", []))
    for table in ("normal", "aggressive"):
        for entry in brd.get(table, []):
            lines += entry["lines"]
    for card in brd.get("ai_deck", []):
        lines += card["lines"] + (card.get("empowered") or {}).get("lines", [])
    return max([estat(s, e, "range")] + [(ln.get("attack") or {}).get("range") or 0 for ln in lines])


def is_spectral(s, who):
    en = s["enemies"].get(who)
    return bool(en and board(s, who).get("spectral"))


def is_flying(s, who):
    if who in s["characters"]:
        return kami_mode_of(s, who) == "ryujin"
    en = s["enemies"].get(who)
    return bool(en and board(s, who).get("flying"))


# -- squares -----------------------------------------------------------------------------------


def sq_of(s, who):
    c = s["characters"].get(who)
    if c is not None:
        return c["sq"]
    e = s["enemies"].get(who)
    return e["sq"] if e else None


def on_board_characters(s):
    return [c for c, ch in s["characters"].items() if not ch["defeated"] and ch["sq"]]


def party_creatures(s):
    """Characters on the board and allied creatures."""
    out = on_board_characters(s)
    out += [e for e, en in s["enemies"].items() if en.get("allied")]
    return out


def shogun_creatures(s):
    return [e for e, en in s["enemies"].items() if not en.get("allied")]


def targetable_shogun(s):
    """The shogun's creatures a skill may pick: not a spectral one hidden inside occupied terrain."""
    return [e for e in shogun_creatures(s) if not hidden_in_terrain(s, e)]


def foes_of(s, side):
    return shogun_creatures(s) if side == "party" else party_creatures(s)


def friends_of(s, side):
    return party_creatures(s) if side == "party" else shogun_creatures(s)


def occupied_for(s, side):
    """Squares a creature of ``side`` treats as occupied: foes and resistors."""
    out = {r["sq"] for r in s["resistors"].values()}
    for who in foes_of(s, side):
        out.add(sq_of(s, who))
    return out


def taken_squares(s, exclude=None):
    """Squares holding any creature or resistor (nobody may end a move there), ``exclude``
    (a creature id) left out."""
    out = {r["sq"] for r in s["resistors"].values()}
    out |= {ch["sq"] for c, ch in s["characters"].items() if ch["sq"] and not ch["defeated"] and c != exclude}
    out |= {e["sq"] for k, e in s["enemies"].items() if k != exclude}
    return out


def free_square(s, sq):
    t = grid.terrain(s, sq)
    return sq in s["squares"] and t not in ("obstacle", "inaccessible") and sq not in taken_squares(s)


def endable(s, c, sq):
    """May character c end a movement on sq (free: no creature, resistor or blocking terrain)?"""
    if sq not in s["squares"] or grid.terrain(s, sq) in ("obstacle", "inaccessible"):
        return False
    return sq not in taken_squares(s, exclude=c)


def hidden_in_terrain(s, who):
    """A spectral creature ending inside occupied terrain cannot target or be targeted."""
    sq = sq_of(s, who)
    return sq is not None and grid.terrain(s, sq) in ("obstacle", "inaccessible")


def los(s, a, b, side):
    """Line of sight from square a to square b for a creature of ``side``."""
    occ = grid.terrain_los_occupied(s, a, b)
    if grid.height(s, a) == grid.height(s, b):
        occ |= occupied_for(s, side)
    return grid.has_los(s, a, b, occ)


def in_range(s, a, b, reach):
    r = grid.range_between(a, b)
    if grid.height(s, a) != grid.height(s, b) and reach < 3:
        return False
    return r <= reach


def can_attack(s, who, target, reach, from_sq=None):
    a = from_sq or sq_of(s, who)
    b = sq_of(s, target)
    if a is None or b is None or a == b:
        return False
    if hidden_in_terrain(s, target) or (from_sq is None and hidden_in_terrain(s, who)):
        return False
    side = "party" if who in s["characters"] or s["enemies"].get(who, {}).get("allied") else "shogun"
    return in_range(s, a, b, reach) and los(s, a, b, side)


def health(s, who):
    return creature_health(s, who)


def creature_health(s, who):
    c = s["characters"].get(who)
    if c is not None:
        return c["health"]
    return s["enemies"][who]["health"]


def mover_for(s, who):
    m = {"flying": is_flying(s, who), "spectral": is_spectral(s, who), "elusive": False}
    if who in s["characters"] and skill_active(s, who, "elusive"):
        m["elusive"] = True
    if has_large_base(s, who):
        m["large"] = True
    return m


def has_large_base(s, who):
    """An enemy board's ``base`` (squares per side, default 1): larger miniatures "cannot fit in
    1 square-wide ladders or stairs"."""
    en = s["enemies"].get(who)
    return bool(en) and en["kind"] != "double" and board(s, who).get("base", 1) > 1


def living_characters(s):
    return [c for c, ch in s["characters"].items() if not ch["defeated"]]


def creature(s, who):
    return s["characters"].get(who) or s["enemies"].get(who)


def side_of(s, who):
    if who in s["characters"]:
        return "party"
    e = s["enemies"].get(who)
    return "party" if e and e.get("allied") else "shogun"
