"""The campaign's write path: create, join, leave, cancel, start, and the policy run when a phase match finishes.

Every change appends records to the campaign's log under its row lock and refolds the
``CampaignView``; phase matches are opened and played through ``games.application.services``.
"""

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from games.application import selectors
from games.application.accounts_lock import lock_accounts
from games.application import services as matches
from games.application.errors import MatchNotFound, PlatformError
from games.application.identities import DELETED_PLAYER, names_among, seat_display
from games.application.lobby import ACTIVE, SEAT_CONCEDED, conceded_seats
from games.kernel import RuleViolation

from . import domain, live
from .domain import CampaignRefused
from .models import Campaign, CampaignRecord, CampaignView

log = logging.getLogger(__name__)

GAMES = {"harakiri"}


def _fold_records(campaign: Campaign) -> dict:
    return domain.fold({"type": r.type, "payload": r.payload} for r in campaign.records.order_by("seq"))


def _append(campaign: Campaign, records: list[dict], *, keys=None, matches_=None) -> dict:
    """Append ``records`` (the caller holds the campaign's row lock) and refresh the view."""
    view = CampaignView.objects.get(campaign=campaign)
    state = view.state
    for i, record in enumerate(records):
        campaign.head_seq += 1
        CampaignRecord.objects.create(campaign=campaign, seq=campaign.head_seq, type=record["type"],
                                      payload=record["payload"], key=(keys or {}).get(i),
                                      match_id=(matches_ or {}).get(i))
        state = domain.apply(state, record)
    campaign.save(update_fields=["head_seq"])
    view.seq, view.state = campaign.head_seq, state
    view.save(update_fields=["seq", "state"])
    view.players.set([s["user_id"] for s in state["seats"] if s])
    live.publish_on_commit(campaign.pk)  # the campaign's pages learn of it once it commits
    return state


def _locked(campaign_id) -> Campaign:
    try:
        return Campaign.objects.select_for_update().get(pk=campaign_id)
    except (Campaign.DoesNotExist, ValueError, TypeError, ValidationError):  # unknown or malformed id
        raise CampaignRefused("not_found", "no such campaign", 404)


def campaign_create(*, user, game, act, seats, control=None, yomi_mode=False, blue_die=False) -> Campaign:
    if game not in GAMES:
        raise CampaignRefused("bad_game", "campaigns are played for harakiri", 400)
    if isinstance(act, bool) or act not in domain.ACTS:
        raise CampaignRefused("bad_act", f"acts: {sorted(domain.ACTS)}", 400)
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= 4:
        raise CampaignRefused("bad_seats", "a campaign is played by 1 to 4 players", 400)
    control = domain.check_control(control, seats)
    if not isinstance(yomi_mode, bool):
        raise CampaignRefused("bad_yomi_mode", "yomi_mode is true or false", 400)
    if not isinstance(blue_die, bool):
        raise CampaignRefused("bad_blue_die", "blue_die is true or false", 400)
    with transaction.atomic():
        _check_account(user)
        _open_campaigns_check(user)
        campaign = Campaign.objects.create(game=game, created_by=user)
        CampaignView.objects.create(campaign=campaign, state=domain.empty())
        _append(campaign, [
            {"type": domain.CREATED, "payload": {"game": game, "act": act, "seats": seats, "control": control,
                                                 "creator_id": user.pk, "yomi_mode": yomi_mode,
                                                 "blue_die": blue_die}},
            {"type": domain.SEATED, "payload": {"seat": 0, "user_id": user.pk, "username": user.get_username()}},
        ])
    return campaign


def campaigns_leave_deleted_account(user) -> None:
    """An account being deleted (``accounts.selfservice.account_anonymize``, in its transaction)
    leaves every campaign it plays that is open or under way (``PlayerLeft``, ``domain``), each
    under its lock, in id order, so that no later phase match seats it. While one of its phase
    matches is running the deletion is refused anyway, and all of this is rolled back."""
    for campaign_id in sorted(CampaignView.objects.filter(players=user).values_list("campaign_id", flat=True)):
        campaign = _locked(campaign_id)
        state = campaign.view.state
        seat = next((i for i, s in enumerate(state["seats"]) if s and s["user_id"] == user.pk), None)
        if seat is None or state["status"] not in ("open", "active"):
            continue
        left = {"type": domain.LEFT, "payload": {"seat": seat, "user_id": user.pk, "reason": "account_deleted", "at": _now()}}
        _append(campaign, [left, *domain.abandoned_if_empty(domain.apply(state, left), _now())])


def _open_campaigns_check(user) -> None:
    """Lobby flooding: refuse a new campaign while ``user`` already has MAX_OPEN_CAMPAIGNS_PER_USER open
    ones they created and still sit in (counted under the account's lock, so parallel creations queue)."""
    cap = settings.MAX_OPEN_CAMPAIGNS_PER_USER
    if CampaignView.objects.filter(campaign__created_by=user, players=user, state__status="open").count() >= cap:
        raise CampaignRefused("too_many_open_campaigns",
                              f"you already have {cap} open campaigns; start or cancel one before you create another")


def _check_account(user) -> None:
    """Lock the account about to take a seat, before the campaign (``accounts_lock``): refused if it
    has been deleted meanwhile."""
    if lock_accounts([user]):
        raise CampaignRefused("account_inactive", "this account has been deleted or deactivated", 403)


def campaign_join(*, campaign_id, user) -> dict:
    with transaction.atomic():
        _check_account(user)
        campaign = _locked(campaign_id)
        state = campaign.view.state
        if state["status"] != domain.OPEN:
            raise domain.not_open(state)
        if any(s and s["user_id"] == user.pk for s in state["seats"]):
            raise CampaignRefused("already_seated", "you already have a seat in this campaign")
        free = [i for i, s in enumerate(state["seats"]) if s is None]
        if not free:
            raise CampaignRefused("campaign_full", "every seat is taken")
        return _append(campaign, [{"type": domain.SEATED, "payload": {"seat": free[0], "user_id": user.pk,
                                                                      "username": user.get_username()}}])


def campaign_leave(*, campaign_id, user) -> dict:
    """A player leaves. Before the start (``open``) a player who joined gives the seat up
    (``PlayerLeft``, reason ``left``): it is free again for anyone to join; the creator cancels
    instead (``domain.leaving_seat``). A running campaign (``active``, ``domain.running_leave``):
    the seat goes at once (its characters pass to the first player left); while a phase match is being
    played the player resigns from it first (``_resign_phase_match``: the characters pass there to the
    same player), and only a match that has just ended makes the leave wait for the policy
    (``PlayerLeaving``). The last player leaving abandons the campaign (``CampaignAbandoned``).
    An abandoned, cancelled or finished campaign refuses with its own 409 first, seated or not."""
    with transaction.atomic():
        campaign = _locked(campaign_id)
        state = campaign.view.state
        domain.check_still_playable(state)  # abandoned, cancelled, finished: its 409, seated or not
        if state["status"] != domain.OPEN and domain.seat_of(state, user.pk) is not None:
            return _leave_running(campaign, state, user)
        seat = domain.leaving_seat(state, user.pk)
        return _append(campaign, [{"type": domain.LEFT, "payload": {"seat": seat, "user_id": user.pk,
                                                                    "reason": domain.LEFT_BY_CHOICE}}])


def _leave_running(campaign: Campaign, state: dict, user) -> dict:
    how = {} if domain.running_leave(state, user.pk) == "now" else _resign_phase_match(state, user)
    if how is not None:
        return _append(campaign, domain.leave_records(state, [user.pk], _now(), how))
    return _append(campaign, [{"type": domain.LEAVING, "payload": {
        "seat": domain.seat_of(state, user.pk), "user_id": user.pk, "username": user.get_username(),
        "chapter": state["chapter"], "phase": state["phase"], "match_id": state["current_match"], "at": _now()}}])


def _resign_phase_match(state: dict, user) -> dict | None:
    """The player resigns from the phase match being played (docs/games/harakiri.md, "Resigning"):
    in it their characters pass to the first player left, as they do in the campaign, and the party
    plays on. Returns the ``how`` of ``domain.leave_records`` for their ``PlayerLeft``: ``{}`` (reason
    ``left``) for this resignation. A player already out of the match (they resigned on its own page,
    or another player took their characters over there, and the leave that schedules has not run
    yet) leaves the campaign now, for that first cause: ``resigned`` / ``taken_over`` as
    ``phase_resigns_run`` would have recorded it (the taken-over characters staying with the taker).
    None when that match no longer runs (it has just ended and the policy has not yet recorded it):
    the leave is then announced and done by the policy, as before."""
    try:
        matches.match_resign(match_id=state["current_match"], user=user)
    except PlatformError as refused:
        code = getattr(refused, "code", "")
        if code == "already_out":
            how = _resigned_from(state, selectors.match_get(state["current_match"]))[1]
            return {user.pk: how[user.pk]} if user.pk in how else {}
        if code == "match_not_active":
            return None
        raise CampaignRefused(code or "resign_refused", refused.message, 409) from refused
    return {}


def _now() -> str:
    return timezone.now().isoformat()


def _leaves_at_phase_end(campaign: Campaign, state: dict, match) -> dict:
    """The policy, once a phase has ended and before the next opens: the leaves announced during it
    are done (``PlayerLeft`` each; ``CampaignAbandoned`` if nobody is left), and anyone who left the
    match on its own page and is still seated (their ``phase_resigns_run`` was lost) leaves too."""
    resigned, how = _resigned_from(state, match)
    records = domain.leave_records(state, [w["user_id"] for w in state.get("leaving", [])] + resigned, _now(), how)
    return _append(campaign, records) if records else state


def _resigned_from(state: dict, match) -> tuple[list, dict]:
    """The campaign's players who left the phase match on its own page (resigned, or whose characters
    another player took over there), in the order they did (``domain.resigned_from``)."""
    seats = selectors.state_load(match)["lobby"]["seats"]

    def user_of(seat):
        return (seats[seat] or {}).get("user_id") if isinstance(seat, int) and 0 <= seat < len(seats) else None

    conceded = [{"user_id": user_of(ev["payload"]["seat"]), "taken_over_by_user_id": user_of(ev["payload"].get("taken_over_by"))}
                for ev in selectors.events_unredacted(match) if ev["type"] == SEAT_CONCEDED]
    return domain.resigned_from(state, conceded)


def _phase_match(match_id) -> tuple:
    """(the ``PhaseStarted`` record of the campaign phase ``match_id`` plays, the match, None), or
    why there is nothing to do: (..., "not_a_campaign_match" or "gone")."""
    started = CampaignRecord.objects.filter(type=domain.PHASE_STARTED, match_id=match_id).first()
    if started is None:
        return None, None, "not_a_campaign_match"
    try:
        return started, selectors.match_get(match_id), None
    except MatchNotFound:
        return started, None, "gone"


def phase_resigns_run(match_id) -> str:
    """A player left a campaign's running phase match on the match's own page: they resigned (their
    characters pass to the first player left, docs/games/harakiri.md "Resigning") or another player
    took their characters over (an absent player). They leave the campaign now, as a leave through
    the campaign does (``PlayerLeft``, reason ``resigned`` / ``taken_over``; ``CampaignAbandoned`` if
    nobody is left), so the campaign's seats stay the match's seats still in play and every read says
    who plays their characters now. Run after the commit that conceded the seat (``tasks``);
    idempotent: a player who already left the campaign (through its leave, or an earlier run) is
    not seated any more."""
    started, match, missing = _phase_match(match_id)
    if missing:
        return missing
    with transaction.atomic():
        campaign = _locked(started.campaign_id)
        state = campaign.view.state
        if state["status"] != domain.ACTIVE or state["current_match"] != str(match_id):
            return "not_current"  # over, or the phase is recorded: its end did the leaves
        resigned, how = _resigned_from(state, match)
        records = domain.leave_records(state, resigned, _now(), how)
        if not records:
            return "nobody"
        _append(campaign, records)
        return "left"


def campaign_cancel(*, campaign_id, user) -> dict:
    """The creator calls an open campaign off (``CampaignCancelled``): it is no longer open to join,
    cannot start, and no longer counts toward the creator's open campaigns; its page says who
    cancelled it and when. A running campaign is abandoned instead (``CampaignAbandoned``, reason
    ``creator``): no further phase opens; a phase match being played is left to its players."""
    with transaction.atomic():
        campaign = _locked(campaign_id)
        state = campaign.view.state
        who = {"by": user.pk, "username": user.get_username(), "at": _now()}
        if domain.check_cancel(state, user.pk) == "abandon":
            return _append(campaign, [{"type": domain.ABANDON, "payload": {
                "reason": domain.BY_CREATOR, **who, "chapter": state["chapter"], "phase": state["phase"],
                "match_id": state["current_match"]}}])
        return _append(campaign, [{"type": domain.CANCELLED, "payload": who}])


def _open_match(state: dict, options: dict):
    """A phase match with the campaign's players in their seats, started."""
    users = get_user_model().objects.in_bulk([s["user_id"] for s in state["seats"]])
    seated = [users[s["user_id"]] for s in state["seats"]]
    match = matches.match_create(game=state["game"], seats=len(seated), options=options, creator=seated[0])
    for seat, user in enumerate(seated[1:], start=1):
        matches.match_join(match_id=match.pk, user=user, seat=seat)
    matches.match_start(match_id=match.pk, user=seated[0])
    return match


def _start_phase(campaign: Campaign, state: dict, chapter: int, phase: str, options: dict, extra=None) -> dict:
    key = f"started:{chapter}:{phase}"
    if campaign.records.filter(key=key).exists():
        return state
    match = _open_match(state, options)
    payload = {"chapter": chapter, "phase": phase, "match_id": str(match.pk), **(extra or {})}
    return _append(campaign, [{"type": domain.PHASE_STARTED, "payload": payload}], keys={0: key},
                   matches_={0: match.pk})


def campaign_start(*, campaign_id, user) -> dict:
    with transaction.atomic():
        campaign = _locked(campaign_id)
        state = campaign.view.state
        if state["status"] != domain.OPEN:  # first: a campaign past its start refuses whoever asks (409)
            raise domain.not_open(state)
        if state["creator_id"] != user.pk:
            raise CampaignRefused("not_creator", "only the campaign's creator can start it", 403)
        if any(s is None for s in state["seats"]):
            raise CampaignRefused("seats_not_filled", "every seat must be filled before the start")
        state = _append(campaign, [{"type": domain.STARTED, "payload": {}}])
        return _start_phase(campaign, state, 1, "adventure", domain.adventure_options(state, 1))


# -- the policy ------------------------------------------------------------------------------------


def _ended_payload(match, phase: str) -> dict | None:
    wanted = "AdventureFinished" if phase == "adventure" else "PhaseEnded"
    ended = [ev for ev in selectors.events_unredacted(match) if ev["type"] == wanted]
    return ended[-1]["payload"] if ended else None


def _next_key(campaign: Campaign, chapter: int, phase: str) -> str:
    """The key of what follows a finished phase: its chapter's Exploration Phase, the next chapter's
    Adventure Phase, or after the act's last chapter the campaign's end."""
    if phase == "adventure":
        return f"started:{chapter}:exploration"
    last = domain.chapters(campaign.view.state["act"])[-1]["number"]
    return "finished" if chapter >= last else f"started:{chapter + 1}:adventure"


def policy_run(match_id, *, retry: bool = False, between=None) -> str:
    """A phase match finished: record its outcome, the sheet and the levels gained, and open the
    next phase's match with the party carried over. Idempotent: the campaign's row lock and the
    unique ``(campaign, key)`` make a second run (or a concurrent one) append nothing, and one
    transaction holds it all, so a run killed half-way leaves nothing behind. ``between()``, if
    given, runs after the outcome is written and before the next match is opened (the workers'
    chaos hook, to test a worker killed there).

    If the next match cannot be opened (a phase's option validation refuses what the campaign
    hands it), the phase's finish stays recorded, a ``PolicyFailed`` record shows the refusal on
    the campaign, and nothing more happens until staff retry (``policy_retry``)."""
    started, match, missing = _phase_match(match_id)
    if missing:
        return missing
    chapter, phase = started.payload["chapter"], started.payload["phase"]
    try:
        with transaction.atomic():
            campaign = _locked(started.campaign_id)
            if campaign.records.filter(key=_next_key(campaign, chapter, phase)).exists():
                return "done"
            state = campaign.view.state
            if state["failure"] is not None and not retry:
                return "failed"  # recorded already: staff retry it
            if not campaign.records.filter(key=f"finished:{chapter}:{phase}").exists():
                full = selectors.state_load(match)
                if full["lobby"]["status"] == ACTIVE or full["game"] is None:
                    return "not_finished"
                ended = _ended_payload(match, phase)
                if ended is None and state["status"] == domain.ACTIVE:  # the last player left it on its page
                    state = _leaves_at_phase_end(campaign, state, match)
                if ended is None and state["status"] == domain.ABANDONED:
                    return "abandoned"  # the last player resigned from the match: it ended with nobody to play it
                if ended is None:
                    log.error("campaign %s: match %s finished without its phase's ending", campaign.pk, match_id)
                    return "no_ending"
                records = domain.after_adventure(state, ended) if phase == "adventure" else domain.after_exploration(state, ended)
                state = _append(campaign, records, keys={0: f"finished:{chapter}:{phase}"})
            if between is not None:
                between()
            if state["status"] == domain.ACTIVE and _next_key(campaign, chapter, phase) != "finished":
                state = _leaves_at_phase_end(campaign, state, match)
            if state["status"] == domain.ABANDONED:
                return "abandoned"  # every player has left: no next phase to open
            try:
                with transaction.atomic():  # a savepoint: a refused next match leaves nothing behind
                    return _next_phase(campaign, state, chapter, phase, match)
            except OperationalError:
                raise  # the database: the task retries
            # An IntegrityError here is not a concurrent run: runs are serialised by the campaign's
            # row lock (SQLite: its IMMEDIATE write lock) and a run that waited sees the first one's
            # keys (READ COMMITTED) and returns "done" above. So it is a real failure to open the
            # next match, recorded and shown like any other; re-raised, it would roll the finish
            # back as "raced" and the sweep would retry it forever without anyone seeing why.
            except Exception as refused:  # noqa: BLE001 - recorded and shown, never a silent stop
                code, message = getattr(refused, "code", "internal_error"), getattr(refused, "message", repr(refused))
                if not isinstance(refused, (RuleViolation, PlatformError)):
                    log.exception("campaign %s: the phase after %s %s failed", campaign.pk, chapter, phase)
                else:
                    log.error("campaign %s: the phase after %s %s could not open: %s %s", campaign.pk, chapter, phase,
                              code, message)
                campaign.refresh_from_db(fields=["head_seq"])
                _append(campaign, [{"type": domain.POLICY_FAILED, "payload": {
                    "chapter": chapter, "phase": phase, "match_id": str(match_id), "code": str(code),
                    "message": str(message)[:500]}}])
                return "failed"
    except IntegrityError:  # the unique keys' last guard, if a concurrent run ever got past the lock
        return "raced"


def policy_retry(*, campaign_id, user) -> dict:
    """Staff: run the policy again for the phase whose next match could not be opened."""
    if not (user.is_authenticated and user.is_staff):
        raise CampaignRefused("not_staff", "only staff can retry a campaign", 403)
    with transaction.atomic():
        campaign = _locked(campaign_id)
        failure = campaign.view.state["failure"]
        if failure is None:
            raise CampaignRefused("nothing_to_retry", "the campaign has no failed step")
        _append(campaign, [{"type": domain.POLICY_RETRIED, "payload": {"by": user.pk, **failure}}])
    outcome = policy_run(failure["match_id"], retry=True)
    log.info("campaign %s: staff %s retried the policy: %s", campaign_id, user.pk, outcome)
    return campaign_get(campaign_id)


def _next_phase(campaign: Campaign, state: dict, chapter: int, phase: str, match) -> str:
    if phase == "adventure":
        outcome = state["history"][-1]["outcome"]
        # the missions' results come from the finished match's own log (AdventureFinished.missions)
        missions = (_ended_payload(match, phase) or {}).get("missions", {})
        _start_phase(campaign, state, chapter, "exploration", domain.exploration_options(state, chapter, outcome, missions))
        return "exploration_opened"
    last = domain.chapters(state["act"])[-1]["number"]
    if chapter >= last:
        _append(campaign, [{"type": domain.FINISHED, "payload": {"outcome": state["history"][-1]["outcome"]}}],
                keys={0: "finished"})
        return "campaign_finished"
    _start_phase(campaign, state, chapter + 1, "adventure", domain.adventure_options(state, chapter + 1))
    return "adventure_opened"


def pending_work(limit: int = 200) -> tuple[list, list]:
    """What the beat sweep re-enqueues, from one read of each running campaign's current match:
    (phase matches that finished while the campaign still shows them as current: the policy has not
    run for them yet; running phase matches with a conceded seat whose player still sits in the
    campaign: their ``phase_resigns_run`` has not run)."""
    policies, resigns = [], []
    for view in CampaignView.objects.filter(state__status="active").exclude(state__current_match=None)[:limit]:
        match_id = view.state["current_match"]
        try:
            lobby = selectors.state_load(selectors.match_get(match_id))["lobby"]
        except MatchNotFound:
            continue
        seated = {s["user_id"] for s in view.state["seats"] if s}
        if lobby["status"] != ACTIVE:
            policies.append(match_id)
        elif any((lobby["seats"][seat] or {}).get("user_id") in seated for seat in conceded_seats(lobby)):
            resigns.append(match_id)
    return policies, resigns


def pending_policies(limit: int = 200) -> list:
    return pending_work(limit)[0]


# -- reads -------------------------------------------------------------------------------------------


def campaign_get(campaign_id) -> dict:
    try:
        view = CampaignView.objects.get(campaign_id=campaign_id)
    except (CampaignView.DoesNotExist, ValueError, TypeError, ValidationError):
        raise CampaignRefused("not_found", "no such campaign", 404)
    return public_docs([view])[0]


def campaign_list(user=None) -> list[dict]:
    views = CampaignView.objects.order_by("-campaign__created_at")
    if user is not None:
        views = views.filter(players=user)
    return public_docs(views[:200])


def public_docs(views) -> list[dict]:
    """The campaigns' documents (``domain.public``), each player named as the account is now (the
    log keeps the name it was seated with), as match seats are (``identities``): its seat and its
    name as the one who cancelled or abandoned it, who left, or who plays a leaver's characters read
    its current username, or "deleted player" once the account is deleted; so does a leave announced
    for the end of the phase (``leaving``)."""
    docs = [domain.public(v.campaign_id, v.state) for v in views]
    names = names_among({s["user_id"] for doc in docs for s in doc["seats"] if s}
                        | {doc[k]["by"] for doc in docs for k in ("cancelled", "abandoned") if doc[k]}
                        | {uid for doc in docs for d in doc["departures"] for uid in (d["user_id"], d["heir_id"]) if uid}
                        | {w["user_id"] for doc in docs for w in doc.get("leaving") or [] if w.get("user_id")})
    for doc in docs:
        if names:
            doc["seats"] = [seat_display(s, names) for s in doc["seats"]]
            for k in ("cancelled", "abandoned"):
                if doc[k] and doc[k]["by"] in names:
                    doc[k] = {**doc[k], "username": names[doc[k]["by"]]}
            doc["leaving"] = [{**w, "username": names.get(w.get("user_id"), w.get("username"))}
                              for w in doc.get("leaving") or []]
        doc["departures"] = [_departure_display(d, names) for d in doc["departures"]]
    return docs


def _departure_display(d: dict, names: dict) -> dict:
    d = dict(d)
    if d["reason"] == "account_deleted":
        d["username"] = DELETED_PLAYER
    elif d["user_id"] in names:
        d["username"] = names[d["user_id"]]
    if d["heir_id"] in names:
        d["heir"] = names[d["heir_id"]]
    return d
