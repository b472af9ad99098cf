"""The game's own steps, run by a worker (SYSTEM): the Shōgun's turn, enemy activations,
travel-event draws, content effects (tests, hits, spawns...) and ending the phase.

Each function appends events to an ``Emitter``; dice and draws come from the kernel RNG passed in.
"""

from games.kernel import SYSTEM

from . import queries as q
from .content import DICE, INFLUENCE_CARDS, MARKET, TRAVEL_EVENTS

MAX_STEPS = 500


# -- dice ----------------------------------------------------------------------------------------
def roll_test_die(rng) -> int:
    return DICE["test"][rng.below(6)]["n"]


def roll_attack_die(rng, colour: str) -> int:
    return DICE["attack"][colour][rng.below(6)]["i"]


def roll_combat(rng, state, cid, sharpened_blade=False) -> dict:
    """The character's combat dice, each as rolled (``die``: the colour actually rolled, the blue
    die for a red one with the option ``blue_die``), plus the modifier."""
    rolled = [q.rolled_die(state, colour) for colour in q.combat_dice(state, cid)]
    dice = [{"die": colour, "value": roll_attack_die(rng, colour)} for colour in rolled]
    modifier = q.combat_modifier(state, cid, sharpened_blade)
    return {"character": cid, "dice": dice, "modifier": modifier, "total": sum(d["value"] for d in dice) + modifier}


# -- health and supplies ---------------------------------------------------------------------------
def lose_health(em, cid, amount: int, cause: str):
    ch = em.state["characters"][cid]
    if ch["defeated"] or amount <= 0:
        return
    health = max(0, ch["health"] - amount)
    em.emit("HealthChanged", {"character": cid, "delta": health - ch["health"], "health": health, "cause": cause})
    if health == 0:
        em.emit("CharacterDefeated", {"character": cid})


def regain_health(em, cid, amount: int, cause: str):
    ch = em.state["characters"][cid]
    if ch["defeated"]:
        return
    health = min(q.max_health(em.state, cid), ch["health"] + max(0, amount))
    em.emit("HealthChanged", {"character": cid, "delta": health - ch["health"], "health": health, "cause": cause})


def take_hits(em, cid, hits: int, shield: bool = False):
    """"reduce them by the value of the equipped armor. If the result is greater than 0, reduce the
    character's health by that amount"; Traveler Shield, activated, takes 1 off the loss."""
    loss = max(0, hits - q.armor_value(em.state, cid))
    em.emit("HitsTaken", {"character": cid, "hits": hits, "armor": q.armor_value(em.state, cid), "damage": loss})
    lose_health(em, cid, _shielded(loss, shield), "hits")


def _shielded(loss, shield):
    return max(0, loss - 1) if shield and loss > 0 else loss


def _offer_traveler_shield(em, cid, effect, ctx) -> bool:
    """"Traveler Shield: When losing health due to travel events, reduce the amount by 1": when a
    travel event would make the active character lose health and the skill can be activated (its
    action point, once per phase), the player chooses. True if the choice was offered."""
    state = em.state
    if ctx.get("source") != "travel_event" or "shield" in effect or not q.kami_ready(state, cid, "dosojin"):
        return False
    loss = effect["amount"] - (q.armor_value(state, cid) if effect["do"] == "hits" else 0)
    if loss <= 0:
        return False
    options = [{"label": "Traveler Shield: spend 1 action point to lose 1 health less (once this phase)", "enabled": True,
                "effects": [{"do": "kami_skill", "kami": "dosojin"}, {**effect, "shield": True}]},
               {"label": "Take the full loss", "enabled": True, "effects": [{**effect, "shield": False}]}]
    em.emit("ChoiceOffered", {"character": cid, "options": options, "ctx": {**ctx, "character": cid}})
    return True


def _offer_vital_absorption(em, cid):
    """"Vital Absorption: When defeating an enemy through an attack, you regain 2 health": offered
    to the attacker who can activate it (its action point, once per phase) and has health to regain."""
    state = em.state
    if not q.kami_ready(state, cid, "shinigami") or state["characters"][cid]["health"] >= q.max_health(state, cid):
        return
    options = [{"label": "Vital Absorption: spend 1 action point to regain 2 health (once this phase)", "enabled": True,
                "effects": [{"do": "kami_skill", "kami": "shinigami"}, {"do": "heal", "amount": 2}]},
               {"label": "Not now", "enabled": True, "effects": []}]
    em.emit("ChoiceOffered", {"character": cid, "options": options,
                              "ctx": {"character": cid, "source": "vital_absorption"}})


def change(em, cid, field: str, amount: int):
    event_type = {"coins": "CoinsChanged", "karma": "KarmaChanged"}[field]
    value = max(0, em.state["characters"][cid][field] + amount)
    em.emit(event_type, {"character": cid, "delta": value - em.state["characters"][cid][field], field: value})


def move_influence(em, amount: int, reason: str):
    now = em.state["influence"]
    to = max(0, min(q.failure_influence(em.state), now + amount))
    em.emit("InfluenceMoved", {"from": now, "to": to, "reason": reason})


# -- tests ------------------------------------------------------------------------------------------
def attribute_test(em, rng, cid, attribute, difficulty, trait=None, trait_bonus=None) -> bool:
    """"rolling 1 test die and adding their relevant attribute score ... equal to or greater than
    the difficulty ... succeeds". A trait the test names grants "a bonus to the dice test ... or even
    automatic success": ``trait_bonus`` added to the roll, or without one an automatic success."""
    ch = em.state["characters"][cid]
    has_trait = bool(trait) and trait in q.traits(em.state, cid)
    if has_trait and trait_bonus is None:
        em.emit("TestRolled", {"character": cid, "attribute": attribute, "difficulty": difficulty, "roll": None,
                               "modifier": ch["attributes"][attribute], "total": None, "success": True, "trait": trait})
        return True
    roll = roll_test_die(rng)
    modifier = ch["attributes"][attribute] + (trait_bonus if has_trait else 0)
    total = roll + modifier
    success = total >= difficulty
    em.emit("TestRolled", {"character": cid, "attribute": attribute, "difficulty": difficulty, "roll": roll,
                           "modifier": modifier, "total": total, "success": success,
                           "trait": trait if has_trait else None})
    return success


def combat_test(em, rng, cid, enemy_id, helpers=(), reason="attack", sharpened_blade=False) -> bool:
    """Roll the strong attack's dice plus power (and each joining character's roll); success removes
    the enemy and gives the active character 1 head. ``sharpened_blade``: the attacker activated it (+1)."""
    enemy = em.state["enemies"][enemy_id]
    main = roll_combat(rng, em.state, cid, sharpened_blade)
    joined = [roll_combat(rng, em.state, h) for h in helpers]
    total = main["total"] + sum(j["total"] for j in joined)
    success = total >= enemy["combat"]
    em.emit("CombatTested", {"character": cid, "enemy": enemy_id, "difficulty": enemy["combat"], "dice": main["dice"],
                             "modifier": main["modifier"], "helpers": joined, "total": total, "success": success,
                             "reason": reason})
    consequences = enemy.get("on_test", {}).get("success" if success else "failure", [])
    if success:
        em.emit("EnemyRemoved", {"enemy": enemy_id, "by": cid})
        em.emit("HeadsGained", {"character": cid, "amount": 1})
        for number, mission in sorted(em.state["missions"].items()):
            done_by = q.mission_doc(em.state, number).get("completed_by", {})
            if mission["status"] == "active" and done_by.get("enemy") == enemy_id:
                complete_mission(em, int(number), cid)
        if reason == "attack":
            _offer_vital_absorption(em, cid)
    push(em, consequences, {"character": cid, "source": "enemy"})
    return success


def complete_mission(em, number: int, by: str | None):
    """"remove all mission and clan tokens from the board corresponding to that mission ... the
    rewards for a mission go to the person who started the mission"."""
    mission = em.state["missions"][str(number)]
    if mission["status"] in ("completed", "failed"):
        return
    em.emit("MissionCompleted", {"mission": number, "by": by})
    section = q.mission_doc(em.state, number)["success"]
    push(em, section["effects"], {"character": mission["starter"] or by, "source": "mission", "mission": number})


def fail_mission(em, number: int, reason: str):
    """A mission's failure: its failure section is read (for the character who started it; a
    mission nobody started concerns every character) and its tokens leave the board."""
    mission = em.state["missions"][str(number)]
    if mission["status"] in ("completed", "failed"):
        return
    doc = q.mission_doc(em.state, number)
    em.emit("MissionFailed", {"mission": number, "title": doc["title"], "reason": reason})
    push(em, doc["failure"]["effects"], {"character": mission["starter"], "source": "mission", "mission": number})


def watch_missions(em):
    """A mission's own failure condition while the phase runs: a city it names captured or razed."""
    state = em.state
    for number, mission in sorted(state["missions"].items(), key=lambda kv: int(kv[0])):
        if mission["status"] not in ("hidden", "active"):
            continue
        for condition in q.mission_doc(state, number).get("fails_when", []):
            if condition["when"] == "city_captured" and _city_lost(em.state, condition["location"]):
                fail_mission(em, int(number), "city_captured")
                break


def _city_lost(state, place) -> bool:
    return place in state["cities"]["captured"] or place in state["cities"]["razed"]


# -- effect queue -----------------------------------------------------------------------------------
def push(em, effects, ctx):
    if effects:
        em.emit("QueuePushed", {"effects": list(effects), "ctx": dict(ctx)})


def _targets(state, ctx) -> list[str]:
    cid = ctx.get("character")
    if cid is None:
        return q.alive(state)
    return [] if state["characters"][cid]["defeated"] else [cid]


def _spawn_spec(state, spec, ctx) -> dict:
    enemy = {k: v for k, v in spec.items()}
    active = ctx.get("character")
    if enemy["at"] == "here":
        enemy["at"] = state["characters"][active]["location"] if active else None
    if enemy.get("target") and enemy["target"].get("character") == "active":
        enemy["target"] = {"character": active} if active else None
    base = enemy.get("id") or enemy["type"]
    enemy_id = base if base not in state["enemies"] else f"{base}_{state['enemy_seq'] + 1}"
    enemy.update(id=enemy_id, location=enemy.pop("at"))
    enemy.setdefault("on_test", {"success": [], "failure": []})
    enemy.setdefault("on_reach", [])
    return enemy


def _reshuffle_travel(em, rng, codes):
    state = em.state
    drawn = state["flow"]["event"]["card"] if state["flow"].get("event") else None
    cards = [cid for cid, card in sorted(TRAVEL_EVENTS.items())
             if card["code"] in codes and cid not in state["travel_removed"] and cid != drawn]
    em.emit("TravelDeckShuffled", {"order": rng.shuffled(cards), "codes": sorted(codes)})


def resolve_next(em, rng):
    """Pop the first queued effect and resolve it for its context's character(s)."""
    frame = em.state["queue"][0]
    effect, ctx = frame["effects"][0], frame["ctx"]
    em.emit("EffectPopped", {"effect": effect, "ctx": ctx})
    state = em.state
    do = effect["do"]
    source = ctx.get("source")
    if do == "all":
        for cid in reversed(q.alive(state)):
            push(em, effect["effects"], {**ctx, "character": cid})
    elif do == "test":
        for cid in reversed(_targets(state, ctx)):
            ok = attribute_test(em, rng, cid, effect["attribute"], effect["difficulty"], effect.get("trait"),
                                effect.get("trait_bonus"))
            push(em, effect["success" if ok else "failure"], {**ctx, "character": cid})
    elif do == "choice":
        targets = _targets(state, ctx)
        if targets:
            cid = targets[0]
            options = [{"label": o["label"], "effects": o["effects"], "enabled": q.meets(state, cid, o.get("requires"))}
                       for o in effect["options"]]
            em.emit("ChoiceOffered", {"character": cid, "options": options, "ctx": {**ctx, "character": cid}})
    elif do == "hits":
        for cid in _targets(state, ctx):
            if not _offer_traveler_shield(em, cid, effect, ctx):
                take_hits(em, cid, effect["amount"], effect.get("shield", False))
    elif do == "damage":
        for cid in _targets(state, ctx):
            if not _offer_traveler_shield(em, cid, effect, ctx):
                lose_health(em, cid, _shielded(effect["amount"], effect.get("shield", False)), "damage")
    elif do == "kami_skill":  # a level 1 Kami skill activated from a decision (Traveler Shield, Vital Absorption)
        for cid in _targets(state, ctx):
            em.emit("KamiSkillActivated", {"character": cid, "skill": f"{effect['kami']}_l1", "ap": q.KAMI_COST})
    elif do == "heal":
        for cid in _targets(state, ctx):
            regain_health(em, cid, effect["amount"], source or "effect")
    elif do in ("coins", "karma"):
        for cid in _targets(state, ctx):
            change(em, cid, do, effect["amount"])
    elif do == "heads":
        for cid in _targets(state, ctx):
            em.emit("HeadsGained", {"character": cid, "amount": effect["amount"]})
    elif do == "influence":
        move_influence(em, effect["amount"], "effect")
    elif do == "delayed":
        for cid in _targets(state, ctx):
            _delay(em, cid, ctx, avoidable=effect.get("avoidable", True))
    elif do == "bless":
        for cid in _targets(state, ctx):
            blessed = em.state["characters"][cid]["blessed"] + effect["amount"]
            em.emit("BlessedChanged", {"character": cid, "blessed": blessed, "delta": effect["amount"]})
    elif do == "spend_blessed":
        for cid in _targets(state, ctx):
            em.emit("BlessedChanged", {"character": cid, "blessed": em.state["characters"][cid]["blessed"] - 1,
                                       "delta": -1, "negates": "delayed"})
    elif do == "gain_token":
        for cid in _targets(state, ctx):
            em.emit("TokenGained", {"character": cid, "token": effect["token"], "name": q.token_name(effect["token"])})
    elif do == "lose_token":
        for cid in _targets(state, ctx):
            if q.holds(em.state, cid, effect["token"]):
                em.emit("TokenLost", {"character": cid, "token": effect["token"], "name": q.token_name(effect["token"])})
    elif do == "if":
        if set(effect["has"]) <= q.SHEET_REQUIREMENTS:  # a mark: the party's, decided once
            push(em, effect["then"] if q.sheet_meets(state, effect["has"]) else effect.get("else", []), ctx)
        else:
            for cid in reversed(_targets(state, ctx)):
                push(em, effect["then"] if q.meets(state, cid, effect["has"]) else effect.get("else", []),
                     {**ctx, "character": cid})
    elif do == "place_mission":
        mission = state["missions"][str(effect["mission"])]
        if mission["status"] == "unavailable":
            em.emit("MissionPlaced", {"mission": effect["mission"], "token": q.mission_doc(state, effect["mission"])["token"],
                                      "title": q.mission_doc(state, effect["mission"])["title"]})
    elif do == "complete_mission":
        complete_mission(em, effect["mission"], ctx.get("character"))
    elif do == "fail_mission":
        fail_mission(em, effect["mission"], "effect")
    elif do == "unlock_kami":
        # "as a result of a personal mission, the character referenced in that mission may replace
        # their current Kami ... as a result of a non-personal mission, any 1 character may choose"
        personal = ctx.get("character") if source == "personal_mission" else None
        em.emit("KamiUnlocked", {"kami": effect["kami"], "character": personal})
    elif do == "gain_item":
        for cid in _targets(state, ctx):
            deck = em.state["decks"]["market"]
            if deck:
                em.emit("ItemGained", {"character": cid, "item": deck[rng.below(len(deck))]})
                _over_limit_choice(em, cid, ctx)
    elif do == "discard_item":
        for cid in _targets(state, ctx):
            em.emit("ItemDiscarded", {"character": cid, "item": effect["item"],
                                      "market_order": rng.shuffled([*state["decks"]["market"], effect["item"]])})
    elif do == "spawn":
        enemy = _spawn_spec(state, effect["enemy"], ctx)
        if enemy["location"]:
            em.emit("EnemySpawned", {"enemy": enemy})
    elif do == "capture" and effect["location"] not in state["cities"]["razed"]:
        em.emit("CityCaptured", {"location": effect["location"]})
    elif do == "raze":
        em.emit("CityRazed", {"location": effect["location"]})
    elif do == "mark":
        em.emit("MarkRecorded", {"mark": effect["mark"]})
    elif do == "discover":
        em.emit("LocationDiscovered", {"location": effect["location"]})
    elif do == "remove_card":
        em.emit("TravelCardRemovalMarked", {})
    elif do == "add_travel_events":
        _reshuffle_travel(em, rng, sorted(set(state["travel_codes"]) | set(effect["codes"])))
    elif do == "remove_travel_events":
        _reshuffle_travel(em, rng, sorted(set(state["travel_codes"]) - set(effect["codes"])))
    # "movement" and "combat_bonus" are item effects read by the actions that use items.


def _delay(em, cid, ctx, avoidable=True):
    """"the character loses all remaining action point tokens and ends the turn immediately. This
    effect is considered a negative condition. Therefore, it can be avoided if the active character
    discards a blessed token" (the player chooses whether to discard it)."""
    state = em.state
    if avoidable and state["flow"].get("active") == cid and state["characters"][cid]["blessed"] > 0:
        options = [{"label": "Discard a blessed token: not delayed", "enabled": True,
                    "effects": [{"do": "spend_blessed"}]},
                   {"label": "Keep the blessed token: delayed", "enabled": True,
                    "effects": [{"do": "delayed", "avoidable": False}]}]
        em.emit("ChoiceOffered", {"character": cid, "options": options, "ctx": {**ctx, "character": cid}})
        return
    em.emit("CharacterDelayed", {"character": cid})


def _over_limit_choice(em, cid, ctx):
    """"If this limit is exceeded outside of an interaction in a city, the active character will have
    to discard any item required to comply with the limitation and return them to the market"."""
    excess = q.items_over_limit(em.state, cid)
    if excess:
        options = [{"label": f"Return {MARKET[i]['name']} to the market", "enabled": True,
                    "effects": [{"do": "discard_item", "item": i}]} for i in excess]
        em.emit("ChoiceOffered", {"character": cid, "options": options, "ctx": {**ctx, "character": cid}})


# -- the Shōgun's turn ------------------------------------------------------------------------------
def _shogun_step(em, rng):
    state = em.state
    sub = state["flow"]["sub"]
    adventure = q.adventure_doc(state)
    if sub == "round" and state["round"] == 0 and not state.get("sheet_marks_read"):
        # the preparation section's consequences of the campaign sheet's marks, before round 1
        rules = [r for r in adventure.get("sheet_marks", []) if r["mark"] in state["marks"]]
        em.emit("SheetMarksRead", {"marks": [{"mark": r["mark"], "text": r["text"]} for r in rules]})
        for rule in reversed(rules):
            push(em, rule["effects"], {"character": None, "source": "preparation", "mark": rule["mark"]})
    elif sub == "round":
        number = state["round"] + 1
        trigger = adventure["triggers"].get(str(number))
        em.emit("RoundStarted", {"round": number, "final": number == adventure["final_round"],
                                 "trigger": trigger["text"] if trigger else None})
        if trigger:
            push(em, trigger["effects"], {"character": None, "source": "trigger"})
    elif sub == "influence":
        if state["round"] == 1:
            em.emit("InfluenceStepSkipped", {"round": 1})
            return
        rules = adventure["influence"]
        amount = (rules["per_round"] + rules.get("per_captured_city", 0) * len(state["cities"]["captured"])
                  + rules.get("per_enemy", 0) * len(state["enemies"]))
        move_influence(em, amount, "round")
    elif sub == "card":
        if not state["decks"]["influence"] and state["discard"]["influence"]:
            em.emit("InfluenceDeckShuffled", {"order": rng.shuffled(sorted(state["discard"]["influence"]))})
        deck = em.state["decks"]["influence"]
        if not deck:
            em.emit("EnemiesTurnStarted", {"enemies": sorted(em.state["enemies"])})
            return
        card = deck[0]
        level = q.band(em.state["influence"])
        em.emit("InfluenceCardDrawn", {"card": card, "band": level, "influence": em.state["influence"]})
        push(em, INFLUENCE_CARDS[card][level], {"character": None, "source": "influence"})
    elif sub == "enemies":
        em.emit("EnemiesTurnStarted", {"enemies": sorted(state["enemies"])})


def _enemy_step(em, rng):
    state = em.state
    flow = state["flow"]
    left = [e for e in flow["enemies_left"] if e in state["enemies"]]
    if not left:
        em.emit("CharactersTurnStarted", {})
        return
    enemy_id = flow["next_enemy"] or left[0]
    if flow["tie"] and flow["tie"]["chosen"]:
        path = q.enemy_moves(state, enemy_id)[flow["tie"]["chosen"]]
    else:
        moves = q.enemy_moves(state, enemy_id)
        if len(moves) > 1:
            em.emit("EnemyPathTied", {"enemy": enemy_id, "options": sorted(moves)})
            return
        path = next(iter(moves.values()))
    em.emit("EnemyMoved", {"enemy": enemy_id, "path": path})
    _arrive(em, rng, enemy_id)


def _arrive(em, rng, enemy_id):
    """"If they finish their movement on the same location as their target, the target character
    must pass a combat test"; an enemy reaching a target location resolves its on-reach effects."""
    state = em.state
    enemy = state["enemies"][enemy_id]
    target = enemy.get("target") or {}
    if "character" in target:
        cid = target["character"]
        ch = state["characters"].get(cid)
        if ch and not ch["defeated"] and ch["location"] == enemy["location"]:
            combat_test(em, rng, cid, enemy_id, reason="arrival")
    elif "location" in target and enemy["location"] == target["location"]:
        push(em, enemy.get("on_reach", []), {"character": None, "source": "enemy"})


# -- character turns ---------------------------------------------------------------------------------
def _activation_step(em, rng):
    state = em.state
    flow = state["flow"]
    cid = flow["active"]
    if flow["travel"] and flow["travel"]["ended"]:
        draw_travel_event(em, rng, cid)
    elif flow.get("event"):
        em.emit("TravelEventReturned", {"card": flow["event"]["card"], "removed": flow["event"]["remove"]})
    elif flow.get("close"):
        em.emit("ActivationEnded", {"character": cid, "reason": "delayed_or_defeated"})


def draw_travel_event(em, rng, cid):
    """"the player to the left ... draws a travel event from the bottom of the deck": green side if
    the movement was only over imperial roads, red if over 1 or more dangerous paths (Chaos
    Unleashed: a die, 1-3 green, 4-6 red)."""
    state = em.state
    deck = state["decks"]["travel"]
    paths = state["flow"]["travel"]["paths"]
    if not deck:
        em.emit("TravelEnded", {"character": cid, "event_due": False, "reason": "deck_empty"})
        return
    chaos = None
    if q.has_ability(state, cid, "amatsumikaboshi"):
        chaos = roll_test_die(rng)
        side = "green" if chaos <= 3 else "red"
    else:
        side = "red" if paths else "green"
    card = deck[-1]
    em.emit("TravelEventDrawn", {"card": card, "side": side, "character": cid, "chaos_roll": chaos,
                                 "drawn_by": q.seat_left_of(state, q.controller(state, cid))})
    push(em, TRAVEL_EVENTS[card][side]["effects"], {"character": cid, "source": "travel_event"})


def _round_end_step(em):
    state = em.state
    for number, mission in sorted(state["missions"].items(), key=lambda kv: int(kv[0])):
        conditions = q.mission_doc(state, number).get("fails_when", [])
        if mission["status"] in ("hidden", "active") and any(
                c["when"] == "round_end" and c["round"] == state["round"] for c in conditions):
            # a mission "not completed by the end of round N" fails; its failure section is read
            # (the next step) before the round ends
            fail_mission(em, int(number), "round_end")
            return
    em.emit("RoundEnded", {"round": state["round"]})
    if state["final"]:
        section = q.adventure_doc(state)["final_section"]
        em.emit("PhaseEnded", {"outcome": section["outcome"], "reason": "final_round", "text": section["text"]})


# -- ending the phase ----------------------------------------------------------------------------------
def check_end(em):
    """"The phase ends immediately if ... influence token is in space 12 ... All characters are
    defeated ... An ending condition specified in the Adventure Phase preparation section is met."""
    if em.state["flow"]["stage"] in ("prepare", "ending", "finished"):
        return
    watch_missions(em)
    state = em.state
    if state["influence"] >= q.failure_influence(state):
        em.emit("PhaseEnded", {"outcome": "failure", "reason": "influence", "text": None})
        return
    if not q.alive(state):
        em.emit("PhaseEnded", {"outcome": "failure", "reason": "all_defeated", "text": None})
        return
    if state["queue"] or state["choice"]:
        return  # the entry that met a chapter condition is resolved first
    for condition in q.adventure_doc(state)["ending_conditions"]:
        if _condition_met(state, condition):
            em.emit("PhaseEnded", {"outcome": condition["outcome"], "reason": condition["when"],
                                   "text": condition.get("text")})
            return


def _condition_met(state, condition) -> bool:
    when = condition["when"]
    if when == "enemies_defeated":
        return state["round"] >= 1 and not state["enemies"]
    if when == "city_captured":
        place = condition["location"]
        return place in state["cities"]["captured"] or place in state["cities"]["razed"]
    if when == "mission_completed":
        return condition["mission"] in state["missions_completed"]
    if when == "mission_failed":
        return state["missions"][str(condition["mission"])]["status"] == "failed"
    return False


def _ending_step(em, rng):
    state = em.state
    flow = state["flow"]
    outcome = state["result"]["outcome"]
    if flow["sub"] == "resurrect":
        defeated = q.defeated(state)
        if defeated:
            resurrect(em, rng, defeated[0])
            return
        section = q.adventure_doc(state)[outcome]
        em.emit("SectionRead", {"outcome": outcome, "text": section["text"]})
        push(em, section["effects"], {"character": None, "source": "section"})
    elif flow["sub"] == "missions":
        # "Reveal all un-revealed mission cards, and resolve their failure section, if any."
        # Missions "not available from the start" that never came are un-revealed cards too.
        hidden = [int(n) for n, m in sorted(state["missions"].items(), key=lambda kv: int(kv[0]))
                  if m["status"] in ("hidden", "unavailable")]
        if hidden:
            fail_mission(em, hidden[0], "unrevealed")
        else:
            em.emit("MissionsSettled", {})
    elif flow["sub"] == "kami":
        if q.kami_offer(state) is None:  # every unlocked Kami decided by the players (actions.change_kami)
            em.emit("KamiChangesSettled", {"changes": [o for o in state["unlocked_kami"] if o.get("taken_by")]})
    elif flow["sub"] == "regain":
        # a character defeated by an entry read at the end (the section, an un-revealed mission's
        # failure) is resurrected too: "At the end of the Adventure Phase ... defeated characters
        # will be resurrected" - no character leaves the phase at 0 health
        defeated = q.defeated(state)
        if defeated:
            resurrect(em, rng, defeated[0])
            return
        if outcome == "success":
            for cid in q.alive(state):
                regain_health(em, cid, em.state["characters"][cid]["level"], "phase_success")
        # "Cities will discard their tokens at the end of the chapter following the one in which they were placed"
        expired = sorted(c["location"] for c in em.state["city_log"] if c["chapter"] < state["chapter"])
        if expired:
            em.emit("CityTokensDiscarded", {"locations": expired})
        em.emit("AdventureFinished", {"outcome": outcome, "reason": state["result"]["reason"],
                                      "health": {c: em.state["characters"][c]["health"] for c in q.alive(em.state)},
                                      "marks": list(em.state["marks"]), "sheet": sheet(em.state),
                                      # the market deck stays on the table for the Exploration Phase (its
                                      # cards, in no order: "Exploration Phase Setup")
                                      "market": sorted(em.state["decks"]["market"]),
                                      "defeated": [c for c in q.ORDER if em.state["characters"][c]["defeated_in_phase"]],
                                      "kami_changes": [{"character": o["taken_by"], "kami": o["kami"]}
                                                       for o in em.state["unlocked_kami"] if o.get("taken_by")],
                                      "missions": {n: m["status"] for n, m in em.state["missions"].items()},
                                      "personal": {c: m["status"] for c, m in em.state["personal"].items()}})


def resurrect(em, rng, cid):
    """"regaining health up to their current maximum ... attribute test (X), where X is the
    character's current level ... If the test is failed, the character loses an attribute point of
    the controlling player's choice" (Known Path: always succeed)."""
    state = em.state
    ch = state["characters"][cid]
    known_path = q.has_ability(state, cid, "izanami")
    roll = None if known_path else roll_test_die(rng)
    total = None if known_path else roll + ch["attributes"]["spirit"]
    success = known_path or total >= ch["level"]
    em.emit("CharacterResurrected", {"character": cid, "health": q.max_health(state, cid), "location": None,
                                     "difficulty": ch["level"], "roll": roll, "modifier": ch["attributes"]["spirit"],
                                     "total": total, "success": success, "known_path": known_path,
                                     "loses_attribute": (not success) and bool(q.losable_attributes(state, cid))})


# -- the worker's loop -------------------------------------------------------------------------------------
def step(em, rng):
    state = em.state
    stage = state["flow"]["stage"]
    if state["queue"]:
        resolve_next(em, rng)
    elif stage == "shogun":
        _shogun_step(em, rng)
    elif stage == "enemies":
        _enemy_step(em, rng)
    elif stage == "activation":
        _activation_step(em, rng)
    elif stage == "round_end":
        _round_end_step(em)
    elif stage == "ending":
        _ending_step(em, rng)
    check_end(em)


def run(em, rng):
    """Take the game's own steps until a seat must decide or the phase is over (at most
    ``MAX_STEPS`` per command; a worker submits the next one if the game still awaits SYSTEM)."""
    for _ in range(MAX_STEPS):
        if q.awaiting(em.state) != [SYSTEM]:
            return
        step(em, rng)


CARRIED = ("level", "health", "attributes", "kami", "affinity", "karma", "coins", "heads", "boss_heads", "armor",
           "armor_value", "weapons", "equipped", "items", "item_uses", "skills", "traits")


def _case(ch) -> dict:
    """A character's case: ``item_uses`` names the carried "Uses: X" items with tokens spent."""
    case = {k: ch[k] for k in CARRIED if k != "item_uses"}
    case["item_uses"] = {i: n for i, n in sorted(ch["item_uses"].items()) if i in ch["items"]}
    return case


def sheet(state) -> dict:
    """What the campaign carries to the next phase: each character's case and the campaign sheet."""
    return {"characters": {c: _case(state["characters"][c]) for c in q.ORDER},
            "marks": list(state["marks"]), "discovered": list(state["discovered"]),
            "cities": [dict(c) for c in state["city_log"]], "travel_removed": list(state["travel_removed"]),
            "travel_added": sorted(c for c in state["travel_codes"] if c.isdigit())}
