"""The Failure procedure: resurrection, market and blacksmith actions, zones reset, characters
placed next to the last defeat, a new round; a second failure lets the party choose between
repeating and reading the success section."""

from . import aftermath, combat, content, grid, rules
from .work_queue import open_decision, take_choice
from .setup import ORDER, make_enemy

MAX_ITEMS, MAX_PERMANENT = 5, 2


def begin(w, reason):
    s = w.s
    for c, ch in s["characters"].items():
        if ch.get("kami_mode") and not ch["defeated"]:
            combat.defeat_character(w, c, "Kami Mode ends with the failure")
    for c, ch in s["characters"].items():
        conds = {k: 0 for k in ch["conditions"]}
        if ch["conditions"] != conds or ch["meditation"]:
            w.emit("ConditionsChanged", who=c, set={"conditions": conds, "meditation": 0},
                   reason="end of the Exploration Phase")
    combat.remove_doubles(w, list(s["characters"]), "Multi-Form ends with the failure")
    failures = s["failures"] + 1
    w.emit("FailureBegan", failures=failures, reason=reason)
    items = []
    if failures >= 2:
        items.append({"op": "failure", "step": "second"})
    items += [{"op": "aftermath", "step": "resurrect", "char": c}
              for c, ch in s["characters"].items() if ch["defeated"]]
    for c in s["characters"]:
        items.append({"op": "failure", "step": "market", "char": c})
        items.append({"op": "failure", "step": "blacksmith", "char": c})
    items.append({"op": "failure", "step": "reset"})
    w.emit("WorkPushed", items=items, front=False)


def _market_deck(s):
    return sorted(i for i, it in content.ITEMS.items() if it["type"] != "special")


def _counts(ch):
    items = [content.ITEMS[i["id"]] for i in ch["items"] if content.ITEMS[i["id"]]["type"] != "special"]
    return len(items), sum(1 for it in items if it["type"] == "permanent")


def market_options(s, c, revealed):
    ch = s["characters"][c]
    n, perm = _counts(ch)
    out = []
    for i in revealed:
        it = content.ITEMS[i]
        if ch["coins"] >= it["cost"] and n < MAX_ITEMS and (it["type"] != "permanent" or perm < MAX_PERMANENT):
            out.append({"buy": i})
    if ch["heads"] or ch["boss_heads"]:
        out.append({"sell_heads": True})
    out.append({"done": True})
    return out


def blacksmith_options(s, c):
    ch = s["characters"][c]
    out = []
    for wid, wpn in sorted(content.WEAPONS.items()):
        if (wpn["class"] == ch["class"] and wpn["level"] <= ch["level"] and wid not in ch["weapons"]
                and len(ch["weapons"]) < 2 and ch["coins"] >= wpn.get("cost", 0)):
            out.append({"buy": wid})
    for aid, arm in sorted(content.ARMORS.items()):
        if (arm["class"] == ch["class"] and arm["level"] <= ch["level"] and aid != ch["armor_card"]
                and ch["coins"] >= arm.get("cost", 0)):
            out.append({"buy": aid})
    if ch["armor"] < rules.armor_cap(ch) and ch["coins"] >= 2:
        out.append({"repair": True})
    out.append({"done": True})
    return out


def process(w, item):
    s = w.s
    step = item["step"]
    choice = take_choice(w)
    if step == "second":
        if choice is None:
            open_decision(w, "second_failure", "party", [{"repeat": True}, {"success": True}],
                          "The phase failed a second time: repeat the failure procedure or read the success section?")
            return
        w.emit("WorkDone", op="failure")
        if choice.get("success"):
            w.emit("StateNote", note="the party reads the phase's success section")
            aftermath.begin(w, reason="success section chosen after a second failure")
        return
    if step in ("market", "blacksmith"):
        c = item["char"]
        ch = s["characters"][c]
        if step == "market" and "revealed" not in item:
            deck = w.shuffled(_market_deck(s))
            revealed = deck[:3]
            w.emit("WorkUpdated", item={**item, "revealed": revealed})
            w.emit("MarketRevealed", who=c, items=revealed)
            item = s["work"][0]
        if choice is None:
            opts = market_options(s, c, item["revealed"]) if step == "market" else blacksmith_options(s, c)
            if opts == [{"done": True}]:
                w.emit("WorkDone", op="failure")
                return
            open_decision(w, step, s["control"][c], opts, f"{c}: {step} action (buy, sell heads or done)?")
            return
        if choice.get("done"):
            w.emit("WorkDone", op="failure")
            return
        if choice.get("sell_heads"):
            coins = ch["coins"] + 10 * ch["heads"] + 30 * ch["boss_heads"]
            w.emit("HeadsChanged", who=c, set={"heads": 0, "boss_heads": 0, "coins": coins}, reason="heads sold")
        elif choice.get("repair"):
            w.emit("ArmorChanged", who=c, set={"armor": content.ARMORS[ch["armor_card"]]["armor"],
                                              "coins": ch["coins"] - 2}, reason="blacksmith repair")
        elif step == "market":
            it = content.ITEMS[choice["buy"]]
            w.emit("ItemsChanged", who=c, set={"items": ch["items"] + [{"id": choice["buy"], "uses": it.get("uses")}],
                                               "coins": ch["coins"] - it["cost"]}, reason=f"bought {choice['buy']}")
            w.emit("WorkUpdated", item={**s["work"][0], "revealed": [i for i in s["work"][0]["revealed"]
                                                                    if i != choice["buy"]]})
        else:
            b = choice["buy"]
            if b in content.WEAPONS:
                w.emit("WeaponSwapped", who=c, set={"weapons": ch["weapons"] + [b],
                                                    "coins": ch["coins"] - content.WEAPONS[b].get("cost", 0)},
                       reason=f"bought {b}")
            else:
                arm = content.ARMORS[b]
                w.emit("ArmorChanged", who=c, set={"armor_card": b, "armor": arm["armor"],
                                                  "coins": ch["coins"] - arm.get("cost", 0)}, reason=f"bought {b}")
        return  # the same step again: another purchase or "done"
    if step == "reset":
        reset_zones(w)
        w.emit("WorkDone", op="failure")
        w.emit("FailureRecovered", failures=s["failures"], next_round=s["round"] + 1)


def reset_zones(w):
    """Zones on the table that still hold miniatures - enemies or characters still standing (a
    malice failure) - or the last defeat are reset: enemies, tokens and events; enemies there give
    no heads any more. Malice goes back to 0."""
    s = w.s
    last = s.get("last_defeat_sq")
    standing = [ch["sq"] for ch in s["characters"].values() if ch["sq"] and not ch["defeated"]]
    active = []
    for z, zs in s["zones"].items():
        if not zs["active"]:
            continue
        has = any(grid.zone_of(s, q) == z for q in [e["sq"] for e in s["enemies"].values()] + standing)
        if has or (last and grid.zone_of(s, last) == z):
            active.append(z)
    for z in active:
        zdef = s["zones_def"][z]
        enemies = {}
        for spec in zdef["enemies"]:
            e = make_enemy(spec, z, s["plus_types"], w.shuffled)
            e["no_heads"] = True
            enemies[spec["ref"]] = e
        doors = {d["id"]: {"sq": d["at"], "open": bool(d.get("open")), "survey": d.get("survey"), "zone": z}
                 for d in zdef.get("doors", [])}
        points = {p["id"]: {"sq": p["at"], "action": p["action"], "zone": z, "text": p.get("text", "")}
                  for p in zdef.get("points", []) if p["action"]["type"] != "survey" or p["action"]["zone"] not in s["zones"]}
        resistors = {r["id"]: {"sq": r["at"], "tokens": r["tokens"], "living": bool(r.get("living", True)),
                               "name": r.get("name", r["id"]), "zone": z} for r in zdef.get("resistors", [])}
        evs = zdef["events"]
        if evs.get("purple"):
            decks = {"purple": [e["id"] for e in evs["purple"]]}
        else:
            decks = {"green": w.shuffled([e["id"] for e in evs.get("green", [])]),
                     "red": w.shuffled([e["id"] for e in evs.get("red", [])])}
        # doors that lead to zones already on the table stay open (the zones are connected)
        for d in doors.values():
            if d.get("survey") in s["zones"]:
                d["open"] = True
        w.emit("ZoneReset", zone=z, enemies=enemies, doors=doors, points=points, resistors=resistors,
               zone_state={"active": True, "events": decks, "revealed": []})
    w.emit("MaliceRaised", malice=0, reason="failure: malice reset")
    place_characters(w, last)


def placement_rank(s, q, anchor):
    """Step 5 "adjacent to the square where the last character was defeated": adjacent squares first
    (squares at different heights "are not considered to be adjacent"); when they run out, the
    nearest squares of the same height level, then of the other levels."""
    x, y = grid.xy(q)
    return (not grid.adjacent(s, q, anchor), grid.height(s, q) != grid.height(s, anchor),
            grid.range_between(q, anchor), y, x)


def place_characters(w, last):
    s = w.s
    anchor = last
    if anchor is None:
        alive = [ch["sq"] for ch in s["characters"].values() if ch["sq"]]
        anchor = alive[0] if alive else None
    if anchor is None:
        return
    placed = set()
    for c in s.get("roster", ORDER):
        taken = rules.taken_squares(s, exclude=c) | placed
        cands = [q for q in s["squares"] if grid.terrain(s, q) not in ("obstacle", "inaccessible")
                 and q not in taken and q != anchor]
        if not cands:
            continue
        best = min(cands, key=lambda q: placement_rank(s, q, anchor))
        placed.add(best)
        w.emit("CreatureMoved", who=c, set={"sq": best}, path=[best], reason="failure: placed near the last defeat")
