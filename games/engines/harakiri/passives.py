"""Enemy passive skills (chosen and wanderer boards) and the chosen AI cards that stay in play.

A passive skill is an enemy skill of ``"kind": "passive"`` whose ``effects`` list the engine
interprets (``content/enemies.json``). "For enemies, skills are always in effect" and passive
skills "do still apply" in counter attacks and downed attacks, so these effects never look at
the line being resolved, only at the enemy, its target and the cards it has in play.

Effect kinds:
- ``empower_on_repeat`` ``{"card": name}``: a drawn AI card of that name resolves its
  ``empowered`` version when another card of the same name is already in play (set aside).
- ``bar_kami_on_damage`` ``{"while_in_play"?: name}``: a character who loses health to this
  enemy's attack cannot use Kami skills for the rest of the combat (while this enemy is in play);
  with ``while_in_play`` only while a card of that name is in play.
- ``damage_vs_condition`` ``{"amount"}``: +amount damage when an attack hits a target that has
  at least one negative condition token.
- ``defense_near_ally`` ``{"amount"}``: +amount defense while adjacent to an ally.

This module reads only the state and the content (``rules`` imports it for the defense bonus).
"""

from . import content, grid


def passive_effects(s, e, kind):
    """The effects of ``kind`` on enemy e's board passive skills, as (skill name, effect)."""
    en = s["enemies"].get(e)
    if not en or en["kind"] not in content.ENEMY_KINDS:
        return []
    skills = content.enemy_board(en["kind"], en["type"]).get("skills", {})
    return [(name, fx) for name, sk in sorted(skills.items()) if sk["kind"] == "passive"
            for fx in sk.get("effects", []) if fx["kind"] == kind]


# -- chosen AI cards ------------------------------------------------------------------------------


def ai_card(s, e, card_id):
    en = s["enemies"][e]
    return next(c for c in content.enemy_board(en["kind"], en["type"])["ai_deck"] if c["id"] == card_id)


def in_play(s, e):
    """Ids of enemy e's AI cards set aside in play (they stay out of the discard and reshuffles)."""
    return list(s["enemies"][e].get("ai", {}).get("in_play", []))


def in_play_named(s, e, name):
    return [c for c in in_play(s, e) if ai_card(s, e, c)["name"] == name]


def empowered(s, e, card):
    """Does the drawn ``card`` (its definition) resolve its empowered version?"""
    if not card.get("empowered"):
        return False
    return any(fx["card"] == card["name"] and in_play_named(s, e, card["name"])
               for _, fx in passive_effects(s, e, "empower_on_repeat"))


def draw_ai_card(w, e):
    """Draw the chosen's top AI card (reshuffling the discard pile, never the cards in play);
    returns (lines, info) like the other enemies' line selection."""
    s = w.s
    ai = s["enemies"][e]["ai"]
    if not ai["deck"]:
        w.emit("AIDeckShuffled", who=e, deck=w.shuffled(ai["discard"]))
    deck = s["enemies"][e]["ai"]["deck"]
    if not deck:  # every card is in play: nothing to draw
        return [], {"card": None}
    card_id = deck[0]
    card = ai_card(s, e, card_id)
    power = empowered(s, e, card)
    w.emit("AICardDrawn", who=e, card=card_id, empowered=power)
    if card.get("remains_in_play"):
        w.emit("AICardSetAside", who=e, card=card_id, reason=f"{card['name']} cards remain in play until the "
                                                              "combat finishes")
    info = {"card": card_id, "name": card["name"]}
    if power:
        info["empowered"] = True
    return (card["empowered"]["lines"] if power else card["lines"]), info


# -- effects on attacks and stats -----------------------------------------------------------------


def damage_bonus(s, e, target):
    """Passive +damage of enemy e's attack that hits ``target`` (counter and downed attacks too)."""
    conds = _conditions(s, target)
    return sum(fx["amount"] for _, fx in passive_effects(s, e, "damage_vs_condition")
               if any(conds.get(c, 0) for c in ("bleeding", "poisoned", "blinded", "downed")))


def _conditions(s, who):
    if who in s["characters"]:
        return s["characters"][who]["conditions"]
    en = s["enemies"].get(who)
    return en["conditions"] if en else {}


def defense_bonus(s, e):
    """Passive +defense of enemy e (adjacent to an ally)."""
    effects = passive_effects(s, e, "defense_near_ally")
    if not effects:
        return 0
    here = s["enemies"][e]["sq"]
    if not any(grid.adjacent(s, here, sq) for sq in _ally_squares(s, e)):
        return 0
    return sum(fx["amount"] for _, fx in effects)


def _ally_squares(s, e):
    en = s["enemies"][e]
    out = [o["sq"] for x, o in s["enemies"].items() if x != e and bool(o.get("allied")) == bool(en.get("allied"))]
    if en.get("allied"):
        out += [ch["sq"] for ch in s["characters"].values() if not ch["defeated"] and ch["sq"]]
    return out


def bars_kami(s, e):
    """Does enemy e's passive currently bar the Kami skills of the characters it damages?"""
    return any(not fx.get("while_in_play") or in_play_named(s, e, fx["while_in_play"])
               for _, fx in passive_effects(s, e, "bar_kami_on_damage"))


def after_enemy_damage(w, e, target, lost):
    """Enemy e's attack took ``lost`` health from ``target``: apply the on-damage passives."""
    s = w.s
    if lost <= 0 or target not in s["characters"] or e not in s["enemies"] or not bars_kami(s, e):
        return
    barred = list(s["enemies"][e].get("kami_barred", []))
    if target in barred:
        return
    skill = passive_effects(s, e, "bar_kami_on_damage")[0][0]
    w.emit("EnemyChanged", who=e, set={"kami_barred": barred + [target]},
           reason=f"{skill}: {target} cannot use Kami skills for the rest of this combat")


def kami_barred(s, c):
    """Character c may not use Kami skills: an enemy still in play (the combat goes on) barred them."""
    return any(c in en.get("kami_barred", []) for en in s["enemies"].values())
