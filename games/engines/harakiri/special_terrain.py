"""Special (blue) terrain: "The rules for special terrain are specific to each Exploration Phase
and are laid out in the campaign book." A scenario zone declares its rule as data
(``zones.<z>.special``, see docs/games/harakiri.md "Special terrain"); ``grid`` applies the
movement cost and the line of sight, this module the effects on the creatures standing there.
"""

from . import combat, grid


def affects(rule_effect, s, who):
    side = rule_effect.get("who", "all")
    if who in s["characters"]:
        return side in ("all", "characters")
    return side in ("all", "enemies")


def end_of_activation(w, who):
    """A creature standing on special terrain when its activation ends suffers the zone's
    ``end_turn`` effect: lose ``damage`` health (defense and armor do not apply: the terrain is
    not an attack), gain ``condition``, regain ``heal`` health."""
    s = w.s
    ch = s["characters"].get(who)
    en = s["enemies"].get(who)
    if (ch is None and en is None) or (ch is not None and (ch["defeated"] or not ch["sq"])):
        return
    if en is not None and en["kind"] == "double":
        return
    sq = ch["sq"] if ch is not None else en["sq"]
    rule = grid.special_rule(s, sq)
    fx = rule.get("end_turn")
    if not fx or not affects(fx, s, who):
        return
    reason = f"{rule.get('name', 'special terrain')} at {sq}"
    if fx.get("damage"):
        combat.damage(w, who, fx["damage"], reason=reason)
    if fx.get("condition") and still_there(s, who):
        combat.give_condition(w, who, fx["condition"], reason)
    if fx.get("heal") and still_there(s, who):
        combat.heal(w, who, fx["heal"], reason)


def still_there(s, who):
    ch = s["characters"].get(who)
    return (not ch["defeated"]) if ch is not None else who in s["enemies"]
