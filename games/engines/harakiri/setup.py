"""Building the initial Exploration Phase state from a scenario document and the options."""

from games.kernel import RuleViolation

from . import content, yomi
from .catalogue import IMPLEMENTED
from .grid import key

TERRAIN = {".": "open", "#": "inaccessible", "o": "obstacle", "~": "difficult", "s": "special",
           "S": "stairs", "D": "door"}
ORDER = ["akira", "hattori", "hikaru", "tomoe"]
ATTRS = ("power", "dexterity", "spirit", "knowledge")


def no_conditions():
    return {"bleeding": 0, "poisoned": 0, "blinded": 0, "downed": 0, "blessed": 0}


def tile_squares(zone_id, zdef):
    ox, oy = zdef["origin"]
    heights = zdef.get("heights") or []
    out = {}
    for y, row in enumerate(zdef["rows"]):
        for x, ch in enumerate(row):
            if ch == " ":
                continue
            h = 0
            if y < len(heights) and x < len(heights[y]) and heights[y][x].isdigit():
                h = int(heights[y][x])
            out[key(ox + x, oy + y)] = {"z": zone_id, "t": TERRAIN[ch], "h": h}
    return out


def enemy_stats(kind, type_, plus):
    board = content.enemy_board(kind, type_)
    stats = {k: board[k] for k in ("health", "movement", "range", "defense", "armor", "dice")}
    if plus and kind == "minion":
        stats.update(board["plus"])
    return stats


def make_enemy(spec, zone, plus_types, shuffled):
    kind, type_ = spec["kind"], spec["type"]
    plus = bool(spec.get("plus")) or (kind == "minion" and type_ in plus_types)
    stats = enemy_stats(kind, type_, plus)
    e = {"kind": kind, "type": type_, "color": spec.get("color"), "plus": plus, "sq": spec["at"],
         "zone": zone, "health": stats["health"], "max_health": stats["health"], "armor_tokens": 0,
         "conditions": no_conditions(), "allied": bool(spec.get("allied"))}
    if kind == "chosen":
        deck = [c["id"] for c in content.enemy_board(kind, type_)["ai_deck"]]
        e["ai"] = {"deck": shuffled(deck), "discard": [], "in_play": []}
    return e


def zone_payload(s, zone_id, shuffled):
    zdef = s["zones_def"][zone_id]
    squares = tile_squares(zone_id, zdef)
    enemies = {}
    for spec in zdef["enemies"]:
        enemies[spec["ref"]] = make_enemy(spec, zone_id, s["plus_types"], shuffled)
    doors = {d["id"]: {"sq": d["at"], "open": bool(d.get("open")), "survey": d.get("survey"),
                       "zone": zone_id} for d in zdef.get("doors", [])}
    points = {p["id"]: {"sq": p["at"], "action": p["action"], "zone": zone_id, "text": p.get("text", "")}
              for p in zdef.get("points", [])}
    resistors = {r["id"]: {"sq": r["at"], "tokens": r["tokens"], "living": bool(r.get("living", True)),
                           "name": r.get("name", r["id"]), "zone": zone_id} for r in zdef.get("resistors", [])}
    spawns = dict(zdef.get("spawns", {}))
    evs = zdef["events"]
    decks = {}
    if evs.get("purple"):
        decks["purple"] = [e["id"] for e in evs["purple"]]  # scripted: in order
    else:
        decks["green"] = shuffled([e["id"] for e in evs.get("green", [])])
        decks["red"] = shuffled([e["id"] for e in evs.get("red", [])])
    zone_state = {"active": True, "events": decks, "revealed": []}
    return {"zone": zone_id, "squares": squares, "enemies": enemies, "doors": doors, "points": points,
            "resistors": resistors, "spawns": spawns, "zone_state": zone_state}


def playable(name):
    """Act 2 characters are offered only when every one of their skills is implemented (the Act 1
    four are the rulebook's starting characters and always playable)."""
    return content.CHARACTERS[name].get("act", 1) == 1 or all(sid in IMPLEMENTED for sid, sk in content.SKILLS.items() if sk["owner"] == name)


def roster(options):
    """The four characters in play (option ``characters``; default the Act 1 four)."""
    names = options.get("characters", ORDER)
    if (not isinstance(names, list) or len(names) != 4 or len(set(map(str, names))) != 4
            or any(n not in content.CHARACTERS for n in names)):
        raise RuleViolation("bad_options", "characters must name 4 different characters")
    for n in names:
        if not playable(n):
            raise RuleViolation("bad_options", f"{n} is not playable yet (skills not implemented)")
    return list(names)


def default_party(order=ORDER):
    out = {}
    for c in order:
        d = content.CHARACTERS[c]
        out[c] = {"level": 1, "health": d["health_by_level"][0], **d["attributes"], "skills": list(d["skills"]),
                  "kami": d["kami"], "affinity": 1, "weapons": list(d["weapons"]), "equipped": d["weapons"][0],
                  "armor": d["armor"], "armor_value": content.ARMORS[d["armor"]]["armor"],
                  "items": ["jirobo_omamori"], "karma": 0, "coins": 0, "heads": 0, "boss_heads": 0}
    return out


def item_uses(spec, item_id):
    """The "Uses: X" tokens left on an item: as the party hands them on (``item_uses``, the
    Adventure Phase's tokens), else the card's X ("When obtained, add tokens equal to the number
    of uses available on the item card")."""
    full = content.ITEMS[item_id].get("uses")
    return (spec.get("item_uses") or {}).get(item_id, full) if full is not None else None


def make_character(name, spec, roll_ki):
    d = content.CHARACTERS[name]
    level = spec["level"]
    ch = {
        "name": d["name"], "class": d["class"], "level": level,
        "max_health": d["health_by_level"][level - 1], "health": min(spec["health"], d["health_by_level"][level - 1]),
        "attrs": {a: spec[a] for a in ATTRS}, "initial_attribute": d["initial_attribute"],
        "skills": list(spec["skills"]), "kami": spec["kami"], "affinity": spec["affinity"],
        "weapons": list(spec["weapons"]), "equipped": spec["equipped"], "armor_card": spec["armor"],
        "armor": spec["armor_value"], "armor_bonus": 0,
        "items": [{"id": i, "uses": item_uses(spec, i)} for i in spec["items"]], "items_spent": [],
        "karma": spec["karma"], "coins": spec["coins"], "heads": spec["heads"], "boss_heads": spec["boss_heads"],
        "ki": {"supply": [roll_ki() for _ in range(level)], "slots": {}, "exhausted": 0},
        "ap": 4, "conditions": no_conditions(), "meditation": 0, "defeated": False, "sq": None,
        "kami_used": [], "kami_mode": None, "items_used": [], "evaded": False, "breeze": 0,
        "counter_ready": None, "turns": 0,
    }
    return ch


def check_party(party):
    for name, spec in party.items():
        if name not in content.CHARACTERS:
            raise RuleViolation("bad_options", f"unknown character {name!r}")
        d = content.CHARACTERS[name]
        if not 1 <= spec["level"] <= 5:
            raise RuleViolation("bad_options", "level must be 1-5")
        for a in ATTRS:
            if not 0 <= spec[a] <= 3:
                raise RuleViolation("bad_options", f"{a} must be 0-3")
        for sk in spec["skills"]:
            info = content.SKILLS.get(sk)
            if info is None or info["owner"] != name or info["level"] > spec["level"]:
                raise RuleViolation("bad_options", f"{name} cannot have skill {sk!r}")
        if spec["kami"] not in content.KAMI:
            raise RuleViolation("bad_options", f"unknown kami {spec['kami']!r}")
        if not 0 <= spec["affinity"] <= 6:
            raise RuleViolation("bad_options", "affinity must be 0-6")
        for w in spec["weapons"]:
            if w not in content.WEAPONS:
                raise RuleViolation("bad_options", f"unknown weapon {w!r}")
        if len(spec["weapons"]) > 2 or spec["equipped"] not in spec["weapons"]:
            raise RuleViolation("bad_options", "at most 2 weapons, the equipped one among them")
        if spec["armor"] is not None and spec["armor"] not in content.ARMORS:
            raise RuleViolation("bad_options", f"unknown armor {spec['armor']!r}")
        top = content.ARMORS[spec["armor"]]["armor"] if spec["armor"] is not None else 0
        if not 0 <= spec["armor_value"] <= top:
            raise RuleViolation("bad_options", "armor value above the armor card")
        for i in spec["items"]:
            if i not in content.ITEMS:
                raise RuleViolation("bad_options", f"unknown item {i!r}")
        n, permanent = content.item_counts(spec["items"])
        if n > content.MAX_ITEMS or permanent > content.MAX_PERMANENT:
            raise RuleViolation("bad_options", f"{name} carries more than {content.MAX_PERMANENT} permanent or "
                                               f"{content.MAX_ITEMS} market items (special items aside)")
        uses = spec.get("item_uses") or {}
        if not isinstance(uses, dict) or any(i not in spec["items"] or content.ITEMS[i]["type"] != "uses"
                                             or not isinstance(left, int) or not 1 <= left <= content.ITEMS[i]["uses"]
                                             for i, left in uses.items()):
            raise RuleViolation("bad_options", "item_uses gives the tokens left (1 to the card's uses) on a carried uses item")
        if not 1 <= spec["health"] <= d["health_by_level"][spec["level"] - 1]:
            raise RuleViolation("bad_options", "health out of range")


def merged_party(option_party, order=ORDER):
    party = default_party(order)
    if not isinstance(option_party or {}, dict):
        raise RuleViolation("bad_options", "party must be an object")
    for name, spec in (option_party or {}).items():
        if name not in party or not isinstance(spec, dict):
            raise RuleViolation("bad_options", f"unknown character {name!r}")
        if "level" in spec and (not isinstance(spec["level"], int) or not 1 <= spec["level"] <= 5):
            raise RuleViolation("bad_options", "level must be 1-5")
        merged = dict(party[name])
        merged.update(spec)
        if "health" not in spec and "level" in spec:
            merged["health"] = content.CHARACTERS[name]["health_by_level"][merged["level"] - 1]
        if "armor_value" not in spec and "armor" in spec and spec["armor"] in content.ARMORS:
            merged["armor_value"] = content.ARMORS[spec["armor"]]["armor"]
        if "armor_value" not in spec and "armor" in spec and spec["armor"] is None:
            merged["armor_value"] = 0
        if "weapons" in spec and "equipped" not in spec and spec["weapons"]:
            merged["equipped"] = spec["weapons"][0]
        party[name] = merged
    check_party(party)
    check_equipped_class(party)
    return party


def check_equipped_class(party):
    """The equipped weapon must be of the character's class (another class's weapon can only be
    carried, as the unequipped one); no character holds two copies of one weapon."""
    for name, spec in party.items():
        cls = content.CHARACTERS[name]["class"]
        if content.WEAPONS[spec["equipped"]]["class"] != cls:
            raise RuleViolation("bad_options", f"{name} cannot equip {spec['equipped']!r} (not a {cls} weapon)")
        if len(set(spec["weapons"])) != len(spec["weapons"]):
            raise RuleViolation("bad_options", "a weapon listed twice")


def build_state(scenario_doc, options, seats, shuffled, roll_ki):
    order = roster(options)
    control = options.get("control")
    if control is None:
        control = {c: i % seats for i, c in enumerate(order)}
    if not isinstance(control, dict) or sorted(control) != sorted(order) or any(not isinstance(v, int) or not 0 <= v < seats for v in control.values()):
        raise RuleViolation("bad_options", "control must map the four characters in play to seats 0..n-1")
    if sorted(set(control.values())) != list(range(seats)):
        raise RuleViolation("bad_options", "every seat must control at least one character")
    party = merged_party(options.get("party"), order)
    adventure = options.get("adventure", "success")
    share = options.get("share", False)
    s = {
        "v": 1, "phase": "share" if share else "oracle", "share": {"ready": []} if share else None, "seats": seats, "leader": options.get("leader", 0),
        "party_vote": bool(options.get("party_vote", False)), "round_cap": options.get("round_cap"),
        "failure_procedure": bool(options.get("failure_procedure", True)),
        "round": 1, "control": dict(control), "roster": list(order), "scenario_id": scenario_doc["id"],
        "scenario_name": scenario_doc["name"], "objective": scenario_doc["objective"],
        "level_increase": bool(scenario_doc.get("level_increase")), "adventure": adventure,
        "zones_def": scenario_doc["zones"], "zones": {}, "squares": {},
        "oracle": {"deck": [], "drawn": [], "current": None, "color": None}, "malice": 0,
        "characters": {}, "enemies": {}, "resistors": {}, "doors": {}, "points": {}, "spawns": {},
        "heads": [], "plus_types": [], "defeated_enemies": [],
        "initiative": {"queue": [], "pos": -1}, "turn": None, "pending": None, "work": [],
        "round_effects": [], "attack": None, "forced": [], "result": None, "failures": 0,
        "objective_done": False, "next_initiative": None, "distraction": None, "aftermath": None, "last_defeat_sq": None,
    }
    consequences = adventure_consequences(scenario_doc, options)
    s["adventure_consequences"] = [{"when": dict(c["when"]), "text": c["text"]} for c in consequences]
    s["yomi"] = yomi.track_option(options)
    s["defeated_in_phase"] = []  # characters defeated at least once this phase (Yomi Mode marks)
    s["blue_die"] = blue_die_option(options)
    if not 0 <= s["leader"] < seats:
        raise RuleViolation("bad_options", "leader must be a seat")
    for name in order:
        s["characters"][name] = make_character(name, party[name], roll_ki)
        for c in consequences:
            if c.get("condition"):
                s["characters"][name]["conditions"][c["condition"]] += 1
    start = scenario_doc["start_zone"]
    zp = zone_payload(s, start, shuffled)
    s["squares"] = zp["squares"]
    s["zones"][start] = zp["zone_state"]
    for coll in ("enemies", "doors", "points", "resistors", "spawns"):
        s[coll].update(zp[coll])
    for e in zp["enemies"].values():
        if e.get("plus") and e["type"] not in s["plus_types"]:
            s["plus_types"].append(e["type"])
    starts = scenario_doc["zones"][start].get("start", [])
    for name, sq in zip(order, starts):
        s["characters"][name]["sq"] = sq
    counts = dict(scenario_doc["oracle"][adventure])
    for c in consequences:
        for color, extra in c.get("oracle", {}).items():
            counts[color] = counts.get(color, 0) + extra
    s["oracle"]["deck"] = shuffled(oracle_cards(counts, []))
    s["market"] = shuffled(market_option(options))
    return s


def blue_die_option(options) -> bool:
    """Optional Rule: Replace the Red Die (option ``blue_die``, default off): every red attack die
    is rolled as the blue die (``W.roll``). A state set up before the option existed has no key,
    which reads as off."""
    value = options.get("blue_die", False)
    if not isinstance(value, bool):
        raise RuleViolation("bad_options", "blue_die is true or false")
    return value


def market_option(options):
    """The market deck's cards: the Adventure Phase's (option ``market``), else every market card."""
    cards = options.get("market")
    if cards is None:
        return content.market_cards()
    if not isinstance(cards, list) or any(c not in content.market_cards() for c in cards):
        raise RuleViolation("bad_options", "market lists market cards of the content (no special card)")
    return sorted(cards)


def adventure_consequences(scenario_doc, options) -> list[dict]:
    """"the adventure and Exploration Phase preparation sections of a chapter may specify
    consequences for meeting certain ending conditions, and succeeding or failing certain missions":
    the scenario's ``adventure_consequences`` whose condition the Adventure Phase just played met -
    a mission's status (option ``missions``: number -> status, from ``AdventureFinished``) or a mark
    on the campaign sheet (option ``marks``). Each may add oracle cards and give every character a
    condition at the start."""
    missions, marks = options.get("missions") or {}, set(options.get("marks") or [])
    out = []
    for c in scenario_doc.get("adventure_consequences", []):
        when = c["when"]
        if "mission" in when and missions.get(str(when["mission"])) == when["status"]:
            out.append(c)
        elif "mark" in when and when["mark"] in marks:
            out.append(c)
    return out


def zone_oracle_counts(zdef, adventure):
    """The oracle cards a zone adds when it is revealed: "the amount of each kind of Oracle cards (green
    and red) that are added to the Oracle deck each time a zone is revealed, depending on the success or
    failure of the last Adventure Phase" - a zone's ``oracle`` is either one mix ``{green, red}`` or a
    mix per result ``{success: {...}, failure: {...}}``, read with the ``adventure`` option."""
    counts = zdef.get("oracle") or {}
    if "success" in counts or "failure" in counts:
        return dict(counts.get(adventure) or {})
    return dict(counts)


def oracle_cards(counts, used):
    """Oracle card ids of each colour not already in ``used``, ``counts`` of each."""
    out = []
    for color in ("green", "red"):
        avail = [c["id"] for c in content.ORACLE if c["color"] == color and c["id"] not in used]
        out += avail[: counts.get(color, 0)]
    return out
