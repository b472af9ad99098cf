"""Derived values of the Act 2 characters' skills (Akane, Byakuei, Hanako, Takashi).

Pure functions of the state, read by ``rules``, ``combat`` and ``enemy_ai``; the effects that
change the state live in ``act2`` and (inside attacks and defeats) ``combat``.
"""

from . import content, grid

LAD = "yastun_lad"  # the id Yastun Lad acts under (attacks, defeats)


def tier(value, table):
    for lo, hi, res in table:
        if lo <= value <= hi:
            return res
    return 0


def active(s, c, sid):
    """Rulebook "Character Skills, Kami Skills, and Enemy Skills": the requirement "is to have a Ki
    die in their action slot that meets or exceeds the written Ki requirement", and skills "are in
    effect at all times as long as their requirements are met" - so a die reduced below the
    requirement at the end of a round leaves the skill inactive (it stays in the slot until it is
    withdrawn, rerolled or reduced to 0)."""
    ch = s["characters"].get(c)
    return (bool(ch) and not ch["defeated"] and sid in ch["skills"]
            and ch["ki"]["slots"].get(sid, 0) >= content.SKILLS[sid]["ki"])


def ki(s, c, sid):
    return s["characters"][c]["ki"]["slots"].get(sid, 0)


# -- Akane: Yastun Lad -------------------------------------------------------------------------


def lad_owners(s):
    """Characters whose Yastun Lad is on the board (My loyal friend active, token placed)."""
    return [c for c, ch in s["characters"].items() if ch.get("lad") and active(s, c, "my_loyal_friend")
            and lad_square(s, c)]


def lad_target(s, c):
    """The enemy whose board carries Akane's Yastun Lad token, or None."""
    lad = s["characters"][c].get("lad")
    if not lad or not active(s, c, "my_loyal_friend"):
        return None
    on = lad.get("on")
    return on if on in s["enemies"] else None


def lad_square(s, c):
    """Where Yastun Lad is: on his enemy's square (he moves with it), on his own square, or None
    (in Akane's reserve: skill exhausted, never placed, or his enemy left the board)."""
    lad = s["characters"][c].get("lad")
    if not lad or not active(s, c, "my_loyal_friend"):
        return None
    if lad.get("on"):
        e = s["enemies"].get(lad["on"])
        return e["sq"] if e else None
    return lad.get("sq") if lad.get("sq") in s["squares"] else None  # his zone was removed: reserve


def lad_maluses(s, e):
    """(damage, defense) taken off enemy ``e`` by a Yastun Lad on its board: Ki 1-3 -1 damage;
    4-6 also -1 defense."""
    dmg = dfn = 0
    for c in s["characters"]:
        if lad_target(s, c) == e:
            dmg += 1
            dfn += 1 if ki(s, c, "my_loyal_friend") >= 4 else 0
    return dmg, dfn


# -- Byakuei: extra arms -----------------------------------------------------------------------


def arms(s, c):
    """Extra arms from Additional Help: Ki 1-3 one, 4-6 two."""
    if not active(s, c, "additional_help"):
        return 0
    return 1 if ki(s, c, "additional_help") <= 3 else 2


def arms_protection(s, c):
    """More Additional Help: each extra arm gives +1 defense and soaks 1 damage of each attack."""
    return arms(s, c) if active(s, c, "more_additional_help") else 0


# -- defense and damage --------------------------------------------------------------------------


def inspired(s, c):
    ins = s["characters"][c].get("inspired")
    return ins if ins and ins.get("round") == s["round"] else None


def defense_bonus(s, c):
    """Extra defense of character ``c``: More Additional Help, Inspiration (5-6)."""
    bonus = arms_protection(s, c)
    ins = inspired(s, c)
    if ins:
        bonus += ins["defense"]
    return bonus


def intimidation(s):
    """The tiebreaker Takashi imposed on every enemy this round (Intimidation), or None."""
    for fx in s["round_effects"]:
        if fx["type"] == "intimidation":
            return fx["priority"]
    return None


def activated(s, e):
    """Has enemy ``e`` activated this round (its initiative card reached and its turn done)?"""
    en = s["enemies"][e]
    card = f"color:{en['color']}" if en["kind"] == "minion" and not en.get("allied") else f"enemy:{e}"
    q, pos = s["initiative"]["queue"], s["initiative"]["pos"]
    if card not in q or q.index(card) > pos:
        return False
    if q.index(card) < pos:
        return True
    turn = s.get("turn")
    return not (turn and turn.get("card") == card and e in turn.get("todo", []))


def allies_near(s, c, reach):
    """Allies of character ``c`` within ``reach``: other characters, allied creatures and Yastun Lad."""
    here = s["characters"][c]["sq"]
    n = 0
    for o, och in s["characters"].items():
        if o != c and not och["defeated"] and och["sq"] and grid.range_between(here, och["sq"]) <= reach:
            n += 1
    for en in s["enemies"].values():
        if en.get("allied") and grid.range_between(here, en["sq"]) <= reach:
            n += 1
    for o in lad_owners(s):
        if grid.range_between(here, lad_square(s, o)) <= reach:
            n += 1
    return n


def activated_before(s):
    """Creatures that activated before the current turn this round (The Last Word): one per
    character card, one per enemy still in play on each enemy card."""
    q, pos = s["initiative"]["queue"], s["initiative"]["pos"]
    n = 0
    for card in q[:max(0, pos)]:
        kind, _, ident = card.partition(":")
        if kind == "char":
            n += 1
        elif kind == "enemy":
            n += 1 if ident in s["enemies"] else 0
        else:
            n += sum(1 for en in s["enemies"].values() if en["kind"] == "minion" and en.get("color") == ident
                     and not en.get("allied"))
    return n


def damage_bonus(s, c, target, skill, power):
    """Damage the Act 2 skills add to character ``c``'s attack on ``target``."""
    ch = s["characters"][c]
    bonus = arms(s, c)
    if skill == "powered_hit":
        bonus += arms(s, c)
    if target == ch.get("nemesis") and active(s, c, "nemesis"):
        bonus += 1
    if active(s, c, "voracious_blade") and target in s["enemies"] and not activated(s, target):
        bonus += tier(ki(s, c, "voracious_blade"), [(3, 4, 1), (5, 6, 2)])
    if skill == "smell_the_blood" and target in s["enemies"]:
        bonus += sum(v for k, v in s["enemies"][target]["conditions"].items() if k != "blessed")
    ins = inspired(s, c)
    if ins:
        bonus += ins["damage"]
    if active(s, c, "fluid_tactic"):
        bonus += tier(ki(s, c, "fluid_tactic"), [(2, 3, 1), (4, 5, 2), (6, 6, 3)])
    if skill == "team_hit":
        bonus += allies_near(s, c, 2)
    if skill == "the_last_word":
        bonus += activated_before(s)
    if skill == "come_here":
        bonus += power
    return bonus


def attack_discount(s, c, target):
    """You and Me: attacks on the Nemesis-marked enemy cost 1 action point less."""
    ch = s["characters"][c]
    if active(s, c, "you_and_me") and target is not None and target == ch.get("nemesis"):
        return 1
    return 0
