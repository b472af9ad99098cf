"""The Adventure Phase decider: setup, decide, evolve, legal_commands, view_for, redact_event, status."""

import copy

import jsonschema

from games.kernel import SYSTEM, EngineBase, RuleViolation, Status, event, json_member

from . import actions, board, book, effects, steps
from . import queries as q
from .content import ACTS, BLACKSMITH, CHARACTERS, INFLUENCE_CARDS, KAMI, LEVELS, MARKET, TRAVEL_EVENTS, market_deck

CHAPTERS = sorted(c["number"] for c in ACTS[1]["chapters"])


def default_control(seats: int) -> dict:
    """Characters divided between the players (Akira, Hattori, Hikaru, Tomoe dealt round the table)."""
    return {cid: i % seats for i, cid in enumerate(q.ORDER)}


def _character(act: dict, cid: str, kami: str, location: str) -> dict:
    board_ = CHARACTERS[cid]
    start = act["starting"][cid]
    armor = start["armor"]
    return {
        "name": board_["name"], "class": start["class"], "level": 1,
        "health": act["characters"][cid]["first_chapter_health"],
        "attributes": dict(board_["attributes"]), "initial_attribute": start["attribute"],
        "skills": [start["skill"]], "traits": [], "kami": kami, "affinity": 1, "karma": 0,
        "coins": 0, "heads": 0, "boss_heads": 0,
        "armor": armor, "armor_value": BLACKSMITH[armor]["armor"], "weapons": [], "equipped": None,
        "items": list(act["special_items"]), "item_uses": {}, "blacksmith_level": 1,
        "location": location, "ap": 0, "ap_penalty": 0, "activated": False, "traveled": False,
        "defeated": False, "kami_used": False, "clan_tokens": [], "specials_used": [],
        "blessed": 0, "tokens": [], "defeated_in_phase": False, "kami_chosen": False,
    }


def _mission(doc: dict) -> dict:
    """A mission card facedown with its token on the map, faceup if active from the start (then
    every character has placed its clan tokens), or facedown without a token if it is "not
    available from the start of the phase" (an effect places it later)."""
    active = doc.get("active_from_start", False)
    if not doc.get("available", True):
        return {"status": "unavailable", "token": None, "starter": None, "clan_tokens": {}}
    return {"status": "active" if active else "hidden", "token": None if active else doc["token"], "starter": None,
            "clan_tokens": {cid: q.token_places(doc) for cid in q.ORDER} if active else {}}


CARRIED = steps.CARRIED


def _from_sheet(character: dict, carried: dict) -> dict:
    """A character as the campaign sheet and character case left it (Character's Setup steps 2-9)."""
    out = {**character, **{k: copy.deepcopy(v) for k, v in carried.items() if k in CARRIED}}
    out["blacksmith_level"] = min(3, out["level"])
    out["kami_chosen"] = True  # the Kami card of the character case
    return out


def sheet_characters(sheet: dict) -> dict:
    return sheet.get("characters", {}) if sheet else {}


def initial_state(options: dict, seats: int, decks: dict) -> dict:
    """A chapter's Adventure Phase (Adventure Phase Setup, both parts): a first chapter's boards, or
    the party and map state a campaign sheet (option ``sheet``) carries over."""
    act = ACTS[1]
    chapter = q.chapter_doc({"act": 1, "chapter": options.get("chapter", 1)})
    adventure = chapter["adventure"]
    control = options.get("control") or default_control(seats)
    kami = {cid: CHARACTERS[cid]["kami"] for cid in q.ORDER} | options.get("kami", {})
    enemies = {}
    for spec in adventure["enemies"]:
        enemy = {k: v for k, v in spec.items() if k != "at"}
        enemy["location"] = spec["at"]
        enemies[spec["id"]] = enemy
    sheet = options.get("sheet") or {}
    characters = {cid: _character(act, cid, kami[cid], adventure["start"][cid]) for cid in q.ORDER}
    for cid in options.get("kami", {}):
        characters[cid]["kami_chosen"] = True  # chosen when the match was created
    for cid, carried in sheet_characters(sheet).items():
        characters[cid] = _from_sheet(characters[cid], carried)
    city_log = [dict(c) for c in sheet.get("cities", [])]
    return {
        "act": 1, "chapter": chapter["number"], "seats": seats, "control": dict(control),
        "round": 0, "final": False, "influence": adventure["influence"]["start"],
        "characters": characters,
        "enemies": enemies, "enemy_seq": len(enemies),
        "cities": {"captured": sorted(c["location"] for c in city_log if c["status"] == "captured"),
                   "razed": sorted(c["location"] for c in city_log if c["status"] == "razed")},
        "city_log": city_log,
        "decks": decks, "discard": {"influence": []}, "influence_card": None,
        "travel_codes": travel_codes(options), "travel_removed": sorted(sheet.get("travel_removed", [])),
        "marks": list(sheet.get("marks", [])),
        "sheet_marks_read": False, "sheet_marks_applied": [],  # the preparation's rules on the sheet's marks
        "discovered": sorted(set(sheet.get("discovered", []))
                             | {s["location"] for s in adventure.get("special_locations", []) if s["discovered"]}),
        "missions": {str(m["number"]): _mission(m) for m in adventure["missions"]},
        "personal": {cid: {"token": pm["token"], "status": "open"} for cid, pm in sorted(adventure["personal_missions"].items())},
        "missions_completed": [], "omamori_used": False, "unlocked_kami": [],
        "book_read": {"clan_tokens": {}, "ending": None},  # campaign-book entries read (book.py)
        "queue": [], "choice": None, "result": None,
        "blue_die": bool(options.get("blue_die", False)),  # Optional Rule: Replace the Red Die
        "flow": {"stage": "prepare" if not all(q.prepared(c) for c in characters.values()) else "shogun",
                 "sub": "round", "enemies_left": [], "next_enemy": None, "tie": None,
                 "active": None, "travel": None, "event": None, "close": False, "loss": None, "resurrected": [],
                 "shop": None, "next_up": [], "group_members": []},
    }


def travel_codes(options: dict) -> list[str]:
    """The chapter's letter codes plus the numbered events the campaign added."""
    chapter = q.chapter_doc({"act": 1, "chapter": options.get("chapter", 1)})
    sheet = options.get("sheet") or {}
    return sorted(set(chapter["adventure"]["travel_events"]["codes"]) | set(sheet.get("travel_added", [])))


def market_range(options: dict) -> tuple[int, int]:
    """"Find the lowest and highest knowledge of any character" (a first chapter: no requirement and level 1)."""
    carried = sheet_characters(options.get("sheet"))
    if not carried:
        low, high = ACTS[1]["first_chapter_market"]["knowledge"]
        return low, high
    knowledge = [c["attributes"]["knowledge"] for c in carried.values()]
    return min(knowledge), max(knowledge)


def held_items(options: dict) -> set[str]:
    """The market cards in the characters' supplies on the campaign sheet."""
    return {i for case in sheet_characters(options.get("sheet")).values() for i in case["items"]}


def market_cards(options: dict) -> list[str]:
    """Map Board Setup step 6: the market cards of the party's knowledge range, less the cards the
    characters keep in their supplies (each card is one card: a bought card is not on the table to
    gather again, and would otherwise be in the deck and in a supply at once)."""
    low, high = market_range(options)
    held = held_items(options)
    return [card for card in market_deck(low, high) if card not in held]


def deck_contents(options: dict) -> dict:
    """The cards of each deck, in a fixed order (setup shuffles them)."""
    chapter = q.chapter_doc({"act": 1, "chapter": options.get("chapter", 1)})
    codes = set(travel_codes(options))
    removed = set((options.get("sheet") or {}).get("travel_removed", []))
    return {
        "travel": sorted(k for k, c in TRAVEL_EVENTS.items() if c["code"] in codes and k not in removed),
        "influence": sorted(k for k, c in INFLUENCE_CARDS.items() if chapter["number"] in c["chapters"]),
        "market": market_cards(options),
    }


_NAT = {"type": "integer", "minimum": 0, "maximum": 999}
_IDS = {"type": "array", "items": {"type": "string", "maxLength": 64}, "maxItems": 200}
# ``item_uses`` is optional: a sheet recorded before it was carried gives every item its full uses
_CARRIED = {"type": "object", "additionalProperties": False, "required": [k for k in CARRIED if k != "item_uses"],
            "properties": {
    "level": {"type": "integer", "minimum": 1, "maximum": 5}, "health": {"type": "integer", "minimum": 1, "maximum": 30},
    "attributes": {"type": "object", "additionalProperties": False, "required": list(q.ATTRIBUTES),
                   "properties": {a: {"type": "integer", "minimum": 0, "maximum": 3} for a in q.ATTRIBUTES}},
    "kami": {"type": "string", "maxLength": 32}, "affinity": {"type": "integer", "minimum": 0, "maximum": q.AFFINITY_MAX},
    "karma": _NAT, "coins": _NAT, "heads": _NAT, "boss_heads": _NAT,
    "armor": {"type": ["string", "null"], "maxLength": 64}, "armor_value": {"type": "integer", "minimum": 0, "maximum": 9},
    "weapons": {**_IDS, "maxItems": 2}, "equipped": {"type": ["string", "null"], "maxLength": 64},
    "items": {**_IDS, "maxItems": 12}, "skills": _IDS, "traits": _IDS,
    "item_uses": {"type": "object", "maxProperties": 12, "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 9}}}}
SHEET_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["characters"], "properties": {
    "characters": {"type": "object", "additionalProperties": False, "required": list(q.ORDER),
                   "properties": {c: _CARRIED for c in q.ORDER}},
    "marks": _IDS, "discovered": _IDS, "travel_removed": _IDS, "travel_added": _IDS,
    "cities": {"type": "array", "maxItems": 50, "items": {"type": "object", "additionalProperties": False,
               "required": ["location", "status", "chapter"], "properties": {
                   "location": {"type": "string", "maxLength": 64}, "status": {"enum": ["captured", "razed"]},
                   "chapter": {"type": "integer", "minimum": 1, "maximum": 99}}}}}}


SCENARIO_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {
    "options": {"type": "object"}, "seats": {"type": "integer", "minimum": 1, "maximum": 4},
    "decks": {"type": "object", "additionalProperties": False,
              "properties": {d: {"type": "array", "items": {"type": "string"}} for d in ("travel", "influence", "market")}},
    "state": {"type": "object"}, "replace": {"type": "array", "items": {"type": "string"}}}}


def sheet_problems(sheet: dict) -> list[str]:
    """What a campaign sheet names that the content does not have (beyond the JSON schema)."""
    problems = []
    for cid, ch in sheet.get("characters", {}).items():
        klass = CHARACTERS[cid]["class"]
        # equipment shared by a character of another class comes back as the phase handed it on
        # (the Exploration Phase lets it be carried and worn); it must exist, in its slot
        problems += [f"{cid}: {w} is not a weapon" for w in ch["weapons"] if BLACKSMITH.get(w, {}).get("slot") != "weapon"]
        if ch["armor"] and BLACKSMITH.get(ch["armor"], {}).get("slot") != "armor":
            problems.append(f"{cid}: {ch['armor']} is not an armor")
        if ch["equipped"] is not None and ch["equipped"] not in ch["weapons"]:
            problems.append(f"{cid}: the equipped weapon must be one of its weapons")
        problems += [f"{cid}: unknown item {i}" for i in ch["items"] if i not in MARKET]
        problems += [f"{cid}: {i} carries no uses tokens" for i in ch.get("item_uses", {})
                     if i not in ch["items"] or MARKET.get(i, {}).get("type") != "uses"]
        if ch["kami"] not in KAMI:
            problems.append(f"{cid}: unknown kami {ch['kami']}")
        if ch["health"] > LEVELS["health_by_class"][klass][ch["level"] - 1]:
            problems.append(f"{cid}: health above its level's maximum")
    problems += [f"unknown location {loc}" for loc in sheet.get("discovered", []) if not board.exists(loc)]
    problems += [f"{c['location']} is not a city" for c in sheet.get("cities", [])
                 if not board.exists(c["location"]) or not board.is_city(c["location"])]
    problems += [f"unknown travel event {t}" for t in sheet.get("travel_removed", []) if t not in TRAVEL_EVENTS]
    return problems


class AdventureEngine(EngineBase):
    slug = "harakiri-adventure"
    name = "Harakiri: Blades of Honor - Adventure Phase"
    min_seats = 1
    max_seats = 4
    listed = False
    options_schema = {
        "type": "object", "additionalProperties": False,
        "properties": {
            "chapter": {"enum": CHAPTERS},
            "control": {"type": "object", "additionalProperties": False, "required": list(q.ORDER),
                        "properties": {c: {"type": "integer", "minimum": 0, "maximum": 3} for c in q.ORDER}},
            "kami": {"type": "object", "additionalProperties": False,
                     "properties": {c: {"enum": ACTS[1]["initial_kami"]} for c in q.ORDER}},
            "sheet": SHEET_SCHEMA,
            # Optional Rule: Replace the Red Die: every red attack die is rolled as the blue die
            "blue_die": {"type": "boolean"},
        },
    }

    def content(self) -> dict:
        """The public content pack: the chapters as they stand before play (``book.py``)."""
        return book.public_pack()

    def validate_options(self, options: dict, seats: int) -> None:
        control = options.get("control")
        if control is not None:
            if any(s >= seats for s in control.values()) or len(set(control.values())) != seats:
                raise RuleViolation("bad_options", "every seat controls at least one character, and only seats that exist")
        for kami in options.get("kami", {}).values():
            if kami not in KAMI:
                raise RuleViolation("bad_options", f"unknown kami {kami}")
        chosen = list(options.get("kami", {}).values())
        if len(chosen) != len(set(chosen)):
            raise RuleViolation("bad_options", "each Kami card goes to one character: choose a different Kami for each")
        problems = sheet_problems(options.get("sheet") or {})
        if problems:
            raise RuleViolation("bad_options", "; ".join(problems))

    def setup(self, options: dict, seats: int, rng) -> list:
        contents = deck_contents(options)
        decks = {name: rng.shuffled(cards) for name, cards in contents.items()}
        return [event("AdventureStarted", {"state": initial_state(options, seats, decks)})]

    def scenario(self, document: dict) -> list:
        """``{"options": {...}, "seats": n, "decks": {...}, "state": {...}, "replace": [...]}``: a
        first chapter's setup with the decks in the given (or content) order, then ``state`` merged
        over it (top-level keys named in ``replace`` are replaced whole, e.g. ``enemies``)."""
        if not isinstance(document, dict):
            raise RuleViolation("bad_scenario", "a scenario is an object")
        try:
            jsonschema.validate(document, SCENARIO_SCHEMA)
            jsonschema.validate(document.get("options", {}), self.options_schema)
        except jsonschema.ValidationError as error:
            raise RuleViolation("bad_scenario", error.message) from None
        options = document.get("options", {})
        seats = document.get("seats", 1)
        self.validate_options(options, seats)
        for name, cards in document.get("decks", {}).items():
            known = {"travel": TRAVEL_EVENTS, "influence": INFLUENCE_CARDS, "market": MARKET}[name]
            if any(card not in known for card in cards):
                raise RuleViolation("bad_scenario", f"unknown card in the {name} deck")
        decks = deck_contents(options) | document.get("decks", {})
        state = initial_state(options, seats, decks)
        patch = document.get("state", {})
        for key in document.get("replace", []):
            if key not in patch:
                raise RuleViolation("bad_scenario", f"replace names {key}, which the state does not give")
            state[key] = copy.deepcopy(patch[key])
        state = _merge(state, {k: v for k, v in patch.items() if k not in document.get("replace", [])})
        return [event("AdventureStarted", {"state": state})]

    def decide(self, state, command, rng) -> list:
        seat = command.seat
        if seat == SYSTEM:
            if SYSTEM not in q.awaiting(state):
                raise RuleViolation("not_your_decision", "the game is waiting for a player")
            if not json_member({"type": command.type, "args": command.args}, [self.system_command(state)]):
                raise RuleViolation("unknown_command", "the worker's only command is advance")
            em = effects.Emitter(state)
            steps.run(em, rng)
            return em.events
        if not json_member(seat, q.awaiting(state)):
            raise RuleViolation("not_your_turn", "this decision is not yours")
        wanted = {"type": command.type, "args": command.args}
        legal = actions.legal(state, seat)
        if not json_member(wanted, legal):
            if not isinstance(command.type, str) or command.type not in actions.COMMANDS:
                raise RuleViolation("unknown_command", f"unknown command {command.type!r}")
            if any(c["type"] == command.type for c in legal):
                raise RuleViolation("bad_args", f"{command.type} {command.args!r} is not a legal choice")
            raise RuleViolation("illegal_command", f"{command.type} is not possible now")
        em = effects.Emitter(state)
        actions.perform(em, rng, seat, wanted)
        return em.events

    def evolve(self, state, ev):
        return effects.apply(state, ev)

    def status(self, state) -> Status:
        stage = state["flow"]["stage"]
        finished = stage == "finished"
        won = finished and state["result"]["outcome"] == "success"
        return Status(phase=stage, awaiting=q.awaiting(state), finished=finished,
                      winners=list(range(state["seats"])) if won else [])

    def legal_commands(self, state, seat) -> list:
        if seat == SYSTEM:
            return [self.system_command(state)] if SYSTEM in q.awaiting(state) else []
        return actions.legal(state, seat)

    def system_command(self, state):
        return {"type": "advance", "args": {}} if SYSTEM in q.awaiting(state) else None

    def view_for(self, state, seat) -> dict:
        view = copy.deepcopy(state)
        view["decks"] = {name: len(cards) for name, cards in state["decks"].items()}
        view["discard"] = {name: len(cards) for name, cards in state["discard"].items()}
        view["influence_band"] = q.band(state["influence"])
        view["influence_card"] = INFLUENCE_CARDS.get(state["influence_card"]) if state["influence_card"] else None
        event_ = state["flow"].get("event")
        view["travel_event"] = ({"card": event_["card"], "side": event_["side"], **TRAVEL_EVENTS[event_["card"]][event_["side"]]}
                                if event_ else None)
        # "do not read the resolution text until it has been resolved": options by label only.
        if state["choice"]:
            view["choice"] = _labels_only(state["choice"])
        view["queue"] = len(state["queue"])
        view["shop"] = state["flow"].get("shop")
        view["awaiting"] = q.awaiting(state)
        view["you"] = seat
        # the campaign book as read so far (the content pack has each chapter as before play)
        view.pop("book_read", None)
        view["book"] = book.known(state)
        return view

    def redact_event(self, ev, seat):
        payload = ev["payload"]
        if ev["type"] == "AdventureStarted":
            state = copy.deepcopy(payload["state"])
            state["decks"] = {name: len(cards) for name, cards in state["decks"].items()}
            return {**ev, "payload": {"state": state}}
        if ev["type"] == "ChoiceOffered":
            return {**ev, "payload": _labels_only(payload)}
        if ev["type"] == "MissionPlaced" and "title" in payload:  # the card stays face down
            return {**ev, "payload": {k: v for k, v in payload.items() if k != "title"}}
        if ev["type"] in ("QueuePushed", "EffectPopped"):
            return {**ev, "payload": {"source": (payload.get("ctx") or {}).get("source")}}
        if ev["type"] in ("ItemUsed", "ItemDiscarded") and "market_order" in payload:
            return {**ev, "payload": {k: v for k, v in payload.items() if k != "market_order"}}
        if ev["type"] == "ShopClosed" and "market_order" in payload:
            return {**ev, "payload": {"character": payload["character"], "count": len(payload["market_order"])}}
        if ev["type"] in ("InfluenceDeckShuffled", "TravelDeckShuffled"):
            hidden = {k: v for k, v in payload.items() if k != "order"}
            return {**ev, "payload": {**hidden, "count": len(payload["order"])}}
        return ev


def _labels_only(choice: dict) -> dict:
    return {"character": choice["character"],
            "options": [{"label": o["label"], "enabled": o["enabled"]} for o in choice["options"]]}


def _merge(base, patch):
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            out[key] = _merge(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)


ENGINE = AdventureEngine()
