"""Reads for the campaign pages: a campaign with where its party stands now, each character's
progress, the chapters with their phase matches, and the lists (the caller's campaigns, the ones
open to join).

Everything read from a phase match goes through ``games.application.selectors`` as a spectator
(``view_for_seat(match, None)``): a campaign page never shows more than anyone watching the match
would see. Names come from the game's public content pack.
"""

from functools import lru_cache

from games.application import selectors as matches
from games.application.errors import MatchNotFound
from games.kernel import SYSTEM, RuleViolation, registry

from . import domain, services
from .domain import CampaignRefused
from .models import CampaignRecord, CampaignView

LIST_LIMIT = 30
PHASES = ("adventure", "exploration")


@lru_cache(maxsize=4)
def _content(game: str) -> dict:
    """The game's public content pack (names of characters, equipment, items, places...); empty
    if this server does not run the game (the pages then fall back to the ids' words)."""
    try:
        return registry.get(game).content()
    except RuleViolation:
        return {}


def _seat_of(doc: dict, user) -> int | None:
    uid = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    return next((i for i, s in enumerate(doc["seats"]) if s and s["user_id"] == uid), None) if uid else None


def _acting(game_view: dict | None, seat: int, control: dict) -> list[str]:
    """The characters a seat is awaited for, as far as the public view says (the active character,
    a decision's character, or the characters still to choose a weapon / to act this round)."""
    v = game_view or {}
    mine = [c for c in domain.CHARACTERS if control.get(c) == seat]
    chars = v.get("characters") or {}
    flow = v.get("flow")
    if isinstance(flow, dict):  # an Adventure Phase
        choice = v.get("choice") or {}
        named = [choice.get("character") or flow.get("active")]
        if not named[0]:
            if flow.get("stage") == "prepare":
                named = [c for c in mine if not (chars.get(c) or {}).get("equipped")]
            elif flow.get("stage") == "characters":
                named = [c for c in mine if not (chars.get(c) or {}).get("activated") and not (chars.get(c) or {}).get("defeated")]
            elif flow.get("stage") == "ending" and flow.get("loss"):
                named = [flow["loss"]]
    else:  # an Exploration Phase
        attack = v.get("attack") or {}
        turn = v.get("turn") or {}
        named = [attack.get("attacker") or (turn.get("who") if turn.get("kind") == "character" else None)]
    return [c for c in named if c in mine]


def _current(doc: dict) -> tuple[dict | None, dict | None]:
    """(the current phase match's spectator view document, its game view) or (None, None)."""
    if not doc["current_match"]:
        return None, None
    try:
        match = matches.match_get(doc["current_match"])
        view = matches.view_for_seat(match, None)
    except (MatchNotFound, RuleViolation):
        return None, None
    return view, view.get("view")


def standing(doc: dict, user=None, current=None) -> dict:
    """Where the party stands: chapter, phase, and whom the current match waits for (each awaited
    player with the characters they are awaited for); ``you`` marks the caller."""
    seat = _seat_of(doc, user)
    view, game_view = current if current is not None else _current(doc)
    out = {"status": doc["status"], "chapter": doc["chapter"], "phase": doc["phase"], "match_id": doc["current_match"],
           "seats_taken": sum(1 for s in doc["seats"] if s), "seats": len(doc["seats"]), "waiting": [],
           "system": False, "your_turn": False, "outcome": None, "your_seat": seat,
           "failed": bool(doc.get("failure")),  # the next phase's match could not be opened (staff retry)
           "cancelled": doc.get("cancelled"),  # {by, username, at} once its creator called it off
           "abandoned": doc.get("abandoned"),  # {reason, by, username, at, ...} once it was abandoned
           "leaving": [w["username"] for w in doc.get("leaving") or []]}  # who leaves when this phase ends
    if doc["status"] == "finished":
        out["outcome"] = doc["history"][-1]["outcome"] if doc["history"] else None
    if view is None:
        return out
    awaiting = view["status"]["awaiting"]
    out["system"] = SYSTEM in awaiting
    for s in awaiting:
        if isinstance(s, int) and 0 <= s < len(doc["seats"]) and doc["seats"][s]:
            out["waiting"].append({"seat": s, "username": doc["seats"][s]["username"], "you": s == seat,
                                   "characters": [_character_name(doc["game"], c) for c in _acting(game_view, s, doc["control"])]})
    out["your_turn"] = seat is not None and seat in awaiting
    return out


def _character_name(game: str, cid: str) -> str:
    return (_content(game).get("characters", {}).get(cid) or {}).get("name", cid.title())


def _names(pack: dict):
    adventure = pack.get("adventure", {})
    blacksmith = adventure.get("blacksmith", {})
    market = adventure.get("market", {})
    skills = {s["id"]: s["name"] for s in pack.get("skills", [])}
    kami = {k["id"]: k for k in pack.get("kami", [])}
    for k in kami.values():
        skills.update({s["id"]: s["name"] for s in k.get("skills", [])})
    locations = adventure.get("map", {}).get("locations", {})
    marks = adventure.get("act1", {}).get("marks", {})

    def pretty(x):
        return str(x).replace("_", " ").capitalize()

    return {
        "equipment": lambda x: (blacksmith.get(x) or pack.get("weapons", {}).get(x) or pack.get("armors", {}).get(x) or {}).get("name", pretty(x)),
        "item": lambda x: (market.get(x) or pack.get("items", {}).get(x) or {}).get("name", pretty(x)),
        "skill": lambda x: skills.get(x, pretty(x)),
        "kami": lambda x: kami.get(x, {}).get("name", pretty(x)),
        "ability": lambda x: next((s for s in kami.get(x, {}).get("skills", []) if s.get("level") == 1), None),
        "location": lambda x: locations.get(x, {}).get("name", pretty(x)),
        "pretty": pretty,
        "mark": lambda x: marks.get(x, pretty(x)),
        "armor_max": lambda x: (blacksmith.get(x) or {}).get("armor"),
        "health": lambda cid, level: _health(pack, cid, level),
    }


def _health(pack: dict, cid: str, level: int) -> int | None:
    klass = (pack.get("characters", {}).get(cid) or {}).get("class")
    table = pack.get("adventure", {}).get("levels", {}).get("health_by_class", {}).get(klass)
    return table[max(0, min(len(table), level or 1) - 1)] if table else None


def _progress(doc: dict, cid: str, case: dict, names: dict, pack: dict) -> dict:
    """One character's case in words: level, health, supplies, equipment, items, skills, attributes,
    Kami affinity, traits, and the levels gained in the campaign."""
    seat = doc["control"].get(cid)
    player = doc["seats"][seat] if seat is not None and seat < len(doc["seats"]) else None
    level = case.get("level", 1)
    # A first chapter's Preparation has each character choose a Kami; until then none is theirs.
    kami = case.get("kami") if case.get("kami_chosen", True) else None
    ability = names["ability"](kami) if kami and case.get("affinity", 0) >= 1 else None
    item_uses = case.get("item_uses") or {}
    return {
        "id": cid, "name": _character_name(doc["game"], cid),
        "class": names["pretty"]((pack.get("characters", {}).get(cid) or {}).get("class", "")),
        "player": player["username"] if player else None, "player_id": player["user_id"] if player else None,
        "level": level, "health": case.get("health"), "max_health": names["health"](cid, level),
        "coins": case.get("coins", 0), "karma": case.get("karma", 0), "heads": case.get("heads", 0),
        "boss_heads": case.get("boss_heads", 0),
        "attributes": [(names["pretty"](a), (case.get("attributes") or {}).get(a, 0)) for a in domain.ATTRIBUTES],
        "weapons": [{"name": names["equipment"](w), "equipped": w == case.get("equipped")} for w in case.get("weapons") or []],
        "armor": names["equipment"](case["armor"]) if case.get("armor") else None,
        "armor_value": case.get("armor_value"), "armor_max": names["armor_max"](case["armor"]) if case.get("armor") else None,
        "items": [names["item"](i) + (f" ({item_uses[i]} uses left)" if i in item_uses else "") for i in case.get("items") or []],
        "skills": [names["skill"](s) for s in case.get("skills") or []],
        "kami": names["kami"](kami) if kami else None, "kami_pending": case.get("kami_chosen", True) is False,
        "affinity": case.get("affinity", 0),
        "ability": {"name": ability["name"], "text": ability.get("text", "")} if ability else None,
        "traits": [names["pretty"](t) for t in case.get("traits") or []],
        "location": names["location"](case["location"]) if case.get("location") else None,
        "levels": [{**lv, "attribute": names["pretty"](lv["attribute"]) if lv.get("attribute") else None,
                    "skill": names["skill"](lv["skill"]) if lv.get("skill") else None}
                   for lv in (doc["characters"].get(cid) or {}).get("levels", [])],
    }


def _party(doc: dict, game_view: dict | None, names: dict, pack: dict) -> tuple[str, list[dict]]:
    """(where the figures come from, each character's progress): the campaign sheet as the last phase
    handed it on, or, before any phase has finished, the running Adventure Phase's characters."""
    if doc["sheet"]:
        cases, source = doc["sheet"].get("characters", {}), "sheet"
    elif isinstance(game_view, dict) and isinstance(game_view.get("flow"), dict):
        cases, source = game_view.get("characters") or {}, "adventure"
    else:
        cases, source = {}, "none"
    return source, [_progress(doc, cid, cases[cid], names, pack) for cid in domain.CHARACTERS if cid in cases]


def _chapters(doc: dict) -> list[dict]:
    """The act's chapters, each with its two phases: the match, replay and outcome once played."""
    played = {(h["chapter"], h["phase"]): h for h in doc["history"]}
    out = []
    for chapter in domain.chapters(doc["act"]):
        phases = []
        for phase in PHASES:
            entry = played.get((chapter["number"], phase))
            phases.append({"phase": phase, "match_id": entry["match_id"] if entry else None,
                           "outcome": entry["outcome"] if entry else None,
                           "current": bool(entry) and entry["match_id"] == doc["current_match"]})
        out.append({"number": chapter["number"], "title": chapter.get("title", ""), "intro": chapter.get("intro", ""),
                    "phases": phases, "reached": any(p["match_id"] for p in phases)})
    return out


def _yomi(doc: dict) -> dict | None:
    """Yomi Mode's track (the Shinigami Expansion), if the campaign plays it: boxes marked, the bold
    squares, whether the party must face the Shinigami."""
    track = doc.get("yomi")
    if not isinstance(track, dict):
        return None
    return {"marks": track.get("marks", 0), "bold": list(track.get("bold", [])),
            "next_bold": next((b for b in track.get("bold", []) if b > track.get("marks", 0)), None),
            "face_shinigami": bool(track.get("face_shinigami"))}


def _sheet(doc: dict, names: dict) -> dict:
    sheet = doc["sheet"] or {}
    return {
        "yomi": _yomi(doc),
        "blue_die": bool(doc.get("blue_die")),  # Optional Rule: Replace the Red Die
        "marks": [names["mark"](m) for m in sheet.get("marks", [])],
        "discovered": [names["location"](loc) for loc in sheet.get("discovered", [])],
        "cities": [{"name": names["location"](c["location"]), "status": c["status"], "chapter": c["chapter"]}
                   for c in sheet.get("cities", [])],
        "travel_removed": len(sheet.get("travel_removed", [])),
        "travel_added": list(sheet.get("travel_added", [])),
    }


def campaign_page(campaign_id, user=None) -> dict:
    """Everything the campaign page shows. Raises CampaignRefused(not_found)."""
    doc = services.campaign_get(campaign_id)
    current = _current(doc)
    pack = _content(doc["game"])
    names = _names(pack)
    source, party = _party(doc, current[1], names, pack)
    seat = _seat_of(doc, user)
    is_creator = seat is not None and doc["seats"][seat]["user_id"] == doc["creator_id"]
    is_open, running = doc["status"] == domain.OPEN, doc["status"] == domain.ACTIVE
    you_leave = seat is not None and any(w["user_id"] == doc["seats"][seat]["user_id"] for w in doc["leaving"])
    act = pack.get("adventure", {}).get(f"act{doc['act']}") or {}
    return {
        "campaign": doc, "act_name": act.get("name", f"Act {doc['act']}"), "standing": standing(doc, user, current),
        "your_seat": seat, "is_creator": is_creator,
        "can_join": is_open and seat is None and any(s is None for s in doc["seats"]),
        # before the start a player who joined may leave, and the creator may cancel; once running every
        # player may leave and the creator may abandon it (docs/campaigns.md, "Leaving and cancelling")
        "can_leave": seat is not None and ((is_open and not is_creator) or (running and not you_leave)),
        "can_cancel": is_open and is_creator, "can_abandon": running and is_creator,
        # a leave is done at once: during a phase the player resigns from its match (services._resign_phase_match);
        # only a match that has just ended waits for the policy (the leave is then announced: ``leaving``)
        "you_leave": you_leave, "leave_now": running, "leave_in_phase": running and bool(doc["current_match"]),
        "leaving": _leaving(doc, seat) if running else None,
        "departures": [] if is_open else _departures(campaign_id, doc),
        "full": all(doc["seats"]), "party_source": source, "party": party, "chapters": _chapters(doc),
        "sheet": _sheet(doc, names),
        "players": [{"seat": i, "username": s["username"] if s else None, "you": i == seat,
                     "leaving": bool(s) and running and any(w["user_id"] == s["user_id"] for w in doc["leaving"]),
                     "characters": [_character_name(doc["game"], c) for c in domain.CHARACTERS if doc["control"].get(c) == i]}
                    for i, s in enumerate(doc["seats"])],
    }


def _departures(campaign_id, doc: dict) -> list[dict]:
    """Who left the started campaign, when, in which chapter and phase, and who plays their
    characters since: the document's ``departures`` (folded from the log's ``PlayerLeft`` records,
    deleted accounts already read "deleted player"). Newest last. A log written before a
    ``PlayerLeft`` carried its time gets it from the record's own (one read, only then)."""
    out = [dict(d) for d in doc["departures"]]
    if any(not d.get("at") for d in out):
        times = {p.get("user_id"): at.isoformat() for p, at in CampaignRecord.objects.filter(
            campaign_id=campaign_id, type=domain.LEFT).order_by("seq").values_list("payload", "at")}
        for d in out:
            d["at"] = d.get("at") or times.get(d["user_id"])
    for d in out:
        d["phase_name"] = {"adventure": "Adventure Phase", "exploration": "Exploration Phase"}.get(d["phase"])
    return out


def _leaving(doc: dict, seat: int | None) -> dict:
    """Who leaves at the end of the phase being played and who plays which character from the next
    phase on (the characters of a seat that goes pass to the first player left: ``domain.after_leaves``);
    ``heir``: who would take the caller's characters if the caller left too (None: nobody, the
    campaign would be abandoned)."""
    names = [w["username"] for w in doc["leaving"]]
    after = domain.after_leaves(doc)
    next_players = [{"username": s["username"],
                     "characters": [_character_name(doc["game"], c) for c in domain.CHARACTERS if after["control"].get(c) == i]}
                    for i, s in enumerate(after["seats"]) if s]
    heir = None
    if seat is not None:
        you = {"user_id": doc["seats"][seat]["user_id"]}
        heir = next((s["username"] for s in domain.after_leaves({**doc, "leaving": [*doc["leaving"], you]})["seats"] if s), None)
    mine = doc["seats"][seat]["user_id"] if seat is not None else None
    others = [w["username"] for w in doc["leaving"] if w["user_id"] != mine]
    return {"names": names, "others": others, "next_players": next_players if names else [], "heir": heir}


def _row(doc: dict, user) -> dict:
    return {"campaign": doc, "standing": standing(doc, user), "creator": _creator_name(doc),
            "players": [s["username"] for s in doc["seats"] if s]}


def _creator_name(doc: dict) -> str | None:
    return next((s["username"] for s in doc["seats"] if s and s["user_id"] == doc["creator_id"]), None)


def campaign_lists(user=None) -> dict:
    """``{"mine": [...], "open": [...]}``: the caller's campaigns (newest first, with where each stands)
    and the ones still gathering players that the caller is not in."""
    views = CampaignView.objects.select_related("campaign").order_by("-campaign__created_at")
    mine = []
    if getattr(user, "is_authenticated", False):
        mine = [_row(doc, user) for doc in services.public_docs(views.filter(players=user)[:LIST_LIMIT])]
    open_ = views.filter(state__status="open")
    if getattr(user, "is_authenticated", False):
        open_ = open_.exclude(players=user)
    return {"mine": mine, "open": [_row(doc, user) for doc in services.public_docs(open_[:LIST_LIMIT])]}


def create_choices(game: str = "harakiri") -> dict:
    """What a new campaign can be set up with: the acts (number, name, its chapters' titles) and the
    characters (id, name, class) in the rulebook's order."""
    pack = _content(game)
    acts = [{"number": n, "name": act.get("name", f"Act {n}"), "chapters": [c.get("title", "") for c in domain.chapters(n)]}
            for n, act in sorted(domain.ACTS.items())]
    characters = [{"id": c, "name": _character_name(game, c),
                   "class": (pack.get("characters", {}).get(c) or {}).get("class", "")} for c in domain.CHARACTERS]
    return {"acts": acts, "characters": characters, "seats": (1, 4)}


__all__ = ["CampaignRefused", "campaign_lists", "campaign_page", "create_choices", "standing"]


def phases_of_matches(match_ids) -> dict[str, dict]:
    """{match_id: {"campaign_id", "chapter", "phase"}} for the matches among ``match_ids`` that a
    campaign opened as one of its phases (one query)."""
    rows = (CampaignRecord.objects.filter(match_id__in=list(match_ids), type=domain.PHASE_STARTED)
            .values_list("match_id", "campaign_id", "payload"))
    return {str(match_id): {"campaign_id": campaign_id, "chapter": payload.get("chapter"), "phase": payload.get("phase")}
            for match_id, campaign_id, payload in rows}
