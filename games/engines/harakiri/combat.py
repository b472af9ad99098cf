"""Attacks, damage, conditions and defeats (characters, enemies, resistors): the effects layer.

Everything here changes the state through events and reads it through the query modules
(``rules``, ``act2_values``, ``passives``); nothing here asks for a decision (a skill that needs
one after an attack pushes a work item instead). The Act 2 skills that act inside an attack or a
defeat are at the end, next to the procedures that call them."""

from . import act2_values, content, grid, passives, rules
from .setup import enemy_stats

NEGATIVE = ("bleeding", "poisoned", "blinded", "downed")
# healing techniques (Healing, Healing Wave): Ki die value range -> health restored
HEAL_TABLE = [(1, 2, 1), (3, 4, 2), (5, 5, 3), (6, 6, 4)]


def tier(value, table):
    """table: list of (low, high, result); the result for a Ki die value."""
    for lo, hi, res in table:
        if lo <= value <= hi:
            return res
    return table[-1][2] if value > table[-1][1] else 0


# -- conditions ------------------------------------------------------------------------------


def can_have_conditions(s, who):
    if who in s["characters"]:
        return True
    e = s["enemies"].get(who)
    return bool(e) and e["kind"] == "minion"


def give_condition(w, who, cond, source=""):
    """Rulebook "Conditions": bleeding/poisoned stack; blinded/downed at most one; blessed
    protection negates a negative condition (used automatically); none on servants, wanderers,
    chosen or resistors."""
    s = w.s
    if not can_have_conditions(s, who):
        return False
    cr = s["characters"].get(who) or s["enemies"].get(who)
    conds = dict(cr["conditions"])
    if cond in ("blinded", "downed") and conds[cond] >= 1:
        return False  # "Only 1 ... token can be gained": nothing would be gained, so no blessed token is spent
    if who in s["characters"] and conds["blessed"] > 0:
        conds["blessed"] -= 1
        _set_conditions(w, who, conds, f"blessed protection negates {cond}")
        return False
    conds[cond] += 1
    _set_conditions(w, who, conds, f"{cond} from {source}" if source else cond)
    return True


def _set_conditions(w, who, conds, reason):
    if who in w.s["characters"]:
        w.emit("ConditionsChanged", who=who, set={"conditions": conds}, reason=reason)
    else:
        w.emit("EnemyChanged", who=who, set={"conditions": conds}, reason=reason)


def bless(w, c):
    """Gaining a Blessed token while having a negative condition removes both (one condition
    type, the first in bleeding/poisoned/blinded/downed order)."""
    conds = dict(w.s["characters"][c]["conditions"])
    for cond in NEGATIVE:
        if conds[cond]:
            conds[cond] = 0
            _set_conditions(w, c, conds, f"blessed token cancels {cond}")
            return
    conds["blessed"] += 1
    _set_conditions(w, c, conds, "blessed")


def cleanse(w, who, only=None):
    cr = w.s["characters"].get(who) or w.s["enemies"].get(who)
    conds = dict(cr["conditions"])
    changed = False
    for cond in only or NEGATIVE:
        if conds[cond]:
            conds[cond] = 0
            changed = True
    if changed:
        _set_conditions(w, who, conds, "conditions discarded")


# -- health ------------------------------------------------------------------------------------


def heal(w, who, amount, reason=""):
    s = w.s
    if amount <= 0:
        return 0
    if who in s["characters"]:
        ch = s["characters"][who]
        if ch["defeated"]:
            return 0
        new = min(ch["max_health"], ch["health"] + amount)
        if new != ch["health"]:
            w.emit("HealthChanged", who=who, set={"health": new}, delta=new - ch["health"], reason=reason)
        return new - ch["health"]
    e = s["enemies"].get(who)
    if not e:
        return 0
    new = min(e["max_health"], e["health"] + amount)
    if new != e["health"]:
        w.emit("EnemyChanged", who=who, set={"health": new}, reason=reason or "healed")
    return new - e["health"]


def damage(w, who, amount, attacker=None, reason=""):
    """Reduce health; defeat at 0. Returns True if the creature was defeated."""
    s = w.s
    if amount <= 0:
        return False
    if who in s["characters"]:
        ch = s["characters"][who]
        if ch["defeated"]:
            return False
        if rules.kami_mode_of(s, who) == "dosojin":
            w.emit("StateNote", note=f"{who} is immune to damage (Dosojin Kami Mode)")
            return False
        amount = absorb_breeze(w, who, amount)
        if amount <= 0:
            return False
        new = max(0, ch["health"] - amount)
        w.emit("HealthChanged", who=who, set={"health": new}, delta=new - ch["health"], reason=reason)
        if new == 0:
            defeat_character(w, who, reason)
            return True
        return False
    e = s["enemies"].get(who)
    if not e:
        return False
    if e["kind"] == "double":
        w.emit("StateNote", note=f"{who} is immune to damage (Multi-Form)")
        return False
    if amount >= e["health"]:
        defeat_enemy(w, who, attacker, reason)
        return True
    w.emit("EnemyDamaged", who=who, set={"health": e["health"] - amount}, amount=amount, reason=reason)
    return False


def absorb_breeze(w, c, amount):
    """Protective Breeze: "ignore the first 2 damage they receive during this round ... only the first
    source would reduce their damage" - any source (attack, event, bleeding, terrain). Returns the
    damage left."""
    left = w.s["characters"][c].get("breeze", 0)
    if left <= 0 or amount <= 0:
        return amount
    absorbed = min(amount, left)
    w.emit("AttributesChanged", who=c, set={"breeze": 0}, reason=f"Protective Breeze absorbs {absorbed}")
    return amount - absorbed


def defeat_character(w, c, reason=""):
    sq = w.s["characters"][c]["sq"]
    w.emit("CharacterDefeated", who=c, set={"defeated": True, "sq": None, "health": 0, "kami_mode": None},
           square=sq, reason=reason)
    remove_doubles(w, [c], "its owner is defeated: Multi-Form ceases")
    remove_servants(w, c)


def remove_servants(w, owner):
    """Yomi's Servant leaves the table with the character who raised it: "If a character is defeated,
    their skills, including Kami Mode, cease to have effect", and it only ever activates "at the end
    of your turn", which a defeated owner no longer has (as Multi-Form's double)."""
    for e, en in sorted(w.s["enemies"].items()):
        if en.get("owner") == owner:
            w.emit("CreatureRemoved", who=e, reason="its owner is defeated: Yomi's Servant ceases")


def remove_doubles(w, owners, reason):
    """Multi-Form doubles of the given characters leave the table."""
    for d, en in sorted(w.s["enemies"].items()):
        if en["kind"] == "double" and en["double_of"] in owners:
            w.emit("CreatureRemoved", who=d, reason=reason)


def defeat_enemy(w, e, attacker=None, reason=""):
    s = w.s
    en = s["enemies"][e]
    head = None
    if en["kind"] == "minion" and not en.get("allied"):
        head = "head"
    elif en["kind"] in ("servant", "chosen"):
        head = "boss"
    if en.get("no_heads"):
        head = None
    obj = s["objective"]
    to_supply = None
    if obj["type"] == "defeat" and obj.get("enemy") == e and head and attacker in s["characters"]:
        to_supply = attacker  # "add its Head token to the active player supply"
    act2_before_enemy_defeated(w, e)
    w.emit("EnemyDefeated", who=e, head=None if to_supply else head, reason=reason)
    act2_on_enemy_defeated(w, attacker)
    if to_supply:
        ch = s["characters"][to_supply]
        field = "boss_heads" if head == "boss" else "heads"
        w.emit("HeadsChanged", who=to_supply, set={field: ch[field] + 1}, reason="objective head")


def reduce_armor(w, who, reason):
    s = w.s
    if who in s["characters"]:
        ch = s["characters"][who]
        if ch["armor"] > 0 and rules.wears_armor(ch):
            w.emit("ArmorChanged", who=who, set={"armor": ch["armor"] - 1}, reason=reason)
        return
    e = s["enemies"].get(who)
    if e and e["kind"] != "double" and rules.estat(s, who, "armor") > 0:
        w.emit("EnemyChanged", who=who, set={"armor_tokens": e["armor_tokens"] + 1}, reason=reason)


def remove_resistance(w, r, reason):
    """One resistance token goes. "If a Resistor is a living creature and loses all of its resistance
    tokens, it is removed from play"; a resistor that is no creature (a door, a mechanism) stays on
    its square without tokens, no longer a target (rules decision in docs/games/harakiri.md)."""
    res = w.s["resistors"][r]
    tokens = res["tokens"] - 1
    w.emit("ResistanceRemoved", resistor=r, tokens=tokens, reason=reason)
    if tokens <= 0 and res.get("living", True):
        w.emit("ResistorDefeated", resistor=r)


# -- action points ---------------------------------------------------------------------------------


def spend(w, c, n, reason):
    ch = w.s["characters"][c]
    w.emit("ActionPointsChanged", who=c, set={"ap": ch["ap"] - n}, reason=reason)


# -- dice -----------------------------------------------------------------------------------------


def attack_dice_only(dice):
    return [d for d in dice if d["die"] not in ("test", "focus")]


def test_face(dice):
    for d in dice:
        if d["die"] == "test":
            return d
    return None


def breaks_armor(test):
    """"If you rolled the test die and obtained a fail or critical success, add a -1 armor token as
    well after applying the damage, even if the attack caused no damage" - also when the focus die
    fails an attack whose test die shows a critical success."""
    return bool(test) and test["s"] in ("fail", "critical")


def focus_face(dice):
    for d in dice:
        if d["die"] == "focus":
            return d
    return None


def yinyang(dice):
    ys = {d.get("y") for d in attack_dice_only(dice)}
    return "success" in ys and "fail" in ys


def impacts(dice):
    return sum(d.get("i", 0) for d in attack_dice_only(dice))


def kept_yinyang(atk):
    """Rulebook "Damage and Yin-Yang Effects": "If you want to keep the yin-yang effect, at least one
    of each initial die (success and fail) has to be kept" - only the dice never rerolled count, so a
    reroll can lose the effect but never create it."""
    rerolled = set(atk.get("rerolled", [])) | set(atk.get("ebisu", []))
    return yinyang([d for i, d in enumerate(atk["dice"]) if i not in rerolled])


# -- character attacks ---------------------------------------------------------------------------


def char_pool(s, c, mode, skill):
    ch = s["characters"][c]
    wpn = content.WEAPONS[ch["equipped"]]
    pool = list(wpn[mode] or [])
    if skill == "upward_cut":
        pool += upward_cut_die(s, c)
    return pool


def upward_cut_die(s, c):
    """Upward Cut: Ki 3-4 adds the weapon's (first) fast attack die, 5-6 its strong one."""
    wpn = content.WEAPONS[s["characters"][c]["equipped"]]
    n = act2_values.ki(s, c, "upward_cut")
    source = wpn["strong"] if n >= 5 and wpn["strong"] else wpn["fast"] if n >= 3 else None
    dice = [d for d in source or [] if d != "test"]
    return dice[:1]


def char_reach(s, c, skill):
    if skill == "menacing_shadow":
        return 3
    return content.WEAPONS[s["characters"][c]["equipped"]]["range"]


def reroll_options(s, atk):
    """Rerolls still available for the rolled attack ``atk``: list of {die, with}."""
    c = atk["attacker"]
    ch = s["characters"][c]
    out = []
    if atk.get("double"):
        return out
    # a counter attack bars only attack and technique skills ("Counter Attacks"): a counter attack
    # carries no skill, so Ebisu's Strike never applies; a meditation token still rerolls a die
    for i, d in enumerate(atk["dice"]):
        if ch["meditation"] and d["die"] != "test" and not atk.get("meditated"):
            out.append({"die": i, "with": "meditation"})
        if atk["skill"] == "ebisus_strike" and i not in atk.get("ebisu", []):
            out.append({"die": i, "with": "ebisu"})
        if (d["die"] != "test" and not atk.get("nemesis_rerolled") and ch.get("nemesis") in atk["targets"]
                and act2_values.active(s, c, "nemesis") and act2_values.ki(s, c, "nemesis") >= 3):
            out.append({"die": i, "with": "nemesis"})
        if (d["die"] == "test" and atk["skill"] is None and not atk.get("relentless")
                and ch["affinity"] >= 3 and ch["kami"] == "hachiman" and "hachiman_l3" not in ch["kami_used"]
                and not passives.kami_barred(s, c)
                and ch["ap"] >= 1 and s.get("turn") and s["turn"].get("who") == c):
            out.append({"die": i, "with": "relentless"})
    return out


def start_char_attack(w, c, targets, mode, focus, skill, counter=False, repeat=0, extra=None):
    """Roll a character attack; it resolves at once unless a reroll is available."""
    s = w.s
    ch = s["characters"][c]
    pool = char_pool(s, c, mode, skill)
    if focus:
        pool = pool + ["focus"]
    concentrated = False
    if ch.get("concentration") and not counter:
        # Concentration: a critical hit without rolling the test die
        pool = [d for d in pool if d != "test"]
        concentrated = True
        w.emit("AttributesChanged", who=c, set={"concentration": False}, reason="Concentration used")
    if ch.get("attacked_round") != s["round"]:  # counter attacks and Chained Slashes are attacks too
        w.emit("AttributesChanged", who=c, set={"attacked_round": s["round"]}, reason="attack")
    blind = None
    if ch["conditions"]["blinded"]:
        blind = w.d6()
        conds = dict(ch["conditions"])
        conds["blinded"] = 0
        w.emit("ConditionsChanged", who=c, set={"conditions": conds}, reason=f"blinded check rolled {blind}")
    dice = [w.roll(d) for d in pool]
    if skill == "deadly" and test_face(dice):
        dice = _deadly(w, dice)
    if concentrated:
        dice.append({"n": 6, "s": "critical", "die": "test", "concentration": True})
    atk = {"attacker": c, "weapon": ch["equipped"], "targets": list(targets), "mode": mode, "skill": skill,
           "focus": bool(focus),
           "dice": dice, "blind": blind, "counter": counter, "ebisu": [], "meditated": False,
           "relentless": False, "from": ch["sq"], "repeat": repeat}
    atk.update(extra or {})
    w.emit("AttackRolled", attack=atk)
    if not reroll_options(w.s, atk):
        finish_char_attack(w)


TEST_RANK = {"fail": 0, "blank": 1, "hit": 2, "critical": 3}


def _deadly(w, dice):
    """Deadly: the test die is rolled twice and the better result kept."""
    first = test_face(dice)
    second = w.roll("test")
    best = second if TEST_RANK[second["s"]] > TEST_RANK[first["s"]] else first
    w.emit("StateNote", note=f"Deadly: test die {first['s']} and {second['s']}, {best['s']} kept")
    return [best if d is first else d for d in dice]


def start_double_attack(w, d, targets, mode, focus):
    """Multi-Form: the double attacks with its owner's weapon and attributes; no skills, no
    rerolls, none of the owner's conditions. The owner is the attacker of record (heads, karma)."""
    s = w.s
    c = s["enemies"][d]["double_of"]
    pool = char_pool(s, c, mode, None) + (["focus"] if focus else [])
    atk = {"attacker": c, "double": d, "targets": list(targets), "mode": mode, "skill": None, "focus": bool(focus),
           "dice": [w.roll(x) for x in pool], "blind": None, "counter": False, "ebisu": [], "meditated": False,
           "relentless": False, "from": s["enemies"][d]["sq"], "repeat": 0}
    w.emit("AttackRolled", attack=atk)
    finish_char_attack(w)


def reroll_die(w, index, how):
    s = w.s
    atk = dict(s["attack"])
    c = atk["attacker"]
    dice = list(atk["dice"])
    old = dice[index]
    dice[index] = w.roll(old["die"])
    atk["dice"] = dice
    atk["rerolled"] = sorted(set(atk.get("rerolled", [])) | {index})
    if how == "meditation":
        atk["meditated"] = True
        w.emit("MeditationChanged", who=c, set={"meditation": 0}, reason="meditation reroll")
    elif how == "ebisu":
        atk["ebisu"] = atk["ebisu"] + [index]
    elif how == "nemesis":
        atk["nemesis_rerolled"] = True
    elif how == "relentless":
        atk["relentless"] = True
        ch = s["characters"][c]
        w.emit("ActionPointsChanged", who=c, set={"ap": ch["ap"] - 1}, reason="Relentless Strike")
        w.emit("KamiSkillUsed", who=c, set={"kami_used": ch["kami_used"] + ["hachiman_l3"]}, skill="hachiman_l3")
    w.emit("AttackDieRerolled", attack=atk, index=index, old=old, new=dice[index], using=how)
    if not reroll_options(w.s, atk):
        finish_char_attack(w)


def char_damage_bonus(s, c, target, atk):
    ch = s["characters"][c]
    wpn = content.WEAPONS[ch["equipped"]]
    bonus = 0
    if rules.skill_active(s, c, "military_discipline") and wpn["range"] >= 3:
        bonus += 1
    for other, och in s["characters"].items():
        if other != c and not och["defeated"] and och["sq"] and rules.skill_active(s, other, "teamwork"):
            if grid.range_between(och["sq"], ch["sq"]) <= 2:
                bonus += 1
    if rules.skill_active(s, c, "relentless_vengeance"):
        bonus += ch.get("vengeance", 0)
    bonus += act2_values.damage_bonus(s, c, target, atk["skill"], rules.attr(s, c, "power"))
    mode = rules.kami_mode_of(s, c)
    if mode == "inari":
        bonus += 4
    elif mode == "shinigami":
        bonus += min(7, ch["health"])
    return bonus


def finish_char_attack(w):
    s = w.s
    atk = s["attack"]
    c = atk["attacker"]
    ch = s["characters"][c]
    summary = {"attacker": c, "targets": {}, "outcome": "hit"}
    dice = atk["dice"]
    test, focus = test_face(dice), focus_face(dice)
    outcome = "hit"
    if atk["blind"] is not None and atk["blind"] <= 3:
        outcome = "blinded_miss"
    elif test and test["s"] == "blank":
        outcome = "fail"
    elif test and test["s"] == "fail":
        outcome = "critical_fail"
    elif focus and focus["f"] == "fail":
        outcome = "critical_fail"
    elif focus and focus["f"] == "fail_no_counter":
        outcome = "fail"
    critical = bool(test and test["s"] == "critical")
    summary["outcome"] = outcome
    w.emit("AttackFinished", summary={"attacker": c, "outcome": outcome})
    wpn = content.WEAPONS[ch["equipped"]]
    skill = atk["skill"]
    if outcome in ("critical_fail", "fail") and breaks_armor(test):  # a focus die failed the attack
        for t in atk["targets"]:
            if t in s["enemies"]:
                reduce_armor(w, t, "test die " + test["s"])
    if outcome == "critical_fail":
        t0 = atk["targets"][0] if atk["targets"] else None
        striker = atk.get("double") or c  # an enemy counters whoever attacked it
        if (not atk.get("counter") and t0 in s["enemies"] and not s["enemies"][t0].get("allied")
                and not ch["defeated"] and not rules.hidden_in_terrain(s, t0)):
            if rules.can_attack(s, t0, striker, rules.counter_reach(s, t0)):
                enemy_attack(w, t0, striker, None, counter=True)
        after_attack(w, c, atk, 0, False)
        return
    if outcome != "hit":
        after_attack(w, c, atk, 0, False)
        return
    hits = impacts(dice) + rules.attr(s, c, "power") - (0 if atk.get("double") else ch["conditions"]["poisoned"])
    hits += 0 if atk.get("double") else rules.item_bonus(s, c, "attack_bonus")  # War Fan, Iron Tessen
    if skill == "divine_arrow" and wpn["range"] >= 3:
        hits += rules.attr(s, c, "power")
    total_damage = 0
    defeated_any = False
    for t in atk["targets"]:
        if t not in s["enemies"]:
            continue
        tsq = s["enemies"][t]["sq"]
        h = hits + (1 if grid.height(s, atk["from"]) > grid.height(s, tsq) else 0)
        if critical:
            dmg = h
        else:
            d = rules.estat(s, t, "defense")
            a = rules.estat(s, t, "armor")
            if skill in ("stab", "come_here"):
                d = 0
            if skill == "piercing" and grid.adjacent(s, atk["from"], tsq):
                d, a = 0, 0
            prot = d + a
            if focus and focus["f"] == "minus1":
                prot = max(0, prot - 1)
            dmg = max(0, h - prot)
        dmg += 0 if atk.get("double") else char_damage_bonus(s, c, t, atk)
        yy = kept_yinyang(atk) and wpn.get("yinyang")
        if skill == "inari_l3":
            dmg *= 2  # The Beasts' Friend: the yin-yang effect is "not duplicated"
        if yy == "plus_damage":
            dmg += 1
        if skill == "amatsumikaboshi_l3":
            dmg += 6
        victim = t
        if skill == "amatsumikaboshi_l3":
            victim = devastation_victim(w, c, t)
            w.emit("StateNote", note=f"Total Devastation strikes {victim}", victim=victim)
        if skill == "arrows_mantle":
            dmg = max(0, dmg - 2)
        if skill == "hachiman_mode":
            dmg += 2
        killed = damage(w, victim, dmg, attacker=c, reason=f"{c} attack")
        total_damage += dmg
        summary["targets"][victim] = dmg
        if killed:
            defeated_any = True
            if rules.skill_active(s, c, "relentless_vengeance"):
                v = min(4, s["characters"][c].get("vengeance", 0) + 2)
                w.emit("AttributesChanged", who=c, set={"vengeance": v}, reason="Relentless Vengeance")
        else:
            if dmg > 0:
                if skill == "metsubushi":
                    give_condition(w, victim, "blinded", c)
                if skill == "energy_alteration":
                    for cond in NEGATIVE:
                        give_condition(w, victim, cond, c)
                if yy == "bleeding":
                    give_condition(w, victim, "bleeding", c)
            if test and test["s"] in ("fail", "critical") and victim in s["enemies"]:
                reduce_armor(w, victim, "test die " + test["s"])
            if yy == "armor_break" and victim in s["enemies"]:
                reduce_armor(w, victim, "yin-yang")
            if dmg >= 3 and skill in ("shockwave", "menacing_shadow") and victim in s["enemies"]:
                _move_card_back(w, victim, remove=(skill == "menacing_shadow"))
        if yy == "karma_if_damage_3" and dmg >= 3:
            w.emit("KarmaChanged", who=c, set={"karma": s["characters"][c]["karma"] + 1}, reason="yin-yang")
    w.emit("AttackResolved", attacker=c, damage=summary["targets"], critical=critical,
           yinyang=bool(kept_yinyang(atk) and wpn.get("yinyang")))
    if skill == "drain_spirit" and total_damage > 0:
        heal(w, c, total_damage, "Drain Spirit")
    after_attack(w, c, atk, total_damage, defeated_any, dealt_to=summary["targets"])


def devastation_victim(w, c, target):
    """Total Devastation: "not by your target, but by another random enemy up to range 5. If there
    is only one enemy, that enemy will receive the effect, even if it is the initial target." The
    target keeps it when no other enemy is in range 5 (then it is the only one the effect can reach)."""
    s = w.s
    here = s["characters"][c]["sq"]
    others = sorted(e for e in rules.targetable_shogun(s)
                    if e != target and grid.range_between(s["enemies"][e]["sq"], here) <= 5)
    return w.rng.choice(others) if others else target


def _move_card_back(w, e, remove):
    s = w.s
    en = s["enemies"][e]
    card = f"color:{en['color']}" if en["kind"] == "minion" else f"enemy:{e}"
    q = list(s["initiative"]["queue"])
    pos = s["initiative"]["pos"]
    deck = s["initiative"].get("deck") or []
    if card in deck:  # still face down (revealed card by card): removed, or put last
        rest = [x for x in deck if x != card]
        w.emit("InitiativeDeckSet", deck=rest if remove else rest + [card],
               reason="removed" if remove else "sent to the back")
    elif card in q and q.index(card) > pos:
        q.remove(card)
        if not remove:
            q.append(card)
        w.emit("InitiativeSet", queue=q, reason="removed" if remove else "sent to the back")


def after_attack(w, c, atk, dealt, defeated, dealt_to=None):
    """Post-attack skill effects: Roll's movement after the attack, Slaughter's second attack,
    Hachiman's Wrath, Dragon Tail and Susanoo's Fury (the last three as decisions)."""
    s = w.s
    if s["characters"][c]["defeated"]:
        return
    if atk.get("roll_after") and s.get("turn"):
        w.emit("TurnChanged", set={"rolling": True, "roll_mp": atk["roll_after"]})
    skill = atk.get("skill")
    items = []
    if dealt > 0 and skill == "hachimans_wrath":
        items.append({"op": "skill", "skill": skill, "char": c, "amount": dealt})
    if dealt > 0 and skill == "blinding_light":
        items.append({"op": "skill", "skill": skill, "char": c, "exclude": list(atk["targets"])})
    if dealt > 0 and skill == "ryujin_l3":
        items.append({"op": "skill", "skill": skill, "char": c})
    if dealt > 0 and skill == "susanoo_l3" and any(e["kind"] == "minion" and not e.get("allied")
                                                  for e in s["enemies"].values()):
        items.append({"op": "skill", "skill": skill, "char": c})
    if items:
        w.emit("WorkPushed", items=items, front=True)
    if atk.get("repeat") and atk["targets"] and atk["targets"][0] in s["enemies"]:
        start_char_attack(w, c, atk["targets"], atk["mode"], atk["focus"], skill, repeat=atk["repeat"] - 1)
    act2_after_attack(w, c, atk, dealt_to or {})


# -- enemy attacks -----------------------------------------------------------------------------------


def enemy_attack(w, e, target, line_attack, counter=False):
    """An enemy (or allied wanderer) attacks ``target``. Returns the outcome string."""
    s = w.s
    en = s["enemies"][e]
    brd = rules.board(s, e)
    if target in s["resistors"]:
        if en["conditions"]["blinded"]:
            roll = w.d6()
            _clear(w, e, "blinded", f"blinded check rolled {roll}")
            if roll <= 3:
                w.emit("AttackResolved", attacker=e, target=target, outcome="blinded_miss")
                return "blinded_miss"
        w.emit("AttackResolved", attacker=e, target=target, outcome="resistance")
        remove_resistance(w, target, f"attacked by {e}")
        return "hit"
    skill = None if (counter or en["conditions"]["downed"] or not line_attack) else line_attack.get("skill")
    skill_def = brd["skills"].get(skill, {}) if skill else {}
    stats = enemy_stats(en["kind"], en["type"], en["plus"])
    pool = list(stats["dice"]) + (["test"] if brd.get("test_die") else [])
    use_focus = bool(line_attack and line_attack.get("focus")) and not counter and not en["conditions"]["downed"]
    if use_focus and target in s["characters"] and rules.skill_active(s, target, "dodgy"):
        use_focus = False
    if use_focus:
        pool.append("focus")
    blind = None
    if en["conditions"]["blinded"]:
        blind = w.d6()
        _clear(w, e, "blinded", f"blinded check rolled {blind}")
    dice = [w.roll(d) for d in pool]
    w.emit("EnemyAttackRolled", attacker=e, target=target, dice=dice, skill=skill, counter=counter, blind=blind)
    if blind is not None and blind <= 3:
        w.emit("AttackResolved", attacker=e, target=target, outcome="blinded_miss")
        return "blinded_miss"
    tch = s["characters"].get(target)
    if (tch and tch.get("ninja_shadow") == s["round"] and tch.get("attacked_round") == s["round"]
            and rules.skill_active(s, target, "ninja_shadow")):
        # Ninja Shadow: remove one die from an attack that would deal damage (the removal that
        # minimises the damage, i.e. the player's best choice, is made automatically)
        base = _estimate(s, e, target, dice, skill_def)
        if base > 0:
            best = min(range(len(dice)), key=lambda i: (_estimate(s, e, target, dice[:i] + dice[i + 1:], skill_def), i))
            if _estimate(s, e, target, dice[:best] + dice[best + 1:], skill_def) < base:
                w.emit("AttackDieRemoved", attacker=e, target=target, die=dice[best], reason="Ninja Shadow")
                dice = dice[:best] + dice[best + 1:]
    test, focus = test_face(dice), focus_face(dice)
    outcome = _outcome(dice)
    critical = bool(test and test["s"] == "critical")
    if outcome != "hit":
        if breaks_armor(test):  # a fail, or a critical success whose attack a focus die failed
            reduce_armor(w, target, "test die " + test["s"])
        w.emit("AttackResolved", attacker=e, target=target, outcome=outcome)
        return outcome
    tsq = rules.sq_of(s, target)
    hits = impacts(dice) - en["conditions"]["poisoned"]
    if grid.height(s, en["sq"]) > grid.height(s, tsq):
        hits += 1
    if target in s["characters"]:
        d = rules.char_defense(s, target)
        tch = s["characters"][target]
        evading = rules.skill_active(s, target, "evade") and not tch["evaded"]
        if evading:
            d += rules.attr(s, target, "dexterity")
            w.emit("AttributesChanged", who=target, set={"evaded": True}, reason="Evade")
        for other, och in s["characters"].items():
            if (not och["defeated"] and och["sq"] and rules.skill_active(s, other, "spiritual_protection")
                    and grid.range_between(och["sq"], tsq) <= 2):
                d += rules.attr(s, target, "spirit")
                break
        if evading:
            d = min(6, d)  # Evade: "The maximum applicable defense will always be 6" (the whole defense)
        a = rules.char_armor(s, target)
    elif rules.is_double(s, target):  # immune anyway; defended as its owner would be
        owner = s["enemies"][target]["double_of"]
        d, a = rules.char_defense(s, owner), rules.char_armor(s, owner)
    else:
        d, a = rules.estat(s, target, "defense"), rules.estat(s, target, "armor")
    if critical:
        dmg = hits
    else:
        prot = d + a
        if focus and focus["f"] == "minus1":
            prot = max(0, prot - 1)
        dmg = max(0, hits - prot)
    dmg += skill_def.get("damage", 0) + passives.damage_bonus(s, e, target)
    dmg = max(0, dmg - act2_values.lad_maluses(s, e)[0])
    if target in s["characters"]:
        dmg = max(0, dmg - act2_values.arms_protection(s, target))
        tch = s["characters"][target]
        if rules.skill_active(s, target, "defensive_stance"):
            dmg = max(0, dmg - tier(rules.ki_in(s, target, "defensive_stance"), [(1, 2, 1), (3, 4, 2), (5, 6, 3)]))
        dmg = absorb_breeze(w, target, dmg)  # here, so the attack's reported damage is what is received
    w.emit("AttackResolved", attacker=e, target=target, outcome="hit", damage=dmg, critical=critical)
    izanami = target in s["characters"] and rules.kami_mode_of(s, target) == "izanami"
    health_before = rules.creature_health(s, target)
    killed = damage(w, target, dmg, attacker=e, reason=f"{e} attack")
    if izanami and dmg > 0 and e in s["enemies"]:
        # the damage is inflicted on the attacker as well, without the surplus beyond her health
        damage(w, e, min(dmg, health_before), attacker=target, reason="Izanami Kami Mode")
    lost = health_before - _health_now(s, target)  # 0 when the damage does not land (Dosojin Kami Mode)
    passives.after_enemy_damage(w, e, target, lost)
    if not killed:
        if lost > 0 and skill_def.get("condition"):  # no conditions from an attack that causes no damage
            give_condition(w, target, skill_def["condition"], e)
        if test and test["s"] in ("fail", "critical"):
            reduce_armor(w, target, "test die " + test["s"])
        if lost > 0 and not counter:
            arm_counter_attack_skill(w, target, e)
    return outcome


def arm_counter_attack_skill(w, c, e):
    """Akira's Counter Attack, once ``c`` received damage from enemy ``e``: "you may perform a counter
    attack against the attacker ... only if the attacker is in your range. If you receive damage
    beyond your range, the effect ends." An attacker in range (and LOS) is marked ``due``: the
    enemy's activation then asks the character's seat (enemy_ai.attack_part)."""
    s = w.s
    ch = s["characters"].get(c)
    if not ch or ch["defeated"] or not ch.get("counter_ready") or e not in s["enemies"]:
        return
    reach = char_reach(s, c, None)
    if not rules.in_range(s, ch["sq"], s["enemies"][e]["sq"], reach):
        w.emit("CounterReadied", who=c, set={"counter_ready": None},
               reason="Counter Attack ends: damage from beyond range")
    elif rules.can_attack(s, c, e, reach) and not rules.attacks_barred(s, c):
        w.emit("CounterReadied", who=c, set={"counter_ready": {**ch["counter_ready"], "due": e}},
               reason="Counter Attack may strike back")


def counter_skill_mode(s, c):
    return "fast" if content.WEAPONS[s["characters"][c]["equipped"]]["fast"] else "strong"


def _health_now(s, who):
    """Current health (0 once defeated or removed)."""
    if who in s["characters"]:
        return s["characters"][who]["health"]
    return s["enemies"][who]["health"] if who in s["enemies"] else 0


def _outcome(dice):
    test, focus = test_face(dice), focus_face(dice)
    if test and test["s"] == "blank":
        return "fail"
    if test and test["s"] == "fail":
        return "critical_fail"
    if focus and focus["f"] == "fail":
        return "critical_fail"
    if focus and focus["f"] == "fail_no_counter":
        return "fail"
    return "hit"


def _estimate(s, e, target, dice, skill_def):
    """The damage an enemy attack with ``dice`` would deal to character ``target`` (pure)."""
    if _outcome(dice) != "hit":
        return 0
    en = s["enemies"][e]
    tsq = rules.sq_of(s, target)
    hits = impacts(dice) - en["conditions"]["poisoned"] + (1 if grid.height(s, en["sq"]) > grid.height(s, tsq) else 0)
    test, focus = test_face(dice), focus_face(dice)
    if test and test["s"] == "critical":
        dmg = hits
    else:
        d, a = rules.char_defense(s, target), rules.char_armor(s, target)
        prot = d + a - (1 if focus and focus["f"] == "minus1" else 0)
        dmg = max(0, hits - max(0, prot))
    return dmg + skill_def.get("damage", 0) + passives.damage_bonus(s, e, target)


def _clear(w, e, cond, reason):
    conds = dict(w.s["enemies"][e]["conditions"])
    conds[cond] = 0
    w.emit("EnemyChanged", who=e, set={"conditions": conds}, reason=reason)


# -- Act 2 skills on attacks and defeats (Akane's Yastun Lad, Byakuei, Hanako, Takashi) ---------------------
# Called from the attack and defeat procedures above; the skills' commands and decisions are in ``act2``.


def has_conditions(s, who):
    """Has the creature at least one negative condition token?"""
    cr = rules.creature(s, who)
    return any(cr["conditions"][k] for k in NEGATIVE)


def regain_ki(w, c, reason):
    """One exhausted Ki die comes back, rolled, to the supply (none if none is exhausted)."""
    ki_ = w.s["characters"][c]["ki"]
    if ki_["exhausted"] <= 0:
        w.emit("StateNote", note=f"{reason}: {c} has no exhausted Ki die to regain")
        return
    new = {"supply": ki_["supply"] + [w.d6()], "slots": dict(ki_["slots"]), "exhausted": ki_["exhausted"] - 1}
    w.emit("KiChanged", who=c, set={"ki": new}, reason=reason)


def act2_after_attack(w, c, atk, dealt_to):
    """Self Taught, One for each, Good for both, Duel to Death and Nemesis after an attack, then the
    next target of a queued attack (Hits Rain, Blood Thirsty)."""
    s = w.s
    skill = atk.get("skill")
    ch = s["characters"][c]
    killed = [t for t in atk["targets"] if t not in s["enemies"] and t not in s["resistors"]]
    items = []
    if killed and skill == "self_taught":
        regain_ki(w, c, "Self Taught")
    if killed and skill == "one_for_each" and rules.weapon(s, c)["fast"]:
        items.append({"op": "skill", "skill": "one_for_each", "char": c})
    if killed and skill == "good_for_both":
        heal(w, c, 1, "Good for both")
        items.append({"op": "skill", "skill": "good_for_both", "char": c})
    mark = ch.get("nemesis")
    if skill == "duel_to_death" and mark in killed:
        heal(w, c, 4, "Duel to Death")
        w.emit("KarmaChanged", who=c, set={"karma": s["characters"][c]["karma"] + 1}, reason="Duel to Death")
        if has_conditions(s, c):
            items.append({"op": "skill", "skill": "duel_to_death", "char": c})
    if (mark in s["enemies"] and dealt_to.get(mark, 0) > 0 and act2_values.active(s, c, "nemesis")
            and act2_values.ki(s, c, "nemesis") >= 5 and can_have_conditions(s, mark)):
        items.append({"op": "skill", "skill": "nemesis_condition", "char": c, "target": mark})
    if items:
        w.emit("WorkPushed", items=items, front=True)
    queue = list(atk.get("queue") or [])
    reach = char_reach(s, c, None)
    while queue and not s["characters"][c]["defeated"]:
        nxt = queue.pop(0)
        if nxt in s["enemies"] and rules.can_attack(s, c, nxt, reach):
            start_char_attack(w, c, [nxt], atk["mode"], atk["focus"], skill, extra={"queue": queue})
            return


def act2_before_enemy_defeated(w, e):
    """Yastun Lad stays on the square of the enemy defeated under him."""
    s = w.s
    for c, ch in s["characters"].items():
        lad = ch.get("lad")
        if lad and lad.get("on") == e:
            w.emit("AttributesChanged", who=c, set={"lad": {"sq": s["enemies"][e]["sq"], "on": None}},
                   reason="Yastun Lad's enemy is defeated")


def act2_on_enemy_defeated(w, attacker):
    """Inspiration: an ally of Takashi within range 3 defeated an enemy."""
    s = w.s
    if attacker == act2_values.LAD:
        owners = [c for c in s["characters"] if act2_values.lad_square(s, c)]
        where = act2_values.lad_square(s, owners[0]) if owners else None
    elif attacker in s["characters"] or s["enemies"].get(attacker, {}).get("allied"):
        where = rules.sq_of(s, attacker)
    else:
        return
    for t, tch in s["characters"].items():
        n = act2_values.ki(s, t, "inspiration")
        if t == attacker or not act2_values.active(s, t, "inspiration") or n < 3 or not where or not tch["sq"]:
            continue
        if grid.range_between(tch["sq"], where) > 3:
            continue
        ins = dict(tch.get("inspired") or {})
        if ins.get("round") != s["round"]:
            ins = {"round": s["round"], "damage": 0, "defense": 0}
        ins["damage"] += 2 if n >= 5 else 1
        ins["defense"] += 1 if n >= 5 else 0
        w.emit("AttributesChanged", who=t, set={"inspired": ins}, reason=f"Inspiration ({attacker} defeated an enemy)")
