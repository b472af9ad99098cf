"""Campaign pages (Harakiri): the list (my campaigns, open ones to join, the new-campaign form) and one
campaign (where the party stands and what to do next, the party's progress, the campaign sheet, the
chapters with every phase's match and replay), kept current by ``static/js/campaign.js``. Actions are
plain HTML forms posting here; reads are ``campaigns.selectors``, writes ``campaigns.services``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns import selectors, services
from campaigns.domain import CampaignRefused
from campaigns.throttles import CampaignCreateThrottle
from games.api.throttles import MatchCreateThrottle, MatchJoinThrottle, allow
from games.application.errors import PlatformError
from games.kernel import RuleViolation

from .campaign_forms import CampaignCreateForm
from .templatetags.when import when
from .throttling import throttled_page, too_quick
from .wording import code_tag, error_text, form_refusal, refusal

PHASE_NAMES = {"adventure": "Adventure Phase", "exploration": "Exploration Phase"}
REFUSALS = {  # what a player reads for each refusal of campaigns.services
    "campaign_full": "Every seat of this campaign is taken.",
    "already_seated": "You already have a seat in this campaign.",
    "campaign_started": "This campaign has already started.",
    "campaign_cancelled": "This campaign was cancelled.",
    "not_seated": "You have no seat in this campaign.",
    "creator_cannot_leave": "You created this campaign, so you cannot leave it: cancel it instead.",
    "seats_not_filled": "Every seat must be taken before the campaign can start.",
    "not_creator": "Only the player who created the campaign can start it.",
    "not_found": "There is no such campaign.",
    "campaign_abandoned": "This campaign was abandoned: it will not be played further.",
    "campaign_finished": "This campaign is over: nobody can join, start, leave or abandon it any more.",
    "already_leaving": "You already leave this campaign at the end of the phase being played.",
}


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _listed(words: list[str]) -> str:
    return ", ".join(words)


def standing_words(st: dict) -> str:
    """Where the party stands, in one sentence ("Chapter 2, Exploration Phase, waiting for Tomoe (bob)")."""
    if st["status"] == "open":
        if st["seats_taken"] < st["seats"]:
            verb = "has" if st["seats_taken"] == 1 else "have"  # "1 of 2 players has joined", "2 of 3 ... have"
            return f"Gathering the party: {st['seats_taken']} of {st['seats']} players {verb} joined."
        return "Everyone has joined: waiting for the campaign to start."
    if st["status"] == "cancelled":
        return cancelled_words(st["cancelled"])
    if st["status"] == "abandoned":
        return abandoned_words(st.get("abandoned"))
    if st["status"] == "finished":
        return f"The campaign is over: its last phase ended in {st['outcome'] or 'its final section'}."
    if st.get("failed"):
        return f"Chapter {st['chapter']}: the next phase could not be opened. The staff has been told and can retry it."
    if not st["match_id"] or st["phase"] not in PHASE_NAMES:
        return f"Chapter {st['chapter']}: the next phase is being prepared."
    where = f"Chapter {st['chapter']}, {PHASE_NAMES[st['phase']]}"
    mine = [w for w in st["waiting"] if w["you"]]
    if mine:
        chars = [c for w in mine for c in w["characters"]]
        return f"{where}: your move{f' ({_listed(chars)})' if chars else ''}."
    if st["waiting"]:
        who = [f"{_listed(w['characters'])} ({w['username']})" if w["characters"] else w["username"] for w in st["waiting"]]
        return f"{where}, waiting for {_either(who)}."
    if st["system"]:
        return f"{where}: the {'Shōgun and the enemies are' if st['phase'] == 'adventure' else 'enemies are'} moving."
    return f"{where}."


def cancelled_words(cancelled: dict | None) -> str:
    """Who called the campaign off, and when ("Cancelled by alice on 6 Dec 2026, 23:50 UTC: it will not be played.")."""
    cancelled = cancelled or {}
    by = f" by {cancelled['username']}" if cancelled.get("username") else ""
    at = f" on {when(cancelled['at'])}" if cancelled.get("at") else ""
    return f"Cancelled{by}{at}: it will not be played."


def abandoned_words(abandoned: dict | None) -> str:
    """Why a campaign ended before its act did ("Abandoned by alice on 7 Dec 2026, 03:10 UTC, in
    chapter 2: it will not be played further.")."""
    abandoned = abandoned or {}
    if abandoned.get("reason") != "creator":  # the last player left (or a log from before the record)
        return "Every player has left: the campaign was abandoned."
    by = f" by {abandoned['username']}" if abandoned.get("username") else ""
    at = f" on {when(abandoned['at'])}" if abandoned.get("at") else ""
    chapter = f", in chapter {abandoned['chapter']}" if abandoned.get("chapter") else ""
    return f"Abandoned{by}{at}{chapter}: it will not be played further."


def departure_words(d: dict, viewer: str | None = None, running: bool = True) -> str:
    """Who left a started campaign, when, where, and who plays their characters since ("dave9 left
    the campaign on 7 Dec 2026, 03:40 UTC, in chapter 1's Adventure Phase: alice plays their
    characters now.")."""
    at = f" on {when(d['at'])}" if d.get("at") else ""
    where = (f", in chapter {d['chapter']}'s {PHASE_NAMES[d['phase']]}" if d.get("phase") in PHASE_NAMES
             else f", in chapter {d['chapter']}" if d.get("chapter") else "")
    me = viewer is not None and d.get("username") == viewer and d.get("reason") != "account_deleted"
    name, them, were = ("You", "you", "were") if me else (d["username"], "them", "was")
    who = {"account_deleted": "A player whose account was deleted left",
           # they left the phase match on its own page, which is leaving the campaign (docs/campaigns.md)
           "resigned": f"{name} resigned from the phase's match and so left",
           "taken_over": f"{name} {were} taken over in the phase's match (it had waited on {them} for a day) "
                         "and so left",
           }.get(d.get("reason"), f"{name} left")
    you = bool(d.get("heir")) and d["heir"] == viewer
    chars = "your characters" if me else "their characters"
    if not d.get("heir"):
        then = ": nobody was left to play."
    elif running:
        then = f": {'you play' if you else d['heir'] + ' plays'} {chars} now."
    else:  # the campaign is over: say what happened then
        then = f": {chars} passed to {'you' if you else d['heir']}."
    return f"{who} the campaign{at}{where}{then}"


def departure_line(d: dict, viewer: str | None = None) -> str:
    """The same departure as ``departure_words``, short, for the list under the party ("Left the
    campaign"), which the whole sentence would repeat when it is also the standing card's notice:
    how, where, when and to whom the characters went ("dave9 resigned from the phase's match ·
    chapter 1's Adventure Phase · 7 Dec 2026, 03:40 UTC · characters to alice")."""
    me = viewer is not None and d.get("username") == viewer and d.get("reason") != "account_deleted"
    name = "You" if me else d["username"]
    who = {"account_deleted": "A player whose account was deleted",
           "resigned": f"{name} resigned from the phase's match",
           "taken_over": f"{name} {'were' if me else 'was'} taken over in the phase's match after a day's wait",
           }.get(d.get("reason"), f"{name} left")
    where = (f"chapter {d['chapter']}'s {PHASE_NAMES[d['phase']]}" if d.get("phase") in PHASE_NAMES
             else f"chapter {d['chapter']}" if d.get("chapter") else "")
    chars = "your characters" if me else "characters"
    heir = "you" if d.get("heir") and d["heir"] == viewer else d.get("heir")
    to = f"{chars} to {heir}" if heir else "nobody left to play them"
    return " · ".join(part for part in (who, where, when(d["at"]) if d.get("at") else "", to) if part)


def asks(page: dict) -> list[dict]:
    """The campaign's actions that ask first, in the order shown, each ``{url, question, testid,
    label}`` (``_campaign_confirm.html``): before the start a player who joined may leave and the
    creator may cancel; once running every player may leave at once (during a phase they resign from
    its match: their characters pass to the first player left there too) and the creator may abandon it."""
    cid, status = page["campaign"]["id"], page["campaign"]["status"]
    leave, cancel = reverse("frontend:campaign-leave", args=[cid]), reverse("frontend:campaign-cancel", args=[cid])
    out = []
    if page["can_leave"] and status == "open":
        out.append({"url": leave, "testid": "campaign-leave", "label": "Leave the campaign", "question":
                    "Leave this campaign? Your seat becomes free for anyone to join; you may join again while a seat is free."})
    if page["can_cancel"]:
        out.append({"url": cancel, "testid": "campaign-cancel", "label": "Cancel the campaign", "question":
                    "Cancel this campaign? It cannot be undone: it leaves the open campaigns and its players see that "
                    "you cancelled it."})
    if page["can_leave"] and status == "active":
        out.append({"url": leave, "testid": "campaign-leave", "label": "Leave the campaign", "question": leave_question(page)})
    if page["can_abandon"]:
        single = " The phase being played is left to its players as a single match." if page["standing"]["match_id"] else ""
        out.append({"url": cancel, "testid": "campaign-abandon", "label": "Abandon the campaign", "question":
                    "Abandon this campaign? It cannot be undone: no further phase opens and its players see that you "
                    f"abandoned it.{single}"})
    return out


def leave_question(page: dict) -> str:
    """What leaving a running campaign does, asked first: during a phase the player resigns from it."""
    heir = (page.get("leaving") or {}).get("heir")
    if page["leave_in_phase"]:
        then = (f": {heir} plays your characters from now on, in this phase and the next ones; the party plays on "
                "without you" if heir else
                ", and as its last player you end it: the phase ends with nobody to play it and the campaign is abandoned")
        return f"Leave this campaign now? You resign from the phase being played and your seat goes{then}. You cannot come back."
    then = (f" and {heir} plays your characters from the next phase" if heir
            else ", and as its last player you end it: the campaign is abandoned")
    return f"Leave this campaign now? Your seat goes{then}. You cannot come back."


def subtitle(page: dict) -> str:
    """The header's "Act 1 · 2 players" (refreshed by campaign.js from the live fragment)."""
    n = len(page["campaign"]["seats"])
    return f"{page['act_name']} · {n} player{'' if n == 1 else 's'}"


def campaign_list(request, form=None):
    lists = selectors.campaign_lists(request.user)
    for row in lists["mine"] + lists["open"]:
        row["words"] = standing_words(row["standing"])
    if form is None and request.user.is_authenticated:
        form = CampaignCreateForm()
    return render(request, "frontend/campaigns.html", {"mine": lists["mine"], "open": lists["open"], "form": form},
                  status=400 if form is not None and form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request):
    if request.method != "POST":  # reloading the address a refused form was shown at
        return redirect("frontend:campaigns")
    form = CampaignCreateForm(request.POST)
    if not form.is_valid():
        return campaign_list(request, form=form)
    wait = allow(CampaignCreateThrottle, request)
    if wait is not None:
        return throttled_page(form, wait, "creating campaigns", lambda f: campaign_list(request, form=f))
    try:
        campaign = services.campaign_create(user=request.user, game="harakiri", act=form.cleaned_data["act"],
                                            seats=form.cleaned_data["seats"], control=form.cleaned_data["control"],
                                            yomi_mode=form.cleaned_data["yomi_mode"],
                                            blue_die=form.cleaned_data["blue_die"])
    except CampaignRefused as err:
        form_refusal(form, err, words=REFUSALS)
        return campaign_list(request, form=form)
    if form.cleaned_data["seats"] > 1:
        messages.success(request, "Your campaign is open: the other players join it from the campaign list, "
                                  "or from this page's address.")
    return redirect("frontend:campaign", campaign_id=campaign.pk)


@require_http_methods(["GET"])
def campaign_page(request, campaign_id):
    try:
        page = selectors.campaign_page(campaign_id, request.user)
    except CampaignRefused:
        return render(request, "frontend/campaign_missing.html", status=404)
    page["words"] = standing_words(page["standing"])
    page["subtitle"] = subtitle(page)
    viewer = request.user.get_username() if request.user.is_authenticated else None
    for d in page["departures"]:  # the latest in words in the standing card while it runs; each one short below
        d["words"] = departure_words(d, viewer, running=page["campaign"]["status"] == "active")
        d["line"] = departure_line(d, viewer)
    page["asks"] = asks(page)
    page["party_names"] = ",".join(p["username"] or "" for p in page["players"])
    page["standing"]["phase_name"] = PHASE_NAMES.get(page["standing"]["phase"])
    for chapter in page["chapters"]:
        for phase in chapter["phases"]:
            phase["label"] = PHASE_NAMES[phase["phase"]]
    if request.GET.get("fragment") == "live":  # campaign.js swaps this in when the party moves on
        return render(request, "frontend/_campaign_live.html", page)
    return render(request, "frontend/campaign.html", page)


def _action(request, campaign_id, run, done: str, words=None, then=None):
    """Run a campaign write; flash ``done`` or the refusal in words; go to the campaign's page (or ``then``
    once it worked)."""
    try:
        run()
    except CampaignRefused as err:
        refusal(request, err, words={**REFUSALS, **(words or {})})
    except (RuleViolation, PlatformError) as err:  # a phase match could not be opened
        messages.error(request, f"The first chapter could not be opened. {error_text(err)}", extra_tags=code_tag(err))
    else:
        messages.success(request, done)
        if then is not None:
            return redirect(then)
    return redirect("frontend:campaign", campaign_id=campaign_id)


@login_required
@require_POST
def campaign_join(request, campaign_id):
    return _action(request, campaign_id, lambda: services.campaign_join(campaign_id=campaign_id, user=request.user),
                   "You have joined the campaign.")


@login_required
@require_POST
def campaign_start(request, campaign_id):
    if too_quick(request, MatchCreateThrottle, "opening matches"):  # the start opens a match: the match creation rate
        return redirect("frontend:campaign", campaign_id=campaign_id)
    return _action(request, campaign_id, lambda: services.campaign_start(campaign_id=campaign_id, user=request.user),
                   "The campaign has begun: chapter 1's Adventure Phase is open.")


@login_required
@require_POST
def campaign_leave(request, campaign_id):
    """A player leaves at once (then the campaigns list is where they go next): before the start, between
    two phases, or during one (they resign from its match: the first player left plays their
    characters from now on). Only when the phase match has just ended does the leave wait for the
    policy (they stay on the page)."""
    if too_quick(request, MatchJoinThrottle, "taking and leaving seats"):
        return redirect("frontend:campaign", campaign_id=campaign_id)
    try:
        during = bool(services.campaign_get(campaign_id).get("current_match"))
        state = services.campaign_leave(campaign_id=campaign_id, user=request.user)
    except CampaignRefused as err:
        refusal(request, err, words=REFUSALS)
        return redirect("frontend:campaign", campaign_id=campaign_id)
    if any(w["user_id"] == request.user.pk for w in state.get("leaving", [])):
        messages.success(request, "You leave the campaign when this phase ends. Until then your characters are still "
                                  "yours to play: the party cannot finish the phase without them.")
        return redirect("frontend:campaign", campaign_id=campaign_id)
    if state["status"] == "open":
        messages.success(request, "You have left the campaign: your seat is free for someone else.")
    elif state["status"] == "abandoned":
        messages.success(request, "You have left the campaign. You were its last player, so it is abandoned.")
    elif during:
        messages.success(request, "You have left the campaign and resigned from the phase being played: the others "
                                  "play your characters from now on.")
    else:
        messages.success(request, "You have left the campaign: the others play your characters from the next phase.")
    return redirect("frontend:campaigns")


def _status(campaign_id) -> str | None:
    try:
        return services.campaign_get(campaign_id)["status"]
    except CampaignRefused:
        return None


@login_required
@require_POST
def campaign_cancel(request, campaign_id):
    """The creator cancels an open campaign, or abandons a running one (the same write, ``campaign_cancel``)."""
    try:
        state = services.campaign_cancel(campaign_id=campaign_id, user=request.user)
    except CampaignRefused as err:
        verb = "abandon" if err.code == "not_creator" and _status(campaign_id) == "active" else "cancel"
        refusal(request, err, words={**REFUSALS, "not_creator": f"Only the player who created the campaign can {verb} it."})
    else:
        messages.success(request, "The campaign is abandoned. Its players see it on its page." if state["status"] == "abandoned"
                         else "The campaign is cancelled. Its players see it on its page.")
    return redirect("frontend:campaign", campaign_id=campaign_id)
