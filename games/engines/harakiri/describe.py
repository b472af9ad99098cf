"""Harakiri events in words: ``describe(event, seat, names)`` (docs/engines.md, "describe").

A pure function of one event as ``redact_event`` left it: deck orders (oracle, initiative, AI
decks, zone event decks) are only counts there, so the sentence can only give counts. Characters,
enemies, weapons, armors, items, skills and kami are named from the content pack (an enemy by its
type and colour, "Kachi (red)"); ids inside free-text reasons are replaced by those names. The
work queue and turn bookkeeping events (``BOOKKEEPING``) read ``""``.
"""

import re

from games.kernel.narration import coords, listing, seat_name, sentence

from .content import ARMORS, CHARACTERS, ENEMIES_DOC, ENEMY_KINDS, ITEMS, KAMI, SCENARIOS, SKILLS, WEAPONS

BOOKKEEPING = frozenset({"WorkPushed", "WorkUpdated", "WorkDone", "TurnChanged", "ForcedRollsUsed"})


def _enemy_types() -> dict:
    return {t: b.get("name", t) for kind in ENEMY_KINDS.values() for t, b in (ENEMIES_DOC.get(kind) or {}).items()
            if isinstance(b, dict)}


ENEMY_TYPES = _enemy_types()


def _enemy_refs() -> dict:
    """Every enemy ref a scenario places, by its type's name and its colour."""
    out = {}
    for sc in SCENARIOS.values():
        zones = sc.get("zones") or {}
        for zone in zones.values() if isinstance(zones, dict) else zones:
            for spec in zone.get("enemies", []) if isinstance(zone, dict) else []:
                out[spec["ref"]] = _typed(spec.get("type"), spec.get("color"))
    return out


def _typed(type_, color) -> str:
    name = ENEMY_TYPES.get(type_, str(type_).replace("_", " ").title())
    return f"{name} ({color})" if color else name


ENEMY_REFS = _enemy_refs()


def _resistors() -> dict:
    """Every resistor a scenario places (a villager...), by the name the board shows."""
    return {r["id"]: r.get("name", r["id"]) for sc in SCENARIOS.values()
            for zone in (sc.get("zones") or {}).values() if isinstance(zone, dict)
            for r in zone.get("resistors", []) if isinstance(r, dict) and "id" in r}


_NAMES = {
    **_resistors(),
    **{k: v.get("name", k) for k, v in WEAPONS.items()},
    **{k: v.get("name", k) for k, v in ARMORS.items()},
    **{k: v.get("name", k) for k, v in ITEMS.items()},
    **{k: v.get("name", k) for k, v in SKILLS.items()},
    **{sk["id"]: sk.get("name", sk["id"]) for k in KAMI.values() for sk in k.get("skills", [])},
    **{k: v.get("name", k) for k, v in KAMI.items()},
    **ENEMY_REFS,
    **{c["id"]: c.get("name", c["id"]) for b in (ENEMIES_DOC.get("chosen") or {}).values() if isinstance(b, dict)
       for c in b.get("ai_deck", [])},
    **{k: v.get("name", k) for k, v in CHARACTERS.items()},
}
_ID = re.compile(r"\b[a-z][a-z0-9_]*\b")


def name(token) -> str:
    """A character, enemy, weapon, armor, item, skill or kami id by name."""
    if token is None:
        return "someone"
    token = str(token)
    if token in _NAMES:
        return _NAMES[token]
    if token.endswith("_double") and token[:-7] in CHARACTERS:
        return f"{CHARACTERS[token[:-7]]['name']}'s double"
    parts = token.split("_")
    for size in range(len(parts), 0, -1):  # an enemy ref not in a scenario: zone_type_colour
        for i in range(len(parts) - size + 1):
            type_ = "_".join(parts[i:i + size])
            if type_ in ENEMY_TYPES:
                rest = [w for w in parts[i + size:] if w.isalpha()]
                return _typed(type_, rest[-1] if rest else None)
    return token.replace("_", " ")


def names_in(text) -> str:
    """Free text (a ``reason``) with the ids it mentions replaced by names."""
    return _ID.sub(lambda m: _NAMES.get(m.group(0), m.group(0)), str(text)) if text else ""


def _why(p) -> str:
    return f" ({names_in(p['reason'])})" if p.get("reason") else ""


def _set(p) -> dict:
    return p.get("set") or {}


def die_text(d) -> str:
    if "f" in d:
        return f"focus {str(d['f']).replace('_', ' ').replace('minus1', '-1')}"
    if "n" in d:
        return f"test {d['n']} ({d.get('s', '')})"
    return f"{d.get('die', '')} {d.get('i', 0)}" + (f" ({d['y']})" if d.get("y") else "")


def _dice(dice) -> str:
    dice = [d for d in dice or [] if isinstance(d, dict)]
    impacts = sum(d.get("i", 0) for d in dice if "i" in d)
    return f"{listing(die_text(d) for d in dice)} = {impacts} impact{'s' if impacts != 1 else ''}"


def _attack_rolled(p, seat, names):
    a = p.get("attack") or {}
    how = " ".join(x for x in (a.get("mode"), "attack") if x)
    skill = f" with {name(a['skill'])}" if a.get("skill") else ""
    return f"{name(a.get('attacker'))} makes a {how}{skill} on {listing(name(t) for t in a.get('targets') or [])}: rolls {_dice(a.get('dice'))}"


def _rerolled(p, seat, names):
    a = p.get("attack") or {}
    dice = a.get("dice") or []
    i = p.get("index")
    new = die_text(dice[i]) if isinstance(i, int) and 0 <= i < len(dice) else "a die"
    return f"{name(a.get('attacker'))} rerolls {die_text(p.get('old') or {})} into {new}"


def _resolved(p, seat, names):
    who = name(p.get("attacker"))
    if "damage" in p and "target" not in p:
        dmg = p.get("damage")
        if isinstance(dmg, dict):
            parts = [f"{name(t)} {d if not isinstance(d, dict) else d.get('damage', d)}" for t, d in dmg.items()]
        elif isinstance(dmg, list):
            parts = [f"{name(d.get('target', d.get('who')))} {d.get('damage', '')}".strip() if isinstance(d, dict) else str(d)
                     for d in dmg]
        else:
            parts = [str(dmg)]
        crit = ", critical" if p.get("critical") else ""
        return f"{who}'s attack deals damage: {listing(parts)}{crit}"
    outcome = str(p.get("outcome", "")).replace("_", " ")
    dmg = f" for {p['damage']}" if p.get("damage") is not None else ""
    return f"{who}'s attack on {name(p.get('target'))}: {outcome}{dmg}"


def _enemy_attack(p, seat, names):
    skill = f" ({p['skill']})" if p.get("skill") else ""
    counter = " counterattacks" if p.get("counter") else " attacks"
    return f"{name(p.get('attacker'))}{counter} {name(p.get('target'))}{skill}: rolls {_dice(p.get('dice'))}"


def _changed(label):
    def say(p, seat, names):
        fields = ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in _set(p).items())
        return f"{name(p.get('who'))}: {label or fields}{_why(p)}" if (label or fields) else f"{name(p.get('who'))} changes"
    return say


def _count(deck) -> int:
    """A deck's size (never its order, even from an event that was not redacted)."""
    return len(deck) if isinstance(deck, list) else deck


def _cards(n) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def _value(v) -> str:
    if isinstance(v, bool) or v is None:
        return {True: "yes", False: "no", None: "none"}[v]
    if isinstance(v, (int, float, str)):
        return names_in(v) if isinstance(v, str) else str(v)
    if isinstance(v, list):
        return listing(_value(x.get("id") if isinstance(x, dict) else x) for x in v)
    if isinstance(v, dict):
        return listing(f"{k.replace('_', ' ')} {_value(x)}" for k, x in v.items() if x not in (0, None, False))
    return str(v)


def _health(p, seat, names):
    d = p.get("delta")
    if isinstance(d, int) and d:
        verb = "loses" if d < 0 else "gains"
        return f"{name(p.get('who'))} {verb} {abs(d)} health, now {_set(p).get('health')}{_why(p)}"
    return f"{name(p.get('who'))}'s health is {_set(p).get('health')}{_why(p)}"


def _conditions(p, seat, names):
    conds = _set(p).get("conditions") or {}
    on = [f"{k} {v}" if v and v is not True and v != 1 else k for k, v in conds.items() if v]
    return f"{name(p.get('who'))} conditions: {listing(on) if on else 'none'}{_why(p)}"


def _moved(p, seat, names):
    to = _set(p).get("sq")
    return f"{name(p.get('who'))} moves to {coords(to)}{_why(p)}" if to else f"{name(p.get('who'))} leaves the board{_why(p)}"


def _turn_started(p, seat, names):
    t = p.get("turn") or {}
    if t.get("kind") == "character":
        return f"{name(t.get('who'))}'s turn"
    todo = t.get("todo") or []
    card = str(t.get("card", "")).split(":")[-1]
    who = listing(name(e) for e in todo) if todo else "no enemy"
    return f"The {card} enemies act: {who}" if card else f"The enemies act: {who}"


def _queue(queue) -> str:
    out = []
    for card in queue or []:
        kind, _, who = str(card).partition(":")
        out.append(name(who) if kind in ("char", "enemy") else f"{who} enemies" if kind == "color" else name(card))
    return listing(out)


def _decision_opened(p, seat, names):
    pend = p.get("pending") or {}
    by = pend.get("by")
    who = "The party" if by == "party" else seat_name(names, by) if isinstance(by, int) else name(by) if by else "A player"
    prompt = pend.get("prompt") or str(pend.get("kind", "a choice")).replace("_", " ")
    return f"{who} must decide: {names_in(prompt)}"


SHOP_CHOICES = {"done": "leaves", "sell_heads": "sells the heads", "repair": "repairs the armor"}


def _decision_made(p, seat, names):
    opt = p.get("option")
    kind = str(p.get("kind", ""))
    if kind in ("market", "blacksmith") and isinstance(opt, dict):  # the failure procedure's shops
        for key, words in SHOP_CHOICES.items():
            if opt.get(key):
                return f"At the {kind}: {words}"
        for key in ("buy", "sell"):
            if opt.get(key):
                return f"At the {kind}: {key}s {name(opt[key])}"
    what = _value(opt) if isinstance(opt, dict) else _value(opt)
    return f"Decided ({kind.replace('_', ' ')}): {what}"


def _spawned(p, seat, names):
    enemy = p.get("enemy") or {}
    who = name(p.get("who")) if str(p.get("who", "")).endswith("_double") or not enemy.get("type") \
        else _typed(enemy["type"], enemy.get("color"))
    return f"{who} appears" + (f" on {coords(enemy['sq'])}" if enemy.get("sq") else "")


def _items(p, seat, names):
    items = _set(p).get("items")
    if items is None:
        return _changed("")(p, seat, names)
    carried = listing(name(i.get("id") if isinstance(i, dict) else i) for i in items)
    return f"{name(p.get('who'))} carries {carried}{_why(p)}"


def _zone(p, seat, names):
    enemies = p.get("enemies") or {}
    zone = str(p.get("zone", "")).replace("_", " ")
    return f"Zone {zone} is revealed: {listing(name(e) for e in enemies) if enemies else 'no enemies'}"


def _ended(p, seat, names):
    result = str(p.get("result", "")).replace("_", " ")
    return f"The phase ends: {result}{_why(p)}"


def _phase_started(p, seat, names):
    st = p.get("state") or {}
    scen = st.get("scenario_name")
    return f"{scen} begins" if scen else "A new phase begins"


def _vote(p, seat, names):
    return f"{seat_name(names, p.get('seat'))} votes for option {(p.get('option') or 0) + 1}"


def _enemy_activated(p, seat, names):
    lines = f" (lines {listing(p.get('lines') or [])})" if p.get("lines") else " (no line applies)"
    if p.get("roll") is None:
        card = f" with the AI card {name(p['card'])}" if p.get("card") else ""
        return f"{name(p.get('enemy'))} activates{card}{lines}"
    table = f" on the {p['table']} table" if p.get("table") else ""
    return f"{name(p.get('enemy'))} activates: rolls {p.get('roll')}{table}{lines}"


def _line_chosen(p, seat, names):
    where = f" at {coords(p['square'])}" if p.get("square") else ""
    return f"{name(p.get('enemy'))} follows line {p.get('line')} against {name(p.get('target'))}{where}"


def _resurrection(p, seat, names):
    verdict = "comes back" if p.get("passed") else "does not come back"
    return f"{name(p.get('who'))} rolls {p.get('die')} for resurrection: {p.get('total')} against {p.get('difficulty')}, {verdict}"


SENTENCES = {
    "ScenarioLoaded": lambda p, seat, names: "The game starts from a prepared position",
    "PhaseStarted": _phase_started,
    "PhaseEnded": _ended,
    "AftermathBegan": lambda p, seat, names: f"The aftermath begins: {p.get('result', '')}{_why(p)}",
    "FailureBegan": lambda p, seat, names: f"The party fails ({p.get('failures')} failure{'s' if p.get('failures') != 1 else ''}){_why(p)}",
    "FailureRecovered": lambda p, seat, names: f"The party recovers; round {p.get('next_round')} follows",
    "RoundEnded": lambda p, seat, names: f"Round {p.get('round')} ends",
    "OracleDrawn": lambda p, seat, names: f"The oracle draws a {p.get('color')} card for round {p.get('round')}",
    "OracleReshuffled": lambda p, seat, names: f"The oracle deck is reshuffled ({p.get('deck')} cards)",
    "OracleCardsAdded": lambda p, seat, names: f"The oracle deck gets {p.get('added')} new card{'s' if p.get('added') != 1 else ''}",
    "EventRevealed": lambda p, seat, names: f"Event in {str(p.get('zone', '')).replace('_', ' ')}: {p.get('name') or p.get('event')}",
    "EventEffectSkipped": lambda p, seat, names: f"An event effect is skipped{_why(p)}",
    "MaliceRaised": lambda p, seat, names: f"Malice is now {p.get('malice')}{_why(p)}",
    "RoundEffectAdded": lambda p, seat, names: "An effect lasts this round: "
    + _value(str((p.get("effect") or {}).get("type", "")).replace("_", " ")),
    "ActivationsBegan": lambda p, seat, names: f"Round {p.get('round')} order: {_queue(p.get('queue'))}",
    "InitiativeSet": lambda p, seat, names: f"Initiative order: {_queue(p.get('queue'))}{_why(p)}",
    "InitiativeDeckSet": lambda p, seat, names: f"The initiative deck changes ({p.get('deck')} cards){_why(p)}",
    "InitiativeCardRevealed": lambda p, seat, names: f"Initiative card revealed: {_queue([p.get('card')])}",
    "TurnStarted": _turn_started,
    "TurnEnded": lambda p, seat, names: f"{_queue([p.get('card')])} end the turn" if str(p.get("card", "")).startswith("color:")
    else f"{_queue([p.get('card')])} ends the turn",
    "DecisionOpened": _decision_opened,
    "VoteCast": _vote,
    "DecisionMade": _decision_made,
    "ActionPointsChanged": lambda p, seat, names: f"{name(p.get('who'))} has {_set(p).get('ap')} action points{_why(p)}",
    "ArmorChanged": _changed(""),
    "AttributesChanged": _changed(""),
    "CharacterDefeated": lambda p, seat, names: f"{name(p.get('who'))} is defeated{_why(p)}",
    "CharacterResurrected": lambda p, seat, names: f"{name(p.get('who'))} is resurrected with {_set(p).get('health')} health",
    "ConditionsChanged": _conditions,
    "CounterReadied": lambda p, seat, names: f"{name(p.get('who'))}{' readies' if _set(p).get('counter_ready') else ' drops'} a counterattack{_why(p)}",
    "CreatureMoved": _moved,
    "CreatureRemoved": lambda p, seat, names: f"{name(p.get('who'))} leaves the board{_why(p)}",
    "EnemyActivated": _enemy_activated,
    "EnemyLineChosen": _line_chosen,
    "EnemyAttackRolled": _enemy_attack,
    "EnemyChanged": _changed(""),
    "EnemyDamaged": lambda p, seat, names: f"{name(p.get('who'))} takes {p.get('amount')} damage, {_set(p).get('health')} health left{_why(p)}",
    "EnemyDefeated": lambda p, seat, names: f"{name(p.get('who'))} is defeated{_why(p)}",
    "EnemySpawned": _spawned,
    "AttackRolled": _attack_rolled,
    "AttackDieRerolled": _rerolled,
    "AttackDieRemoved": lambda p, seat, names: f"{name(p.get('attacker'))} loses a die ({die_text(p.get('die') or {})}){_why(p)}",
    "AttackResolved": _resolved,
    "AttackFinished": lambda p, seat, names: f"{name((p.get('summary') or {}).get('attacker'))}'s attack ends: {str((p.get('summary') or {}).get('outcome', '')).replace('_', ' ')}",
    "HealthChanged": _health,
    "HeadsChanged": _changed(""),
    "HeadRetrieved": lambda p, seat, names: f"{name(p.get('who'))} retrieves a head",
    "ItemsChanged": _items,
    "ItemUsed": lambda p, seat, names: f"{name(p.get('who'))} uses {name(p.get('item'))}" + (f" on {name(p['target'])}" if p.get("target") else ""),
    "KamiModeChanged": lambda p, seat, names: (f"{name(p.get('who'))} enters {name(p.get('kami'))}'s Kami Mode" if p.get("kami")
                                               else f"{name(p.get('who'))}'s Kami Mode: {_value(_set(p).get('kami_mode'))}"),
    "KamiSkillUsed": lambda p, seat, names: f"{name(p.get('who'))} uses {name(p.get('skill'))}",
    "KarmaChanged": lambda p, seat, names: f"{name(p.get('who'))} has {_set(p).get('karma')} karma{_why(p)}",
    "KiChanged": _changed("Ki dice change"),
    "MeditationChanged": lambda p, seat, names: f"{name(p.get('who'))} meditation: {_set(p).get('meditation')}{_why(p)}",
    "SkillsChanged": lambda p, seat, names: f"{name(p.get('who'))} learns {name((_set(p).get('skills') or [None])[-1])}{_why(p)}",
    "TechniqueUsed": lambda p, seat, names: f"{name(p.get('who'))} uses {name(p.get('skill'))}",
    "WeaponSwapped": _changed(""),
    "MarketRevealed": lambda p, seat, names: f"{name(p.get('who'))} sees the market: {listing(name(i.get('id') if isinstance(i, dict) else i) for i in p.get('items') or [])}",
    "MarketDeckSet": lambda p, seat, names: f"The market deck has {_cards(_count(p.get('deck')))}{_why(p)}",
    "ShareReady": lambda p, seat, names: f"{seat_name(names, p.get('seat'))} is done exchanging items",
    "ShareEnded": lambda p, seat, names: "The exchanges are over: the Exploration Phase begins",
    "AICardDrawn": lambda p, seat, names: f"{name(p.get('who'))} draws the AI card {name(p.get('card'))}"
    + (" (empowered)" if p.get("empowered") else ""),
    "AICardSetAside": lambda p, seat, names: f"{name(p.get('who'))} sets {name(p.get('card'))} aside{_why(p)}",
    "AIDeckShuffled": lambda p, seat, names: f"{name(p.get('who'))} shuffles the AI deck ({p.get('deck')} cards)",
    "Interacted": lambda p, seat, names: f"{name(p.get('who'))} interacts: "
    + str((p.get("action") or {}).get("type", "something")).replace("_", " "),
    "DistractionSet": lambda p, seat, names: f"{name(p.get('by'))} sets a distraction",
    "DistractionUsed": lambda p, seat, names: f"{name(p.get('enemy'))} is distracted by {name(p.get('by'))}",
    "DoorOpened": lambda p, seat, names: f"{name(p.get('by'))} opens a door",
    "PointRemoved": lambda p, seat, names: "A point of interest is used up",
    "ObjectiveAchieved": lambda p, seat, names: f"{name(p.get('by'))} achieves an objective",
    "ResistanceRemoved": lambda p, seat, names: f"{name(p.get('resistor'))} has {p.get('tokens')} resistance left{_why(p)}",
    "ResistorDefeated": lambda p, seat, names: f"{name(p.get('resistor'))} falls",
    "ResurrectionRolled": _resurrection,
    "StateNote": lambda p, seat, names: names_in(p.get("note", "")),
    "ZoneRevealed": _zone,
    "ZoneReset": lambda p, seat, names: f"Zone {str(p.get('zone', '')).replace('_', ' ')} is reset",
    "ZonesRemoved": lambda p, seat, names: f"Zones leave the board: {listing(str(z).replace('_', ' ') for z in p.get('zones') or [])}",
}


def describe(event: dict, seat, names=()) -> str:
    """One sentence about ``event`` (already redacted for ``seat``); ``""`` for bookkeeping."""
    return sentence(event, names, SENTENCES, BOOKKEEPING, seat)
