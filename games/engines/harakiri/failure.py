"""The Failure procedure: resurrection, market and blacksmith actions, zones reset, characters
placed next to the last defeat, a new round; a second failure lets the party choose between
repeating and reading the success section."""

from . import aftermath, combat, content, grid, market, rules
from .work_queue import open_decision, take_choice
from .setup import ORDER, make_enemy


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
    if failures < 2 and no_round_left(s):
        end_at_round_cap(w)
        return
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


def no_round_left(s):
    """The match option ``round_cap`` (not a rule): the phase ends after that round, so a failure in
    it has no new round to start (step 6, "Start of a new round") - the procedure, which only
    prepares that round, is not played."""
    cap = s.get("round_cap")
    return bool(cap) and s["round"] >= cap


def end_at_round_cap(w):
    """The failure in the last round the limit allows ends the phase as the end of that round would:
    result ``round_cap``, no hand-over (the phase is not over in the rulebook's sense)."""
    w.emit("PhaseEnded", result="round_cap",
           reason=f"round cap {w.s['round_cap']} reached: no round is left for the failure procedure")


# The Adventure Phase's blacksmith: "spend 10 coins to repair all of their equipped resistance". Never
# free here: Amatsumara's Master Blacksmith is a level 1 Kami skill, and "during the Exploration Phase,
# the first Kami skill cannot be used, except for Izanami's" (the failure procedure is part of it).
REPAIR_COST = 10


def half(cost):
    """"gaining half the cost rounded down"."""
    return cost // 2


def keeps_a_weapon(ch, card):
    """Selling ``card`` leaves the character a weapon of its class to equip (no attack without one)."""
    if card not in ch["weapons"] or not rules.can_wield(ch, card):
        return True
    return any(x != card and rules.can_wield(ch, x) for x in ch["weapons"])


def _card(card):
    return content.WEAPONS.get(card) or content.ARMORS[card]


def blacksmith_deck(ch):
    """"Place the blacksmith cards of each class up to its current level in a facedown pile next
    to each player board" (Exploration Phase Setup, step 8): the class's cards of the character's
    level and lower, less those in its supply."""
    owned = {*ch["weapons"], ch["armor_card"]}
    cards = [(k, c) for k, c in content.WEAPONS.items()] + [(k, c) for k, c in content.ARMORS.items()]
    return sorted(k for k, c in cards if c["class"] == ch["class"] and c["level"] <= ch["level"] and k not in owned)


def market_options(s, c, revealed):
    """The Adventure Phase's Market: "The active character may buy any number of the revealed cards
    ... may also sell items in their supply, gaining half their cost in coins rounded down ...
    may sell heads and boss heads in their supply, gaining 10 coins per head sold, and 30 coins per
    boss head sold"; the item limits count every item carried."""
    ch = s["characters"][c]
    out = [{"buy": i} for i in revealed if ch["coins"] >= content.ITEMS[i]["cost"] and content.can_receive(ch, i)]
    out += [{"sell": i} for i in sorted({it["id"] for it in ch["items"]}) if content.ITEMS[i]["type"] != "special"]
    if ch["heads"] or ch["boss_heads"]:
        out.append({"sell_heads": True})
    out.append({"done": True})
    return out


def blacksmith_options(s, c, bought=False):
    """The Adventure Phase's Blacksmith: "purchase 1 card from their blacksmith deck by paying the
    cost ... may sell equipment in their supply, gaining half the cost rounded down ... may spend 10
    coins to repair all of their equipped resistance"; at most 2 weapons (a new armor sells the old
    one: "if a character acquires a new piece of armor, they must sell their previous armor")."""
    ch = s["characters"][c]
    out = []
    if not bought:
        for card in blacksmith_deck(ch):
            if ch["coins"] >= _card(card)["cost"] and (card in content.ARMORS or len(ch["weapons"]) < content.MAX_WEAPONS):
                out.append({"buy": card})
    owned = ch["weapons"] + ([ch["armor_card"]] if ch["armor_card"] else [])
    out += [{"sell": card} for card in owned if keeps_a_weapon(ch, card)]
    if ch["armor"] < rules.armor_cap(ch) and ch["coins"] >= REPAIR_COST:
        out.append({"repair": True})
    out.append({"done": True})
    return out


def _prompt(s, c, step):
    """The decision's question, in words (the options name the cards and their prices)."""
    if step == "market":
        return (f"{c}: the failure's Market action: buy any of the revealed cards, sell items (half their cost) "
                "or heads, then leave")
    return (f"{c}: the failure's Blacksmith action: buy one card, sell equipment (half its cost), "
            f"repair the armor ({REPAIR_COST} coins), then leave")


def _market_step(w, c, item, choice):
    s = w.s
    ch = s["characters"][c]
    if choice.get("sell_heads"):
        coins = ch["coins"] + 10 * ch["heads"] + 30 * ch["boss_heads"]
        w.emit("HeadsChanged", who=c, set={"heads": 0, "boss_heads": 0, "coins": coins}, reason="heads sold")
    elif "sell" in choice:
        items = list(ch["items"])
        slot = next(i for i, it in enumerate(items) if it["id"] == choice["sell"])
        items.pop(slot)
        used = [u if u < slot else u - 1 for u in ch["items_used"] if u != slot]  # the other items keep their use
        w.emit("ItemsChanged", who=c, set={"items": items, "items_used": used,
                                           "coins": ch["coins"] + half(content.ITEMS[choice["sell"]]["cost"])},
               reason=f"sold {choice['sell']}")
        market.to_bottom(w, [choice["sell"]], f"{choice['sell']} sold")
    else:
        it = content.ITEMS[choice["buy"]]
        w.emit("ItemsChanged", who=c, set={"items": ch["items"] + [{"id": choice["buy"], "uses": it.get("uses")}],
                                           "coins": ch["coins"] - it["cost"]}, reason=f"bought {choice['buy']}")
        w.emit("WorkUpdated", item={**item, "revealed": [i for i in item["revealed"] if i != choice["buy"]]})


def _blacksmith_step(w, c, item, choice):
    s = w.s
    ch = s["characters"][c]
    if choice.get("repair"):
        w.emit("ArmorChanged", who=c, set={"armor": rules.armor_cap(ch), "coins": ch["coins"] - REPAIR_COST},
               reason="blacksmith repair")
    elif "sell" in choice:
        card = choice["sell"]
        coins = ch["coins"] + half(_card(card)["cost"])
        if card == ch["armor_card"]:
            w.emit("ArmorChanged", who=c, set={"armor_card": None, "armor": 0, "coins": coins}, reason=f"sold {card}")
        else:
            weapons = [x for x in ch["weapons"] if x != card]
            equipped = ch["equipped"] if ch["equipped"] != card else next(x for x in weapons if rules.can_wield(ch, x))
            w.emit("WeaponSwapped", who=c, set={"weapons": weapons, "equipped": equipped, "coins": coins},
                   reason=f"sold {card}")
    else:
        card = choice["buy"]
        if card in content.WEAPONS:
            w.emit("WeaponSwapped", who=c, set={"weapons": ch["weapons"] + [card], "coins": ch["coins"] - content.WEAPONS[card]["cost"]},
                   reason=f"bought {card}")
        else:
            coins = ch["coins"]
            if ch["armor_card"] is not None:  # the previous armor is sold
                coins += half(content.ARMORS[ch["armor_card"]]["cost"])
                w.emit("ArmorChanged", who=c, set={"armor_card": None, "armor": 0, "coins": coins},
                       reason=f"sold {ch['armor_card']} for the new armor")
            arm = content.ARMORS[card]
            w.emit("ArmorChanged", who=c, set={"armor_card": card, "armor": arm["armor"], "coins": coins - arm["cost"]},
                   reason=f"bought {card}")
        w.emit("WorkUpdated", item={**item, "bought": True})


def process(w, item):
    s = w.s
    step = item["step"]
    choice = take_choice(w)
    if step == "second":
        if choice is None:
            capped = " (the round limit leaves no round to repeat it in: repeating ends the match)" if no_round_left(s) else ""
            open_decision(w, "second_failure", "party", [{"repeat": True}, {"success": True}],
                          f"The phase failed a second time: repeat the failure procedure{capped} or read the success section?")
            return
        w.emit("WorkDone", op="failure")
        if choice.get("success"):
            w.emit("StateNote", note="the party reads the phase's success section")
            aftermath.begin(w, reason="success section chosen after a second failure")
        elif no_round_left(s):
            end_at_round_cap(w)
        return
    if step in ("market", "blacksmith"):
        c = item["char"]
        if step == "market" and "revealed" not in item:
            ch = s["characters"][c]
            if not (ch["coins"] or ch["heads"] or ch["boss_heads"] or market_options(s, c, [])[:-1]):
                w.emit("WorkDone", op="failure")  # nothing to pay with and nothing to sell: no market action
                return
            revealed = market.reveal(w, 3)
            w.emit("WorkUpdated", item={**item, "revealed": revealed})
            w.emit("MarketRevealed", who=c, items=revealed)
        item = s["work"][0]
        if choice is None:
            opts = (market_options(s, c, item["revealed"]) if step == "market"
                    else blacksmith_options(s, c, item.get("bought", False)))
            if opts != [{"done": True}]:
                open_decision(w, step, s["control"][c], opts, _prompt(s, c, step))
                return
            choice = {"done": True}
        if choice.get("done"):
            if step == "market" and item["revealed"]:
                # "Shuffle any unbought cards back into the market deck."
                market.returned(w, item["revealed"], "unbought market cards shuffled back")
            w.emit("WorkDone", op="failure")
            return
        if step == "market":
            _market_step(w, c, item, choice)
        else:
            _blacksmith_step(w, c, item, choice)
        return  # the same step again: another purchase, a sale, or "done"
    if step == "reset":
        reset_zones(w)
        end_head_rewards(w)
        w.emit("WorkDone", op="failure")
        # the procedure has dealt with the last defeat: a later failure without a new defeat does not
        # go back to it (its zone may be empty by then: "do not replenish ... zones that were already
        # inactive")
        w.emit("FailureRecovered", failures=s["failures"], next_round=s["round"] + 1, last_defeat_sq=None)


def reset_zones(w):
    """Zones on the table that still hold miniatures - enemies or characters still standing (a
    malice failure) - or the last defeat are reset: enemies, tokens and events; the respawned
    enemies give no heads. Malice goes back to 0."""
    s = w.s
    last = failure_anchor(s)
    standing = [ch["sq"] for ch in s["characters"].values() if ch["sq"] and not ch["defeated"]]
    active = []
    for z, zs in s["zones"].items():
        if not zs["active"]:
            continue
        has = any(grid.zone_of(s, q) == z for q in [e["sq"] for e in s["enemies"].values()] + standing)
        if has or (last and grid.zone_of(s, last) == z):
            active.append(z)
    send_strays_home(w, active)
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
        # "reset": the zone was reset (step 4); step 7's ``no_heads`` comes with end_head_rewards
        w.emit("ZoneReset", zone=z, enemies=enemies, doors=doors, points=points, resistors=resistors,
               zone_state={"active": True, "events": decks, "revealed": [], "reset": True})
    w.emit("MaliceRaised", malice=0, reason="failure: malice reset")
    place_characters(w, last)


def end_head_rewards(w):
    """Step 7: "no enemy heads can be acquired in zones that were already active. They can only be
    acquired in newly discovered zones from this point onward." A newly discovered zone is one
    revealed after this failure; every zone on the table now - reset, or present but empty - is not,
    so no enemy placed there later gives a head (``state.headless_zone``), and the heads still lying
    on the board (all in such zones) can no longer be acquired: they leave it."""
    s = w.s
    table = [z for z, zs in s["zones"].items() if zs["active"]]
    lost = [h for h in s["heads"] if grid.zone_of(s, h["sq"]) in table]
    w.emit("HeadRewardsEnded", zones=table, heads_lost=sum(not h["boss"] for h in lost),
           boss_heads_lost=sum(bool(h["boss"]) for h in lost))


def strays(s, reset):
    """Enemies standing in a zone being reset whose home zone (where they were placed) is not."""
    return sorted(e for e, en in s["enemies"].items()
                  if grid.zone_of(s, en["sq"]) in reset and en.get("zone") not in reset)


def setup_spec(s, zone, e):
    """The enemy's entry in its home zone's setup; None for one an event or a skill placed."""
    zdef = s["zones_def"].get(zone) or {}
    return next((spec for spec in zdef.get("enemies", []) if spec["ref"] == e), None)


def send_strays_home(w, reset):
    """An enemy that left its home zone is reset with the zone it stands in (a reset zone holds its
    own setup only): it leaves that zone, and a setup enemy goes back to its setup square, fresh and
    without heads, even if its home zone is not reset - the failure never takes away an enemy the
    party did not defeat. Its home zone's defeated enemies, tokens and events are not replenished."""
    s = w.s
    for e in strays(s, reset):
        en = s["enemies"][e]
        here = grid.zone_of(s, en["sq"])
        w.emit("CreatureRemoved", who=e, reason=f"failure: {s['zones_def'][here].get('name', here)} is reset")
        spec = setup_spec(s, en.get("zone"), e)
        if spec is not None and (s["zones"].get(en["zone"]) or {}).get("active"):
            back = make_enemy(spec, en["zone"], s["plus_types"], w.shuffled)
            back["no_heads"] = True
            w.emit("EnemySpawned", who=e, enemy=back, reason="failure: back on its setup square")


def placement_rank(s, q, anchor):
    """Step 5 "adjacent to the square where the last character was defeated": adjacent squares first
    (squares at different heights "are not considered to be adjacent"); when they run out, the
    nearest squares of the same height level, then of the other levels."""
    x, y = grid.xy(q)
    return (not grid.adjacent(s, q, anchor), grid.height(s, q) != grid.height(s, anchor),
            grid.range_between(q, anchor), y, x)


def failure_anchor(s):
    """Step 5's square, "the square where the last character was defeated", while it is on the table
    (a travel removes the zones before it); None when there is none (then the characters gather
    around the first living one's square, ``place_characters``)."""
    last = s.get("last_defeat_sq")
    return last if last in s["squares"] else None


def placement_anchor(s, last):
    """Step 5's square and the reason each character placed there gives, true to its cause: the last
    defeat's square, or - with no defeat on the table - the first character still on the board."""
    if last is not None:
        return last, "failure: placed near the last defeat"
    first = next((c for c, ch in s["characters"].items() if ch["sq"]), None)
    if first is None:
        return None, ""
    if s.get("last_defeat_sq"):  # a travel removed the zone of the defeat (failure_anchor)
        why = "the last defeat's zone has left the table"
    else:  # a malice failure: nobody fell since the phase began or since the last failure
        why = "no character was defeated" + (" since the last failure" if s["failures"] > 1 else "")
    return s["characters"][first]["sq"], f"failure: {why}, so the party gathers around {first}'s square"


def place_characters(w, last):
    s = w.s
    anchor, reason = placement_anchor(s, last)
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
        w.emit("CreatureMoved", who=c, set={"sq": best}, path=[best], reason=reason)
