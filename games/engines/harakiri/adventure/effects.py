"""Folding events into an Adventure Phase state (``evolve``), and an emitter that builds a list of
events while folding each into a working copy, so later steps read what earlier ones changed.

Every outcome (a die face, a drawn card, a shuffled order) is already in the event: nothing here
draws or validates.
"""

import orjson

from games.kernel import event as make_event

from . import queries as q


def _copy(value):
    """A deep copy of a JSON-shaped value (faster than copy.deepcopy for these states)."""
    return orjson.loads(orjson.dumps(value))


def _remaining_activations(state) -> bool:
    return any(not state["characters"][c]["activated"] for c in q.alive(state))


def _set_health(state, cid, health):
    state["characters"][cid]["health"] = health


def _defeat(state, cid):
    ch = state["characters"][cid]
    ch["defeated"] = True
    ch["location"] = None
    ch["ap"] = 0
    if state["flow"].get("active") == cid:
        state["flow"]["close"] = True


def _end_activation(state, cid):
    flow = state["flow"]
    flow.update(active=None, travel=None, close=False, event=None, shop=None)
    state["characters"][cid]["ap"] = 0
    flow["stage"] = "characters" if _remaining_activations(state) else "round_end"


def _queue_pop(state):
    queue = state["queue"]
    if queue:
        queue[0]["effects"].pop(0)
        while queue and not queue[0]["effects"]:
            queue.pop(0)


def apply(state, ev):
    """The state after ``ev`` (a new value; ``state`` is left alone)."""
    kind, p = ev["type"], ev["payload"]
    if kind == "AdventureStarted":
        return _copy(p["state"])
    s = _copy(state)
    chars, flow = s["characters"], s["flow"]
    if kind == "WeaponChosen":
        chars[p["character"]]["weapons"] = [p["weapon"]]
        chars[p["character"]]["equipped"] = p["weapon"]
        if all(chars[c]["equipped"] for c in chars):
            flow["stage"] = "shogun"
            flow["sub"] = "round"
    elif kind == "RoundStarted":
        s["round"] = p["round"]
        s["final"] = p["final"]
        flow.update(stage="shogun", sub="influence")
        for ch in chars.values():
            ch.update(activated=False, traveled=False, ap=0)
    elif kind == "InfluenceMoved":
        s["influence"] = p["to"]
        if flow["stage"] == "shogun" and flow["sub"] == "influence" and p["reason"] == "round":
            flow["sub"] = "card"
    elif kind == "InfluenceStepSkipped":
        flow["sub"] = "card"
    elif kind == "InfluenceDeckShuffled":
        s["decks"]["influence"] = list(p["order"])
        s["discard"]["influence"] = []
    elif kind == "InfluenceCardDrawn":
        s["decks"]["influence"].remove(p["card"])
        if s["influence_card"]:
            s["discard"]["influence"].append(s["influence_card"])
        s["influence_card"] = p["card"]
        flow["sub"] = "enemies"
    elif kind == "EnemiesTurnStarted":
        flow.update(stage="enemies", sub=None, enemies_left=list(p["enemies"]), next_enemy=None, tie=None)
    elif kind == "EnemyChosen":
        flow["next_enemy"] = p["enemy"]
    elif kind == "EnemyPathTied":
        flow["next_enemy"] = p["enemy"]
        flow["tie"] = {"enemy": p["enemy"], "options": list(p["options"]), "chosen": None}
    elif kind == "EnemyPathChosen":
        flow["tie"]["chosen"] = p["to"]
    elif kind == "EnemyMoved":
        s["enemies"][p["enemy"]]["location"] = p["path"][-1]
        if p["enemy"] in flow["enemies_left"]:
            flow["enemies_left"].remove(p["enemy"])
        flow.update(next_enemy=None, tie=None)
    elif kind == "EnemySpawned":
        s["enemies"][p["enemy"]["id"]] = dict(p["enemy"])
        s["enemy_seq"] = s["enemy_seq"] + 1
    elif kind == "EnemyRemoved":
        s["enemies"].pop(p["enemy"], None)
        if p["enemy"] in flow.get("enemies_left", []):
            flow["enemies_left"].remove(p["enemy"])
    elif kind == "CombatTested":
        for helper in p.get("helpers", []):
            chars[helper["character"]]["ap_penalty"] += 1
    elif kind == "HeadsGained":
        chars[p["character"]]["heads"] += p["amount"]
    elif kind == "CharactersTurnStarted":
        flow.update(stage="characters", enemies_left=[], next_enemy=None, tie=None)
        if not _remaining_activations(s):
            flow["stage"] = "round_end"
    elif kind == "CharacterActivated":
        ch = chars[p["character"]]
        ch.update(activated=True, ap=p["ap"], ap_penalty=0)
        flow.update(stage="activation", active=p["character"], travel=None, close=False, event=None)
    elif kind == "ActionPointsSpent":
        chars[p["character"]]["ap"] -= p["amount"]
    elif kind == "TravelStarted":
        flow["travel"] = {"mp": p["mp"], "group": list(p["group"]), "land": 0, "locations": 0, "paths": False,
                          "waves": False, "ended": False}
        chars[p["character"]]["traveled"] = True
        for other in p["group"]:
            chars[other]["traveled"] = True
            chars[other]["ap_penalty"] += 1
    elif kind == "Exerted":
        chars[p["character"]]["ap"] -= 1
        flow["travel"]["mp"] += 1
    elif kind == "Moved":
        for cid in p["characters"]:
            chars[cid]["location"] = p["to"]
        travel = flow["travel"]
        travel["mp"] -= 1
        travel["land"] += 1
        travel["locations"] += 1
        travel["paths"] = travel["paths"] or p["kind"] == "path"
    elif kind == "Sailed":
        for cid in p["characters"]:
            chars[cid]["location"] = p["to"]
        for cid, paid in p["paid"].items():
            chars[cid]["coins"] -= paid
        flow["travel"]["mp"] -= 3
        flow["travel"]["locations"] += 1
    elif kind == "GuidedByTheWaves":
        chars[p["character"]]["location"] = p["to"]
        chars[p["character"]]["waves_used"] = True
        flow["travel"]["mp"] -= 3
        flow["travel"]["locations"] += 1
        flow["travel"]["waves"] = True
    elif kind == "TravelEnded":
        if p["event_due"]:
            flow["travel"]["ended"] = True
        else:
            flow["travel"] = None
    elif kind == "TravelEventDrawn":
        s["decks"]["travel"].pop()
        flow["travel"] = None
        flow["event"] = {"card": p["card"], "side": p["side"], "remove": False}
    elif kind == "TravelCardRemovalMarked":
        if flow.get("event"):
            flow["event"]["remove"] = True
    elif kind == "TravelEventReturned":
        if p["removed"]:
            s["travel_removed"].append(p["card"])
        else:
            s["decks"]["travel"].insert(0, p["card"])
        flow["event"] = None
    elif kind == "TravelDeckShuffled":
        s["decks"]["travel"] = list(p["order"])
        s["travel_codes"] = list(p["codes"])
    elif kind == "QueuePushed":
        s["queue"].insert(0, {"effects": list(p["effects"]), "ctx": dict(p["ctx"])})
        if not s["queue"][0]["effects"]:
            s["queue"].pop(0)
    elif kind == "EffectPopped":
        _queue_pop(s)
    elif kind == "HealthChanged":
        _set_health(s, p["character"], p["health"])
    elif kind == "CharacterDefeated":
        _defeat(s, p["character"])
    elif kind == "CoinsChanged":
        chars[p["character"]]["coins"] = p["coins"]
    elif kind == "KarmaChanged":
        chars[p["character"]]["karma"] = p["karma"]
    elif kind == "CharacterDelayed":
        chars[p["character"]]["ap"] = 0
        if flow.get("active") == p["character"]:
            flow["close"] = True
    elif kind == "ChoiceOffered":
        s["choice"] = {"character": p["character"], "options": p["options"], "ctx": p["ctx"]}
    elif kind == "ChoiceMade":
        s["choice"] = None
    elif kind == "CityCaptured":
        if p["location"] not in s["cities"]["captured"]:
            s["cities"]["captured"].append(p["location"])
            s["city_log"].append({"location": p["location"], "status": "captured", "chapter": s["chapter"]})
    elif kind == "CityRazed":
        if p["location"] in s["cities"]["captured"]:
            s["cities"]["captured"].remove(p["location"])
        s["city_log"] = [c for c in s["city_log"] if c["location"] != p["location"]]
        s["city_log"].append({"location": p["location"], "status": "razed", "chapter": s["chapter"]})
        if p["location"] not in s["cities"]["razed"]:
            s["cities"]["razed"].append(p["location"])
    elif kind == "CityTokensDiscarded":
        for place in p["locations"]:
            for status in ("captured", "razed"):
                if place in s["cities"][status]:
                    s["cities"][status].remove(place)
        s["city_log"] = [c for c in s["city_log"] if c["location"] not in p["locations"]]
    elif kind == "MarkRecorded":
        if p["mark"] not in s["marks"]:
            s["marks"].append(p["mark"])
    elif kind == "LocationDiscovered":
        if p["location"] not in s["discovered"]:
            s["discovered"].append(p["location"])
    elif kind == "ItemGained":
        s["decks"]["market"].remove(p["item"])
        chars[p["character"]]["items"].append(p["item"])
    elif kind == "MissionRevealed":
        mission = s["missions"][str(p["mission"])]
        mission.update(status="active", token=None, starter=p["character"])
        mission["clan_tokens"][p["character"]] = list(p["clan_tokens"])
    elif kind == "ClanTokenResolved":
        s["missions"][str(p["mission"])]["clan_tokens"][p["character"]].remove(p["location"])
    elif kind == "MissionCompleted":
        mission = s["missions"][str(p["mission"])]
        mission.update(status="completed", token=None, clan_tokens={})
        s["missions_completed"].append(p["mission"])
    elif kind == "MissionFailed":
        s["missions"][str(p["mission"])].update(status="failed", token=None, clan_tokens={})
    elif kind == "MissionsSettled":
        flow["sub"] = "regain"
    elif kind == "PersonalMissionCompleted":
        s["personal"][p["character"]]["status"] = "completed"
    elif kind == "AffinityRaised":
        ch = chars[p["character"]]
        ch["karma"] -= p["karma"]
        ch["affinity"] = p["affinity"]
    elif kind == "ShopOpened":
        flow["shop"] = {"kind": p["service"], "bought": False, "revealed": list(p.get("revealed", []))}
    elif kind == "EquipmentBought":
        ch = chars[p["character"]]
        ch["coins"] -= p["cost"]
        flow["shop"]["bought"] = True
        if p["slot"] == "armor":
            ch["armor"] = p["card"]
            ch["armor_value"] = p["armor_value"]
        else:
            ch["weapons"].append(p["card"])
            ch["equipped"] = ch["equipped"] or p["card"]
    elif kind == "EquipmentSold":
        ch = chars[p["character"]]
        ch["coins"] += p["coins"]
        if p["card"] == ch["armor"]:
            ch["armor"], ch["armor_value"] = None, 0
        else:
            ch["weapons"].remove(p["card"])
            if ch["equipped"] == p["card"]:
                ch["equipped"] = ch["weapons"][0] if ch["weapons"] else None
    elif kind == "ArmorRepaired":
        chars[p["character"]]["coins"] -= p["cost"]
        chars[p["character"]]["armor_value"] = p["armor_value"]
    elif kind == "ItemBought":
        chars[p["character"]]["coins"] -= p["cost"]
        chars[p["character"]]["items"].append(p["item"])
        flow["shop"]["revealed"].remove(p["item"])
        s["decks"]["market"].remove(p["item"])
    elif kind == "ItemSold":
        chars[p["character"]]["coins"] += p["coins"]
        chars[p["character"]]["items"].remove(p["item"])
        s["decks"]["market"].append(p["item"])
    elif kind == "HeadsSold":
        ch = chars[p["character"]]
        ch["heads"] -= p["heads"]
        ch["boss_heads"] -= p["boss_heads"]
        ch["coins"] += p["coins"]
    elif kind == "ShopClosed":
        flow["shop"] = None
        if "market_order" in p:
            s["decks"]["market"] = list(p["market_order"])
    elif kind == "Given":
        giver, taker = chars[p["character"]], chars[p["to"]]
        what = p["what"]
        if what in ("coins", "heads"):
            giver[what] -= p["amount"]
            taker[what] += p["amount"]
        elif what in giver["weapons"]:
            giver["weapons"].remove(what)
            if giver["equipped"] == what:
                giver["equipped"] = giver["weapons"][0] if giver["weapons"] else None
            taker["weapons"].append(what)
            taker["equipped"] = taker["equipped"] or what
        else:
            giver["items"].remove(what)
            taker["items"].append(what)
    elif kind == "InformationShared":
        mission = s["missions"][str(p["mission"])]
        mission["clan_tokens"][p["to"]] = list(p["clan_tokens"])
        if p["omamori"]:
            s["omamori_used"] = True
    elif kind == "ItemUsed":
        ch = chars[p["character"]]
        if p["spent"]:
            ch["items"].remove(p["item"])
            ch["item_uses"].pop(p["item"], None)
            s["decks"]["market"] = list(p["market_order"])
        else:
            ch["item_uses"][p["item"]] = p["uses_left"]
        if p["movement"] and flow["travel"]:
            flow["travel"]["mp"] += p["movement"]
    elif kind == "SpecialLocationVisited":
        chars[p["character"]]["specials_used"].append(p["location"])
    elif kind == "ItemDiscarded":
        chars[p["character"]]["items"].remove(p["item"])
        chars[p["character"]]["item_uses"].pop(p["item"], None)
        s["decks"]["market"] = list(p["market_order"])
    elif kind == "ActivationEnded":
        _end_activation(s, p["character"])
    elif kind == "RoundEnded":
        flow["stage"] = "shogun"
        flow["sub"] = "round"
    elif kind == "WeaponSwapped":
        chars[p["character"]]["equipped"] = p["equipped"]
    elif kind == "PhaseEnded":
        s["result"] = {"outcome": p["outcome"], "reason": p["reason"]}
        s["queue"] = []
        s["choice"] = None
        flow.update(stage="ending", sub="resurrect", active=None, travel=None, event=None, close=False, shop=None,
                    tie=None, next_enemy=None, enemies_left=[], loss=None, resurrected=[])
    elif kind == "CharacterResurrected":
        ch = chars[p["character"]]
        ch.update(defeated=False, health=p["health"], location=p["location"])
        flow["resurrected"].append(p["character"])
        if p["loses_attribute"]:
            flow["loss"] = p["character"]
    elif kind == "AttributeLost":
        chars[p["character"]]["attributes"][p["attribute"]] -= 1
        flow["loss"] = None
    elif kind == "SectionRead":
        flow["sub"] = "missions"
    elif kind == "AdventureFinished":
        flow["stage"] = "finished"
        flow["sub"] = None
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
