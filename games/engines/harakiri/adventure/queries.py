"""Pure reads of an Adventure Phase state (no state is changed here)."""

from games.kernel import SYSTEM

from .. import leaving
from . import board
from .content import ACTS, BLACKSMITH, CHARACTERS, LEVELS, MARKET, TOKENS

ATTRIBUTES = ("power", "dexterity", "spirit", "knowledge")
ORDER = ("akira", "hattori", "hikaru", "tomoe")


def band(influence: int) -> str:
    """"Shōgun's influence ... 5 or less, it is considered low ... 6-9 ... medium ... 10 or more ... high"."""
    if influence <= 5:
        return "low"
    if influence <= 9:
        return "medium"
    return "high"


def failure_influence(state) -> int:
    return ACTS[state["act"]]["influence_failure"]


def chapter_doc(state) -> dict:
    return next(c for c in ACTS[state["act"]]["chapters"] if c["number"] == state["chapter"])


def adventure_doc(state) -> dict:
    return chapter_doc(state)["adventure"]


def character(state, cid) -> dict:
    return state["characters"][cid]


def controller(state, cid) -> int:
    return state["control"][cid]


def prepared(ch) -> bool:
    """A first chapter's character is ready once it has chosen its level 1 weapon and its Kami
    ("choose one of the 8 initial Kami available ... for each character")."""
    return bool(ch["equipped"]) and ch.get("kami_chosen", True)


def kami_taken(state, cid) -> set[str]:
    """The Kami the other characters hold: each Kami is one card ("10 kami cards"; "Place each
    character's Kami card next to their player board"), so a first chapter's choice is among the
    initial Kami still "available". A character whose Kami is still to choose holds none yet."""
    return {ch["kami"] for other, ch in state["characters"].items() if other != cid and ch.get("kami_chosen", True)}


def alive(state) -> list[str]:
    return [c for c in ORDER if c in state["characters"] and not state["characters"][c]["defeated"]]


def defeated(state) -> list[str]:
    """Characters defeated (out of the phase until they are resurrected at its end)."""
    return [c for c in ORDER if c in state["characters"] and state["characters"][c]["defeated"]]


def kami_l1(state, cid) -> str | None:
    """The character's first Kami skill, passive during the Adventure Phase (affinity 1+)."""
    ch = character(state, cid)
    return f"{ch['kami']}_l1" if ch["affinity"] >= 1 else None


def has_ability(state, cid, kami: str) -> bool:
    return kami_l1(state, cid) == f"{kami}_l1"


# The level 1 Kami skills a character activates: "The level 1 Kami skills require spending 1 action
# point to be activated. They can only be activated once per phase" (Appendix: Kami Skills). Chaos
# Unleashed ("always active") and Known Path ("You always succeed") apply by themselves.
ACTIVATED = ("amaterasu", "amatsumara", "dosojin", "hachiman", "inari", "ryujin", "shinigami", "susanoo")
KAMI_COST = 1


def kami_ready(state, cid, kami: str, ap: int = KAMI_COST) -> bool:
    """The character has ``kami``'s level 1 skill, has not activated it this phase, is the active
    character and has ``ap`` action points (the skill's 1 plus what the action it goes with costs)."""
    ch = character(state, cid)
    return (has_ability(state, cid, kami) and not ch.get("kami_used", False)
            and state["flow"].get("active") == cid and ch["ap"] >= ap)


def max_health(state, cid) -> int:
    ch = character(state, cid)
    return LEVELS["health_by_class"][CHARACTERS[cid]["class"]][ch["level"] - 1]


def movement_points(state, cid, nine_tailed_fox: bool = False) -> int:
    """"movement points equal to 3 + dexterity + any applicable modifier" (Nine-tailed fox, when
    activated: +1)."""
    return 3 + character(state, cid)["attributes"]["dexterity"] + (1 if nine_tailed_fox else 0)


def weapon(state, cid) -> dict | None:
    equipped = character(state, cid)["equipped"]
    return BLACKSMITH.get(equipped) if equipped else None


def combat_dice(state, cid) -> list[str]:
    """The attack dice of the equipped weapon's strong attack (its fast attack if it has none);
    the test die is not rolled in a combat test."""
    card = weapon(state, cid)
    if card is None:
        return []
    dice = card.get("strong") or card.get("fast") or []
    return [d for d in dice if d != "test"]


def rolled_die(state, colour: str) -> str:
    """The attack die rolled when a rule calls for ``colour``. Optional Rule: Replace the Red Die
    (option ``blue_die``): "the new blue attack die ... and the red die have the same average, so
    one can be substituted for the other" - every red die is rolled as the blue die. A state set up
    before the option existed has no ``blue_die``: off."""
    return "blue" if state.get("blue_die") and colour == "red" else colour


def combat_modifier(state, cid, sharpened_blade: bool = False) -> int:
    """Power, plus permanent items' combat bonus the character can use, plus Sharpened Blade's +1
    when the character activated it for this test."""
    ch = character(state, cid)
    items = sum(e["amount"] for i in ch["items"] if usable(state, cid, i) and MARKET[i]["type"] == "permanent"
                for e in MARKET[i]["effects"] if e["do"] == "combat_bonus")
    return ch["attributes"]["power"] + (1 if sharpened_blade else 0) + items


def usable(state, cid, item) -> bool:
    """"Use the effect of an item in the character's supply if the active character meets its knowledge requirement"."""
    return (MARKET[item]["knowledge"] or 0) <= character(state, cid)["attributes"]["knowledge"]


def armor_value(state, cid) -> int:
    """The equipped armor's current value; an armor of another class is carried, not worn ("even if a
    character does not fulfill the requisites for using ... a piece of equipment (for not being the
    required class ...) those items can still be part of the character's supply")."""
    ch = character(state, cid)
    if not ch["armor"] or BLACKSMITH[ch["armor"]]["class"] != ch["class"]:
        return 0
    return ch["armor_value"]


def traits(state, cid) -> list[str]:
    """"Traits are gained by the characters when acquiring new skills" (on the character case), plus
    the trait of an item in the supply the character can use (e.g. Travel Papers' "papers")."""
    ch = character(state, cid)
    from_items = {MARKET[i]["trait"] for i in ch["items"] if MARKET[i].get("trait") and usable(state, cid, i)}
    return sorted(set(ch.get("traits", [])) | from_items)


def holds(state, cid, token) -> bool:
    return token in character(state, cid).get("tokens", [])


SHEET_REQUIREMENTS = frozenset({"mark"})  # requirements of the campaign sheet, not of one character


def sheet_meets(state, requires: dict | None) -> bool:
    """The campaign sheet's part of a requirement: a mark recorded on it ("the campaign sheet ...
    keep[s] track of marks"; numbered events "added, or removed ... when directed by ... marks")."""
    requires = requires or {}
    return "mark" not in requires or requires["mark"] in state["marks"]


def meets(state, cid, requires: dict | None) -> bool:
    """A requirement of a decision's option, a clan token or an ``if``: coins, a carried token, a
    trait, a mark on the campaign sheet."""
    requires = requires or {}
    ch = character(state, cid)
    return (ch["coins"] >= requires.get("coins", 0)
            and ("token" not in requires or holds(state, cid, requires["token"]))
            and ("trait" not in requires or requires["trait"] in traits(state, cid))
            and sheet_meets(state, requires))


def token_name(token) -> str:
    return TOKENS.get(token, {}).get("name", token)


def enemies_at(state, location) -> list[str]:
    return sorted(e for e, spec in state["enemies"].items() if spec["location"] == location)


def characters_at(state, location) -> list[str]:
    return [c for c in alive(state) if character(state, c)["location"] == location]


def blocked(state) -> list[str]:
    """Razed cities: characters 'may not enter (or go through)' them."""
    return sorted(state["cities"]["razed"])


def enemy_target_location(state, enemy_id) -> str | None:
    target = state["enemies"][enemy_id]["target"]
    if not target:
        return None
    if "location" in target:
        return target["location"]
    cid = target["character"]
    if cid in state["characters"] and not state["characters"][cid]["defeated"]:
        return state["characters"][cid]["location"]
    return None


def enemy_moves(state, enemy_id) -> dict:
    """{end location: a shortest path leading there} for the enemy's activation. More than one
    key is a tie the players decide ("If more than one path is equally short ... the players
    decide which path the enemy will take")."""
    enemy = state["enemies"][enemy_id]
    goal = enemy_target_location(state, enemy_id)
    if goal is None or enemy["movement"] <= 0 or goal == enemy["location"]:
        return {enemy["location"]: [enemy["location"]]}
    ends = {}
    for path in board.shortest_paths(enemy["location"], goal):
        walked = path[: enemy["movement"] + 1]
        ends.setdefault(walked[-1], walked)
    return ends or {enemy["location"]: [enemy["location"]]}


def group_candidates(state, cid) -> list[str]:
    """Characters at the active character's location who have neither activated nor travelled."""
    here = character(state, cid)["location"]
    return [c for c in characters_at(state, here)
            if c != cid and not character(state, c)["activated"] and not character(state, c)["traveled"]]


def travel_group(state) -> list[str]:
    travel = state["flow"]["travel"]
    return [state["flow"]["active"], *travel["group"]] if travel else []


def group_coins(state) -> int:
    return sum(character(state, c)["coins"] for c in travel_group(state))


def land_moves(state) -> list[dict]:
    travel = state["flow"]["travel"]
    cid = state["flow"]["active"]
    if not travel or travel["mp"] < 1:
        return []
    here = character(state, cid)["location"]
    razed = set(blocked(state))
    return [{"to": n, "kind": board.route_kind(here, n)} for n in board.neighbours(here) if n not in razed]


def sea_moves(state) -> list[str]:
    """"Travel by Sea": at a port, 3 movement points and 10 coins, to a port of the same sea."""
    travel = state["flow"]["travel"]
    cid = state["flow"]["active"]
    if not travel or travel["mp"] < 3:
        return []
    here = character(state, cid)["location"]
    if not board.is_port(here) or group_coins(state) < 10:
        return []
    razed = set(blocked(state))
    return [p for p in board.ports(board.sea_of(here)) if p != here and p not in razed]


def waves_moves(state) -> list[str]:
    """Guided by the Waves: once per phase, 3 movement points (and the skill's action point), from
    one port to any other."""
    travel = state["flow"]["travel"]
    cid = state["flow"]["active"]
    if not travel or travel["mp"] < 3 or travel["group"] or not kami_ready(state, cid, "susanoo"):
        return []
    ch = character(state, cid)
    if not board.is_port(ch["location"]):
        return []
    razed = set(blocked(state))
    return [p for p in board.ports() if p != ch["location"] and p not in razed]


def travel_event_due(state) -> bool:
    """"if they spent 2 or more movement points moving over land ... If the character has moved
    only 1 location ... do not draw"; never after a group travel or Guided by the Waves."""
    travel = state["flow"]["travel"]
    return bool(travel) and not travel["group"] and not travel["waves"] and travel["land"] >= 2 and travel["locations"] >= 2


def seat_left_of(state, seat: int) -> int:
    """The player to the left of ``seat``: the next seat round the table still in play."""
    seats = state["seats"]
    return next((x for x in ((seat + i) % seats for i in range(1, seats + 1)) if x in leaving.in_play(state)), seat)


def losable_attributes(state, cid) -> list[str]:
    """Attributes with a point to lose; the class's initial point can never be lost."""
    ch = character(state, cid)
    floor = {a: (1 if a == ch["initial_attribute"] else 0) for a in ATTRIBUTES}
    return [a for a in ATTRIBUTES if ch["attributes"][a] > floor[a]]


def awaiting(state) -> list:
    """Who decides now: SYSTEM for the game's own steps, else the seats a decision waits on."""
    flow = state["flow"]
    stage = flow["stage"]
    if stage == "finished":
        return []
    if state["choice"]:
        return [controller(state, state["choice"]["character"])]
    if stage == "prepare":
        return sorted({controller(state, c) for c in ORDER if c in state["characters"] and not prepared(character(state, c))})
    if stage == "ending" and flow.get("loss"):
        return [controller(state, flow["loss"])]
    offer = kami_offer(state)
    if stage == "ending" and offer is not None and not state["queue"]:
        return [controller(state, offer["character"])] if offer["character"] else party(state)
    if state["queue"] or stage in ("shogun", "round_end", "ending"):
        return [SYSTEM]
    if stage == "enemies":
        if flow["tie"] and not flow["tie"]["chosen"]:
            return party(state)
        if len(flow["enemies_left"]) > 1 and not flow["next_enemy"]:
            return party(state)
        return [SYSTEM]
    if stage == "characters":
        return sorted({controller(state, c) for c in to_activate(state)})
    if stage == "activation":
        if (flow["travel"] and flow["travel"].get("ended")) or flow.get("event") or flow.get("close"):
            return [SYSTEM]
        if flow.get("proposal"):
            return sorted(flow["proposal"]["waiting"])
        return [controller(state, flow["active"])]
    return []


def to_activate(state) -> list[str]:
    """Characters that may activate next: after a group travel, "other group members will complete
    their activations" (those of them still to activate come first), else any not yet activated."""
    waiting = [c for c in alive(state) if not character(state, c)["activated"]]
    next_up = [c for c in waiting if c in state["flow"].get("next_up", [])]
    return next_up or waiting


def kami_offer(state) -> dict | None:
    """The first Kami unlocked this phase whose change is still to be decided (at the phase's end)."""
    if state["flow"]["stage"] != "ending" or state["flow"]["sub"] != "kami":
        return None
    return next((o for o in state.get("unlocked_kami", []) if not o["decided"]), None)


def kami_candidates(state, offer) -> list[str]:
    """"the character referenced in that mission may replace their current Kami" (a personal
    mission), else "any 1 character"; a character that already has this Kami is not offered it."""
    who = [offer["character"]] if offer["character"] else list(ORDER)
    return [c for c in who if c in state["characters"] and character(state, c)["kami"] != offer["kami"]]


def party(state) -> list[int]:
    """"players decide": any seated player still in play may record the party's choice."""
    return leaving.in_play(state)


def mission_doc(state, number) -> dict:
    return next(m for m in adventure_doc(state)["missions"] if m["number"] == int(number))


def mission_tokens_here(state, cid) -> list[int]:
    """Facedown missions whose token lies at the character's location."""
    here = character(state, cid)["location"]
    return sorted(int(n) for n, m in state["missions"].items() if m["status"] == "hidden" and m["token"] == here)


def token_places(mission: dict) -> list[str]:
    """Where a mission card places each character's clan tokens."""
    return [t["at"] for t in mission["clan_tokens"]]


def clan_token_doc(state, number, location) -> dict:
    """What the mission's clan token at ``location`` does: ``{at, effects, completes?, requires?}``."""
    return next(t for t in mission_doc(state, number)["clan_tokens"] if t["at"] == location)


def clan_tokens_here(state, cid) -> list[int]:
    """Active missions with one of the character's clan tokens at its location whose requirement the
    character meets ("some missions require something to be delivered somewhere and interacting with
    a character's clan token is not enough")."""
    here = character(state, cid)["location"]
    return sorted(int(n) for n, m in state["missions"].items()
                  if m["status"] == "active" and here in m["clan_tokens"].get(cid, [])
                  and meets(state, cid, clan_token_doc(state, n, here).get("requires")))


def personal_token_here(state, cid) -> bool:
    """"Characters can only interact with their own personal mission tokens"."""
    mission = state["personal"].get(cid)
    return bool(mission) and mission["status"] == "open" and mission["token"] == character(state, cid)["location"]


def city_services(state, cid) -> list[str]:
    """Services the character may use here: none in a captured city ("may not take the "interact
    with a city" action in a captured city"), nor in a razed one, which a character can only be in
    because it was razed around it or it starts the chapter there (a razed city is destroyed: it
    cannot even be entered)."""
    here = character(state, cid)["location"]
    if here in state["cities"]["captured"] or here in state["cities"]["razed"]:
        return []
    return board.services(here)


def is_sanctuary(location) -> bool:
    return board.LOCATIONS[location]["kind"] == "sanctuary"


AFFINITY_MAX = 6


PERMANENT_LIMIT = 2
MARKET_ITEM_LIMIT = 5


def owned_equipment(state, cid) -> list[str]:
    ch = character(state, cid)
    return [*ch["weapons"], ch["armor"]] if ch["armor"] else list(ch["weapons"])


def equipment_in_supplies(state) -> set[str]:
    """Every blacksmith card some character holds (each card is one card: one handed to a character
    of another class by sharing is in that supply, not in the blacksmith deck)."""
    return {card for c in state["characters"] for card in owned_equipment(state, c)}


def blacksmith_offer(state, cid) -> list[str]:
    """Cards of the character's blacksmith deck (class, current and lower levels) not in a supply."""
    ch = character(state, cid)
    owned = equipment_in_supplies(state)
    return sorted(k for k, c in BLACKSMITH.items()
                  if c["class"] == ch["class"] and c["level"] <= ch["blacksmith_level"] and k not in owned
                  and c["cost"] <= ch["coins"] and (c["slot"] == "armor" or len(ch["weapons"]) < 2))


def can_part_with(state, cid, card) -> bool:
    """A character keeps a weapon of its class to equip: neither a sale nor a gift takes its last
    one (the Exploration Phase has no attack without a weapon: docs/games/harakiri-adventure.md,
    "Equipment between the phases"); armor and another class's weapon may always go."""
    ch = character(state, cid)
    if card not in ch["weapons"] or BLACKSMITH[card]["class"] != ch["class"]:
        return True
    return any(w != card and BLACKSMITH[w]["class"] == ch["class"] for w in ch["weapons"])


def can_swap_weapon(state, cid) -> bool:
    """"Swap Weapon. Exchange your equipped weapon for your unequipped weapon": only towards a weapon
    the character's class can equip (another class's weapon is only carried: "Share")."""
    ch = character(state, cid)
    return len(ch["weapons"]) == 2 and any(w != ch["equipped"] and BLACKSMITH[w]["class"] == ch["class"]
                                           for w in ch["weapons"])


def half(cost: int) -> int:
    """"gaining half the cost rounded down"."""
    return cost // 2


def market_items(state, cid) -> list[str]:
    return [i for i in character(state, cid)["items"] if MARKET[i]["type"] != "special"]


def can_keep_item(state, cid, item) -> bool:
    """"a maximum of 2 permanent items, and a maximum of 5 market items total"; special items count for neither."""
    card = MARKET[item]
    if card["type"] == "special":
        return True
    items = market_items(state, cid)
    if len(items) >= MARKET_ITEM_LIMIT:
        return False
    return card["type"] != "permanent" or sum(MARKET[i]["type"] == "permanent" for i in items) < PERMANENT_LIMIT


def usable_items(state, cid) -> list[str]:
    """Items with an effect to use now: consumables and uses items (movement only while travelling)."""
    travelling = bool(state["flow"]["travel"]) and not state["flow"]["travel"]["ended"]
    out = []
    for item in sorted(set(character(state, cid)["items"])):
        card = MARKET[item]
        if card["type"] not in ("consumable", "uses") or not usable(state, cid, item) or not card["effects"]:
            continue
        if any(e["do"] == "movement" for e in card["effects"]) and not travelling:
            continue
        out.append(item)
    return out


def shared_missions(state) -> list[str]:
    """Active missions (personal ones are never shared)."""
    return sorted((n for n, m in state["missions"].items() if m["status"] == "active"), key=int)


def information_to_share(state, cid) -> list[tuple[int, str]]:
    """"If any character at the active character's location has placed clan tokens ... as a result of
    an active mission ..., each other character in the location may also place their clan tokens"."""
    here = characters_at(state, character(state, cid)["location"])
    out = []
    for number in shared_missions(state):
        placed = state["missions"][number]["clan_tokens"]
        if any(c in placed for c in here):
            out += [(int(number), c) for c in here if c not in placed]
    return out


def omamori_targets(state, cid) -> list[tuple[int, str]]:
    """Jirōbō's omamori: once per Adventure Phase, share information on one active mission, anywhere."""
    if state["omamori_used"] or "jirobo_omamori" not in character(state, cid)["items"]:
        return []
    out = []
    for number in shared_missions(state):
        placed = state["missions"][number]["clan_tokens"]
        if cid in placed:
            out += [(int(number), c) for c in alive(state) if c not in placed]
    return out


def special_location_here(state, cid) -> dict | None:
    """A special location card placed this chapter, discovered (coloured), at the character's location,
    that the character has not used yet this phase."""
    here = character(state, cid)["location"]
    if here not in state["discovered"] or here in character(state, cid)["specials_used"]:
        return None
    return next((c for c in adventure_doc(state).get("special_locations", []) if c["location"] == here), None)


def items_over_limit(state, cid) -> list[str]:
    """The items one of which must go to bring the supply back within its limits (none if within)."""
    items = market_items(state, cid)
    permanents = [i for i in items if MARKET[i]["type"] == "permanent"]
    if len(permanents) > PERMANENT_LIMIT:
        return sorted(set(permanents))
    if len(items) > MARKET_ITEM_LIMIT:
        return sorted(set(items))
    return []
