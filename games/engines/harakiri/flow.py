"""Round structure: oracle, events and malice, initiative, activations, Ki reduction, the end.

The game advances through a small work queue (``state["work"]``): multi-step procedures
(revealing events, building the initiative, an enemy activation, the victory aftermath) are
work items that may stop on a pending decision; the decision's answer is written into the item
(``choice``) and the item is processed again (the queue and decisions: ``work_queue``). ``advance``
runs each item with the procedure that owns it (``enemy_ai``, ``aftermath``, ``failure``,
``skills``, or this module's events, initiative and travel).
"""

from . import act2, aftermath, combat, content, enemy_ai, failure, grid, rules, skills, special_terrain, yomi
from .setup import ORDER, make_enemy, zone_payload, oracle_cards, zone_oracle_counts
from .state import headless_zone  # Failure, step 7 (the views read it too)
from .work_queue import AUTOMATED_WORK, open_decision, take_choice, update_item

MALICE_LIMIT = 6


# -- advancing ---------------------------------------------------------------------------------------


def advance(w, by_player=False):
    """Run the game forward until someone must decide; ``by_player``: stop before automated work."""
    for _ in range(10000):
        s = w.s
        if s["phase"] == "ended":
            return
        if check_end(w):
            if s["phase"] == "ended":
                return
        if s["pending"] or s["attack"]:
            return
        if s["work"]:
            item = s["work"][0]
            op = item["op"]
            if by_player and op in AUTOMATED_WORK:
                return
            if op == "events":
                process_events(w, item)
            elif op == "effect":
                process_effect(w, item)
            elif op == "initiative":
                process_initiative(w, item)
            elif op == "enemy":
                enemy_ai.process(w, item)
            elif op == "aftermath":
                aftermath.process(w, item)
            elif op == "failure":
                failure.process(w, item)
            elif op == "travel":
                process_travel(w, item)
            elif op == "skill":
                skills.process(w, item)
            else:  # pragma: no cover
                w.emit("WorkDone", op=op)
            continue
        if s["phase"] in ("oracle", "share"):  # the SYSTEM's oracle draw; the players' exchanges (setup)
            return
        if s["phase"] == "aftermath":
            aftermath.finish(w)
            return
        turn = s["turn"]
        if turn:
            if turn["kind"] == "character":
                if s["characters"][turn["who"]]["defeated"]:
                    end_turn(w)
                    continue
                return
            if turn["kind"] == "double":
                if turn["double"] not in s["enemies"]:
                    end_turn(w)
                    continue
                return
            todo = [e for e in turn["todo"] if e in s["enemies"]]
            if todo != turn["todo"]:
                w.emit("TurnChanged", set={"todo": todo})
            if todo:
                return
            end_turn(w)
            continue
        next_card(w)
    raise RuntimeError("advance did not settle")  # pragma: no cover


# -- ending --------------------------------------------------------------------------------------------


def objective_met(s):
    obj = s["objective"]
    if s.get("objective_done"):
        return True
    if obj["type"] == "defeat":
        return any(d["id"] == obj["enemy"] for d in s["defeated_enemies"])
    if obj["type"] == "defeat_all":
        return bool(s["defeated_enemies"]) and not rules.shogun_creatures(s)
    return False


def check_end(w):
    s = w.s
    if s["phase"] in ("ended", "aftermath", "failure"):
        return s["phase"] == "ended"
    if s["malice"] >= MALICE_LIMIT:
        fail(w, "malice")
        return True
    if not rules.living_characters(s):
        fail(w, "all characters defeated")
        return True
    if objective_met(s):
        alive = rules.living_characters(s)
        if len(alive) == 1 and s["characters"][alive[0]].get("kami_mode"):
            fail(w, "the last survivor is in Kami Mode")
            return True
        aftermath.begin(w)
        return True
    return False


def fail(w, reason):
    """Failure: the failure procedure (default) or the end of the match (option off)."""
    if w.s.get("failure_procedure", True):
        failure.begin(w, reason)
    else:
        end_phase(w, "failure", reason)


def end_phase(w, result, reason):
    """The Exploration Phase ends: conditions and meditation tokens are discarded; characters
    in Kami Mode are defeated."""
    s = w.s
    aftermath.close_exploration(w)
    w.emit("PhaseEnded", result=result, reason=reason, party=yomi.handover(s, aftermath.party_export(s)), **yomi.report(s))


# -- oracle and events -----------------------------------------------------------------------------------


def zones_with_miniatures(s):
    out = []
    for z, zs in s["zones"].items():
        if not zs["active"]:
            continue
        present = any(ch["sq"] and grid.zone_of(s, ch["sq"]) == z for ch in s["characters"].values()
                      if not ch["defeated"])
        present = present or any(grid.zone_of(s, e["sq"]) == z for e in s["enemies"].values())
        if present:
            out.append(z)
    return out


def effect_targets(fx):
    """Whom an event effect affects: its ``who``, or by default the characters - but the enemies'
    extra movement ("enemy_movement") is the enemies' own (rules decision in docs/games/harakiri.md)."""
    return fx.get("who", "enemies" if fx["type"] == "enemy_movement" else "characters")


def creatures_in_zone(s, z, who):
    if who == "characters":
        return [c for c, ch in s["characters"].items()
                if not ch["defeated"] and ch["sq"] and grid.zone_of(s, ch["sq"]) == z]
    return [e for e, en in s["enemies"].items() if not en.get("allied") and grid.zone_of(s, en["sq"]) == z]


def oracle_ran_out(s):
    """The oracle deck is empty and drawn cards can form a new one."""
    return not s["oracle"]["deck"] and bool(s["oracle"]["drawn"])


def draw_oracle(w):
    s = w.s
    if not s["oracle"]["deck"]:
        w.emit("OracleReshuffled", deck=w.shuffled(s["oracle"]["drawn"]))
    card = s["oracle"]["deck"][0]
    color = next(c["color"] for c in content.ORACLE if c["id"] == card)
    w.emit("OracleDrawn", card=card, color=color, round=s["round"])
    if oracle_ran_out(w.s):
        # "If the Oracle deck is ever empty, immediately shuffle all previously drawn Oracle cards to
        # form a new Oracle deck": at once, so a zone revealed this round adds its cards to that deck
        # (the card just drawn goes in too; its colour stays this round's oracle)
        w.emit("OracleReshuffled", deck=w.shuffled(w.s["oracle"]["drawn"]), reason="the oracle deck ran out")
    w.emit("WorkPushed", items=[{"op": "events", "zones": zones_with_miniatures(s)},
                                {"op": "initiative", "stage": "build"}], front=True)
    act2.round_start(w)
    advance(w)


def event_def(s, z, event_id):
    for deck in s["zones_def"][z]["events"].values():
        for e in deck:
            if e["id"] == event_id:
                return e
    return None


def process_events(w, item):
    s = w.s
    zones = list(item["zones"])
    if not zones:
        w.emit("WorkDone", op="events")
        return
    z = zones.pop(0)
    update_item(w, zones=zones)
    zs = s["zones"].get(z)
    if not zs or not zs["active"]:
        return
    deck = "purple" if "purple" in zs["events"] else s["oracle"]["color"]
    if not zs["events"].get(deck):
        w.emit("MaliceRaised", malice=s["malice"] + 1, zone=z, reason="no event left")
        return
    event_id = zs["events"][deck][0]
    ev = event_def(s, z, event_id)
    w.emit("EventRevealed", zone=z, deck=deck, event=event_id, name=ev["name"])
    items = []
    for fx in ev["effects"]:
        who = effect_targets(fx)
        items.append({"op": "effect", "effect": fx, "zone": z, "creatures": creatures_in_zone(s, z, who),
                      "event": event_id})
    if items:
        w.emit("WorkPushed", items=items, front=True)


def process_effect(w, item):
    s = w.s
    fx, z = item["effect"], item["zone"]
    kind = fx["type"]
    live = [c for c in item["creatures"] if c in s["characters"] and not s["characters"][c]["defeated"]
            or c in s["enemies"]]
    if kind == "spawn":
        if not spawn_effect(w, item):
            return  # waiting for the party's choice of square
    elif kind == "bless":
        for c in live:
            if c in s["characters"]:
                combat.bless(w, c)
    elif kind == "damage":
        for c in live:
            combat.damage(w, c, fx["amount"], reason=f"event {item['event']}")
    elif kind == "heal":
        for c in live:
            combat.heal(w, c, fx["amount"], reason=f"event {item['event']}")
    elif kind == "condition":
        for c in live:
            combat.give_condition(w, c, fx["condition"], f"event {item['event']}")
    elif kind in ("initiative", "enemy_movement", "initiative_reveal"):
        effect = dict(fx)
        effect["who"] = effect_targets(fx)  # an initiative effect without "who" moves the characters' cards
        effect["creatures"] = live
        effect["event"] = item["event"]
        w.emit("RoundEffectAdded", effect=effect)
    elif kind == "malice":
        w.emit("MaliceRaised", malice=s["malice"] + fx["amount"], zone=z, reason=f"event {item['event']}")
    w.emit("WorkDone", op="effect")


def spawn_candidates(s, spawn_sq):
    """Rulebook "Spawn Points": the spawn square if free, else the closest free squares."""
    if rules.free_square(s, spawn_sq):
        return [spawn_sq]
    best, out = None, []
    for sq in s["squares"]:
        if not rules.free_square(s, sq):
            continue
        d = grid.range_between(sq, spawn_sq)
        if best is None or d < best:
            best, out = d, [sq]
        elif d == best:
            out.append(sq)
    return sorted(out, key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def spawn_effect(w, item):
    s = w.s
    fx = item["effect"]
    choice = take_choice(w)
    spawn_sq = s["spawns"].get(fx["spawn"])
    kind, type_, color = fx.get("kind", "minion"), fx["enemy"], fx.get("color")
    # one miniature per (type, base colour); a unique minion has one miniature whatever the colour
    taken = any(e["type"] == type_ and (e.get("color") == color or content.is_unique(kind, type_))
                for e in s["enemies"].values())
    if spawn_sq is None or taken or not content.enemy_exists(kind, type_):
        w.emit("EventEffectSkipped", effect=fx, reason="no spawn point or no miniature available")
        return True
    if choice is not None:
        sq = choice["sq"]
    else:
        cands = spawn_candidates(s, spawn_sq)
        if not cands:
            w.emit("EventEffectSkipped", effect=fx, reason="no free square")
            return True
        if len(cands) > 1:
            open_decision(w, "spawn_square", "party", [{"sq": c} for c in cands],
                          f"Where does the {type_} appear (closest squares to the spawn point)?")
            return False
        sq = cands[0]
    spawn_enemy(w, kind, type_, color, sq, fx.get("plus", False))
    return True


def spawn_enemy(w, kind, type_, color, sq, plus=False, extra=None):
    s = w.s
    n = 1
    while f"{type_}_{color or 'x'}_{n}" in s["enemies"] or any(
            d["id"] == f"{type_}_{color or 'x'}_{n}" for d in s["defeated_enemies"]):
        n += 1
    eid = f"{type_}_{color or 'x'}_{n}"
    spec = {"kind": kind, "type": type_, "color": color, "at": sq, "plus": plus}
    enemy = make_enemy(spec, grid.zone_of(s, sq), s["plus_types"], w.shuffled)
    if headless_zone(s, grid.zone_of(s, sq)):
        enemy["no_heads"] = True
    enemy.update(extra or {})
    w.emit("EnemySpawned", who=eid, enemy=enemy)
    if not enemy.get("owner"):
        add_to_initiative(w, [card_of(s, eid)])
    return eid


def card_of(s, e):
    en = s["enemies"][e]
    if en["kind"] == "minion" and not en.get("allied"):
        return f"color:{en['color']}"
    return f"enemy:{e}"


def add_to_initiative(w, cards):
    """Rulebook "Add New Enemies": shuffled with the cards not yet activated, after the current
    activation, without the usual modifying effects."""
    s = w.s
    if s["phase"] != "activation":
        return
    q = list(s["initiative"]["queue"])
    pos = s["initiative"]["pos"]
    deck = s["initiative"].get("deck")
    new = [c for c in dict.fromkeys(cards) if c not in q and c not in (deck or [])]
    if not new:
        return
    chosen = chosen_cards(s, new)
    new = [c for c in new if c not in chosen]
    if chosen:  # "Chosen Ones will always activate first": right after the current activation
        q = q[:pos + 1] + chosen + q[pos + 1:]
        pos += len(chosen)
        w.emit("InitiativeSet", queue=q, reason="new chosen activate first")
    if not new:
        return
    if deck is not None:  # revealed card by card: the new cards join the face-down ones
        w.emit("InitiativeDeckSet", deck=w.shuffled(deck + new), reason="new enemies shuffled in")
        return
    rest = q[pos + 1:] + new
    q = q[:pos + 1] + w.shuffled(rest)
    w.emit("InitiativeSet", queue=q, reason="new enemies shuffled in")


def chosen_cards(s, cards):
    """The Chosen's initiative cards among ``cards`` (by id, as at the start of a round)."""
    return sorted(c for c in cards
                  if c.startswith("enemy:") and (s["enemies"].get(c[6:]) or {}).get("kind") == "chosen")


# -- initiative ------------------------------------------------------------------------------------------


def base_cards(s):
    cards = [f"char:{c}" for c in rules.on_board_characters(s)]
    colors = []
    for e, en in sorted(s["enemies"].items()):
        if en["kind"] == "minion" and not en.get("allied"):
            if en["color"] not in colors:
                colors.append(en["color"])
        elif en["kind"] in ("servant", "wanderer"):
            cards.append(f"enemy:{e}")
    cards += [f"color:{c}" for c in colors]
    return cards


def card_is(s, card, who):
    """Does initiative ``card`` belong to the group ``who`` (characters/enemies) among ``creatures``?"""
    kind, _, ident = card.partition(":")
    if who == "characters":
        return kind == "char"
    return kind in ("color", "enemy") and not (kind == "enemy" and s["enemies"].get(ident, {}).get("allied"))


def card_members(s, card):
    kind, _, ident = card.partition(":")
    if kind == "char":
        return [ident]
    if kind == "enemy":
        return [ident]
    return [e for e, en in s["enemies"].items() if en["kind"] == "minion" and en.get("color") == ident
            and not en.get("allied")]


def move_card(q, card, delta):
    i = q.index(card)
    j = max(0, min(len(q) - 1, i + delta))
    q.pop(i)
    q.insert(j, card)


def process_initiative(w, item):
    s = w.s
    stage = item["stage"]
    if stage == "build":
        cards = base_cards(s)
        chosen_cards = [f"enemy:{e}" for e, en in sorted(s["enemies"].items()) if en["kind"] == "chosen"]
        susanoo = [c for c in rules.on_board_characters(s) if rules.kami_mode_of(s, c) == "susanoo"
                   and s["characters"][c]["kami_mode"].get("round", s["round"]) < s["round"]]
        if susanoo:
            # Susanoo Kami Mode: the character decides the whole order, nothing modifies it
            w.emit("InitiativeSet", queue=[], pos=-1, reason="Susanoo Kami Mode orders the initiative")
            update_item(w, stage="susanoo", by=susanoo[0], left=sorted(cards + chosen_cards))
            return
        override = s.get("next_initiative")
        if override:
            q = [c for c in override if c in cards] + [c for c in cards if c not in override]
        else:
            q = w.shuffled(cards)
        if any(fx["type"] == "initiative_reveal" for fx in s["round_effects"]):
            # the shuffled cards stay face down and are revealed one at a time as the queue
            # advances: nothing can modify an order nobody sees (Sixth Sense says so itself)
            w.emit("InitiativeSet", queue=[], pos=-1, reason="revealed card by card")
            w.emit("InitiativeDeckSet", deck=q, reason="revealed card by card")
            update_item(w, stage="chosen")
            return
        w.emit("InitiativeSet", queue=q, pos=-1, reason="shuffled", override=bool(override))
        # 1. event effects: advancing ones left to right, delaying ones right to left
        for fx in s["round_effects"]:
            if fx["type"] != "initiative":
                continue
            members = [c for c in q if card_is(s, c, fx["who"])
                       and any(m in fx["creatures"] for m in card_members(s, c))]
            if fx.get("advance"):
                for c in members:
                    move_card(q, c, -fx["advance"])
            if fx.get("delay"):
                for c in reversed(members):
                    move_card(q, c, fx["delay"])
            w.emit("InitiativeSet", queue=list(q), reason=f"event {fx.get('event')}")
        update_item(w, stage="sixth")
        return
    if stage == "susanoo":
        choice = take_choice(w)
        left = list(item["left"])
        q = list(s["initiative"]["queue"])
        if choice is not None:
            q.append(choice["card"])
            left.remove(choice["card"])
            w.emit("InitiativeSet", queue=q, reason="Susanoo Kami Mode")
        if len(left) == 1:
            q.append(left[0])
            w.emit("InitiativeSet", queue=q, reason="Susanoo Kami Mode")
            left = []
        if left:
            update_item(w, left=left)
            open_decision(w, "susanoo_order", s["control"][item["by"]], [{"card": x} for x in left],
                          f"Susanoo Kami Mode: which card activates in position {len(q) + 1}?")
            return
        w.emit("WorkDone", op="initiative")
        w.emit("ActivationsBegan", round=s["round"], queue=q)
        return
    if stage == "sixth":
        choice = take_choice(w)
        q = list(s["initiative"]["queue"])
        card = "char:akira"
        if choice is None:
            if card in q and rules.skill_active(s, "akira", "sixth_sense"):
                i = q.index(card)
                opts = [{"move": 0}]
                if i > 0:
                    opts.append({"move": -1})
                if i < len(q) - 1:
                    opts.append({"move": 1})
                open_decision(w, "sixth_sense", s["control"]["akira"], opts,
                              "Sixth Sense: move Akira's initiative card forward (-1) or backward (+1)?")
                return
        elif choice["move"]:
            move_card(q, card, choice["move"])
            w.emit("InitiativeSet", queue=q, reason="Sixth Sense")
        update_item(w, stage="servants")
        return
    if stage == "servants":
        q = list(s["initiative"]["queue"])
        movers = [c for c in q if c.startswith("enemy:") and s["enemies"].get(c[6:], {}).get("kind")
                  in ("servant", "wanderer")]
        for c in movers:
            move_card(q, c, -3)
        if movers:
            w.emit("InitiativeSet", queue=q, reason="servants and wanderers advance 3")
        update_item(w, stage="swap")
        return
    if stage == "swap":
        choice = take_choice(w)
        q = list(s["initiative"]["queue"])
        chars = [c for c in q if c.startswith("char:")]
        if choice is None:
            if len(chars) >= 2:
                opts = [{"swap": None}]
                for i, a in enumerate(chars):
                    for b in chars[i + 1:]:
                        opts.append({"swap": [a[5:], b[5:]]})
                open_decision(w, "initiative_swap", "party", opts,
                              "Swap the initiative cards of two characters?")
                return
        elif choice["swap"]:
            a, b = (f"char:{x}" for x in choice["swap"])
            i, j = q.index(a), q.index(b)
            q[i], q[j] = q[j], q[i]
            w.emit("InitiativeSet", queue=q, reason="characters' swap")
        update_item(w, stage="chosen")
        return
    if stage == "chosen":
        q = list(s["initiative"]["queue"])
        chosen = [f"enemy:{e}" for e, en in sorted(s["enemies"].items()) if en["kind"] == "chosen"]
        if chosen:
            q = chosen + q
            w.emit("InitiativeSet", queue=q, reason="chosen at the front")
        deck = s["initiative"].get("deck") or []
        for c in rules.on_board_characters(s):
            if rules.kami_mode_of(s, c) == "ryujin" and f"char:{c}" in deck:
                w.emit("InitiativeDeckSet", deck=[x for x in deck if x != f"char:{c}"], reason="Ryujin Kami Mode")
                q = q + [f"char:{c}"]
            if rules.kami_mode_of(s, c) == "ryujin" and f"char:{c}" in q:
                q = [f"char:{c}"] + [x for x in q if x != f"char:{c}"]
                w.emit("InitiativeSet", queue=q, reason="Ryujin Kami Mode: first, even ahead of the Chosen")
        w.emit("WorkDone", op="initiative")
        w.emit("ActivationsBegan", round=s["round"], queue=q)
        return


# -- turns ----------------------------------------------------------------------------------------------


def reveal_next_card(w):
    """Initiative revealed card by card: the next face-down card joins the queue. False when
    there is none left."""
    deck = w.s["initiative"].get("deck")
    if not deck:
        return False
    w.emit("InitiativeCardRevealed", card=deck[0])
    return True


def next_card(w):
    s = w.s
    pos = s["initiative"]["pos"] + 1
    while pos < len(s["initiative"]["queue"]) or reveal_next_card(w):
        card = s["initiative"]["queue"][pos]
        kind, _, ident = card.partition(":")
        if kind == "char":
            ch = s["characters"].get(ident)
            if ch and not ch["defeated"] and ch["sq"]:
                start_character_turn(w, ident, card, pos)
                return
        else:
            todo = sorted(m for m in card_members(s, card) if m in s["enemies"])
            if todo:
                w.emit("TurnStarted", pos=pos, turn={"kind": "enemies", "card": card, "todo": todo})
                return
        pos += 1
    end_round(w)


def start_character_turn(w, c, card, pos):
    s = w.s
    ch = s["characters"][c]
    w.emit("TurnStarted", pos=pos, turn={"kind": "character", "who": c, "card": card, "moved": False,
                                         "moving": False, "mp": 0, "attacked": False, "withdrawn": 0,
                                         "rolling": False, "roll_mp": 0, "swapped_free": False})
    if ch["conditions"]["bleeding"]:
        combat.damage(w, c, ch["conditions"]["bleeding"], reason="bleeding")
        if s["characters"][c]["defeated"]:
            return
    gain = 3
    if rules.kami_mode_of(s, c) == "ryujin":
        gain = 4
    conds = dict(ch["conditions"])
    if conds["downed"]:
        gain -= 1
        conds["downed"] = 0
        w.emit("ConditionsChanged", who=c, set={"conditions": conds}, reason="downed: 1 fewer action point")
    w.emit("ActionPointsChanged", who=c, set={"ap": min(4, s["characters"][c]["ap"] + gain)}, gained=gain)


def end_turn(w):
    s = w.s
    turn = s["turn"]
    if turn["kind"] == "character":
        c = turn["who"]
        ch = s["characters"][c]
        if not ch["defeated"]:
            if ch["ap"] > 1:
                w.emit("ActionPointsChanged", who=c, set={"ap": 1}, reason="keep at most 1 action point")
            end_of_turn_skills(w, c)
            ch = s["characters"][c]
            if rules.kami_mode_of(s, c) == "amatsumara":
                for e in rules.targetable_shogun(s):
                    combat.reduce_armor(w, e, "Amatsumara Kami Mode")
            if rules.kami_mode_of(s, c) == "amaterasu":
                amaterasu_mode_effect(w, c)
            if ch.get("kami_mode"):
                km = dict(ch["kami_mode"])
                km["turns_done"] = km.get("turns_done", 0) + 1
                if km["turns_done"] >= 2:
                    combat.defeat_character(w, c, "Kami Mode ends")
                else:
                    w.emit("KamiModeChanged", who=c, set={"kami_mode": km})
            ch = s["characters"][c]
            if ch.get("counter_ready"):
                cr = dict(ch["counter_ready"])
                cr["turns"] = cr.get("turns", 0) + 1
                w.emit("CounterReadied", who=c, set={"counter_ready": None if cr["turns"] >= 2 else cr})
    if turn["kind"] == "character":
        act2.end_of_turn(w, turn["who"])
    if turn["kind"] == "character":
        special_terrain.end_of_activation(w, turn["who"])
    w.emit("TurnEnded", card=turn["card"])
    if turn["kind"] == "character":
        servants = sorted(e for e, en in s["enemies"].items() if en.get("owner") == turn["who"])
        if servants:  # Yomi's Servant activates at the end of its owner's turn
            w.emit("WorkPushed", items=[{"op": "enemy", "enemy": e, "stage": "start"} for e in servants], front=True)
        double = rules.double_of(s, turn["who"])
        if double:  # Multi-Form: "When you finish your turn, your double's turn begins"
            w.emit("TurnStarted", pos=s["initiative"]["pos"], turn={
                "kind": "double", "who": turn["who"], "double": double, "card": turn["card"], "moved": False,
                "moving": False, "mp": 0, "attacked": False})


def amaterasu_mode_effect(w, c):
    """Amaterasu Kami Mode, at the end of each of the character's two turns: every character
    regains health and every enemy is dealt damage, with no range or LOS limit."""
    mode = content.kami_skill("amaterasu_mode")
    for o in rules.living_characters(w.s):
        combat.heal(w, o, mode["heal"], "Amaterasu Kami Mode")
    for e in sorted(rules.targetable_shogun(w.s)):
        if e in w.s["enemies"]:
            combat.damage(w, e, mode["damage"], attacker=c, reason="Amaterasu Kami Mode")


def end_of_turn_skills(w, c):
    s = w.s
    ch = s["characters"][c]
    if rules.skill_active(s, c, "escort"):
        for o, och in s["characters"].items():
            if not och["defeated"] and och["sq"] and grid.range_between(och["sq"], ch["sq"]) <= 2:
                cap = rules.armor_cap(och)
                if och["armor"] < cap:
                    w.emit("ArmorChanged", who=o, set={"armor": och["armor"] + 1}, reason="Escort")
    if ch.get("vengeance", 0) > 1:
        w.emit("AttributesChanged", who=c, set={"vengeance": 1}, reason="Relentless Vengeance: keep at most 1")
    if rules.skill_active(s, c, "full_of_resources"):
        n = combat.tier(rules.ki_in(s, c, "full_of_resources"), [(1, 2, 2), (3, 4, 3), (5, 6, 4)])
        ki = s["characters"][c]["ki"]
        have = len(ki["supply"]) + len(ki["slots"])
        add = max(0, min(n, ch["level"] - have))
        if add:
            ki = {"supply": ki["supply"] + [w.d6() for _ in range(add)], "slots": dict(ki["slots"]),
                  "exhausted": max(0, ki["exhausted"] - add)}
            w.emit("KiChanged", who=c, set={"ki": ki}, reason="Full of Resources")


def end_round(w):
    s = w.s
    combat.remove_doubles(w, list(s["characters"]), "Multi-Form: the double is removed at the end of the round")
    if s["turn"] and s["turn"]["kind"] == "double":  # travelling during the double's turn
        w.emit("TurnEnded", card=s["turn"]["card"])
    for c, ch in s["characters"].items():
        if ch["defeated"]:
            continue
        ki = ch["ki"]
        slots, exhausted = {}, ki["exhausted"]
        inari = rules.kami_mode_of(s, c) == "inari"
        for sk, v in ki["slots"].items():
            nv = min(6, v + 1) if inari else v - 1
            if nv <= 0:
                exhausted += 1
            else:
                slots[sk] = nv
        new = {"supply": list(ki["supply"]), "slots": slots, "exhausted": exhausted}
        reason = "reduce Ki dice"
        if not new["supply"] and not new["slots"] and exhausted:
            new = {"supply": [w.d6() for _ in range(exhausted)], "slots": {}, "exhausted": 0}
            reason = "all Ki dice exhausted: reroll them all"
        if new != ki:
            w.emit("KiChanged", who=c, set={"ki": new}, reason=reason)
        if ch.get("armor_bonus"):
            w.emit("ArmorChanged", who=c, set={"armor_bonus": 0}, reason="temporary armor ends")
    nxt = s["round"] + 1
    cap = s.get("round_cap")
    w.emit("RoundEnded", round=s["round"], next_round=nxt)
    if cap and nxt > cap:
        w.emit("PhaseEnded", result="round_cap", reason=f"round cap {cap} reached")


# -- zones -------------------------------------------------------------------------------------------------


def reveal_zone(w, zone, shuffled_fn=None):
    """Surveying: the new tile joins, its enemies are placed and shuffled into the initiative."""
    s = w.s
    if zone in s["zones"]:
        w.emit("StateNote", note=f"zone {zone} is already on the table")
        return False
    zp = zone_payload(s, zone, w.shuffled)
    w.emit("ZoneRevealed", **zp)
    add_oracle(w, zone)
    add_to_initiative(w, [card_of(w.s, e) for e in zp["enemies"] if e in w.s["enemies"]])
    return True


def add_oracle(w, zone):
    s = w.s
    counts = zone_oracle_counts(s["zones_def"][zone], s.get("adventure", "success"))
    if not any(counts.values()):
        return
    used = s["oracle"]["deck"] + s["oracle"]["drawn"]
    new = oracle_cards(counts, used)
    if new:
        w.emit("OracleCardsAdded", deck=w.shuffled(s["oracle"]["deck"] + new), added=len(new))


def travel(w, zone):
    """Travelling: old zones removed, the new zone placed, then the players place the characters
    on its start squares (work item ``travel``) and the round ends."""
    s = w.s
    old = [z for z, zs in s["zones"].items() if zs["active"]]
    spawns = [k for k, v in s["spawns"].items() if grid.zone_of(s, v) in old]
    w.emit("ZonesRemoved", zones=old, spawns=spawns)
    zp = zone_payload(s, zone, w.shuffled)
    w.emit("ZoneRevealed", **zp)
    add_oracle(w, zone)
    alive = [c for c in s.get("roster", ORDER) if not s["characters"][c]["defeated"]]
    w.emit("WorkPushed", items=[{"op": "travel", "zone": zone, "unplaced": alive}], front=True)


def travel_start_squares(s, zone):
    """The zone's start squares nobody stands on yet; with none left (a zone with fewer start
    squares than characters), the free squares closest to its first start square."""
    starts = s["zones_def"][zone].get("start", [])
    free = [sq for sq in starts if rules.free_square(s, sq)]
    if free or not starts:
        return free
    return spawn_candidates(s, starts[0])


def process_travel(w, item):
    """"Place the characters in play on any square indicated as the starting location": one party
    decision per character (roster order), among the start squares still free."""
    s = w.s
    choice = take_choice(w)
    unplaced = list(item["unplaced"])
    if choice is not None:
        w.emit("CreatureMoved", who=choice["who"], set={"sq": choice["sq"]}, path=[choice["sq"]], reason="travel")
        unplaced.remove(choice["who"])
    while unplaced:
        c = unplaced[0]
        squares = travel_start_squares(w.s, item["zone"])
        if len(squares) > 1:
            update_item(w, unplaced=unplaced)
            open_decision(w, "travel_start", "party", [{"who": c, "sq": sq} for sq in squares],
                          f"Travel: on which start square does {c} begin?")
            return
        if squares:
            w.emit("CreatureMoved", who=c, set={"sq": squares[0]}, path=[squares[0]], reason="travel")
        unplaced.pop(0)
    w.emit("WorkDone", op="travel")
    if s["turn"]:
        end_turn(w)
    w.emit("InitiativeSet", queue=[], pos=-1, reason="travel ends the round")
    end_round(w)
