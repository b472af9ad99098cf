"""The campaign book as a client may read it (docs/games/harakiri-adventure.md, "The campaign book:
what is public when").

The act's chapters (``content/adventure/act1.json``) hold what the physical game keeps face down or
in the campaign book until the rules say to read it: mission cards placed face down ("flip the
corresponding mission face-up"), the entry a clan token resolves ("reading the corresponding entry
in the campaign book"), a round's trigger ("consult that chapter's trigger information ... and
resolve the corresponding section" when the round token reaches it), the section read after the
final round or when an ending condition is met, the chapter's success and failure sections, a
special location's instructions ("follow the instructions for that secret location from the
campaign book") and the mission tokens a character carries. Everything else of a chapter is its
preparation section, read before play.

One function says what of a chapter is known, given what has been read (``Read``):

- ``public_pack()``: the content pack (``GET /api/games/harakiri/content/``), each chapter as it
  stands at its start (``at_start``), in the same shape as the data file with the unread parts left
  out;
- ``known(state)``: the view's ``book``, the current chapter as this match has read it so far
  (``read_in``), and the carried tokens named.

Every key of a chapter is listed here as public or as read later: a key the data gains without a
decision is left out (``tests/engines/harakiri_adventure/test_campaign_book.py`` fails on it).
"""

from dataclasses import dataclass, field

from games.kernel.canonical import dicts_in

from .content import ACTS, BLACKSMITH, INFLUENCE_CARDS, LEVELS, MAP, MARKET, TOKENS, TRAVEL_EVENTS

# The act's own keys a client may read (the first chapter's figures, the bands...). ``chapters``
# and ``tokens`` are read through the functions below.
ACT_PUBLIC = ("provisional", "kind", "act", "name", "note", "characters", "starting", "special_items",
              "first_chapter_market", "initial_kami", "influence_failure", "influence_bands", "marks")
# A chapter's preparation section: read before play ("read the preparation section of the chapter").
ADVENTURE_PUBLIC = ("start", "influence", "final_round", "enemies", "minion_rule", "travel_events", "sheet_marks")
# Read when the rules say so (each by its own rule in ``known_chapter``).
ADVENTURE_LATER = ("triggers", "final_section", "missions", "personal_missions", "special_locations",
                   "ending_conditions", "success", "failure")
# A mission card's face (read once it is face up); its clan tokens' entries and its success and
# failure sections are read later still.
MISSION_FACE = ("title", "hint", "objective", "on_reveal", "completed_by", "fails_when")
MISSION_BACK = ("number", "available", "active_from_start")
PERSONAL_PUBLIC = ("title", "token", "objective")  # "specified in the Adventure Phase preparation section"
CLAN_PLACE = ("at", "requires")  # where the card places the token, and what interacting needs
CLAN_ENTRY = ("text", "effects", "completes")  # the campaign book's entry for it


@dataclass(frozen=True)
class Read:
    """What of a chapter has been read: mission cards face up, completed, failed, placed on the map
    (the token of a mission "not available from the start"); clan-token entries (mission, place);
    the round reached; personal missions completed; special locations visited; the ending section
    (reason and text) and the success or failure section read; the phase finished; the tokens
    some character carries; the special locations discovered (the campaign sheet and effects)."""

    face_up: frozenset = field(default_factory=frozenset)
    completed: frozenset = field(default_factory=frozenset)
    failed: frozenset = field(default_factory=frozenset)
    placed: frozenset = field(default_factory=frozenset)
    clan: frozenset = field(default_factory=frozenset)
    round: int = 0
    personal: frozenset = field(default_factory=frozenset)
    specials: frozenset = field(default_factory=frozenset)
    ending_reason: str | None = None
    ending_text: str | None = None
    section: str | None = None
    finished: bool = False
    carried: frozenset = field(default_factory=frozenset)
    discovered: frozenset | None = None  # special locations discovered (None: as the chapter places them)


def at_start(chapter: dict) -> Read:
    """A chapter before its first round: the missions active from the start are face up, the tokens
    of the others available from the start lie on the map (the setup image)."""
    missions = chapter["adventure"]["missions"]
    return Read(face_up=frozenset(m["number"] for m in missions if m.get("active_from_start")),
                placed=frozenset(m["number"] for m in missions if m.get("available", True)))


def read_in(state: dict) -> Read:
    """What an Adventure Phase state has read of its chapter. A state of a match begun before
    ``book_read`` existed reads without it: the clan-token entries it resolved before stay unread."""
    missions = {int(n): m for n, m in state["missions"].items()}
    log = state.get("book_read") or {}
    flow = state["flow"]
    result = state.get("result") or {}
    ended = flow["stage"] in ("ending", "finished")
    section_read = flow["stage"] == "finished" or (flow["stage"] == "ending" and flow.get("sub") != "resurrect")
    return Read(
        face_up=frozenset(n for n, m in missions.items() if m["status"] in ("active", "completed", "failed")),
        completed=frozenset(n for n, m in missions.items() if m["status"] == "completed"),
        failed=frozenset(n for n, m in missions.items() if m["status"] == "failed"),
        placed=frozenset(n for n, m in missions.items() if m["status"] != "unavailable"),
        clan=frozenset((int(n), at) for n, places in (log.get("clan_tokens") or {}).items() for at in places),
        round=state["round"],
        personal=frozenset(c for c, pm in state["personal"].items() if pm["status"] == "completed"),
        specials=frozenset(loc for ch in state["characters"].values() for loc in ch.get("specials_used", [])),
        ending_reason=result.get("reason") if ended else None,
        ending_text=log.get("ending") if ended else None,
        section=result.get("outcome") if section_read else None,
        finished=flow["stage"] == "finished",
        carried=frozenset(t for ch in state["characters"].values() for t in ch.get("tokens", [])),
        discovered=frozenset(state["discovered"]),
    )


def _pick(doc: dict, keys) -> dict:
    return {k: doc[k] for k in keys if k in doc}


def known_mission(mission: dict, read: Read) -> dict:
    """A mission card as read: its number (the back and the numbered token), where its token lies
    once it is on the map, its face once face up, each clan token's entry once resolved, its
    success or failure section once read."""
    n = mission["number"]
    out = _pick(mission, MISSION_BACK)
    if n in read.placed and not mission.get("active_from_start"):
        out["token"] = mission["token"]
    if n in read.face_up:
        out.update(_pick(mission, MISSION_FACE))
        out["clan_tokens"] = [{**_pick(t, CLAN_PLACE), **(_pick(t, CLAN_ENTRY) if (n, t["at"]) in read.clan else {})}
                              for t in mission["clan_tokens"]]
    if n in read.completed:
        out["success"] = mission["success"]
    if n in read.failed:
        out["failure"] = mission["failure"]
    return out


def _condition(condition: dict, read: Read) -> dict:
    out = {k: v for k, v in condition.items() if k != "text"}
    if "text" in condition and read.ending_reason == condition["when"] and read.ending_text == condition["text"]:
        out["text"] = condition["text"]
    return out


def known_chapter(chapter: dict, read: Read) -> dict:
    """``chapter`` (an ``act1.json`` chapter) in the same shape, with only what ``read`` has read of
    it and what its preparation section says before play."""
    adventure = chapter["adventure"]
    known = _pick(adventure, ADVENTURE_PUBLIC)
    # the trigger tokens on the round track are public; their sections are read on reaching them
    known["triggers"] = {r: (dict(t) if int(r) <= read.round else {}) for r, t in adventure["triggers"].items()}
    final = adventure["final_section"]
    known["final_section"] = final if read.ending_reason == "final_round" else {"outcome": final["outcome"]}
    known["missions"] = [known_mission(m, read) for m in adventure["missions"]]
    known["personal_missions"] = {cid: {**_pick(pm, PERSONAL_PUBLIC), **({"success": pm["success"]} if cid in read.personal else {})}
                                  for cid, pm in adventure["personal_missions"].items()}
    known["special_locations"] = [
        {"location": s["location"], "discovered": s["discovered"] if read.discovered is None else s["location"] in read.discovered,
         **(_pick(s, ("text", "effects")) if s["location"] in read.specials else {})}
        for s in adventure.get("special_locations", [])]
    known["ending_conditions"] = [_condition(c, read) for c in adventure["ending_conditions"]]
    if read.section in ("success", "failure"):
        known[read.section] = adventure[read.section]
    exploration = {"scenario": chapter["exploration"]["scenario"]}
    if read.finished:  # the Exploration Phase's setup is read once the Adventure Phase is over
        exploration = dict(chapter["exploration"])
    return {**_pick(chapter, ("number", "title", "intro")), "adventure": known, "exploration": exploration}


def strings_under(value, key: str) -> set:
    """Every string a document (dicts and lists, at any depth) gives under ``key``."""
    return {d[key] for d in dicts_in(value) if isinstance(d.get(key), str)}


def _tokens_named(value) -> set:
    """Carried-token ids a document's effects and requirements name (``gain_token``, ``requires``...)."""
    return {t for t in strings_under(value, "token") if t in TOKENS}


# Tokens the cards themselves name (a travel event's smuggler's map): as public as the cards.
CARD_TOKENS = frozenset(_tokens_named([list(TRAVEL_EVENTS.values()), list(INFLUENCE_CARDS.values()), MARKET]))


def known_tokens(known_doc: dict, read: Read) -> dict:
    """The carried mission and event tokens a client may name: those the cards name, those some
    character carries, and those the chapter as read names."""
    ids = CARD_TOKENS | read.carried | _tokens_named(known_doc)
    return {t: TOKENS[t] for t in sorted(ids) if t in TOKENS}


def public_act(act: dict) -> dict:
    chapters = [known_chapter(c, at_start(c)) for c in act["chapters"]]
    return {**_pick(act, ACT_PUBLIC), "chapters": chapters, "tokens": known_tokens(chapters, Read())}


def public_pack() -> dict:
    """The Adventure Phase's public content pack: the map, the cards of every deck (their order is
    the match's, never here), the levels, and Act 1 as it stands before play."""
    return {"map": MAP, "act1": public_act(ACTS[1]), "travel_events": list(TRAVEL_EVENTS.values()),
            "influence": list(INFLUENCE_CARDS.values()), "market": MARKET, "blacksmith": BLACKSMITH, "levels": LEVELS}


def chapter_of(state: dict) -> dict:
    return next(c for c in ACTS[state["act"]]["chapters"] if c["number"] == state["chapter"])


def known(state: dict) -> dict:
    """The view's ``book``: ``{"chapter": the current chapter as read so far, "tokens": {id: {name,
    kind, text}}}`` (docs/games/harakiri-adventure.md, "View shape")."""
    read = read_in(state)
    chapter = known_chapter(chapter_of(state), read)
    return {"chapter": chapter, "tokens": known_tokens(chapter, read)}
