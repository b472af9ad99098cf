"""Folding events into an Adventure Phase state (``evolve``), and an emitter that builds a list of
events while folding each into a working copy, so later steps read what earlier ones changed.

Every outcome (a die face, a drawn card, a shuffled order) is already in the event: nothing here
draws or validates.
"""

from games.kernel import event as make_event
from games.kernel import json_copy

from .. import leaving
from . import queries as q


def _remaining_activations(state) -> bool:
    return any(not state["characters"][c]["activated"] for c in q.alive(state))


def _set_health(state, cid, health):
    state["characters"][cid]["health"] = health


def _defeat(state, cid):
    ch = state["characters"][cid]
    ch["defeated"] = True
    ch["defeated_in_phase"] = True  # Yomi Mode: "mark a box ... for each character who was defeated"
    ch["location"] = None
    ch["ap"] = 0
    if state["flow"].get("active") == cid:
        state["flow"]["close"] = True


def _end_activation(state, cid):
    flow = state["flow"]
    # "Once a group travel action ends, the active character will continue their activation. Then,
    # other group members will complete their activations."
    flow["next_up"] = [c for c in flow.get("group_members", []) if not state["characters"][c]["activated"]]
    flow.update(active=None, travel=None, close=False, event=None, shop=None, group_members=[])
    state["characters"][cid]["ap"] = 0
    flow["stage"] = "characters" if _remaining_activations(state) else "round_end"


def _queue_pop(state):
    queue = state["queue"]
    if queue:
        queue[0]["effects"].pop(0)
        while queue and not queue[0]["effects"]:
            queue.pop(0)


def _prepared(s):
    if all(q.prepared(ch) for ch in s["characters"].values()):
        s["flow"]["stage"] = "shogun"
        s["flow"]["sub"] = "round"


def _weapon_chosen(s, p):
    chars = s["characters"]
    chars[p["character"]]["weapons"] = [p["weapon"]]
    chars[p["character"]]["equipped"] = p["weapon"]
    _prepared(s)


def _kami_chosen(s, p):
    s["characters"][p["character"]].update(kami=p["kami"], kami_chosen=True)
    _prepared(s)


def _group_proposed(s, p):
    s["flow"]["proposal"] = {"character": p["character"], "group": list(p["group"]), "waiting": list(p["seats"]),
                             "refused": []}


def _group_answered(s, p):
    proposal = s["flow"]["proposal"]
    proposal["waiting"].remove(p["seat"])
    if not p["agree"]:
        proposal["refused"].append(p["seat"])


def _sheet_marks_read(s, p):
    s["sheet_marks_read"] = True
    s["sheet_marks_applied"] = [dict(m) for m in p["marks"]]


def _round_started(s, p):
    chars = s["characters"]
    flow = s["flow"]
    s["round"] = p["round"]
    s["final"] = p["final"]
    flow.update(stage="shogun", sub="influence", next_up=[], group_members=[])
    for ch in chars.values():
        ch.update(activated=False, traveled=False, ap=0)


def _influence_moved(s, p):
    flow = s["flow"]
    s["influence"] = p["to"]
    if flow["stage"] == "shogun" and flow["sub"] == "influence" and p["reason"] == "round":
        flow["sub"] = "card"


def _influence_step_skipped(s, p):
    flow = s["flow"]
    flow["sub"] = "card"


def _influence_deck_shuffled(s, p):
    s["decks"]["influence"] = list(p["order"])
    s["discard"]["influence"] = []


def _influence_card_drawn(s, p):
    flow = s["flow"]
    s["decks"]["influence"].remove(p["card"])
    if s["influence_card"]:
        s["discard"]["influence"].append(s["influence_card"])
    s["influence_card"] = p["card"]
    flow["sub"] = "enemies"


def _enemies_turn_started(s, p):
    flow = s["flow"]
    flow.update(stage="enemies", sub=None, enemies_left=list(p["enemies"]), next_enemy=None, tie=None)


def _enemy_chosen(s, p):
    flow = s["flow"]
    flow["next_enemy"] = p["enemy"]


def _enemy_path_tied(s, p):
    flow = s["flow"]
    flow["next_enemy"] = p["enemy"]
    flow["tie"] = {"enemy": p["enemy"], "options": list(p["options"]), "chosen": None}


def _enemy_path_chosen(s, p):
    flow = s["flow"]
    flow["tie"]["chosen"] = p["to"]


def _enemy_moved(s, p):
    flow = s["flow"]
    s["enemies"][p["enemy"]]["location"] = p["path"][-1]
    if p["enemy"] in flow["enemies_left"]:
        flow["enemies_left"].remove(p["enemy"])
    flow.update(next_enemy=None, tie=None)


def _enemy_spawned(s, p):
    s["enemies"][p["enemy"]["id"]] = dict(p["enemy"])
    s["enemy_seq"] = s["enemy_seq"] + 1


def _enemy_removed(s, p):
    flow = s["flow"]
    s["enemies"].pop(p["enemy"], None)
    if p["enemy"] in flow.get("enemies_left", []):
        flow["enemies_left"].remove(p["enemy"])


def _combat_tested(s, p):
    chars = s["characters"]
    for helper in p.get("helpers", []):
        chars[helper["character"]]["ap_penalty"] += 1


def _heads_gained(s, p):
    chars = s["characters"]
    chars[p["character"]]["heads"] += p["amount"]


def _characters_turn_started(s, p):
    flow = s["flow"]
    flow.update(stage="characters", enemies_left=[], next_enemy=None, tie=None)
    if not _remaining_activations(s):
        flow["stage"] = "round_end"


def _character_activated(s, p):
    chars = s["characters"]
    flow = s["flow"]
    ch = chars[p["character"]]
    ch.update(activated=True, ap=p["ap"], ap_penalty=0)
    flow.update(stage="activation", active=p["character"], travel=None, close=False, event=None, group_members=[])
    flow["next_up"] = [c for c in flow.get("next_up", []) if c != p["character"]]


def _action_points_spent(s, p):
    chars = s["characters"]
    chars[p["character"]]["ap"] -= p["amount"]


def _travel_started(s, p):
    chars = s["characters"]
    flow = s["flow"]
    flow["travel"] = {"mp": p["mp"], "group": list(p["group"]), "land": 0, "locations": 0, "paths": False,
                      "waves": False, "ended": False}
    chars[p["character"]]["traveled"] = True
    flow["proposal"] = None
    flow["group_members"] = list(p["group"])
    for other in p["group"]:
        chars[other]["traveled"] = True
        chars[other]["ap_penalty"] += 1


def _exerted(s, p):
    chars = s["characters"]
    flow = s["flow"]
    chars[p["character"]]["ap"] -= 1
    flow["travel"]["mp"] += 1


def _moved(s, p):
    chars = s["characters"]
    flow = s["flow"]
    for cid in p["characters"]:
        chars[cid]["location"] = p["to"]
    travel = flow["travel"]
    travel["mp"] -= 1
    travel["land"] += 1
    travel["locations"] += 1
    travel["paths"] = travel["paths"] or p["kind"] == "path"


def _sailed(s, p):
    chars = s["characters"]
    flow = s["flow"]
    for cid in p["characters"]:
        chars[cid]["location"] = p["to"]
    for cid, paid in p["paid"].items():
        chars[cid]["coins"] -= paid
    flow["travel"]["mp"] -= 3
    flow["travel"]["locations"] += 1


def _guided_by_the_waves(s, p):
    chars = s["characters"]
    flow = s["flow"]
    chars[p["character"]]["location"] = p["to"]
    flow["travel"]["mp"] -= 3
    flow["travel"]["locations"] += 1
    flow["travel"]["waves"] = True


def _kami_skill_used(s, p):
    ch = s["characters"][p["character"]]
    ch["ap"] -= p["ap"]
    ch["kami_used"] = True  # "They can only be activated once per phase"


def _travel_ended(s, p):
    flow = s["flow"]
    if p["event_due"]:
        flow["travel"]["ended"] = True
    else:
        flow["travel"] = None


def _travel_event_drawn(s, p):
    flow = s["flow"]
    s["decks"]["travel"].pop()
    flow["travel"] = None
    flow["event"] = {"card": p["card"], "side": p["side"], "remove": False}


def _travel_card_removal_marked(s, p):
    flow = s["flow"]
    if flow.get("event"):
        flow["event"]["remove"] = True


def _travel_event_returned(s, p):
    flow = s["flow"]
    if p["removed"]:
        s["travel_removed"].append(p["card"])
    else:
        s["decks"]["travel"].insert(0, p["card"])
    flow["event"] = None


def _travel_deck_shuffled(s, p):
    s["decks"]["travel"] = list(p["order"])
    s["travel_codes"] = list(p["codes"])


def _queue_pushed(s, p):
    s["queue"].insert(0, {"effects": list(p["effects"]), "ctx": dict(p["ctx"])})
    if not s["queue"][0]["effects"]:
        s["queue"].pop(0)


def _effect_popped(s, p):
    _queue_pop(s)


def _health_changed(s, p):
    _set_health(s, p["character"], p["health"])


def _character_defeated(s, p):
    _defeat(s, p["character"])


def _coins_changed(s, p):
    chars = s["characters"]
    chars[p["character"]]["coins"] = p["coins"]


def _karma_changed(s, p):
    chars = s["characters"]
    chars[p["character"]]["karma"] = p["karma"]


def _character_delayed(s, p):
    chars = s["characters"]
    flow = s["flow"]
    chars[p["character"]]["ap"] = 0
    if flow.get("active") == p["character"]:
        flow["close"] = True


def _choice_offered(s, p):
    s["choice"] = {"character": p["character"], "options": p["options"], "ctx": p["ctx"]}


def _choice_made(s, p):
    s["choice"] = None


def _city_captured(s, p):
    if p["location"] not in s["cities"]["captured"]:
        s["cities"]["captured"].append(p["location"])
        s["city_log"].append({"location": p["location"], "status": "captured", "chapter": s["chapter"]})


def _city_razed(s, p):
    if p["location"] in s["cities"]["captured"]:
        s["cities"]["captured"].remove(p["location"])
    s["city_log"] = [c for c in s["city_log"] if c["location"] != p["location"]]
    s["city_log"].append({"location": p["location"], "status": "razed", "chapter": s["chapter"]})
    if p["location"] not in s["cities"]["razed"]:
        s["cities"]["razed"].append(p["location"])


def _city_tokens_discarded(s, p):
    for place in p["locations"]:
        for status in ("captured", "razed"):
            if place in s["cities"][status]:
                s["cities"][status].remove(place)
    s["city_log"] = [c for c in s["city_log"] if c["location"] not in p["locations"]]


def _mark_recorded(s, p):
    if p["mark"] not in s["marks"]:
        s["marks"].append(p["mark"])


def _location_discovered(s, p):
    if p["location"] not in s["discovered"]:
        s["discovered"].append(p["location"])


def _item_gained(s, p):
    chars = s["characters"]
    s["decks"]["market"].remove(p["item"])
    chars[p["character"]]["items"].append(p["item"])


def _mission_revealed(s, p):
    mission = s["missions"][str(p["mission"])]
    mission.update(status="active", token=None, starter=p["character"])
    for cid in p.get("placed_by", [p["character"]]):
        mission["clan_tokens"][cid] = list(p["clan_tokens"])


def _mission_placed(s, p):
    s["missions"][str(p["mission"])].update(status="hidden", token=p["token"])


def _book_read(s) -> dict:
    """What of the campaign book has been read (a state folded from a snapshot taken before this
    record existed starts it here)."""
    return s.setdefault("book_read", {"clan_tokens": {}, "ending": None})


def _clan_token_resolved(s, p):
    s["missions"][str(p["mission"])]["clan_tokens"][p["character"]].remove(p["location"])
    places = _book_read(s)["clan_tokens"].setdefault(str(p["mission"]), [])
    if p["location"] not in places:  # the entry read (book.py shows it from now on)
        places.append(p["location"])


def _mission_completed(s, p):
    mission = s["missions"][str(p["mission"])]
    mission.update(status="completed", token=None, clan_tokens={})
    s["missions_completed"].append(p["mission"])


def _mission_failed(s, p):
    s["missions"][str(p["mission"])].update(status="failed", token=None, clan_tokens={})


def _missions_settled(s, p):
    flow = s["flow"]
    flow["sub"] = "kami"


def _kami_unlocked(s, p):
    s["unlocked_kami"].append({"kami": p["kami"], "character": p["character"], "decided": False})


def _kami_changed(s, p):
    offer = next(o for o in s["unlocked_kami"] if not o["decided"])
    offer.update(decided=True, taken_by=p["character"])
    if p["character"]:
        # "Characters who replace their Kami maintain their current affinity level"
        s["characters"][p["character"]]["kami"] = p["kami"]


def _kami_changes_settled(s, p):
    s["flow"]["sub"] = "regain"


def _blessed_changed(s, p):
    s["characters"][p["character"]]["blessed"] = p["blessed"]


def _token_gained(s, p):
    s["characters"][p["character"]]["tokens"].append(p["token"])


def _token_lost(s, p):
    s["characters"][p["character"]]["tokens"].remove(p["token"])


def _personal_mission_completed(s, p):
    s["personal"][p["character"]]["status"] = "completed"


def _affinity_raised(s, p):
    chars = s["characters"]
    ch = chars[p["character"]]
    ch["karma"] -= p["karma"]
    ch["affinity"] = p["affinity"]


def _shop_opened(s, p):
    flow = s["flow"]
    flow["shop"] = {"kind": p["service"], "bought": False, "revealed": list(p.get("revealed", []))}


def _equipment_bought(s, p):
    chars = s["characters"]
    flow = s["flow"]
    ch = chars[p["character"]]
    ch["coins"] -= p["cost"]
    flow["shop"]["bought"] = True
    if p["slot"] == "armor":
        ch["armor"] = p["card"]
        ch["armor_value"] = p["armor_value"]
    else:
        ch["weapons"].append(p["card"])
        ch["equipped"] = ch["equipped"] or p["card"]


def _equipment_sold(s, p):
    chars = s["characters"]
    ch = chars[p["character"]]
    ch["coins"] += p["coins"]
    if p["card"] == ch["armor"]:
        ch["armor"], ch["armor_value"] = None, 0
    else:
        ch["weapons"].remove(p["card"])
        if ch["equipped"] == p["card"]:
            ch["equipped"] = ch["weapons"][0] if ch["weapons"] else None


def _armor_repaired(s, p):
    chars = s["characters"]
    chars[p["character"]]["coins"] -= p["cost"]
    chars[p["character"]]["armor_value"] = p["armor_value"]


def _item_bought(s, p):
    chars = s["characters"]
    flow = s["flow"]
    chars[p["character"]]["coins"] -= p["cost"]
    chars[p["character"]]["items"].append(p["item"])
    flow["shop"]["revealed"].remove(p["item"])
    s["decks"]["market"].remove(p["item"])


def _item_sold(s, p):
    chars = s["characters"]
    chars[p["character"]]["coins"] += p["coins"]
    chars[p["character"]]["items"].remove(p["item"])
    if p["item"] not in chars[p["character"]]["items"]:
        chars[p["character"]]["item_uses"].pop(p["item"], None)
    s["decks"]["market"].append(p["item"])


def _heads_sold(s, p):
    chars = s["characters"]
    ch = chars[p["character"]]
    ch["heads"] -= p["heads"]
    ch["boss_heads"] -= p["boss_heads"]
    ch["coins"] += p["coins"]


def _shop_closed(s, p):
    flow = s["flow"]
    flow["shop"] = None
    if "market_order" in p:
        s["decks"]["market"] = list(p["market_order"])


def _own_class_weapon(ch):
    """The weapon a character without one equips: one of its own class (another class's is carried)."""
    return next((w for w in ch["weapons"] if q.BLACKSMITH[w]["class"] == ch["class"]), None)


def _given(s, p):
    chars = s["characters"]
    giver, taker = chars[p["character"]], chars[p["to"]]
    what = p["what"]
    if what in ("coins", "heads", "boss_heads"):
        giver[what] -= p["amount"]
        taker[what] += p["amount"]
    elif what == "armor":
        # an exchange when both wear one (at most 1 item of armor each), else handed over
        mine, theirs = (giver["armor"], giver["armor_value"]), (taker["armor"], taker["armor_value"])
        (taker["armor"], taker["armor_value"]), (giver["armor"], giver["armor_value"]) = mine, theirs
        if giver["armor"] is None:
            giver["armor_value"] = 0
    elif what in giver.get("tokens", []):
        giver["tokens"].remove(what)
        taker["tokens"].append(what)
    elif what in giver["weapons"]:
        giver["weapons"].remove(what)
        if giver["equipped"] == what:
            giver["equipped"] = _own_class_weapon(giver)
        taker["weapons"].append(what)
        taker["equipped"] = taker["equipped"] or _own_class_weapon(taker)
    else:
        giver["items"].remove(what)
        taker["items"].append(what)
        if what not in giver["items"] and what in giver["item_uses"]:  # its "Uses: X" tokens go with it
            taker["item_uses"][what] = giver["item_uses"].pop(what)


def _information_shared(s, p):
    mission = s["missions"][str(p["mission"])]
    mission["clan_tokens"][p["to"]] = list(p["clan_tokens"])
    if p["omamori"]:
        s["omamori_used"] = True


def _item_used(s, p):
    chars = s["characters"]
    flow = s["flow"]
    ch = chars[p["character"]]
    if p["spent"]:
        ch["items"].remove(p["item"])
        ch["item_uses"].pop(p["item"], None)
        s["decks"]["market"] = list(p["market_order"])
    else:
        ch["item_uses"][p["item"]] = p["uses_left"]
    if p["movement"] and flow["travel"]:
        flow["travel"]["mp"] += p["movement"]


def _special_location_visited(s, p):
    chars = s["characters"]
    chars[p["character"]]["specials_used"].append(p["location"])


def _item_discarded(s, p):
    chars = s["characters"]
    chars[p["character"]]["items"].remove(p["item"])
    chars[p["character"]]["item_uses"].pop(p["item"], None)
    s["decks"]["market"] = list(p["market_order"])


def _activation_ended(s, p):
    _end_activation(s, p["character"])


def _round_ended(s, p):
    flow = s["flow"]
    flow["stage"] = "shogun"
    flow["sub"] = "round"


def _weapon_swapped(s, p):
    chars = s["characters"]
    chars[p["character"]]["equipped"] = p["equipped"]


def _phase_ended(s, p):
    flow = s["flow"]
    s["result"] = {"outcome": p["outcome"], "reason": p["reason"]}
    _book_read(s)["ending"] = p.get("text")  # the section the phase ended with, read now
    s["queue"] = []
    s["choice"] = None
    flow.update(stage="ending", sub="resurrect", active=None, travel=None, event=None, close=False, shop=None,
                tie=None, next_enemy=None, enemies_left=[], loss=None, resurrected=[])


def _character_resurrected(s, p):
    chars = s["characters"]
    flow = s["flow"]
    ch = chars[p["character"]]
    ch.update(defeated=False, health=p["health"], location=p["location"])
    flow["resurrected"].append(p["character"])
    if p["loses_attribute"]:
        flow["loss"] = p["character"]


def _attribute_lost(s, p):
    chars = s["characters"]
    flow = s["flow"]
    chars[p["character"]]["attributes"][p["attribute"]] -= 1
    flow["loss"] = None


def _section_read(s, p):
    flow = s["flow"]
    flow["sub"] = "missions"


def _adventure_finished(s, p):
    flow = s["flow"]
    flow["stage"] = "finished"
    flow["sub"] = None


def _seat_left(s, p):
    """A player resigned (``concede.py``): their characters pass to ``to``; a group travel's question
    they had not answered goes to ``waiting`` (the seats still to answer, decided with the event)."""
    leaving.apply_left(s, p)
    proposal = s["flow"].get("proposal")
    if proposal and "waiting" in p:
        proposal["waiting"] = list(p["waiting"])


def _party_left(s, p):
    """The last player left: the phase ends, failed, with no one to play it."""
    s["result"] = {"outcome": "failure", "reason": "every player left"}
    s["queue"] = []
    s["choice"] = None
    s["flow"].update(stage="finished", sub=None)


# One handler per event type; events with no state change (HitsTaken, TestRolled...) have none.
HANDLERS = {
    leaving.SEAT_LEFT: _seat_left,
    leaving.PARTY_LEFT: _party_left,
    "WeaponChosen": _weapon_chosen,
    "KamiChosen": _kami_chosen,
    "GroupProposed": _group_proposed,
    "GroupAnswered": _group_answered,
    "SheetMarksRead": _sheet_marks_read,
    "RoundStarted": _round_started,
    "InfluenceMoved": _influence_moved,
    "InfluenceStepSkipped": _influence_step_skipped,
    "InfluenceDeckShuffled": _influence_deck_shuffled,
    "InfluenceCardDrawn": _influence_card_drawn,
    "EnemiesTurnStarted": _enemies_turn_started,
    "EnemyChosen": _enemy_chosen,
    "EnemyPathTied": _enemy_path_tied,
    "EnemyPathChosen": _enemy_path_chosen,
    "EnemyMoved": _enemy_moved,
    "EnemySpawned": _enemy_spawned,
    "EnemyRemoved": _enemy_removed,
    "CombatTested": _combat_tested,
    "HeadsGained": _heads_gained,
    "CharactersTurnStarted": _characters_turn_started,
    "CharacterActivated": _character_activated,
    "ActionPointsSpent": _action_points_spent,
    "TravelStarted": _travel_started,
    "Exerted": _exerted,
    "Moved": _moved,
    "Sailed": _sailed,
    "GuidedByTheWaves": _guided_by_the_waves,
    "TravelEnded": _travel_ended,
    "KamiSkillActivated": _kami_skill_used,
    "TravelEventDrawn": _travel_event_drawn,
    "TravelCardRemovalMarked": _travel_card_removal_marked,
    "TravelEventReturned": _travel_event_returned,
    "TravelDeckShuffled": _travel_deck_shuffled,
    "QueuePushed": _queue_pushed,
    "EffectPopped": _effect_popped,
    "HealthChanged": _health_changed,
    "CharacterDefeated": _character_defeated,
    "CoinsChanged": _coins_changed,
    "KarmaChanged": _karma_changed,
    "CharacterDelayed": _character_delayed,
    "ChoiceOffered": _choice_offered,
    "ChoiceMade": _choice_made,
    "CityCaptured": _city_captured,
    "CityRazed": _city_razed,
    "CityTokensDiscarded": _city_tokens_discarded,
    "MarkRecorded": _mark_recorded,
    "LocationDiscovered": _location_discovered,
    "ItemGained": _item_gained,
    "MissionRevealed": _mission_revealed,
    "ClanTokenResolved": _clan_token_resolved,
    "MissionCompleted": _mission_completed,
    "MissionPlaced": _mission_placed,
    "MissionFailed": _mission_failed,
    "MissionsSettled": _missions_settled,
    "KamiUnlocked": _kami_unlocked,
    "KamiChanged": _kami_changed,
    "KamiChangesSettled": _kami_changes_settled,
    "BlessedChanged": _blessed_changed,
    "TokenGained": _token_gained,
    "TokenLost": _token_lost,
    "PersonalMissionCompleted": _personal_mission_completed,
    "AffinityRaised": _affinity_raised,
    "ShopOpened": _shop_opened,
    "EquipmentBought": _equipment_bought,
    "EquipmentSold": _equipment_sold,
    "ArmorRepaired": _armor_repaired,
    "ItemBought": _item_bought,
    "ItemSold": _item_sold,
    "HeadsSold": _heads_sold,
    "ShopClosed": _shop_closed,
    "Given": _given,
    "InformationShared": _information_shared,
    "ItemUsed": _item_used,
    "SpecialLocationVisited": _special_location_visited,
    "ItemDiscarded": _item_discarded,
    "ActivationEnded": _activation_ended,
    "RoundEnded": _round_ended,
    "WeaponSwapped": _weapon_swapped,
    "PhaseEnded": _phase_ended,
    "CharacterResurrected": _character_resurrected,
    "AttributeLost": _attribute_lost,
    "SectionRead": _section_read,
    "AdventureFinished": _adventure_finished,
}


CHARACTER_DEFAULTS = {"blessed": 0, "tokens": [], "defeated_in_phase": False, "kami_chosen": True}
STATE_DEFAULTS = {"unlocked_kami": [], "book_read": {"clan_tokens": {}, "ending": None}, "sheet_marks_applied": []}
FLOW_DEFAULTS = {"next_up": [], "group_members": [], "proposal": None}


def upgrade(state):
    """An ``AdventureStarted`` state as this version reads it: what a match begun before blessed
    tokens, carried tokens, unlocked Kami, group activations and the campaign book's record
    (``book_read``) existed lacks is filled in."""
    for ch in state["characters"].values():
        for key, value in CHARACTER_DEFAULTS.items():
            ch.setdefault(key, json_copy(value))
        # before the level 1 Kami skills cost an action point, only Guided by the Waves was once per phase
        ch.setdefault("kami_used", bool(ch.get("waves_used", False)))
    for key, value in STATE_DEFAULTS.items():
        state.setdefault(key, json_copy(value))
    for key, value in FLOW_DEFAULTS.items():
        state["flow"].setdefault(key, json_copy(value))
    return state


def apply(state, ev):
    """The state after ``ev`` (a new value; ``state`` is left alone)."""
    if ev["type"] == "AdventureStarted":
        return upgrade(json_copy(ev["payload"]["state"]))
    s = json_copy(state)
    handler = HANDLERS.get(ev["type"])
    if handler:
        handler(s, ev["payload"])
    return s


class Emitter:
    """Collects events while folding each into ``state``."""

    def __init__(self, state):
        self.state = state
        self.events = []

    def emit(self, type_: str, payload: dict | None = None):
        ev = make_event(type_, payload or {})
        self.events.append(ev)
        self.state = apply(self.state, ev)
        return ev
