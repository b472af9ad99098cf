"""A campaign as a fold of its own log (pure: no Django).

Records are ``{"type", "payload"}``. ``apply`` folds one into the campaign's state; the state is
the projection the API shows (``status``, ``chapter``, ``phase``, ``current_match``, ``sheet``,
``characters``, ``history``). ``after_phase`` decides, from the finished match's final state, what
the campaign records and which match opens next (the policy's rules, without the database).
"""

import copy

from games.engines.harakiri import handover, yomi
from games.engines.harakiri.adventure.content import ACTS
from games.engines.harakiri.adventure.engine import default_control

CREATED = "CampaignCreated"
SEATED = "PlayerSeated"
STARTED = "CampaignStarted"
PHASE_STARTED = "PhaseStarted"
PHASE_FINISHED = "PhaseFinished"
LEVEL_INCREASED = "LevelIncreased"
MARKED = "MarkRecorded"
DISCOVERED = "LocationDiscovered"
CITY = "CityStatusRecorded"
KAMI_CHANGED = "KamiChanged"
POLICY_FAILED = "PolicyFailed"
POLICY_RETRIED = "PolicyRetried"
FINISHED = "CampaignFinished"
LEFT = "PlayerLeft"
CANCELLED = "CampaignCancelled"
LEAVING = "PlayerLeaving"  # a player of a running campaign leaves at the end of the phase being played
ABANDON = "CampaignAbandoned"  # a running campaign ends before its act does (its creator, or nobody left)

OPEN = "open"  # a status: gathering players, not started
ABANDONED = "abandoned"  # a status: every player has left
CANCELLED_STATUS = "cancelled"  # a status: its creator called it off before the start
ACTIVE = "active"  # a status: started, its phases being played
FINISHED_STATUS = "finished"  # a status: the act's last phase has ended
LEFT_BY_CHOICE = "left"  # ``PlayerLeft.reason`` of a player who chose to leave (else ``account_deleted``)
RESIGNED = "resigned"  # ``PlayerLeft.reason``: they resigned from the phase match on its own page
TAKEN_OVER = "taken_over"  # ``PlayerLeft.reason``: another player took their characters over in the phase match
BY_CREATOR = "creator"  # ``CampaignAbandoned.reason``: its creator abandoned the running campaign
PARTY_LEFT = "party_left"  # ``CampaignAbandoned.reason``: the last player left (a campaign needs one player)

CHARACTERS = ("akira", "hattori", "hikaru", "tomoe")
ATTRIBUTES = ("power", "dexterity", "spirit", "knowledge")


class CampaignRefused(Exception):
    def __init__(self, code: str, message: str, status: int = 409):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def chapters(act: int) -> list[dict]:
    return sorted(ACTS[act]["chapters"], key=lambda c: c["number"])


def chapter_doc(act: int, number: int) -> dict:
    return next(c for c in chapters(act) if c["number"] == number)


def check_control(control, seats: int) -> dict:
    """The rulebook's control rules: four players control their own character; fewer divide the
    four characters between them as they choose (every player controls at least one); solo, one
    player controls all four."""
    if control is None:
        return default_control(seats)
    if (not isinstance(control, dict) or sorted(control) != sorted(CHARACTERS)
            or any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < seats for v in control.values())
            or len(set(control.values())) != seats):
        raise CampaignRefused("bad_control", "control maps akira, hattori, hikaru and tomoe to seats 0..n-1, "
                                             "every seat controlling at least one", 400)
    return dict(control)


def empty() -> dict:
    return {"status": "open", "game": None, "act": None, "seats": [], "control": {}, "creator_id": None,
            "chapter": None, "phase": "between", "current_match": None, "sheet": None, "market": None,
            "characters": {}, "history": [], "outcome": None, "yomi": None, "failure": None}


def apply(state: dict | None, record: dict) -> dict:
    s = copy.deepcopy(state) if state is not None else empty()
    t, p = record["type"], record["payload"]
    if t == CREATED:
        s.update(game=p["game"], act=p["act"], seats=[None] * p["seats"], control=p["control"],
                 creator_id=p["creator_id"])
        if p.get("yomi_mode"):  # Shinigami Expansion: the Yomi Mode track of the campaign sheet
            s["yomi"] = {"marks": 0, "bold": list(yomi.DEFAULT_BOLD), "face_shinigami": False}
        if p.get("blue_die"):  # Optional Rule: Replace the Red Die, for every phase (a key only when on:
            s["blue_die"] = True  # the views folded before it existed stay what a refold gives)
    elif t == SEATED:
        s["seats"][p["seat"]] = {"user_id": p["user_id"], "username": p["username"]}
    elif t == STARTED:
        s["status"] = "active"
    elif t == PHASE_STARTED:
        s.update(chapter=p["chapter"], phase=p["phase"], current_match=p["match_id"], failure=None)
        s["history"].append({"chapter": p["chapter"], "phase": p["phase"], "match_id": p["match_id"], "outcome": None})
    elif t == PHASE_FINISHED:
        s["history"][-1]["outcome"] = p["outcome"]
        s.update(phase="between", current_match=None, sheet=p["sheet"])
        if p["phase"] == "adventure":  # the market deck stays on the table for the Exploration Phase
            s["market"] = p.get("market")
        if "yomi" in p:
            s["yomi"].update(marks=p["yomi"]["marks"], face_shinigami=p["yomi"]["face_shinigami"])
        for cid, case in p["sheet"]["characters"].items():
            progress = s["characters"].setdefault(cid, {"levels": []})
            progress.update({k: case[k] for k in ("level", "health", "attributes", "skills", "kami", "affinity")})
    elif t == LEVEL_INCREASED:
        s["characters"].setdefault(p["character"], {"levels": []})["levels"].append(
            {"level": p["level"], "chapter": p["chapter"], "attribute": p["attribute"], "skill": p["skill"]})
    elif t in (MARKED, DISCOVERED, CITY, KAMI_CHANGED):
        pass  # already on the sheet of the phase that recorded it; kept in the log for the campaign's story
    elif t == POLICY_FAILED:
        # the next phase could not be opened: shown on the campaign until staff retry it
        s["failure"] = {k: p[k] for k in ("chapter", "phase", "match_id", "code", "message")}
    elif t == POLICY_RETRIED:
        s["failure"] = None
    elif t == FINISHED:
        s.update(status="finished", phase="finished", outcome=p["outcome"])
    elif t == LEFT:
        if s["status"] != OPEN:  # a key only once someone leaves a started campaign (older views fold as they did)
            s.setdefault("departures", []).append(_departure(s, p))
        _player_left(s, p["seat"], p.get("taken_over_by"))
        if "leaving" in s:  # a leave announced for the end of a phase is done
            s["leaving"] = [w for w in s["leaving"] if w["user_id"] != p.get("user_id")]
    elif t == LEAVING:  # a key only once someone leaves a running campaign (older views fold as they did)
        s.setdefault("leaving", []).append({k: p[k] for k in ("user_id", "username", "chapter", "phase", "at")})
    elif t == ABANDON:
        s["status"] = ABANDONED  # also reached by the fold of the last PlayerLeft: this says who and why
        s["abandoned"] = {k: p.get(k) for k in ("reason", "by", "username", "at", "chapter", "phase", "match_id")}
    elif t == CANCELLED:  # the seats stay as they were, so each player still finds it among theirs
        s["status"] = CANCELLED_STATUS  # a key only once cancelled: the views folded before it stay as they are
        s["cancelled"] = {"by": p["by"], "username": p["username"], "at": p["at"]}
    return s


def seat_of(state: dict, user_id) -> int | None:
    return next((i for i, s in enumerate(state["seats"]) if s and s["user_id"] == user_id), None)


def not_open(state: dict) -> CampaignRefused:
    """Why a campaign that is no longer open refuses what only an open one allows (join, leave,
    start, cancel): ``campaign_started`` only while it runs; a cancelled, abandoned or finished
    one says so."""
    if state["status"] == CANCELLED_STATUS:
        return CampaignRefused("campaign_cancelled", "the campaign was cancelled")
    if state["status"] == ABANDONED:
        return CampaignRefused("campaign_abandoned", abandoned_reason(state))
    if state["status"] == FINISHED_STATUS:
        return CampaignRefused("campaign_finished", "the campaign is over: its act has been played to the end")
    return CampaignRefused("campaign_started", "the campaign has already started")


def abandoned_reason(state: dict) -> str:
    """What happened to an abandoned campaign, in words: its creator abandoned it (players may still
    sit in it), or every player left (also a log from before ``CampaignAbandoned`` existed)."""
    abandoned = state.get("abandoned") or {}
    if abandoned.get("reason") == BY_CREATOR:
        by = f" ({abandoned['username']})" if abandoned.get("username") else ""
        return f"the campaign was abandoned by its creator{by}: it will not be played further"
    return "every player has left the campaign: it was abandoned and will not be played further"


def check_still_playable(state: dict) -> None:
    """An abandoned, cancelled or finished campaign refuses every way in or out (join, leave, start,
    cancel) with its own 409, whoever asks, before anything is checked about the caller
    (their seat, whether they created it)."""
    if state["status"] not in (OPEN, ACTIVE):
        raise not_running(state)


def not_running(state: dict) -> CampaignRefused:
    """Why a campaign that is neither open nor running refuses a leave or a cancel."""
    if state["status"] == FINISHED_STATUS:
        return CampaignRefused("campaign_finished", "the campaign is over: there is nothing to leave or abandon")
    return not_open(state)


def running_leave(state: dict, user_id) -> str:
    """How a player leaves a running campaign: ``now`` between two phases (the seat goes, its
    characters pass to the first player left) or ``after_phase`` while a phase match is being played
    (the service resigns the player from it, then the seat goes at once; only a match that has just
    ended makes the leave announced, ``PlayerLeaving``, and done when the policy records it). Refused to someone without a seat, twice, or once the campaign is no longer running."""
    if seat_of(state, user_id) is None:
        raise CampaignRefused("not_seated", "you have no seat in this campaign", 403)
    if state["status"] != ACTIVE:
        raise not_running(state)
    if any(w["user_id"] == user_id for w in state.get("leaving", [])):
        raise CampaignRefused("already_leaving", "you already leave this campaign at the end of the phase being played")
    return "after_phase" if state["current_match"] else "now"


def leave_records(state: dict, user_ids, at: str, how: dict | None = None) -> list[dict]:
    """The ``PlayerLeft`` records of ``user_ids`` leaving a running campaign, each seat as the ones
    before it left it; if nobody is left, the ``CampaignAbandoned`` that says so (the rulebook's
    smallest party is one player: "If playing solo, you control all four characters"). ``how``:
    user id -> what their record says besides (``reason`` ``resigned`` or ``taken_over``, and
    ``taken_over_by``: who plays their characters now), for the players who left the phase match
    on its own page (``resigned_from``); the others chose to leave (reason ``left``). Each record
    carries ``at``, the time it is written, which the campaign's ``departures`` keep."""
    out, s = [], state
    for uid in user_ids:
        seat = seat_of(s, uid)
        if seat is None:
            continue
        record = {"type": LEFT, "payload": {"seat": seat, "user_id": uid, "reason": LEFT_BY_CHOICE,
                                            **(how or {}).get(uid, {}), "at": at}}
        out.append(record)
        s = apply(s, record)
    return out + abandoned_if_empty(s, at) if out else []


def resigned_from(state: dict, conceded: list[dict]) -> tuple[list, dict]:
    """The campaign's players who left its phase match on the match's own page (not through the
    campaign's leave), in the order they did: ``conceded`` is the match's ``SeatConceded`` payloads
    with ``user_id`` (and ``taken_over_by_user_id`` when another player took the seat's characters
    over). Returns (their user ids, ``how`` for ``leave_records``)."""
    ids, how = [], {}
    for c in conceded:
        uid = c.get("user_id")
        if uid is None or seat_of(state, uid) is None or uid in how:
            continue
        ids.append(uid)
        taker = c.get("taken_over_by_user_id")
        how[uid] = {"reason": TAKEN_OVER, "taken_over_by": taker} if taker is not None else {"reason": RESIGNED}
    return ids, how


def abandoned_if_empty(state: dict, at: str) -> list[dict]:
    """After a player left: the ``CampaignAbandoned`` (reason ``party_left``) that records that
    nobody is left, or nothing."""
    if state["status"] != ABANDONED or "abandoned" in state:
        return []
    return [{"type": ABANDON, "payload": {"reason": PARTY_LEFT, "by": None, "username": None, "at": at,
                                          "chapter": state["chapter"], "phase": state["phase"],
                                          "match_id": state["current_match"]}}]


def after_leaves(state: dict) -> dict:
    """The campaign as it will be once the announced leaves are done (who plays which character from
    the next phase on)."""
    s = state
    for record in leave_records(state, [w["user_id"] for w in state.get("leaving", [])], ""):
        s = apply(s, record)
    return s


def leaving_seat(state: dict, user_id) -> int:
    """The seat a player gives up by leaving an open campaign, or why they cannot. The creator does
    not leave: they cancel (the others would otherwise be left with a campaign nobody may start
    until they notice who inherited the creator's part)."""
    seat = seat_of(state, user_id)
    if seat is None:
        raise CampaignRefused("not_seated", "you have no seat in this campaign", 403)
    if state["status"] != OPEN:
        raise not_open(state)
    if state["creator_id"] == user_id:
        raise CampaignRefused("creator_cannot_leave", "the creator cannot leave an open campaign: cancel it instead "
                                                      "(POST /api/campaigns/{id}/cancel/)", 403)
    return seat


def check_cancel(state: dict, user_id) -> str:
    """Only the creator (the view's ``creator_id``: the first player left once the creator has gone)
    cancels: before the start it is called off (``cancel``), while running it is abandoned
    (``abandon``); afterwards refused with the campaign's own 409, whoever asks (its creator too,
    who may have left it: the view's ``creator_id`` is then nobody)."""
    check_still_playable(state)
    if state["creator_id"] != user_id:
        raise CampaignRefused("not_creator", "only the campaign's creator can cancel or abandon it", 403)
    return "cancel" if state["status"] == OPEN else "abandon"


def _player_left(s: dict, seat: int, taken_over_by=None) -> None:
    """A player left (or their account was deleted). Before the start the seat is free again; after
    it the seat goes, the seats after it move up one, and its characters pass to the first seat left
    (fewer players divide the four characters between them, as the rulebook lets them), or to the
    player who took them over in the phase match (``taken_over_by``, a user id, if still seated).
    The creator's part passes to the first player left; with nobody left the campaign is abandoned."""
    gone = s["seats"][seat]
    if s["status"] == "open":
        s["seats"][seat] = None
    else:
        del s["seats"][seat]
        heir = seat_of(s, taken_over_by) if taken_over_by is not None else None
        heir = 0 if heir is None else heir
        s["control"] = {c: heir if v == seat else v - (v > seat) for c, v in s["control"].items()}
    remaining = [player for player in s["seats"] if player]
    if gone and gone["user_id"] == s["creator_id"]:
        s["creator_id"] = remaining[0]["user_id"] if remaining else None
    if not remaining:
        s["status"] = ABANDONED


def _departure(state: dict, p: dict) -> dict:
    """Who leaves a started campaign (the ``PlayerLeft`` payload ``p``, ``state`` before it): ``{user_id,
    username, reason, chapter, phase, heir, heir_id, at}`` (``heir``: who plays their characters
    since, the player who took them over or else the first player left then, None when nobody is;
    ``at``: the record's time, absent in logs written before it carried one)."""
    gone = state["seats"][p["seat"]] or {}
    left = [s for i, s in enumerate(state["seats"]) if s and i != p["seat"]]
    taker = p.get("taken_over_by")
    heir = next((s for s in left if s["user_id"] == taker), None) or (left[0] if left else {})
    return {"user_id": gone.get("user_id"), "username": gone.get("username"), "reason": p.get("reason", LEFT_BY_CHOICE),
            "chapter": state["chapter"], "phase": state["phase"], "heir": heir.get("username"),
            "heir_id": heir.get("user_id"), "at": p.get("at")}


def fold(records) -> dict:
    state = None
    for record in records:
        state = apply(state, record)
    return state if state is not None else empty()


def public(campaign_id, state: dict) -> dict:
    """The ``GET /api/campaigns/{id}/`` document."""
    return {"id": str(campaign_id), "status": state["status"], "game": state["game"], "act": state["act"],
            "seats": state["seats"], "creator_id": state["creator_id"], "control": state["control"],
            "chapter": state["chapter"],
            "phase": state["phase"], "current_match": state["current_match"], "sheet": state["sheet"],
            "characters": state["characters"], "history": state["history"], "yomi": state["yomi"],
            "blue_die": bool(state.get("blue_die")), "failure": state["failure"],
            "cancelled": state.get("cancelled"), "leaving": list(state.get("leaving", [])),
            "abandoned": state.get("abandoned"), "departures": list(state.get("departures", []))}


# -- the phases' options ---------------------------------------------------------------------------


def optional_rules(state: dict) -> dict:
    """The optional rules chosen at the campaign's creation, for each phase match (absent when off,
    so a campaign without them opens its matches with the options it always did)."""
    return {"blue_die": True} if state.get("blue_die") else {}


def adventure_options(state: dict, chapter: int) -> dict:
    options = {"phase": "adventure", "chapter": chapter, "control": dict(state["control"]), **optional_rules(state)}
    if state["sheet"] is not None:
        options["sheet"] = state["sheet"]
    return options


def exploration_options(state: dict, chapter: int, outcome: str, missions: dict | None = None) -> dict:
    """The Exploration Phase's options: the party carried over exactly, the Adventure Phase's
    outcome and market deck, its missions' results (``missions``: the ``AdventureFinished``
    statuses) and the campaign sheet's marks, for the chapter's consequences, and the exchange of
    items before it starts (Setup step 2: ``share``)."""
    scenario = chapter_doc(state["act"], chapter)["exploration"]["scenario"]
    options = {"phase": "exploration", "scenario": scenario, "adventure": outcome,
               "party": handover.party_from_sheet(state["sheet"]), "control": dict(state["control"]), "share": True,
               "marks": list(state["sheet"].get("marks", [])),
               "missions": {str(n): status for n, status in (missions or {}).items()}, **optional_rules(state)}
    if state.get("market") is not None:
        options["market"] = list(state["market"])
    if state["yomi"] is not None:  # the Yomi marks so far go on with the party
        options.update(yomi_mode=True, yomi_track={"marks": state["yomi"]["marks"], "bold": state["yomi"]["bold"]})
    return options


def sheet_records(chapter: int, before: dict | None, after: dict) -> list[dict]:
    """Marks, discovered locations and city statuses the phase added to the campaign sheet."""
    before = before or {}
    out = [{"type": MARKED, "payload": {"chapter": chapter, "mark": m}}
           for m in after.get("marks", []) if m not in before.get("marks", [])]
    out += [{"type": DISCOVERED, "payload": {"chapter": chapter, "location": loc}}
            for loc in after.get("discovered", []) if loc not in before.get("discovered", [])]
    out += [{"type": CITY, "payload": dict(c)} for c in after.get("cities", []) if c not in before.get("cities", [])]
    return out


def level_records(chapter: int, before: dict, after: dict, levels: dict | None = None) -> list[dict]:
    """Level Increase as the Exploration Phase's aftermath resolved it (the players chose the
    attribute and the skill there, as decisions): one record per level gained. ``levels`` is
    ``PhaseEnded.levels`` (the attribute each player chose); a phase that ended before it existed
    is compared attribute by attribute."""
    out = []
    for cid, case in after["characters"].items():
        old = before["characters"][cid]
        if case["level"] <= old["level"]:
            continue
        if levels and cid in levels:
            raised = [levels[cid]["attribute"]] if levels[cid]["attribute"] else []
        else:
            raised = [a for a in ATTRIBUTES if case["attributes"][a] > old["attributes"][a]]
        skills = [sk for sk in case["skills"] if sk not in old["skills"]]
        out.append({"type": LEVEL_INCREASED, "payload": {
            "chapter": chapter, "character": cid, "level": case["level"],
            "attribute": raised[0] if raised else None, "skill": skills[0] if skills else None}})
    return out


def yomi_marks(state: dict, defeated: list) -> dict:
    """"After completing each phase, mark a box from the Yomi Mode track on the campaign sheet for
    each character who was defeated. Once you reach one of the bold squares, do not continue
    marking boxes" (the same count as the Exploration Phase's hand-over, ``yomi.mark``)."""
    before = state["yomi"]["marks"]
    marks, reached = yomi.mark(before, state["yomi"]["bold"], len(defeated))
    return {"defeated": list(defeated), "marks_before": before, "marks": marks, "marked": marks - before,
            "bold": list(state["yomi"]["bold"]), "bold_reached": reached, "face_shinigami": reached is not None}


def after_adventure(state: dict, ended: dict) -> list[dict]:
    """Records for a finished Adventure Phase (``ended``: its ``AdventureFinished`` payload)."""
    chapter = state["chapter"]
    payload = {"chapter": chapter, "phase": "adventure", "match_id": state["current_match"],
               "outcome": ended["outcome"], "sheet": ended["sheet"]}
    if "market" in ended:
        payload["market"] = list(ended["market"])
    if state["yomi"] is not None:
        payload["yomi"] = yomi_marks(state, ended.get("defeated", []))
    records = [{"type": PHASE_FINISHED, "payload": payload}]
    records += [{"type": KAMI_CHANGED, "payload": {"chapter": chapter, **change}} for change in ended.get("kami_changes", [])]
    return records + sheet_records(chapter, state["sheet"], ended["sheet"])


def after_exploration(state: dict, ended: dict) -> list[dict]:
    """Records for a finished Exploration Phase (``ended``: its ``PhaseEnded`` payload): its
    outcome, the sheet with the party carried back (``handover.sheet_from_party``), the levels gained."""
    chapter, party, result = state["chapter"], ended["party"], ended["result"]
    sheet = handover.sheet_from_party(party, state["sheet"])
    outcome = "success" if result == "victory" else "failure"
    payload = {"chapter": chapter, "phase": "exploration", "match_id": state["current_match"], "outcome": outcome,
               "sheet": sheet}
    if state["yomi"] is not None and "yomi" in ended:
        payload["yomi"] = ended["yomi"]
    records = [{"type": PHASE_FINISHED, "payload": payload}]
    records += level_records(chapter, state["sheet"], sheet, ended.get("levels"))
    return records
