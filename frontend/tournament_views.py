"""Tournament pages: the list, one tournament (registration, pairings with watch links, standings with
their tiebreaks, the bracket of an elimination stage; kept live by ``static/js/tournament.js`` over
``/ws/tournaments/{id}/``) and the organizer's create form. Actions are plain HTML forms posting here;
every rule is the services'."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.tournaments import policies, reports, selectors, services
from games.kernel.digits import ascii_int
from games.tournaments.errors import TournamentServiceError
from games.tournaments.names import DELETED_PLAYER
from games.tournaments.models import FORMATS, GAMES, STATUSES, TeamInvitation
from games.tournaments.throttles import TournamentEntryThrottle, TournamentManageThrottle, TournamentReportThrottle
from games.tournaments.watch import tournament_players

from .tournament_forms import TournamentCreateForm, TournamentEditForm
from .throttling import too_quick
from .wording import delay_words, duration_words, form_errors_shown, form_refusal, refusal

LABELS = {"format": dict(FORMATS), "game": dict(GAMES), "status": dict(STATUSES)}
# a player's report (dispute) on a table, as the page says it
REPORT_LABELS = {"open": "under review", "upheld": "reviewed: the result stands",
                 "overridden": "result corrected by a judge"}
# the badge in a table cell is short (a phone's column is narrow); its title carries REPORT_LABELS
BADGE_LABELS = {"open": "under review", "upheld": "result stands", "overridden": "corrected"}
# how a table's result came about (the API's ``by``), as a player reads it; a resignation is "played"
RESULT_BY_WORDS = {"play": "played", "time": "on time", "judge": "judge's ruling", "bye": "bye"}
# the service names the entrant by its id, which the page never shows
DROP_WORDS = {"not_registered": "That entrant is no longer in this tournament."}
# the page's regions tournament.js refreshes: the shared live part, and the viewer's own entry box
FRAGMENTS = {"live": "frontend/_tournament_live.html", "entry": "frontend/_tournament_entry.html"}
TIEBREAK_LABELS = {"buchholz_cut1": "Buchholz cut-1", "sonneborn_berger": "Sonneborn-Berger",
                   "head_to_head": "Head-to-head", "omw": "Opponents' match-win %", "seed_draw": "Seed draw"}


def tournament_list(request):
    status = request.GET.get("status")
    status = status if status in LABELS["status"] else None
    rows = selectors.tournament_list(status=status)
    for row in rows:
        row["format_label"] = LABELS["format"].get(row["format"], row["format"])
        row["game_label"] = LABELS["game"].get(row["game"], row["game"])
    asked = [i for i in selectors.invitations_pending(request.user) if i.partner_id == request.user.pk]
    return render(request, "frontend/tournaments.html", {
        "tournaments": rows, "status": status, "statuses": STATUSES, "invitations": asked,
        "can_organize": services.is_organizer(request.user)})


def bracket(pairings: list[dict], names: dict, closed: set = frozenset()) -> list[dict]:
    """The elimination stage as columns of match boxes, later rounds drawn empty until paired;
    ``closed``: the (round, table) whose live view the viewer may not open (fair play)."""
    elim = [p for p in pairings if p.get("stage") == "elimination"]
    if not elim:
        return []
    by_round: dict[int, list] = {}
    for p in elim:
        by_round.setdefault(p["round"], []).append(p)
    columns = []
    for rnd in sorted(by_round):
        boxes = []
        for p in sorted(by_round[rnd], key=lambda p: p["table"]):
            winners = set((p["result"] or {}).get("winners", []))
            boxes.append({"table": p["table"], "match_id": p["match_id"],
                          "watch_closed": (p["round"], p["table"]) in closed, "slots": [
                {"name": names.get(e, e), "won": e in winners, "lost": bool(p["result"]) and e not in winners}
                for e in p["entrant_ids"]]})
        columns.append({"round": rnd, "boxes": boxes})
    size = len(columns[-1]["boxes"])
    rnd = columns[-1]["round"]
    while size > 1:  # rounds still to come
        size = (size + 1) // 2
        rnd += 1
        columns.append({"round": rnd, "boxes": [{"table": i + 1, "match_id": None, "slots": []} for i in range(size)]})
    for i, col in enumerate(columns):
        left = len(columns) - i
        col["label"] = {1: "Final", 2: "Semi-finals", 3: "Quarter-finals"}.get(left, f"Round {col['round']}")
    return columns


def dispute_marker(reports: list[dict]) -> dict | None:
    """One marker for a standings row: an open report first (the standing may still change), then a
    result a judge corrected, then a reviewed one."""
    for status in ("open", "overridden", "upheld"):
        found = [r for r in reports if r["status"] == status]
        if found:
            where = ", ".join(f"round {r['round']} table {r['table']}" for r in found)
            return {"status": status, "label": BADGE_LABELS[status], "title": f"{REPORT_LABELS[status]} ({where})"}
    return None


def report_badges(reports: list[dict]) -> list[dict]:
    """A pairings row's report badges: a short label, the full words in its title."""
    return [{"status": r["status"], "label": BADGE_LABELS[r["status"]], "title": REPORT_LABELS[r["status"]]}
            for r in reports]


def result_words(result: dict | None, reports: list[dict], names: dict | None = None) -> str | None:
    """How a table's result came about, said once: a bye is already named beside the entrant, and a
    judge's correction by its report badge. A match lost because its player dropped out of the
    tournament says so ("lost: ben dropped out"), not "played"."""
    if not result or result["by"] == "bye":
        return None
    if result["by"] == "judge" and any(r["status"] == "overridden" for r in reports):
        return None
    gone = result.get("dropped_out") or []
    if result["by"] == "play" and gone:
        who = " and ".join((names or {}).get(e, e) for e in gone)
        return f"lost: {who} dropped out"
    return RESULT_BY_WORDS.get(result["by"], result["by"])


def points_words(points) -> str:
    """A bye's points with their unit: "3 points", "1 point", "1.5 points"."""
    return f"{points} point{'' if points == 1 else 's'}"


def profile_of(name: str, user_ids) -> str | None:
    """The username whose profile a standings row links to: a player's own entry under its current
    name; None for a team (its name joins several) or a deleted account."""
    return name if len(user_ids) == 1 and name != DELETED_PLAYER else None


def head_to_head_shown(standings: list[dict], keys: list[str]) -> None:
    """Head-to-head only separates entrants still tied on points and every tiebreak before it; for
    anyone else it does not apply, and the page says "–" rather than a 0 that reads like a score."""
    if "head_to_head" not in keys:
        return
    at = keys.index("head_to_head")
    before = keys[:at]
    tied_on = [(row["points"], *(row["tiebreaks"][k] for k in before)) for row in standings]
    for row, key in zip(standings, tied_on):
        if tied_on.count(key) < 2:
            row["tiebreak_values"][at] = "–"


def games_and_byes(standings: list[dict], rounds: dict, current_round: int, running: bool) -> list[str]:
    """Split the fold's ``played`` (games and byes alike) into the games an entrant played and its
    byes, and name the byes counted while their round's other tables are still played (a bye's
    points count as soon as the round is paired: docs/tournaments.md, "Standings and tiebreaks"). Returns the names of
    the entrants with such a bye."""
    byes: dict = {}
    for tables in rounds.values():
        for p in tables:
            if p["bye"] and p["result"]:
                byes[p["entrant_ids"][0]] = byes.get(p["entrant_ids"][0], 0) + 1
    live = rounds.get(current_round, []) if running else []
    early = ({p["entrant_ids"][0] for p in live if p["bye"]}
             if any(not p["bye"] and p["result"] is None for p in live) else set())
    pending = []
    for row in standings:
        row["byes"] = byes.get(row["entrant_id"], 0)
        row["games"] = row["played"] - row["byes"]
        row["bye_now"] = row["entrant_id"] in early
        if row["bye_now"]:
            pending.append(row["name"])
    return pending


FORMAT_ROUNDS = {
    "round_robin": "everyone meets everyone once",
    "single_elimination": "a knock-out bracket: as many rounds as the field needs",
}


def event_facts(tournament, detail: dict, registered: int) -> list[tuple[str, str]]:
    """What a player wants to know before the start, as ``(label, words)``: rounds (or how they are
    decided), the turn clock, the cap and whether it is rated."""
    planned = detail["rounds"]
    for_field = f" ({planned} for the {registered} entrants so far)" if planned and registered >= 2 else ""
    if detail["format"] == "swiss":
        rounds = (f"{tournament.rounds} Swiss rounds" if tournament.rounds
                  else f"Swiss: enough rounds for the field{for_field}")
    elif detail["format"] == "swiss_top_cut":
        swiss = f"{tournament.rounds} Swiss rounds" if tournament.rounds else "enough Swiss rounds for the field"
        rounds = f"{swiss}, then the top {detail['top_cut']} play a knock-out{for_field}"
    else:
        rounds = FORMAT_ROUNDS.get(detail["format"], "") + for_field
    options = tournament.match_options or {}
    clock = []
    if options.get("turn_seconds"):
        clock.append(f"{duration_words(options['turn_seconds'])} per decision")
    if options.get("defense_seconds"):
        clock.append(f"{duration_words(options['defense_seconds'])} to answer in another player's turn")
    cap = (f"{registered} of {detail['max_entrants']}" if detail["max_entrants"] is not None
           else f"{registered}, no cap")
    return [("Rounds", rounds), ("Turn clock", ", ".join(clock) or "none"),
            ("Round time limit", f"{detail['round_minutes']} minutes"), ("Entrants", cap),
            ("Rated", "yes: results change the players' ratings" if detail["rated"] else "no")]


def _page_context(request, tournament) -> dict:
    detail = selectors.tournament_detail(tournament)
    pairings = selectors.tournament_pairings(tournament)
    standings = selectors.tournament_standings(tournament)
    names = {e["entrant_id"]: e["name"] for e in detail["entrants"]}
    users_of = {e["entrant_id"]: e["user_ids"] for e in detail["entrants"]}
    uid = request.user.pk if request.user.is_authenticated else None
    mine = next((e for e in detail["entrants"] if uid in e["user_ids"]), None)
    # fair play: a player of this tournament may not watch another of its matches while it is played
    is_player = uid is not None and uid in tournament_players(tournament.pk)
    clock = detail["clock"] or {}
    # the round being played is paused: its tables still being played say so, not "playing"
    paused_round = clock.get("round") if clock.get("paused") else None
    rounds: dict[int, list] = {}
    for p in pairings:
        winners = set((p["result"] or {}).get("winners", []))
        points = (p["result"] or {}).get("points", {})
        mine_here = mine is not None and mine["entrant_id"] in p["entrant_ids"]
        seated = uid is not None and any(uid in users_of.get(e, ()) for e in p["entrant_ids"])
        rounds.setdefault(p["round"], []).append({
            **p, "bye": len(p["entrant_ids"]) == 1,
            "report_labels": report_badges(p.get("reports", [])),
            "result_words": result_words(p["result"], p.get("reports", []), names),
            "bye_points": (points_words(points.get(p["entrant_ids"][0], 0))
                           if len(p["entrant_ids"]) == 1 and p["result"] else None),
            "can_report": mine_here and p["match_id"] is not None,
            "watch_closed": is_player and not seated and p["result"] is None and p["match_id"] is not None,
            "mine_running": seated and p["result"] is None and p["match_id"] is not None,
            "paused": p["result"] is None and p["round"] == paused_round,
            "seats": [{"entrant_id": e, "name": names.get(e, e), "won": e in winners, "points": points.get(e),
                       "me": mine is not None and e == mine["entrant_id"]} for e in p["entrant_ids"]]})
    if detail["status"] == "registering" or not any(row["played"] for row in standings):
        standings = []  # no result yet (a game or a bye): the seeding is not a standing
    # the seed draw (a large number) is the last resort: named below the table, not a column
    tiebreaks = [k for k in standings[0]["tiebreaks"] if k != "seed_draw"] if standings else []
    for row in standings:
        row["tiebreak_values"] = [row["tiebreaks"][k] for k in tiebreaks]
        row["me"] = mine is not None and row["entrant_id"] == mine["entrant_id"]
        row["dispute"] = dispute_marker(row.get("reports", []))
        row["profile"] = profile_of(row["name"], users_of.get(row["entrant_id"], ()))
    head_to_head_shown(standings, tiebreaks)
    byes_now = games_and_byes(standings, rounds, detail["round"], detail["status"] == "running")
    invitations = selectors.invitations_pending(request.user, tournament) if detail["teams"] else []
    closed = {(p["round"], p["table"]) for tables in rounds.values() for p in tables if p["watch_closed"]}
    registered = sum(1 for e in detail["entrants"] if e["status"] == "registered")
    bracket_only = detail["format"] == "single_elimination"
    if bracket_only:  # places follow the bracket: no tiebreak can apply, so no column for one
        tiebreaks = []
        for row in standings:
            row["tiebreak_values"] = []
    return {
        "winners": [row for row in standings if row["rank"] == 1] if detail["status"] == "finished" else [],
        "my_match": next((p for p in rounds.get(detail["round"], []) if p["mine_running"]), None),
        "byes_now": byes_now, "any_byes": any(row["byes"] for row in standings),
        "next_round": (detail["round"] + 1 if detail["status"] == "running" and detail["rounds"]
                       and detail["round"] < detail["rounds"] else None),
        "facts": event_facts(tournament, detail, registered),
        "full": detail["max_entrants"] is not None and registered >= detail["max_entrants"],
        "registered_count": registered, "bracket_only": bracket_only,
        "notes": selectors.start_notes(tournament),
        "declined": selectors.invitation_declined(request.user, tournament) if detail["teams"] else None,
        "edit_form": (TournamentEditForm(tournament=tournament)
                      if detail["status"] == "registering" and services.can_manage(request.user, tournament) else None),
        "t": detail, "format_label": LABELS["format"].get(detail["format"]), "game_label": LABELS["game"].get(detail["game"]),
        "rounds": sorted(rounds.items(), reverse=True), "standings": standings,
        "tiebreak_names": [TIEBREAK_LABELS.get(k, k.replace("_", " ")) for k in tiebreaks],
        "bracket": bracket(pairings, names, closed), "mine": mine, "is_player": is_player,
        "delay_words": delay_words(detail["spectator_delay_seconds"], detail["spectator_delay_turns"]),
        "invitations_in": [i for i in invitations if i.partner_id == uid],
        "invitations_out": [i for i in invitations if i.inviter_id == uid],
        "my_tables": [p for _n, tables in sorted(rounds.items(), reverse=True) for p in tables if p["can_report"]],
        "is_organizer": services.can_manage(request.user, tournament),
        "my_reports": my_reports(request.user, tournament, names),
        "ws_path": f"/ws/tournaments/{detail['id']}/",
        **_judging(request.user, tournament),
    }


PLACE_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def standing_words(places: dict) -> str:
    """A table's result as a judge reads it: "a draw", or "aiko first, ben second"."""
    if len(places) > 1 and all(place == 1 for place in places.values()):
        return "a draw"
    return ", ".join(f"{name} {PLACE_WORDS.get(place, f'place {place}')}" for name, place in
                     sorted(places.items(), key=lambda item: (item[1] or 99, item[0])))


DECISION_WORDS = {"upheld": "the result stands", "overridden": "the result was corrected"}


def my_reports(user, tournament, names: dict) -> list[dict]:
    """The reports the viewer filed, newest first, as they read them: where and when, their own text,
    the decision (who ruled: "a judge" or "the organizer"; a correction's places by name) and the
    judge's reason. Nobody else's report, and no staff note, is among them (``reports_filed_by``)."""
    out = []
    for row in reports.reports_filed_by(tournament, user):
        ruled_by = "The organizer" if row["role"] == "organizer" else "A judge"
        out.append({**row, "label": BADGE_LABELS[row["status"]], "ruled_by": ruled_by,
                    "decision": DECISION_WORDS.get(row["status"]),
                    "result": standing_words({names.get(e, e): p for e, p in row["places"].items()})})
    return out


def _judging(user, tournament) -> dict:
    """What the tournament's judges see (staff, or its organizer when they do not play in it): the open
    reports with their ruling forms, and the rulings so far (who, in what role, when, why); an
    organizer who plays in it is told its disputes go to the staff judges."""
    try:
        role = services.judge_role(user, tournament)
    except TournamentServiceError as err:
        return {"judge_role": None, "judge_conflict": err.code == "conflict_of_interest"}
    queue = reports.judge_queue(tournament)
    for item in queue:
        item["entrant_names"] = " vs ".join(e["name"] for e in item["entrants"])
        item["standing"] = standing_words({e["name"]: e["place"] for e in item["entrants"]})
        item["result_words"] = RESULT_BY_WORDS.get(item["result_by"], item["result_by"])
    return {"judge_role": role, "judge_conflict": False, "disputes": queue, "rulings": reports.rulings(tournament)}


def tournament_page(request, tournament_id):
    try:
        tournament = selectors.tournament_get(tournament_id)
    except TournamentServiceError:
        return render(request, "frontend/tournament_missing.html", status=404)
    context = _page_context(request, tournament)
    fragment = FRAGMENTS.get(request.GET.get("fragment"))
    if fragment:  # tournament.js swaps these in when the socket says the tournament changed
        return render(request, fragment, context)
    return render(request, "frontend/tournament.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def tournament_create(request):
    if not services.is_organizer(request.user):
        return render(request, "frontend/tournament_create.html", {"form": None}, status=403)
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(creator=request.user, **form.service_arguments())
        except TournamentServiceError as err:
            form_refusal(form, err)
        else:
            messages.success(request, f"{tournament.name} is open for registration.")
            return redirect("frontend:tournament", tournament_id=tournament.pk)
    return render(request, "frontend/tournament_create.html", {"form": form}, status=400 if form.errors else 200)




def _back(tournament_id):
    return redirect(reverse("frontend:tournament", args=[tournament_id]))


def _action(request, tournament_id, run, done: str, words: dict | None = None):
    try:
        run()
    except TournamentServiceError as err:
        refusal(request, err, words=words)
    else:
        messages.success(request, done)
    return redirect(reverse("frontend:tournament", args=[tournament_id]))


@login_required
@require_POST
def tournament_register(request, tournament_id):
    """Register; in a team event, ask the named partner (or accept them, if they asked first)."""
    if too_quick(request, TournamentEntryThrottle, "registering and withdrawing"):
        return _back(tournament_id)
    try:
        name = request.POST.get("partner", "").strip()
        partner = selectors.partner_by_username(name) if name else None
        outcome = services.tournament_register(tournament_id=tournament_id, user=request.user, partner=partner)
    except TournamentServiceError as err:
        refusal(request, err)
    else:
        if isinstance(outcome, TeamInvitation):
            messages.success(request, f"We asked {outcome.partner.get_username()} to be your partner. Your team "
                                      "is registered as soon as they accept.")
        else:
            messages.success(request, "Your team is registered." if partner else "You are registered.")
    return redirect(reverse("frontend:tournament", args=[tournament_id]))


@login_required
@require_POST
def tournament_invitation_accept(request, tournament_id, invitation_id):
    if too_quick(request, TournamentEntryThrottle, "registering and withdrawing"):
        return _back(tournament_id)
    return _action(request, tournament_id,
                   lambda: services.tournament_invitation_accept(tournament_id=tournament_id,
                                                                 invitation_id=invitation_id, user=request.user),
                   "Your team is registered.")


@login_required
@require_POST
def tournament_invitation_decline(request, tournament_id, invitation_id):
    if too_quick(request, TournamentEntryThrottle, "registering and withdrawing"):
        return _back(tournament_id)

    def run():
        invitation = services.tournament_invitation_decline(tournament_id=tournament_id,
                                                            invitation_id=invitation_id, user=request.user)
        return invitation.status

    try:
        status = run()
    except TournamentServiceError as err:
        refusal(request, err)
    else:
        messages.success(request, "You declined the invitation." if status == TeamInvitation.DECLINED
                         else "Your invitation is cancelled.")
    return redirect(reverse("frontend:tournament", args=[tournament_id]))


@login_required
@require_POST
def tournament_spectator_delay(request, tournament_id):
    """The organizer changes how far behind spectators watch the running matches (who may is checked
    before anything posted is read)."""
    def number(name, what):
        raw = request.POST.get(name, "").strip()
        value = ascii_int(raw)
        if raw and value is None:
            raise TournamentServiceError("invalid_spectator_delay", f"{what} must be a whole number (digits 0-9)")
        return value  # None: left empty, keep the current setting

    def run():
        services.require_manager(tournament_id, request.user, "sets the spectator delay")
        before = services.tournament_head(tournament_id)
        services.tournament_set_spectator_delay(tournament_id=tournament_id, user=request.user,
                                                seconds=number("seconds", "the seconds"),
                                                turns=number("turns", "the turns"))
        return services.tournament_head(tournament_id) != before

    try:
        changed = run()
    except TournamentServiceError as err:
        refusal(request, err)
    else:  # an empty or unchanged form records nothing, and says so
        messages.success(request, "The spectator delay is changed. It applies to the matches being played now too."
                         if changed else "Nothing changed: the spectator delay stays as it was.")
    return _back(tournament_id)


@login_required
@require_POST
def tournament_withdraw(request, tournament_id):
    """Before the start the entrant withdraws; after it, it drops out (docs/tournaments.md): the
    message says which."""
    if too_quick(request, TournamentEntryThrottle, "registering and withdrawing"):
        return _back(tournament_id)
    try:
        entrant = services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
    except TournamentServiceError as err:
        refusal(request, err)
    else:
        messages.success(request, "You have dropped out: you are not paired again, and your results so far stay."
                         if entrant.status == "dropped" else "You have withdrawn.")
    return _back(tournament_id)


@login_required
@require_POST
def tournament_start(request, tournament_id):
    try:
        services.tournament_start(tournament_id=tournament_id, user=request.user)
    except TournamentServiceError as err:
        refusal(request, err)
    else:
        messages.success(request, "The tournament has started: round 1 is paired.")
        try:  # as the API's start: create round 1's matches (idempotent; the beat's sweep retries)
            policies.tournament_advance(tournament_id=tournament_id)
        except TournamentServiceError as err:  # the start stands; the workers retry the matches
            refusal(request, err)
    return redirect(reverse("frontend:tournament", args=[tournament_id]))


@login_required
@require_POST
def tournament_pause(request, tournament_id):
    if too_quick(request, TournamentManageThrottle, "changing, pausing and resuming the tournament"):
        return _back(tournament_id)
    return _action(request, tournament_id,
                   lambda: services.tournament_pause_clock(tournament_id=tournament_id, user=request.user,
                                                           reason=request.POST.get("reason", "")),
                   "The round's time limit and the players' turn clocks are stopped.")


@login_required
@require_POST
def tournament_resume(request, tournament_id):
    """The organizer resumes the round; one that ended during the pause moves on at once (the next
    round is paired and its matches created, or the tournament ends), as the API's resume."""
    if too_quick(request, TournamentManageThrottle, "changing, pausing and resuming the tournament"):
        return _back(tournament_id)

    def run():
        services.tournament_resume_clock(tournament_id=tournament_id, user=request.user)
        return services.state_of(tournament_id).round_complete()

    try:
        was_over = run()
    except TournamentServiceError as err:
        refusal(request, err)
        return _back(tournament_id)
    try:
        paired = policies.tournament_advance(tournament_id=tournament_id)
    except TournamentServiceError as err:  # the resume stands; the workers retry
        refusal(request, err)
        return _back(tournament_id)
    if paired:
        messages.success(request, f"The tournament is resumed: round {paired[-1]} is paired and its matches start.")
    elif was_over:
        messages.success(request, "The tournament is resumed: that was the last round, the tournament is over.")
    else:
        messages.success(request, "The round time limit runs again. So do the players' turn clocks.")
    return _back(tournament_id)


@login_required
@require_POST
def tournament_report(request, tournament_id):
    """A player reports a problem with their table's match (pinned to the latest point of its log);
    with a ``decision``, a judge of the tournament rules on a report instead (``_rule``)."""
    if "decision" in request.POST:
        return _rule(request, tournament_id)
    if too_quick(request, TournamentReportThrottle, "sending reports"):
        return _back(tournament_id)
    round_no, _, table_no = request.POST.get("table_ref", "").partition(":")
    return _action(request, tournament_id,
                   lambda: reports.report_file_latest(tournament_id=tournament_id, round_no=round_no, table_no=table_no,
                                                      user=request.user, text=request.POST.get("text", "")),
                   "Your report was sent to the judges.")


RULING_WORDS = {"reason_required": "Write the reason for correcting the result: the players read it.",
                "already_resolved": "That report has already been ruled on."}


def _rule(request, tournament_id):
    """The organizer (or staff) upholds the result a report disputes, or corrects it with the places
    given (``place-<entrant id>``) and a written reason: the one write path of the staff queue
    (``reports.report_resolve``), recorded with who ruled, in what role, when and why."""
    decision = request.POST.get("decision", "")
    places = None
    if decision == "override":
        places = {key[len("place-"):]: ascii_int(value.strip()) for key, value in request.POST.items()
                  if key.startswith("place-")}
        if any(place is None for place in places.values()):
            refusal(request, TournamentServiceError("invalid_result", "Give every entrant a place: a whole number, "
                                                                      "1 for first."))
            return _back(tournament_id)
    try:
        resolution = reports.report_resolve(report_id=ascii_int(request.POST.get("report_id", "").strip()),
                                            user=request.user, decision=decision,
                                            reason=request.POST.get("reason", ""), places=places,
                                            tournament_id=tournament_id)
    except TournamentServiceError as err:
        refusal(request, err, words=RULING_WORDS)
        return _back(tournament_id)
    report = resolution.report
    where = f"round {report.round}, table {report.table}"
    if decision == "override":
        cut = services.cut_seeded_after(services.state_of(report.tournament_id), report.round)
        messages.success(request, f"The result of {where} is corrected: the standings follow."
                         + (f" Note: {services.CUT_WARNING}." if cut else ""))
    else:
        messages.success(request, f"The result of {where} is upheld: the report is closed.")
    return _back(tournament_id)


@login_required
@require_POST
def tournament_drop(request, tournament_id):
    entrant_id = request.POST.get("entrant_id", "")
    try:
        entrant = services.tournament_drop(tournament_id=tournament_id, user=request.user, entrant_id=entrant_id)
    except TournamentServiceError as err:
        refusal(request, err, words=DROP_WORDS)
    else:
        messages.success(request, f"{entrant.name} was dropped: not paired again, results kept.")
    return _back(tournament_id)


@login_required
@require_POST
def tournament_settings(request, tournament_id):
    """The organizer changes the event before the start (name, start time, round time limit, cap,
    rated, Swiss rounds): recorded in the log like every organizer action."""
    try:
        services.require_manager(tournament_id, request.user, "changes it")
        tournament = selectors.tournament_get(tournament_id)
    except TournamentServiceError as err:
        refusal(request, err)
        return _back(tournament_id)
    form = TournamentEditForm(request.POST, tournament=tournament)
    if not form.is_valid():
        form_errors_shown(request, form)
        return _back(tournament_id)
    changes = form.changes()
    if not changes:
        messages.success(request, "Nothing changed.")
        return _back(tournament_id)
    if too_quick(request, TournamentManageThrottle, "changing, pausing and resuming the tournament"):
        return _back(tournament_id)
    return _action(request, tournament_id,
                   lambda: services.tournament_update(tournament_id=tournament_id, user=request.user, changes=changes),
                   "The tournament is changed.")


@login_required
@require_POST
def tournament_cancel(request, tournament_id):
    """The organizer cancels a tournament that has not started."""
    return _action(request, tournament_id,
                   lambda: services.tournament_cancel(tournament_id=tournament_id, user=request.user,
                                                      reason=request.POST.get("reason", "")),
                   "The tournament is cancelled. Its entrants see it on its page.")
