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


def _scenario_zones():
    for sc in SCENARIOS.values():
        zones = sc.get("zones") or {}
        yield from (zones.items() if isinstance(zones, dict) else ((z.get("id"), z) for z in zones))


# Zone and event ids are unique across the content's scenarios; an inline scenario's own ids are not
# here, and read as "an event" / the id in words.
ZONE_NAMES = {z: zone.get("name", z) for z, zone in _scenario_zones() if isinstance(zone, dict)}
EVENT_NAMES = {ev["id"]: ev.get("name", ev["id"]) for _, zone in _scenario_zones() if isinstance(zone, dict)
               for deck in (zone.get("events") or {}).values() for ev in deck if isinstance(ev, dict) and "id" in ev}


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
_EVENT_REASON = re.compile(r"\bevent ([a-z][a-z0-9_]*)\b")


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


def zone_name(zone) -> str:
    return ZONE_NAMES.get(zone) or str(zone or "").replace("_", " ")


def event_name(event_id) -> str:
    """A zone event by the name its card gives (``"the Smoke and Embers event"``), never its id."""
    return f"the {EVENT_NAMES[event_id]} event" if event_id in EVENT_NAMES else "an event"


def _ref(token: str) -> str:
    if token in _NAMES:
        return _NAMES[token]
    if "_" in token:  # an enemy placed by play (``kachi_green_1``) or a double
        named = name(token)
        if named != token.replace("_", " "):
            return named
    return token


def _event_reason(m) -> str:
    event_id = m.group(1)
    if event_id in EVENT_NAMES or re.search(r"[_0-9]", event_id):  # an id, not a word ("no event left")
        return event_name(event_id)
    return m.group(0)


def names_in(text) -> str:
    """Free text (a ``reason``, a prompt) with the ids it mentions replaced by names, and an event's
    id (``"event gate_r1"``, as effects give their cause) by the event's name."""
    if not text:
        return ""
    text = _EVENT_REASON.sub(_event_reason, str(text))
    return _ID.sub(lambda m: _ref(m.group(0)), text)


def plural(n, word, many=None) -> str:
    """``"1 action point"``, ``"2 action points"``."""
    return f"{n} {word if n == 1 else many or word + 's'}"


_COUNTED = re.compile(r"\b(\d+) (heads|boss_heads|coins)\b")


def _reason_words(text) -> str:
    """A reason in words: names for ids, and the counts some reasons give in the plural ("1 heads")."""
    text = _COUNTED.sub(lambda m: plural(int(m.group(1)), {"heads": "head", "boss_heads": "boss head",
                                                            "coins": "coin"}[m.group(2)]), str(text))
    return names_in(text)


def _why(p) -> str:
    return f" ({_reason_words(p['reason'])})" if p.get("reason") else ""


def _set(p) -> dict:
    return p.get("set") or {}


FOCUS_FACES = {"minus1": "-1", "fail": "fail", "fail_no_counter": "fail (no counter)"}


def die_text(d) -> str:
    if "f" in d:
        return f"focus {FOCUS_FACES.get(d['f'], str(d['f']).replace('_', ' '))}"
    if "n" in d:
        return f"test {d['n']} ({d.get('s', '')})"
    return f"{d.get('die', '')} {d.get('i', 0)}" + (f" ({d['y']})" if d.get("y") else "")


def _dice(dice) -> str:
    dice = [d for d in dice or [] if isinstance(d, dict)]
    impacts = sum(d.get("i", 0) for d in dice if "i" in d)
    return f"{listing(die_text(d) for d in dice)} = {plural(impacts, 'impact')}"


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


def _absorbed(target) -> str:
    """Why a hit dealt no damage. A character's protective skills (Defensive Stance, Protective
    Breeze...) take their part too; each of those says so in a sentence of its own."""
    guards = "defense, armor and protections" if target in CHARACTERS else "defense and armor"
    return f"{name(target)}'s {guards} absorb the hits"


def _hit(target, dmg, critical) -> str:
    """One target's share of a hit, as a clause of "<who>'s attack ..."."""
    if isinstance(dmg, dict):
        dmg = dmg.get("damage", 0)
    if dmg:
        return f"hits {name(target)} for {dmg} damage" + (" (critical: defense and armor ignored)" if critical else "")
    if critical:
        return f"hits {name(target)} critically but deals no damage: there are no hits to land"
    return f"hits {name(target)} but deals no damage: {_absorbed(target)}"


def _damage_list(dmg):
    """``AttackResolved.damage`` as (target, damage) pairs (a dict, or older logs' list or number)."""
    if isinstance(dmg, dict):
        return list(dmg.items())
    if isinstance(dmg, list):
        return [(d.get("target", d.get("who")), d.get("damage", 0)) for d in dmg if isinstance(d, dict)]
    return [(None, dmg)]


OUTCOMES = {"fail": "fails", "critical_fail": "is a critical fail", "resistance": "hits",
            "blinded_miss": "misses: the attacker is blinded"}


def _resolved(p, seat, names):
    who = name(p.get("attacker"))
    critical = bool(p.get("critical"))
    if "damage" in p and "target" not in p:  # a character's attack: damage per target
        hits = [_hit(t, d, critical) for t, d in _damage_list(p.get("damage"))]
        return f"{who}'s attack {'; it '.join(hits)}" if hits else f"{who}'s attack hits nobody"
    outcome = str(p.get("outcome", ""))
    if outcome == "hit":
        return f"{who}'s attack {_hit(p.get('target'), p.get('damage') or 0, critical)}"
    said = OUTCOMES.get(outcome, outcome.replace("_", " "))
    return f"{who}'s attack on {name(p.get('target'))} {said}"


def _finished(p, seat, names):
    summary = p.get("summary") or {}
    outcome = str(summary.get("outcome", "")).replace("_", " ")
    return f"{name(summary.get('attacker'))}'s attack roll is a {outcome}" if outcome else \
        f"{name(summary.get('attacker'))}'s attack roll is over"


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
    return plural(n, "card")


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


def _action_points(p, seat, names):
    who, ap = name(p.get("who")), _set(p).get("ap")
    if "gained" in p:  # the activation's start: what it gains, up to the 4 a character may hold
        return f"{who} starts the activation with {plural(ap, 'action point')}"
    if p.get("reason") == "keep at most 1 action point":
        return f"{who} keeps 1 action point for the next activation"
    return f"{who} has {plural(ap, 'action point')} left{_why(p)}"


def _condition_list(conds) -> list[str]:
    return [k if v is True or v == 1 else f"{k} ({v} tokens)" for k, v in (conds or {}).items() if v]


def _condition_cause(p, on) -> str:
    """The reason, unless it only repeats a condition the sentence names ("blessed")."""
    reason = p.get("reason")
    return "" if not reason or reason in (conds.split(" ")[0] for conds in on) else f" ({_reason_words(reason)})"


def _conditions_sentence(who, conds, p) -> str:
    on = _condition_list(conds)
    if not on:
        return f"{who} has no conditions left{_why(p)}"
    return f"{who} is now {' and '.join([', '.join(on[:-1]), on[-1]] if len(on) > 1 else on)}{_condition_cause(p, on)}"


def _conditions(p, seat, names):
    return _conditions_sentence(name(p.get("who")), _set(p).get("conditions"), p)


def _armor(p, seat, names):
    who, changes = name(p.get("who")), _set(p)
    if "armor_card" in changes:
        card = changes["armor_card"]
        return (f"{who} now wears {name(card)} (armor {changes.get('armor', 0)}){_why(p)}" if card
                else f"{who} has no armor now{_why(p)}")
    return f"{who}'s armor is now {changes.get('armor')}{_why(p)}"


def _enemy_changed(p, seat, names):
    who, changes = name(p.get("who")), _set(p)
    if set(changes) == {"conditions"}:
        return _conditions_sentence(who, changes["conditions"], p)
    if set(changes) == {"armor_tokens"}:  # a token is 1 armor less
        return f"{who} loses 1 armor{_why(p)}"
    if set(changes) == {"health"}:
        return f"{who}'s health is now {changes['health']}{_why(p)}"
    return _changed("")(p, seat, names)


def _attributes(p, seat, names):
    who, changes = name(p.get("who")), _set(p)
    if set(changes) == {"attacked_round"}:
        return f"{who} has attacked this round"
    if "level" in changes:
        return f"{who} reaches level {changes['level']}" + (
            f": +1 {changes['level_raised']}" if changes.get("level_raised") else "")
    if set(changes) == {"breeze"}:
        return (f"{who} is shielded by Protective Breeze (up to {changes['breeze']} damage)" if changes["breeze"]
                else f"{_reason_words(p.get('reason') or 'Protective Breeze')} damage for {who}")
    if set(changes) == {"vengeance"}:
        return f"{who}'s Relentless Vengeance: +{changes['vengeance']} damage{_why(p)}"
    if set(changes) == {"concentration"}:
        return (f"{who} concentrates: the next attack is a critical hit" if changes["concentration"]
                else f"{who}'s Concentration is used")
    if p.get("reason"):
        return f"{who}: {_reason_words(p['reason'])}"
    return _changed("")(p, seat, names)


def _heads(p, seat, names):
    who, changes = name(p.get("who")), _set(p)
    words = {"heads": "head", "boss_heads": "boss head", "coins": "coin"}
    held = [plural(v, words.get(k, k.replace("_", " "))) for k, v in changes.items() if isinstance(v, int)]
    return f"{who} has {listing(held)}{_why(p)}" if held else _changed("")(p, seat, names)


def _weapons(p, seat, names):
    who, changes = name(p.get("who")), _set(p)
    if "weapons" in changes:
        held = [f"{name(w)} (in hand)" if w == changes.get("equipped") else name(w) for w in changes["weapons"]]
        return f"{who} carries {listing(held)}{_why(p)}"
    if changes.get("equipped"):
        return f"{who} takes up {name(changes['equipped'])}{_why(p)}"
    return _changed("")(p, seat, names)


def _ki(p, seat, names):
    return f"{name(p.get('who'))}: {_reason_words(p['reason'])}" if p.get("reason") else f"{name(p.get('who'))}'s Ki dice change"


def _meditation(p, seat, names):
    who, n = name(p.get("who")), _set(p).get("meditation")
    return f"{who} meditates: 1 meditation token" if n else f"{who}'s meditation token is gone{_why(p)}"


def _kami_mode(p, seat, names):
    who = name(p.get("who"))
    if p.get("kami"):
        return f"{who} enters {name(p['kami'])}'s Kami Mode"
    mode = _set(p).get("kami_mode")
    if not mode:
        return f"{who}'s Kami Mode ends{_why(p)}"
    kami = f"{name(mode['kami'])}'s " if isinstance(mode, dict) and mode.get("kami") else ""
    return f"{who} stays in {kami}Kami Mode"


def _moved(p, seat, names):
    to = _set(p).get("sq")
    return f"{name(p.get('who'))} moves to {coords(to)}{_why(p)}" if to else f"{name(p.get('who'))} leaves the board{_why(p)}"


def _turn_started(p, seat, names):
    t = p.get("turn") or {}
    if t.get("kind") == "character":
        return f"{name(t.get('who'))}'s turn"
    if t.get("kind") == "double":
        return f"{name(t.get('double') or str(t.get('who')) + '_double')}'s turn"
    todo = t.get("todo") or []
    kind, _, card = str(t.get("card", "")).partition(":")
    if kind == "enemy":
        return f"{name(card)} acts"
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
SIXTH_SENSE = {0: "Akira's initiative card stays where it is", -1: "Akira's initiative card moves 1 place earlier",
               1: "Akira's initiative card moves 1 place later"}
PRIORITY_WORDS = {"+health": "the most health", "-health": "the least health", "+defense": "the highest defense",
                  "-defense": "the lowest defense"}


def _swap(o) -> str:
    pair = o.get("swap")
    if not pair:
        return "no swap"
    return f"{_queue(pair[:1])} and {_queue(pair[1:])} swap initiative cards"


def _counter(o) -> str:
    if not o.get("counter"):
        return "declined"
    return "yes, with the focus die" if o.get("focus") else "yes"


def _split(o) -> str:
    parts = [f"{n} to {name(t)}" for t, n in (o.get("damage") or o.get("health") or {}).items()]
    return listing(parts) if parts else "not used"


# What each kind of decision chose, in words (``DecisionMade`` gives the kind and the option; the
# decision's prompt, just before it in the log, names the enemy or skill concerned).
DECISION_WORDS = {
    "initiative_swap": lambda o: "The party swaps the initiative cards of "
    + " and ".join(name(c) for c in o["swap"]) if o.get("swap") else "The party keeps the initiative order: no swap",
    "sixth_sense": lambda o: f"Sixth Sense: {SIXTH_SENSE.get(o.get('move'), 'Akira moves the initiative card')}",
    "susanoo_order": lambda o: f"Susanoo Kami Mode: {_queue([o.get('card')])} activates next",
    "spawn_square": lambda o: f"The new enemy is placed on {coords(o.get('sq'))}",
    "travel_start": lambda o: f"{name(o.get('who'))} starts on {coords(o.get('sq'))}",
    "second_failure": lambda o: "The party repeats the failure procedure" if o.get("repeat")
    else "The party reads the success section instead",
    "enemy_target": lambda o: f"The enemy's target is {name(o.get('target'))}",
    "enemy_square": lambda o: f"The party sends the enemy to {coords(o.get('square'))}, toward {name(o.get('target'))}",
    "distraction": lambda o: f"Distraction: the enemy attacks {name(o.get('target'))}",
    "amatsumikaboshi_target": lambda o: f"Amatsumikaboshi: the enemy attacks {name(o.get('target'))}",
    "counter_attack": lambda o: f"Counter attack: {_counter(o)}",
    "counter_attack_skill": lambda o: f"Counter Attack: {_counter(o)}",
    "lose_attribute": lambda o: f"The attribute point lost: {o.get('attribute')}",
    "level_attribute": lambda o: f"The attribute raised: {o.get('attribute')}",
    "level_skill": lambda o: f"The new skill: {name(o.get('skill'))}",
    "hachimans_wrath": lambda o: f"Hachiman's Wrath: {o.get('armor', 0)} to armor, {o.get('health', 0)} to health",
    "ryujin_l3": lambda o: f"Dragon Tail: {_swap(o)}",
    "blinding_light": lambda o: f"Blinding Light: {_split(o)}",
    "susanoo_l3": lambda o: f"Susanoo's Fury: {name(o.get('minion'))} becomes {' and '.join(o.get('conditions') or [])}",
    "intimidation": lambda o: (f"Intimidation: this round every enemy targets the one with "
                               f"{PRIORITY_WORDS.get(o['priority'], o['priority'])}") if o.get("priority")
    else "Intimidation: not used",
    "one_for_each": lambda o: f"One for each: a free fast attack on {name(o['target'])}" if o.get("target")
    else "One for each: no free attack",
    "good_for_both": lambda o: f"Good for both: {name(o['ally'])} discards all negative conditions" if o.get("ally")
    else "Good for both: not used",
    "nemesis_condition": lambda o: f"Nemesis: the marked enemy becomes {o.get('condition')}",
    "duel_to_death": lambda o: f"Duel to Death: the negative conditions go to {name(o['target'])}" if o.get("target")
    else "Duel to Death: not used",
    "necessary_sacrifice": lambda o: f"Necessary Sacrifice: health {_split(o)}",
}


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
    if kind in DECISION_WORDS and isinstance(opt, dict):
        return DECISION_WORDS[kind](opt)
    label = _NAMES.get(kind) or kind.replace("_", " ")
    return f"Decided ({label}): {_value(opt) if opt not in (None, {}) else 'no choice'}"


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
    return f"{zone_name(p.get('zone'))} is revealed: {listing(name(e) for e in enemies) if enemies else 'no enemies'}"


def _head_rewards(p, seat, names):
    """Failure, step 7: the zones on the table give no more heads; the heads lying there are lost."""
    zones = listing(zone_name(z) for z in p.get("zones") or [])
    heads, boss = p.get("heads_lost") or 0, p.get("boss_heads_lost") or 0
    lost = " and ".join(plural(n, w) for n, w in ((heads, "head"), (boss, "boss head")) if n)
    tail = f"; {lost} left on the board {'is' if heads + boss == 1 else 'are'} lost" if lost else ""
    return f"No more heads from enemies in {zones}: only zones discovered from now on give heads{tail}"


PHASE_RESULTS = {"victory": "ends in victory", "failure": "ends in failure", "round_cap": "ends: the round limit is reached"}


def _ended(p, seat, names):
    result = str(p.get("result", ""))
    said = PHASE_RESULTS.get(result, f"ends: {result.replace('_', ' ')}")
    return f"The Exploration Phase {said}{_why(p)}"


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
    enemy = name(p.get("enemy"))
    if p.get("line") is None:
        return f"{enemy} does nothing: {names_in(p.get('note') or 'no line can be fully resolved')}"
    # ``square`` is where the enemy resolves the line: where its movement ends (its own square when it
    # does not move), never the target's square
    where = f", ending its move on {coords(p['square'])}" if p.get("square") else ""
    return f"{enemy} follows line {p.get('line')} against {name(p.get('target'))}{where}"


def _resurrection(p, seat, names):
    verdict = "comes back" if p.get("passed") else "does not come back"
    return f"{name(p.get('who'))} rolls {p.get('die')} for resurrection: {p.get('total')} against {p.get('difficulty')}, {verdict}"


def _round_effect(p, seat, names):
    fx = p.get("effect") or {}
    kind = fx.get("type")
    cause = f" ({event_name(fx['event'])})" if fx.get("event") else ""
    if kind == "enemy_movement":
        n = fx.get("amount", 0)
        return f"This round the enemies move {plural(abs(n), 'square')} {'more' if n >= 0 else 'less'}{cause}"
    if kind == "initiative":
        n = fx.get("advance") or fx.get("delay") or 0
        way = "earlier" if fx.get("advance") else "later"
        return f"This round the {fx.get('who', 'creatures')}' initiative cards move {plural(n, 'place')} {way}{cause}"
    if kind == "initiative_reveal":
        return f"This round the initiative cards are revealed one by one{cause}"
    if kind == "intimidation":
        return (f"This round every enemy targets the one with {PRIORITY_WORDS.get(fx.get('priority'), fx.get('priority'))}"
                f" ({name(fx.get('by'))}'s Intimidation)")
    return f"An effect lasts this round: {str(kind or 'an effect').replace('_', ' ')}{cause}"


def _seat_left(p, seat, names):
    """concede.py: a player left (resigned, or was taken over); the party keeps their characters. The
    platform's line before it already says who left and how ("ann resigns and leaves the game"), so
    this one says only where the characters go."""
    who = seat_name(names, p.get("seat"))
    if p.get("to") is None:
        return ""  # the last player: PartyLeft says the party has failed
    heir = seat_name(names, p.get("to"))
    named = [name(c) for c in p.get("characters") or []]
    chars = " and ".join([", ".join(named[:-1]), named[-1]]) if len(named) > 1 else "".join(named)
    lead = f"; {heir} now leads the party" if p.get("leader") else ""
    if not chars:
        return f"The party plays on without {who}{lead}"
    return f"{who}'s {chars} pass{'es' if len(named) == 1 else ''} to {heir}{lead}, and the party plays on"


SENTENCES = {
    "PlayerLeftParty": _seat_left,
    "PartyLeft": lambda p, seat, names: "Nobody is left to play: the party has failed and the match ends",
    "ScenarioLoaded": lambda p, seat, names: "The game starts from a prepared position",
    "PhaseStarted": _phase_started,
    "PhaseEnded": _ended,
    "AftermathBegan": lambda p, seat, names: f"The aftermath begins: {p.get('result', '')}{_why(p)}",
    "FailureBegan": lambda p, seat, names: f"The party fails ({plural(p.get('failures'), 'failure')}){_why(p)}",
    "FailureRecovered": lambda p, seat, names: f"The party recovers; round {p.get('next_round')} follows",
    "HeadRewardsEnded": _head_rewards,
    "RoundEnded": lambda p, seat, names: f"Round {p.get('round')} ends",
    "OracleDrawn": lambda p, seat, names: f"The oracle draws a {p.get('color')} card for round {p.get('round')}",
    "OracleReshuffled": lambda p, seat, names: f"The oracle deck is reshuffled ({_cards(p.get('deck'))})",
    "OracleCardsAdded": lambda p, seat, names: f"The oracle deck gets {plural(p.get('added'), 'new card')}",
    "EventRevealed": lambda p, seat, names: f"Event in {zone_name(p.get('zone'))}: {p.get('name') or EVENT_NAMES.get(p.get('event'), 'an event')}",
    "EventEffectSkipped": lambda p, seat, names: f"An event effect is skipped{_why(p)}",
    "MaliceRaised": lambda p, seat, names: f"Malice is now {p.get('malice')}{_why(p)}",
    "RoundEffectAdded": _round_effect,
    "ActivationsBegan": lambda p, seat, names: f"Round {p.get('round')} order: {_queue(p.get('queue'))}",
    "InitiativeSet": lambda p, seat, names: f"Initiative order: {_queue(p.get('queue'))}{_why(p)}",
    "InitiativeDeckSet": lambda p, seat, names: f"The initiative deck changes ({_cards(p.get('deck'))}){_why(p)}",
    "InitiativeCardRevealed": lambda p, seat, names: f"Initiative card revealed: {_queue([p.get('card')])}",
    "TurnStarted": _turn_started,
    "TurnEnded": lambda p, seat, names: f"{_queue([p.get('card')])} end the turn" if str(p.get("card", "")).startswith("color:")
    else f"{_queue([p.get('card')])} ends the turn",
    "DecisionOpened": _decision_opened,
    "VoteCast": _vote,
    "DecisionMade": _decision_made,
    "ActionPointsChanged": _action_points,
    "ArmorChanged": _armor,
    "AttributesChanged": _attributes,
    "CharacterDefeated": lambda p, seat, names: f"{name(p.get('who'))} is defeated{_why(p)}",
    "CharacterResurrected": lambda p, seat, names: f"{name(p.get('who'))} is resurrected with {_set(p).get('health')} health",
    "ConditionsChanged": _conditions,
    "CounterReadied": lambda p, seat, names: f"{name(p.get('who'))}{' readies' if _set(p).get('counter_ready') else ' drops'} a counterattack{_why(p)}",
    "CreatureMoved": _moved,
    "CreatureRemoved": lambda p, seat, names: f"{name(p.get('who'))} leaves the board{_why(p)}",
    "EnemyActivated": _enemy_activated,
    "EnemyLineChosen": _line_chosen,
    "EnemyAttackRolled": _enemy_attack,
    "EnemyChanged": _enemy_changed,
    "EnemyDamaged": lambda p, seat, names: f"{name(p.get('who'))} takes {p.get('amount')} damage, {_set(p).get('health')} health left{_why(p)}",
    "EnemyDefeated": lambda p, seat, names: f"{name(p.get('who'))} is defeated{_why(p)}",
    "EnemySpawned": _spawned,
    "AttackRolled": _attack_rolled,
    "AttackDieRerolled": _rerolled,
    "AttackDieRemoved": lambda p, seat, names: f"{name(p.get('attacker'))} loses a die ({die_text(p.get('die') or {})}){_why(p)}",
    "AttackResolved": _resolved,
    "AttackFinished": _finished,
    "HealthChanged": _health,
    "HeadsChanged": _heads,
    "HeadRetrieved": lambda p, seat, names: f"{name(p.get('who'))} retrieves a head",
    "ItemsChanged": _items,
    "ItemUsed": lambda p, seat, names: f"{name(p.get('who'))} uses {name(p.get('item'))}" + (f" on {name(p['target'])}" if p.get("target") else ""),
    "KamiModeChanged": _kami_mode,
    "KamiSkillUsed": lambda p, seat, names: f"{name(p.get('who'))} uses {name(p.get('skill'))}",
    "KarmaChanged": lambda p, seat, names: f"{name(p.get('who'))} has {_set(p).get('karma')} karma{_why(p)}",
    "KiChanged": _ki,
    "MeditationChanged": _meditation,
    "SkillsChanged": lambda p, seat, names: f"{name(p.get('who'))} learns {name((_set(p).get('skills') or [None])[-1])}{_why(p)}",
    "TechniqueUsed": lambda p, seat, names: f"{name(p.get('who'))} uses {name(p.get('skill'))}",
    "WeaponSwapped": _weapons,
    "MarketRevealed": lambda p, seat, names: f"{name(p.get('who'))} sees the market: {listing(name(i.get('id') if isinstance(i, dict) else i) for i in p.get('items') or [])}",
    "MarketDeckSet": lambda p, seat, names: f"The market deck has {_cards(_count(p.get('deck')))}{_why(p)}",
    "ShareReady": lambda p, seat, names: f"{seat_name(names, p.get('seat'))} is done exchanging items",
    "ShareEnded": lambda p, seat, names: "The exchanges are over: the Exploration Phase begins",
    "AICardDrawn": lambda p, seat, names: f"{name(p.get('who'))} draws the AI card {name(p.get('card'))}"
    + (" (empowered)" if p.get("empowered") else ""),
    "AICardSetAside": lambda p, seat, names: f"{name(p.get('who'))} sets {name(p.get('card'))} aside{_why(p)}",
    "AIDeckShuffled": lambda p, seat, names: f"{name(p.get('who'))} shuffles the AI deck ({_cards(p.get('deck'))})",
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
    "ZoneReset": lambda p, seat, names: f"{zone_name(p.get('zone'))} is reset",
    "ZonesRemoved": lambda p, seat, names: f"Zones leave the board: {listing(zone_name(z) for z in p.get('zones') or [])}",
}


def describe(event: dict, seat, names=()) -> str:
    """One sentence about ``event`` (already redacted for ``seat``); ``""`` for bookkeeping."""
    return sentence(event, names, SENTENCES, BOOKKEEPING, seat)
