"""Victory: resurrection tests, level increase, Ki dice regained, the party hand-over."""

from . import combat, content
from .work_queue import open_decision, take_choice
from .setup import ATTRS
from . import yomi


def close_exploration(w):
    """The Exploration Phase ends, won or lost: characters in Kami Mode are defeated; conditions
    and meditation tokens are discarded."""
    for c, ch in w.s["characters"].items():
        if ch.get("kami_mode") and not ch["defeated"]:
            combat.defeat_character(w, c, "Kami Mode ends with the chapter")
    for c, ch in w.s["characters"].items():
        conds = {k: 0 for k in ch["conditions"]}
        if ch["conditions"] != conds or ch["meditation"]:
            w.emit("ConditionsChanged", who=c, set={"conditions": conds, "meditation": 0},
                   reason="end of the Exploration Phase")


def begin(w, reason="objective achieved"):
    """The Victory section; ``reason`` says why it is read (the objective, or the party's choice
    after a second failure) and is what ``PhaseEnded`` reports."""
    s = w.s
    close_exploration(w)
    w.emit("AftermathBegan", result="victory", reason=reason)
    items = [{"op": "aftermath", "step": "resurrect", "char": c}
             for c, ch in s["characters"].items() if ch["defeated"]]
    if s.get("level_increase"):
        items += [{"op": "aftermath", "step": "attribute", "char": c} for c in s["characters"]]
        items += [{"op": "aftermath", "step": "skill", "char": c} for c in s["characters"]]
    items.append({"op": "aftermath", "step": "ki"})
    w.emit("WorkPushed", items=items, front=False)


def losable(s, c):
    ch = s["characters"][c]
    return [a for a in ATTRS if ch["attrs"][a] > (1 if a == ch["initial_attribute"] else 0)]


def process(w, item):
    s = w.s
    step = item["step"]
    c = item.get("char")
    choice = take_choice(w)
    if step == "resurrect":
        ch = s["characters"][c]
        if choice is None:
            known_path = ch["kami"] == "izanami" and ch["affinity"] >= 1
            face = None if known_path else w.roll("test")
            total = None if face is None else face["n"] + ch["attrs"]["spirit"]
            passed = known_path or total >= ch["level"]
            w.emit("ResurrectionRolled", who=c, die=face, total=total, difficulty=ch["level"], passed=passed,
                   known_path=known_path)
            w.emit("CharacterResurrected", who=c, set={"defeated": False, "health": ch["max_health"]})
            opts = losable(s, c)
            if passed or not opts:
                w.emit("WorkDone", op="aftermath")
                return
            if len(opts) > 1:
                open_decision(w, "lose_attribute", s["control"][c], [{"attribute": a} for a in opts],
                              f"{c} failed the resurrection test: lose which attribute point?")
                return
            choice = {"attribute": opts[0]}
        attrs = dict(s["characters"][c]["attrs"])
        attrs[choice["attribute"]] -= 1
        w.emit("AttributesChanged", who=c, set={"attrs": attrs}, reason="failed resurrection test")
        w.emit("WorkDone", op="aftermath")
        return
    if step == "attribute":
        ch = s["characters"][c]
        if ch["level"] >= 5:
            w.emit("WorkDone", op="aftermath")
            return
        opts = [a for a in ATTRS if ch["attrs"][a] < 3]
        if choice is None and len(opts) > 1:
            open_decision(w, "level_attribute", s["control"][c], [{"attribute": a} for a in opts],
                          f"{c} gains a level: increase which attribute (max 3)?")
            return
        if choice is None and opts:
            choice = {"attribute": opts[0]}
        level = ch["level"] + 1
        attrs = dict(ch["attrs"])
        if choice:
            attrs[choice["attribute"]] += 1
        mx = content.CHARACTERS[c]["health_by_level"][level - 1]
        # ``level_raised``: the attribute the player chose (the campaign records it; a point lost to a
        # failed resurrection in the same phase may hide it from a comparison of the attributes)
        w.emit("AttributesChanged", who=c, set={"attrs": attrs, "level": level, "max_health": mx, "health": mx,
                                                "level_raised": choice["attribute"] if choice else None},
               reason="level increase")
        w.emit("WorkDone", op="aftermath")
        return
    if step == "skill":
        ch = s["characters"][c]
        opts = [sk["id"] for sk in content.SKILLS_DOC["skills"] if sk["owner"] == c and sk["level"] == ch["level"]
                and sk["id"] not in ch["skills"]]
        if not opts or any(content.SKILLS[x]["level"] == ch["level"] for x in ch["skills"]):
            w.emit("WorkDone", op="aftermath")
            return
        if choice is None and len(opts) > 1:
            open_decision(w, "level_skill", s["control"][c], [{"skill": x} for x in opts],
                          f"{c} reached level {ch['level']}: acquire which skill?")
            return
        sk = (choice or {"skill": opts[0]})["skill"]
        w.emit("SkillsChanged", who=c, set={"skills": ch["skills"] + [sk]}, reason="level increase")
        w.emit("WorkDone", op="aftermath")
        return
    if step == "ki":
        for c, ch in s["characters"].items():
            ki = {"supply": [w.d6() for _ in range(ch["level"])], "slots": {}, "exhausted": 0}
            w.emit("KiChanged", who=c, set={"ki": ki}, reason="all Ki dice regained")
        w.emit("WorkDone", op="aftermath")


def party_export(s):
    """The "party" setup option the next chapter can start from (hand-over)."""
    out = {}
    for c, ch in s["characters"].items():
        out[c] = {"level": ch["level"], "health": max(1, ch["health"]), **ch["attrs"], "skills": list(ch["skills"]),
                  "kami": ch["kami"], "affinity": ch["affinity"], "weapons": list(ch["weapons"]),
                  "equipped": ch["equipped"], "armor": ch["armor_card"], "armor_value": ch["armor"],
                  "items": [i["id"] for i in ch["items"]],
                  "item_uses": {i["id"]: i["uses"] for i in ch["items"] if i["uses"] is not None},
                  "karma": ch["karma"], "coins": ch["coins"],
                  "heads": ch["heads"], "boss_heads": ch["boss_heads"]}
    return out


def finish(w):
    reason = w.s.get("aftermath_reason") or "objective achieved"
    levels = {c: {"level": ch["level"], "attribute": ch["level_raised"]}
              for c, ch in w.s["characters"].items() if "level_raised" in ch}
    w.emit("PhaseEnded", result="victory", reason=reason, levels=levels,
           party=yomi.handover(w.s, party_export(w.s)), **yomi.report(w.s))
