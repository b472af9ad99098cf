"""The seats' commands: every legal choice listed concretely, and what each one does."""

from itertools import combinations

from . import board
from . import queries as q
from . import steps
from .content import ACT1, BLACKSMITH, CHARACTERS, MARKET

INITIAL_KAMI = ACT1["initial_kami"]
REPAIR_COST = 10  # "the active character may spend 10 coins to repair all of their equipped resistance"


COMMANDS = ("choose", "choose_weapon", "lose_attribute", "activate_enemy", "choose_path", "activate", "travel",
            "exert", "move", "sail", "guided_by_the_waves", "end_travel", "attack", "work", "camp", "swap_weapon",
            "end_activation", "interact_mission", "interact_clan", "interact_personal", "interact_sanctuary", "inn",
            "blacksmith", "market", "buy", "sell", "repair", "sell_heads", "leave", "give", "share_information",
            "omamori", "use_item", "interact_special", "port", "change_kami", "choose_kami", "answer_group")


def _cmd(type_: str, **args) -> dict:
    return {"type": type_, "args": args}


def _subsets(items) -> list[list[str]]:
    return [list(c) for n in range(len(items) + 1) for c in combinations(items, n)]


def legal(state, seat) -> list[dict]:
    if seat not in q.awaiting(state):
        return []
    flow = state["flow"]
    stage = flow["stage"]
    if state["choice"]:
        return [_cmd("choose", option=i) for i, o in enumerate(state["choice"]["options"]) if o["enabled"]]
    if stage == "prepare":
        mine = [c for c in q.ORDER if c in state["characters"] and q.controller(state, c) == seat]
        return ([_cmd("choose_weapon", character=c, weapon=w)
                 for c in mine if not state["characters"][c]["equipped"] for w in _level1_weapons(c)]
                + [_cmd("choose_kami", character=c, kami=k)
                   for c in mine if not state["characters"][c].get("kami_chosen", True) for k in INITIAL_KAMI
                   if k not in q.kami_taken(state, c)])
    if stage == "ending" and flow.get("loss"):
        return [_cmd("lose_attribute", attribute=a) for a in q.losable_attributes(state, flow["loss"])]
    offer = q.kami_offer(state)
    if stage == "ending" and offer is not None:
        return [_cmd("change_kami", character=c) for c in [*q.kami_candidates(state, offer), None]]
    if stage == "enemies":
        if flow["tie"] and not flow["tie"]["chosen"]:
            return [_cmd("choose_path", to=loc) for loc in flow["tie"]["options"]]
        return [_cmd("activate_enemy", enemy=e) for e in flow["enemies_left"]]
    if stage == "characters":
        return [_cmd("activate", character=c) for c in q.to_activate(state) if q.controller(state, c) == seat]
    if stage == "activation" and flow.get("proposal"):
        return [_cmd("answer_group", agree=True), _cmd("answer_group", agree=False)]
    if stage == "activation":
        return _activation_commands(state)
    return []


def _level1_weapons(cid) -> list[str]:
    klass = CHARACTERS[cid]["class"]
    return sorted(k for k, c in BLACKSMITH.items() if c["class"] == klass and c["level"] == 1 and c["slot"] == "weapon")


def _activation_commands(state) -> list[dict]:
    flow = state["flow"]
    cid = flow["active"]
    ch = state["characters"][cid]
    out = []
    travel = flow["travel"]
    if flow.get("shop"):
        return _shop_commands(state, cid) + _free_actions(state, cid)
    if travel:
        out += [_cmd("move", to=m["to"]) for m in q.land_moves(state)]
        out += [_cmd("sail", to=p) for p in q.sea_moves(state)]
        out += [_cmd("guided_by_the_waves", to=p) for p in q.waves_moves(state)]
        if not travel["group"] and ch["ap"] >= 1:
            out.append(_cmd("exert"))
        out.append(_cmd("end_travel"))
    elif ch["ap"] >= 1:
        # a level 1 Kami skill goes with the action it modifies: 1 more action point, once per phase
        if not ch["traveled"]:
            out += [_cmd("travel", group=g) for g in _subsets(q.group_candidates(state, cid))]
            if q.kami_ready(state, cid, "inari", ap=2):  # Nine-tailed fox
                out.append(_cmd("travel", group=[], kami=True))
        helpers = [c for c in q.characters_at(state, ch["location"]) if c != cid and not state["characters"][c]["activated"]]
        sharpened = q.kami_ready(state, cid, "hachiman", ap=2)  # Sharpened Blade
        for enemy in q.enemies_at(state, ch["location"]):
            for h in _subsets(helpers):
                out.append(_cmd("attack", enemy=enemy, helpers=h))
                if sharpened:
                    out.append(_cmd("attack", enemy=enemy, helpers=h, kami=True))
        out += [_cmd("interact_mission", mission=n) for n in q.mission_tokens_here(state, cid)]
        out += [_cmd("interact_clan", mission=n) for n in q.clan_tokens_here(state, cid)]
        if q.personal_token_here(state, cid):
            out.append(_cmd("interact_personal"))
        services = q.city_services(state, cid)
        if "inn" in services and ch["coins"] >= 10:
            out.append(_cmd("inn"))
        out += [_cmd(service) for service in ("blacksmith", "market", "port") if service in services]
        hurt = ch["health"] < q.max_health(state, cid)
        if "port" in services and hurt and q.kami_ready(state, cid, "ryujin", ap=2):  # Healing Wave
            out.append(_cmd("port", kami=True))
        if q.special_location_here(state, cid):
            out.append(_cmd("interact_special"))
        if q.is_sanctuary(ch["location"]):
            karma = range(0, ch["karma"] + 1, 3)
            out += [_cmd("interact_sanctuary", karma=k) for k in karma]
            if hurt and q.kami_ready(state, cid, "amaterasu", ap=2):  # The Holy One
                out += [_cmd("interact_sanctuary", karma=k, kami=True) for k in karma]
        out.append(_cmd("work") if board.is_city(ch["location"]) else _cmd("camp"))
    out += _free_actions(state, cid)
    if not travel:
        # "At any point before, during, or after this action [the market], the active character may
        # sell heads": at a market it may use, without the interaction's action point
        if "market" in q.city_services(state, cid) and (ch["heads"] or ch["boss_heads"]):
            out.append(_cmd("sell_heads"))
        out.append(_cmd("end_activation"))
    return out


def _free_actions(state, cid) -> list[dict]:
    """Use an item, swap weapon, share: at any time of the activation, no action point."""
    ch = state["characters"][cid]
    out = [_cmd("use_item", item=i) for i in q.usable_items(state, cid)]
    if q.can_swap_weapon(state, cid):
        out.append(_cmd("swap_weapon"))
    for other in q.characters_at(state, ch["location"]):
        if other == cid:
            continue
        out += _gifts(state, cid, other) + _gifts(state, other, cid)  # an exchange goes both ways
    out += [_cmd("share_information", mission=n, character=c) for n, c in q.information_to_share(state, cid)]
    out += [_cmd("omamori", mission=n, character=c) for n, c in q.omamori_targets(state, cid)]
    return out


def _gifts(state, cid, other) -> list[dict]:
    """Coins, heads (boss heads too: head tokens), items and weapons one character may hand another
    (within the receiver's limits)."""
    ch, taker = state["characters"][cid], state["characters"][other]
    def give(what, amount):
        return _cmd("give", **{"from": cid}, to=other, what=what, amount=amount)

    out = [give("coins", n) for n in range(1, ch["coins"] + 1)]
    out += [give("heads", n) for n in range(1, ch["heads"] + 1)]
    out += [give("boss_heads", n) for n in range(1, ch["boss_heads"] + 1)]
    out += [give(i, 1) for i in sorted(set(ch["items"])) if q.can_keep_item(state, other, i)]
    if len(taker["weapons"]) < 2:
        out += [give(w, 1) for w in ch["weapons"] if q.can_part_with(state, cid, w)]
    if ch["armor"]:  # armor: handed over, or exchanged with the other's (1 item of armor each)
        out.append(give("armor", 1))
    out += [give(t, 1) for t in sorted(set(ch["tokens"]))]  # "mission or event tokens"
    return out


def _shop_commands(state, cid) -> list[dict]:
    """Inside a blacksmith or market interaction (one action point already spent)."""
    ch = state["characters"][cid]
    shop = state["flow"]["shop"]
    out = []
    if shop["kind"] == "blacksmith":
        if not shop["bought"]:
            out += [_cmd("buy", card=c) for c in q.blacksmith_offer(state, cid)]
        out += [_cmd("sell", card=c) for c in q.owned_equipment(state, cid) if q.can_part_with(state, cid, c)]
        if ch["armor"] and ch["armor_value"] < BLACKSMITH[ch["armor"]]["armor"]:
            if ch["coins"] >= REPAIR_COST:
                out.append(_cmd("repair"))
            if q.kami_ready(state, cid, "amatsumara"):  # Master Blacksmith: no coins, the skill's action point
                out.append(_cmd("repair", kami=True))
    else:
        out += [_cmd("buy", card=c) for c in shop["revealed"]
                if MARKET[c]["cost"] <= ch["coins"] and q.can_keep_item(state, cid, c)]
        out += [_cmd("sell", card=c) for c in q.market_items(state, cid)]
        if ch["heads"] or ch["boss_heads"]:
            out.append(_cmd("sell_heads"))
    out.append(_cmd("leave"))
    return out


# -- doing them ------------------------------------------------------------------------------------------
def perform(em, rng, seat, command: dict):
    """Resolve a command already checked against ``legal``."""
    kind, args = command["type"], command["args"]
    state = em.state
    flow = state["flow"]
    if kind == "choose":
        option = state["choice"]["options"][args["option"]]
        ctx = state["choice"]["ctx"]
        em.emit("ChoiceMade", {"character": state["choice"]["character"], "option": args["option"], "label": option["label"]})
        steps.push(em, option["effects"], ctx)
    elif kind == "choose_weapon":
        em.emit("WeaponChosen", {"character": args["character"], "weapon": args["weapon"]})
    elif kind == "choose_kami":
        em.emit("KamiChosen", {"character": args["character"], "kami": args["kami"]})
    elif kind == "answer_group":
        em.emit("GroupAnswered", {"seat": seat, "agree": args["agree"]})
        settle_group(em)
    elif kind == "lose_attribute":
        em.emit("AttributeLost", {"character": flow["loss"], "attribute": args["attribute"]})
    elif kind == "change_kami":
        offer = q.kami_offer(state)
        who = args["character"]
        em.emit("KamiChanged", {"kami": offer["kami"], "character": who, "seat": seat,
                                "from": state["characters"][who]["kami"] if who else None})
    elif kind == "activate_enemy":
        em.emit("EnemyChosen", {"enemy": args["enemy"], "seat": seat})
    elif kind == "choose_path":
        em.emit("EnemyPathChosen", {"enemy": flow["tie"]["enemy"], "to": args["to"], "seat": seat})
    elif kind == "activate":
        ch = state["characters"][args["character"]]
        em.emit("CharacterActivated", {"character": args["character"], "ap": max(0, 3 - ch["ap_penalty"])})
    else:
        _activation_action(em, rng, kind, args)
    steps.check_end(em)


def _activation_action(em, rng, kind, args):
    state = em.state
    cid = state["flow"]["active"]
    ch = state["characters"][cid]
    if kind == "travel":
        group = list(args["group"])
        # "the active character nominates, in agreement with the other players, 1 or more other
        # characters": the players of the nominated characters (other than the active one's) agree first
        asked = sorted({q.controller(state, c) for c in group} - {q.controller(state, cid)})
        if asked:
            em.emit("GroupProposed", {"character": cid, "group": group, "seats": asked})
        else:
            _start_travel(em, cid, group, nine_tailed_fox=bool(args.get("kami")))
    elif kind == "exert":
        em.emit("Exerted", {"character": cid})
    elif kind == "move":
        here = ch["location"]
        em.emit("Moved", {"characters": q.travel_group(state), "from": here, "to": args["to"],
                          "kind": board.route_kind(here, args["to"])})
    elif kind == "sail":
        em.emit("Sailed", {"characters": q.travel_group(state), "from": ch["location"], "to": args["to"],
                           "paid": _sea_fare(state)})
    elif kind == "guided_by_the_waves":
        _kami_skill(em, cid, "susanoo")
        em.emit("GuidedByTheWaves", {"character": cid, "from": ch["location"], "to": args["to"]})
    elif kind == "end_travel":
        em.emit("TravelEnded", {"character": cid, "event_due": q.travel_event_due(state), "reason": "ended"})
    elif kind == "attack":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "attack"})
        if args.get("kami"):
            _kami_skill(em, cid, "hachiman")
        steps.combat_test(em, rng, cid, args["enemy"], helpers=list(args["helpers"]), sharpened_blade=bool(args.get("kami")))
    elif kind == "work":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "work"})
        steps.change(em, cid, "coins", 2)
    elif kind == "camp":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "camp"})
        steps.regain_health(em, cid, 1, "camp")
    elif kind == "interact_mission":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "mission"})
        doc = q.mission_doc(state, args["mission"])
        # "When a mission indicates that miniatures are to be placed on the map, all characters can
        # interact with them ... All characters must place their clan token for that mission."
        spawns = any(e["do"] == "spawn" for e in doc["on_reveal"])
        em.emit("MissionRevealed", {"mission": args["mission"], "character": cid, "title": doc["title"],
                                    "clan_tokens": q.token_places(doc),
                                    "placed_by": q.alive(state) if spawns else [cid]})
        steps.push(em, doc["on_reveal"], {"character": cid, "source": "mission", "mission": args["mission"]})
    elif kind == "interact_clan":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "clan_token"})
        token = q.clan_token_doc(state, args["mission"], ch["location"])
        em.emit("ClanTokenResolved", {"mission": args["mission"], "character": cid, "location": ch["location"],
                                      "completes": token.get("completes", False)})
        # "If interacting with a clan token, resolve the effect on the corresponding active mission."
        done = [{"do": "complete_mission", "mission": args["mission"]}] if token.get("completes") else []
        steps.push(em, [*token.get("effects", []), *done], {"character": cid, "source": "mission",
                                                            "mission": args["mission"]})
    elif kind == "interact_personal":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "personal_mission"})
        em.emit("PersonalMissionCompleted", {"character": cid})
        steps.push(em, q.adventure_doc(state)["personal_missions"][cid]["success"]["effects"],
                   {"character": cid, "source": "personal_mission"})
    elif kind == "port":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "port"})
        if args.get("kami"):  # Healing Wave
            _kami_skill(em, cid, "ryujin")
            steps.regain_health(em, cid, ch["level"], "healing_wave")
    elif kind == "inn":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "inn"})
        steps.change(em, cid, "coins", -10)
        steps.regain_health(em, cid, ch["level"] + 2, "inn")
    elif kind == "interact_sanctuary":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "sanctuary"})
        affinity = min(q.AFFINITY_MAX, ch["affinity"] + args["karma"] // 3)
        em.emit("AffinityRaised", {"character": cid, "karma": args["karma"], "affinity": affinity})
        if args.get("kami"):  # The Holy One
            _kami_skill(em, cid, "amaterasu")
            steps.regain_health(em, cid, 3, "the_holy_one")
    elif kind == "blacksmith":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "blacksmith"})
        em.emit("ShopOpened", {"character": cid, "service": "blacksmith"})
    elif kind == "market":
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "market"})
        em.emit("ShopOpened", {"character": cid, "service": "market", "revealed": state["decks"]["market"][:3]})
    elif kind == "buy" and state["flow"]["shop"]["kind"] == "blacksmith":
        card = BLACKSMITH[args["card"]]
        if card["slot"] == "armor" and ch["armor"]:
            # "if a character acquires a new piece of armor, they must sell their previous armor"
            em.emit("EquipmentSold", {"character": cid, "card": ch["armor"], "coins": q.half(BLACKSMITH[ch["armor"]]["cost"])})
        em.emit("EquipmentBought", {"character": cid, "card": args["card"], "slot": card["slot"], "cost": card["cost"],
                                    "armor_value": card.get("armor", 0)})
    elif kind == "buy":
        em.emit("ItemBought", {"character": cid, "item": args["card"], "cost": MARKET[args["card"]]["cost"]})
    elif kind == "sell" and state["flow"]["shop"]["kind"] == "blacksmith":
        em.emit("EquipmentSold", {"character": cid, "card": args["card"], "coins": q.half(BLACKSMITH[args["card"]]["cost"])})
    elif kind == "sell":
        em.emit("ItemSold", {"character": cid, "item": args["card"], "coins": q.half(MARKET[args["card"]]["cost"])})
    elif kind == "repair":
        if args.get("kami"):  # Master Blacksmith
            _kami_skill(em, cid, "amatsumara")
        em.emit("ArmorRepaired", {"character": cid, "cost": 0 if args.get("kami") else REPAIR_COST,
                                  "armor_value": BLACKSMITH[ch["armor"]]["armor"]})
    elif kind == "sell_heads":
        em.emit("HeadsSold", {"character": cid, "heads": ch["heads"], "boss_heads": ch["boss_heads"],
                              "coins": 10 * ch["heads"] + 30 * ch["boss_heads"]})
    elif kind == "leave":
        payload = {"character": cid}
        if state["flow"]["shop"]["kind"] == "market":
            # "Shuffle any unbought cards back into the market deck."
            payload["market_order"] = rng.shuffled(state["decks"]["market"])
        em.emit("ShopClosed", payload)
    elif kind == "interact_special":
        card = q.special_location_here(state, cid)
        em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "special_location"})
        em.emit("SpecialLocationVisited", {"character": cid, "location": card["location"], "text": card.get("text")})
        steps.push(em, card.get("effects", []), {"character": cid, "source": "special_location"})
    elif kind == "give":
        em.emit("Given", {"character": args["from"], "to": args["to"], "what": args["what"], "amount": args["amount"]})
    elif kind in ("share_information", "omamori"):
        doc = q.mission_doc(state, args["mission"])
        em.emit("InformationShared", {"mission": args["mission"], "character": cid, "to": args["character"],
                                      "clan_tokens": q.token_places(doc), "omamori": kind == "omamori"})
    elif kind == "use_item":
        _use_item(em, rng, cid, args["item"])
    elif kind == "swap_weapon":
        other = next(w for w in ch["weapons"] if w != ch["equipped"])
        em.emit("WeaponSwapped", {"character": cid, "equipped": other})
    elif kind == "end_activation":
        em.emit("ActivationEnded", {"character": cid, "reason": "ended"})


def settle_group(em):
    """Once every player asked has answered a group travel, the group sets off without the
    characters of those who refused."""
    proposal = em.state["flow"]["proposal"]
    if proposal and not proposal["waiting"]:
        refused = set(proposal["refused"])
        _start_travel(em, proposal["character"],
                      [c for c in proposal["group"] if q.controller(em.state, c) not in refused])


def _start_travel(em, cid, group, nine_tailed_fox=False):
    state = em.state
    members = [cid, *group]
    if group:
        mp = 3 + min(state["characters"][c]["attributes"]["dexterity"] for c in members)
    else:
        mp = q.movement_points(state, cid, nine_tailed_fox)
    em.emit("ActionPointsSpent", {"character": cid, "amount": 1, "action": "travel"})
    if nine_tailed_fox:
        _kami_skill(em, cid, "inari")
    em.emit("TravelStarted", {"character": cid, "group": group, "mp": mp})


def _kami_skill(em, cid, kami):
    """A level 1 Kami skill activated: its action point, and once per phase."""
    em.emit("KamiSkillActivated", {"character": cid, "skill": f"{kami}_l1", "ap": q.KAMI_COST})


def _sea_fare(state) -> dict:
    """10 coins: the active character pays first, then the rest of the group in turn order."""
    due, paid = 10, {}
    for cid in q.travel_group(state):
        share = min(due, state["characters"][cid]["coins"])
        if share:
            paid[cid] = share
            due -= share
    return paid


def _use_item(em, rng, cid, item):
    """"If the item is of the "consumable" type, return it to the market deck and shuffle it after use
    ... "uses X" ... When it has no more tokens on it, return it to the market deck and shuffle it"."""
    state = em.state
    card = MARKET[item]
    ch = state["characters"][cid]
    left = ch["item_uses"].get(item, card.get("uses", 1)) - 1
    spent = card["type"] == "consumable" or left <= 0
    movement = sum(e["amount"] for e in card["effects"] if e["do"] == "movement")
    payload = {"character": cid, "item": item, "spent": spent, "uses_left": max(0, left), "movement": movement}
    if spent:
        payload["market_order"] = rng.shuffled([*state["decks"]["market"], item])
    em.emit("ItemUsed", payload)
    steps.push(em, [e for e in card["effects"] if e["do"] not in ("movement", "combat_bonus")],
               {"character": cid, "source": "item"})
