"""Adventure Phase events in words: ``describe(event, seat, names)`` (docs/engines.md, "describe").

A pure function of one event as ``redact_event`` left it. It names characters, places, weapons,
armors, items, Kami, marks, travel events and influence cards from the public content pack, and
reads a mission's title, a section's text or a carried token's name only from the event itself: the
campaign book's entries are read out in the events that reveal them, never before (the canary in
``tests/engines/harakiri_adventure/test_campaign_book.py``). The effect queue's events read ``""``.

Nine event types share their name with an Exploration Phase event; ``owns`` tells them apart by
their payload (the Exploration Phase's name who acted with ``who``, or carry ``result``/``next_round``).
"""

from games.kernel.narration import listing, seat_name, sentence

from .content import ACT1, BLACKSMITH, CHARACTERS, INFLUENCE_CARDS, KAMI, MAP, MARKET, TOKENS, TRAVEL_EVENTS

BOOKKEEPING = frozenset({"QueuePushed", "EffectPopped"})
SHARED = frozenset({"HealthChanged", "CharacterDefeated", "CharacterResurrected", "EnemySpawned", "ItemUsed",
                    "PhaseEnded", "RoundEnded", "WeaponSwapped", "KarmaChanged"})


def owns(event: dict) -> bool:
    """An Adventure Phase event (the facade describes the others with the Exploration Phase's words)."""
    t, p = event.get("type"), event.get("payload")
    if t in SHARED:
        return isinstance(p, dict) and not ({"who", "result", "next_round"} & set(p))
    return t in SENTENCES or t in BOOKKEEPING


def plural(n, word, many=None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def pretty(token) -> str:
    return str(token if token is not None else "").replace("_", " ")


def char(cid) -> str:
    return CHARACTERS.get(cid, {}).get("name") or pretty(cid).title() or "someone"


def chars(cids) -> str:
    return listing(char(c) for c in cids or [])


def place(loc) -> str:
    return MAP["locations"].get(loc, {}).get("name") or pretty(loc).title()


def card(card_id) -> str:
    """A weapon, armor, market item or carried token (a token only ever named once it is carried)."""
    for deck in (BLACKSMITH, MARKET, TOKENS):
        if card_id in deck:
            return deck[card_id].get("name", pretty(card_id))
    return pretty(card_id)


def kami(kami_id) -> str:
    return KAMI.get(kami_id, {}).get("name") or pretty(kami_id).title()


def kami_skill(skill_id) -> str:
    for k in KAMI.values():
        for sk in k.get("skills", []):
            if sk["id"] == skill_id:
                return sk["name"]
    return "a Kami skill"


def enemy(enemy_id) -> str:
    """An enemy of the map ("blue_kachi"), as the board names it: "the blue kachi"."""
    return f"the {pretty(enemy_id)}"


def mark(mark_id) -> str:
    return f"“{ACT1.get('marks', {}).get(mark_id, pretty(mark_id))}”"


def _health(p, seat, names):
    who, d, now = char(p.get("character")), p.get("delta") or 0, p.get("health")
    cause = CAUSES.get(p.get("cause"), pretty(p.get("cause")))
    why = f" ({cause})" if cause else ""
    if d > 0:
        return f"{who} regains {d} health, now {now}{why}"
    if d < 0:
        return f"{who} loses {-d} health, now {now}{why}"
    return f"{who}'s health stays at {now}{why}"


CAUSES = {"hits": "hits", "damage": "damage", "camp": "camping", "inn": "a night at the inn", "healing_wave": "Healing Wave",
          "the_holy_one": "The Holy One", "phase_success": "the phase's success", "effect": "",
          "travel_event": "travel event", "mission": "mission", "personal_mission": "personal mission",
          "influence": "the Shōgun's influence", "trigger": "the round's entry", "item": "item", "enemy": "enemy",
          "special_location": "special location", "section": "the chapter's section", "preparation": "the campaign sheet",
          "vital_absorption": "Vital Absorption"}


def _counted(field, word, many=None):
    def say(p, seat, names):
        who, d, now = char(p.get("character")), p.get("delta") or 0, p.get(field)
        verb = "gains" if d >= 0 else "loses"
        return f"{who} {verb} {plural(abs(d), word, many)}, now {now}"
    return say


ACTIONS = {"attack": "attack", "work": "work (2 coins)", "camp": "camp", "mission": "reveal a mission",
           "clan_token": "interact with a clan token", "personal_mission": "complete a personal mission",
           "port": "use the port", "inn": "rest at the inn", "sanctuary": "pray at the sanctuary",
           "blacksmith": "visit the blacksmith", "market": "visit the market",
           "special_location": "explore the special location", "travel": "travel"}


def _spent(p, seat, names):
    what = ACTIONS.get(p.get("action"), pretty(p.get("action")))
    return f"{char(p.get('character'))} spends {plural(p.get('amount', 1), 'action point')} to {what}"


def _moved(p, seat, names):
    group = p.get("characters") or []
    verb = "travels" if len(group) == 1 else "travel"
    how = {"road": " by the imperial road", "path": " by a dangerous path"}.get(p.get("kind"), "")
    return f"{chars(group)} {verb} to {place(p.get('to'))}{how}"


def _sailed(p, seat, names):
    group = p.get("characters") or []
    paid = [f"{char(c)} {plural(n, 'coin')}" for c, n in (p.get("paid") or {}).items()]
    return f"{chars(group)} {'sails' if len(group) == 1 else 'sail'} to {place(p.get('to'))}" + (
        f" (fare paid: {listing(paid)})" if paid else "")


def _travel_started(p, seat, names):
    group = f", taking {chars(p['group'])} along" if p.get("group") else ""
    return f"{char(p.get('character'))} travels with {plural(p.get('mp'), 'movement point')}{group}"


def _travel_ended(p, seat, names):
    who = char(p.get("character"))
    if p.get("reason") == "deck_empty":
        return f"{who}'s travel ends: the travel deck is empty, no event"
    return f"{who}'s travel ends" + (": a travel event follows" if p.get("event_due") else "")


def _travel_event(p, seat, names):
    side = p.get("side")
    title = (TRAVEL_EVENTS.get(p.get("card"), {}).get(side) or {}).get("title", "a travel event")
    chaos = f" (Chaos Unleashed rolled {p['chaos_roll']})" if p.get("chaos_roll") is not None else ""
    return f"{char(p.get('character'))} meets a travel event: {title} ({side} side){chaos}"


def _die_value(d) -> str:
    """A combat die's result; the blue die (option ``blue_die``, rolled for a red one) is named."""
    return f"{d.get('value')} (blue die)" if d.get("die") == "blue" else str(d.get("value"))


def _combat(p, seat, names):
    dice = " + ".join(_die_value(d) for d in p.get("dice") or []) or "0"
    helpers = "".join(f" + {char(h.get('character'))}'s {h.get('total')}" for h in p.get("helpers") or [])
    verdict = "success" if p.get("success") else "failure"
    return (f"{char(p.get('character'))}'s combat test against {enemy(p.get('enemy'))}: {dice} + {p.get('modifier')}"
            f"{helpers} = {p.get('total')} against {p.get('difficulty')}, {verdict}")


def _test(p, seat, names):
    who, attr = char(p.get("character")), p.get("attribute")
    if p.get("roll") is None:
        return f"{who} passes the {attr} test at once ({pretty(p.get('trait'))})"
    verdict = "success" if p.get("success") else "failure"
    return f"{who}'s {attr} test: {p.get('roll')} + {p.get('modifier')} = {p.get('total')} against {p.get('difficulty')}, {verdict}"


def _influence(p, seat, names):
    before, after = p.get("from"), p.get("to")
    verb = "rises" if (after or 0) >= (before or 0) else "falls"
    why = " (the new round)" if p.get("reason") == "round" else ""
    return f"The Shōgun's influence {verb} from {before} to {after}{why}"


def _influence_card(p, seat, names):
    title = INFLUENCE_CARDS.get(p.get("card"), {}).get("title", "a card")
    return f"The Shōgun draws the influence card {title} ({p.get('band')} influence, {p.get('influence')})"


def _round_started(p, seat, names):
    final = " (the final round)" if p.get("final") else ""
    return f"Round {p.get('round')} begins{final}" + (f": {p['trigger']}" if p.get("trigger") else "")


def _sheet_marks(p, seat, names):
    marks = p.get("marks") or []
    if not marks:
        return "The campaign sheet holds no mark for this chapter"
    return "The campaign sheet is read: " + "; ".join(f"{mark(m.get('mark'))}: {m.get('text')}" for m in marks)


def _enemy_spawned(p, seat, names):
    e = p.get("enemy") or {}
    target = e.get("target") or {}
    aim = (f", hunting {char(target['character'])}" if target.get("character")
           else f", marching on {place(target['location'])}" if target.get("location") else "")
    kind = pretty(e.get("type")) or "enemy"
    called = f" ({enemy(e['id'])})" if e.get("id") and pretty(e["id"]) != kind else ""
    return f"{'An' if kind[0] in 'aeiou' else 'A'} {kind}{called} appears at {place(e.get('location'))}{aim}"


def _enemy_moved(p, seat, names):
    path = p.get("path") or []
    if len(path) > 1:
        return f"{enemy(p.get('enemy')).capitalize()} moves to {place(path[-1])}"
    return f"{enemy(p.get('enemy')).capitalize()} stays at {place(path[0])}" if path else f"{enemy(p.get('enemy')).capitalize()} does not move"


def _given(p, seat, names):
    who, to, what, n = char(p.get("character")), char(p.get("to")), p.get("what"), p.get("amount") or 1
    if what in ("coins", "heads"):
        thing = plural(n, what[:-1])
    elif what == "boss_heads":
        thing = plural(n, "boss head")
    elif what == "armor":
        thing = "the armor"
    else:
        thing = card(what)
    return f"{who} gives {thing} to {to}"


def _item_used(p, seat, names):
    after = ", which goes back to the market" if p.get("spent") else (
        f" ({plural(p['uses_left'], 'use')} left)" if p.get("uses_left") is not None else "")
    return f"{char(p.get('character'))} uses {card(p.get('item'))}{after}"


def _shop_opened(p, seat, names):
    who = char(p.get("character"))
    if p.get("service") == "market":
        return f"{who} visits the market: {listing(card(c) for c in p.get('revealed') or [])}"
    return f"{who} visits the {pretty(p.get('service'))}"


def _heads_sold(p, seat, names):
    sold = [plural(p.get("heads") or 0, "head"), plural(p.get("boss_heads") or 0, "boss head")]
    return f"{char(p.get('character'))} sells {' and '.join(s for s in sold if not s.startswith('0 '))} for {plural(p.get('coins'), 'coin')}"


def _repaired(p, seat, names):
    how = f" for {plural(p['cost'], 'coin')}" if p.get("cost") else " with Master Blacksmith"
    return f"{char(p.get('character'))} repairs the armor{how} (armor {p.get('armor_value')})"


def _blessed(p, seat, names):
    who, d = char(p.get("character")), p.get("delta") or 0
    if d > 0:
        return f"{who} gains {plural(d, 'blessed token')}"
    return f"{who} discards a blessed token" + (f": not {pretty(p['negates'])}" if p.get("negates") else "")


def _mission_failed(p, seat, names):
    why = {"round_end": " (not completed in time)", "city_captured": " (its city fell)",
           "unrevealed": " (never revealed)"}.get(p.get("reason"), "")
    title = f": {p['title']}" if p.get("title") else ""
    return f"Mission {p.get('mission')} fails{title}{why}"


def _kami_unlocked(p, seat, names):
    who = f" for {char(p['character'])}" if p.get("character") else ": any one character may take it"
    return f"{kami(p.get('kami'))} is unlocked{who}"


def _kami_changed(p, seat, names):
    if not p.get("character"):
        return f"Nobody takes {kami(p.get('kami'))} as Kami"
    instead = f" instead of {kami(p['from'])}" if p.get("from") else ""
    return f"{char(p['character'])} takes {kami(p.get('kami'))} as Kami{instead}"


def _choice_offered(p, seat, names):
    labels = [o.get("label") for o in p.get("options") or [] if o.get("enabled", True)]
    return f"{char(p.get('character'))} must choose: {' or '.join(f'“{lab}”' for lab in labels) or 'nothing left'}"


PHASE_ENDS = {"final_round": "the final round is over", "influence": "the Shōgun's influence reached its peak",
              "all_defeated": "every character is defeated", "mission_completed": "the chapter's mission is completed",
              "mission_failed": "the chapter's mission failed", "city_captured": "a city the chapter needs was captured",
              "enemies_defeated": "every enemy is defeated"}


def _phase_ended(p, seat, names):
    why = PHASE_ENDS.get(p.get("reason"), pretty(p.get("reason")))
    return f"The Adventure Phase ends in {p.get('outcome')}" + (f": {why}" if why else "")


def _resurrected(p, seat, names):
    who, health = char(p.get("character")), p.get("health")
    if p.get("known_path"):
        return f"{who} comes back with {health} health (Known Path)"
    verdict = "passed" if p.get("success") else "failed"
    loss = ": an attribute point is lost" if p.get("loses_attribute") else ""
    return (f"{who} comes back with {health} health; spirit test {p.get('roll')} + {p.get('modifier')} = {p.get('total')}"
            f" against {p.get('difficulty')}, {verdict}{loss}")


def _started(p, seat, names):
    chapter = (p.get("state") or {}).get("chapter")
    return f"The Adventure Phase of chapter {chapter} begins" if chapter else "The Adventure Phase begins"


def _who(text):
    return lambda p, seat, names: text.format(who=char(p.get("character")))


SENTENCES = {
    "AdventureStarted": _started,
    "WeaponChosen": lambda p, seat, names: f"{char(p.get('character'))} chooses {card(p.get('weapon'))} as weapon",
    "KamiChosen": lambda p, seat, names: f"{char(p.get('character'))} chooses {kami(p.get('kami'))} as Kami",
    "GroupProposed": lambda p, seat, names: f"{char(p.get('character'))} proposes to travel with {chars(p.get('group'))}",
    "GroupAnswered": lambda p, seat, names: f"{seat_name(names, p.get('seat'))} "
    + ("agrees to travel together" if p.get("agree") else "declines to travel together"),
    "SheetMarksRead": _sheet_marks,
    "RoundStarted": _round_started,
    "InfluenceMoved": _influence,
    "InfluenceStepSkipped": lambda p, seat, names: f"The Shōgun's influence does not rise in round {p.get('round')}",
    "InfluenceDeckShuffled": lambda p, seat, names: f"The influence deck is shuffled ({plural(p.get('count'), 'card')})",
    "InfluenceCardDrawn": _influence_card,
    "EnemiesTurnStarted": lambda p, seat, names: "The enemies' turn: "
    + (listing(enemy(e) for e in p["enemies"]) if p.get("enemies") else "no enemy is on the map"),
    "EnemyChosen": lambda p, seat, names: f"{seat_name(names, p.get('seat'))} sends {enemy(p.get('enemy'))} next",
    "EnemyPathTied": lambda p, seat, names: f"{enemy(p.get('enemy')).capitalize()} has "
    f"{plural(len(p.get('options') or []), 'equally short route')}: the party chooses",
    "EnemyPathChosen": lambda p, seat, names: f"{seat_name(names, p.get('seat'))} sends {enemy(p.get('enemy'))} "
    f"towards {place(p.get('to'))}",
    "EnemyMoved": _enemy_moved,
    "EnemySpawned": _enemy_spawned,
    "EnemyRemoved": lambda p, seat, names: f"{char(p['by'])} defeats {enemy(p.get('enemy'))}" if p.get("by")
    else f"{enemy(p.get('enemy')).capitalize()} leaves the map",
    "CombatTested": _combat,
    "TestRolled": _test,
    "HeadsGained": lambda p, seat, names: f"{char(p.get('character'))} gains {plural(p.get('amount'), 'head')}",
    "CharactersTurnStarted": lambda p, seat, names: "The characters' turn",
    "CharacterActivated": lambda p, seat, names: f"{char(p.get('character'))} activates with "
    f"{plural(p.get('ap'), 'action point')}",
    "ActionPointsSpent": _spent,
    "TravelStarted": _travel_started,
    "Exerted": _who("{who} exerts: 1 action point for 1 more movement point"),
    "Moved": _moved,
    "Sailed": _sailed,
    "GuidedByTheWaves": lambda p, seat, names: f"{char(p.get('character'))} is guided by the waves to {place(p.get('to'))}",
    "TravelEnded": _travel_ended,
    "KamiSkillActivated": lambda p, seat, names: f"{char(p.get('character'))} activates {kami_skill(p.get('skill'))} "
    f"({plural(p.get('ap') or 1, 'action point')})",
    "TravelEventDrawn": _travel_event,
    "TravelCardRemovalMarked": lambda p, seat, names: "This travel event card will leave the deck",
    "TravelEventReturned": lambda p, seat, names: "The travel event card leaves the deck" if p.get("removed")
    else "The travel event card goes back on the travel deck",
    "TravelDeckShuffled": lambda p, seat, names: f"The travel deck is shuffled ({plural(p.get('count'), 'card')})",
    "HealthChanged": _health,
    "CharacterDefeated": _who("{who} is defeated"),
    "HitsTaken": lambda p, seat, names: f"{char(p.get('character'))} takes {plural(p.get('hits'), 'hit')}; the armor "
    f"stops {min(p.get('hits') or 0, p.get('armor') or 0)}: {p.get('damage')} damage",
    "CoinsChanged": _counted("coins", "coin"),
    "KarmaChanged": _counted("karma", "karma", "karma"),
    "CharacterDelayed": _who("{who} is delayed: the activation ends"),
    "ChoiceOffered": _choice_offered,
    "ChoiceMade": lambda p, seat, names: f"{char(p.get('character'))} chooses “{p.get('label')}”",
    "CityCaptured": lambda p, seat, names: f"{place(p.get('location'))} is captured by the Shōgun's forces",
    "CityRazed": lambda p, seat, names: f"{place(p.get('location'))} is razed",
    "CityTokensDiscarded": lambda p, seat, names: f"The city tokens of {listing(place(c) for c in p.get('locations') or [])} "
    "are discarded",
    "MarkRecorded": lambda p, seat, names: f"The campaign sheet records {mark(p.get('mark'))}",
    "LocationDiscovered": lambda p, seat, names: f"{place(p.get('location'))} is discovered",
    "ItemGained": lambda p, seat, names: f"{char(p.get('character'))} gains {card(p.get('item'))}",
    "ItemDiscarded": lambda p, seat, names: f"{char(p.get('character'))} returns {card(p.get('item'))} to the market",
    "MissionRevealed": lambda p, seat, names: f"{char(p.get('character'))} reveals mission {p.get('mission')}"
    + (f": {p['title']}" if p.get("title") else ""),
    "ClanTokenResolved": lambda p, seat, names: f"{char(p.get('character'))} resolves mission {p.get('mission')}'s clan "
    f"token at {place(p.get('location'))}" + (", completing the mission" if p.get("completes") else ""),
    "MissionCompleted": lambda p, seat, names: f"Mission {p.get('mission')} is completed"
    + (f" by {char(p['by'])}" if p.get("by") else ""),
    "MissionPlaced": lambda p, seat, names: f"Mission {p.get('mission')} is placed on the map",
    "MissionFailed": _mission_failed,
    "MissionsSettled": lambda p, seat, names: "Every mission of the chapter is settled",
    "KamiUnlocked": _kami_unlocked,
    "KamiChanged": _kami_changed,
    "KamiChangesSettled": lambda p, seat, names: "Every unlocked Kami is settled",
    "BlessedChanged": _blessed,
    "TokenGained": lambda p, seat, names: f"{char(p.get('character'))} gains {p.get('name') or card(p.get('token'))}",
    "TokenLost": lambda p, seat, names: f"{char(p.get('character'))} loses {p.get('name') or card(p.get('token'))}",
    "PersonalMissionCompleted": _who("{who} completes their personal mission"),
    "AffinityRaised": lambda p, seat, names: f"{char(p.get('character'))} offers {p.get('karma')} karma at the "
    f"sanctuary: affinity {p.get('affinity')}",
    "ShopOpened": _shop_opened,
    "EquipmentBought": lambda p, seat, names: f"{char(p.get('character'))} buys {card(p.get('card'))} for "
    f"{plural(p.get('cost'), 'coin')}",
    "EquipmentSold": lambda p, seat, names: f"{char(p.get('character'))} sells {card(p.get('card'))} for "
    f"{plural(p.get('coins'), 'coin')}",
    "ArmorRepaired": _repaired,
    "ItemBought": lambda p, seat, names: f"{char(p.get('character'))} buys {card(p.get('item'))} for "
    f"{plural(p.get('cost'), 'coin')}",
    "ItemSold": lambda p, seat, names: f"{char(p.get('character'))} sells {card(p.get('item'))} for "
    f"{plural(p.get('coins'), 'coin')}",
    "HeadsSold": _heads_sold,
    "ShopClosed": _who("{who} leaves the shop"),
    "SpecialLocationVisited": lambda p, seat, names: f"{char(p.get('character'))} explores {place(p.get('location'))}"
    + (f": {p['text']}" if p.get("text") else ""),
    "Given": _given,
    "InformationShared": lambda p, seat, names: f"{char(p.get('character'))} tells {char(p.get('to'))} about mission "
    f"{p.get('mission')}" + (" (Jirōbō's omamori)" if p.get("omamori") else ""),
    "ItemUsed": _item_used,
    "WeaponSwapped": lambda p, seat, names: f"{char(p.get('character'))} takes up {card(p.get('equipped'))}",
    "ActivationEnded": _who("{who}'s activation ends"),
    "RoundEnded": lambda p, seat, names: f"Round {p.get('round')} ends",
    "PhaseEnded": _phase_ended,
    "CharacterResurrected": _resurrected,
    "AttributeLost": lambda p, seat, names: f"{char(p.get('character'))} loses 1 {p.get('attribute')}",
    "SectionRead": lambda p, seat, names: f"The chapter's {p.get('outcome')} section is read"
    + (f": {p['text']}" if p.get("text") else ""),
    "AdventureFinished": lambda p, seat, names: f"The Adventure Phase is over: {p.get('outcome')}",
}


def describe(event: dict, seat, names=()) -> str:
    """One sentence about ``event`` (already redacted for ``seat``); ``""`` for the effect queue."""
    return sentence(event, names, SENTENCES, BOOKKEEPING, seat)
