"""Staff log review pages (plain server-rendered HTML). Thin: selectors/services do the work.

Every read of unredacted data records a StaffAccess row. Nothing here can change or remove an
event: the only writes are annotations (beside events) and importing a log into a NEW match.

Templates live in ``games/staff/templates/staff/``. ``games.staff`` is not an installed app, so
they are rendered by a small template backend of our own (same options as the project's).
"""

import re
from functools import lru_cache
from pathlib import Path

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.template.backends.django import DjangoTemplates
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.application import chat, selectors
from games.application.errors import MatchNotFound, SocialRefused
from games.application.watch import StaffConflict
from games.kernel.digits import ascii_int
from games.tournaments import reports
from games.tournaments.errors import TournamentServiceError

from . import selectors as staff_selectors
from . import services, words
from .access import staff_required
from .forms import AnnotationForm, LogImportForm
from .logfile import LogError

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"
_SLUG = re.compile(r"^[a-z0-9_-]+$")


@lru_cache(maxsize=1)
def _templates() -> DjangoTemplates:
    return DjangoTemplates({
        "NAME": "kamiza_staff",
        "DIRS": [TEMPLATE_DIR],
        "APP_DIRS": False,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["games.staff.templatetags_staff"],
        },
    })


def render(request, name: str, context: dict, status: int = 200) -> HttpResponse:
    html = _templates().get_template(name).render(context, request)
    return HttpResponse(html, status=status)


def _match_or_404(match_id, user):
    """The match, unless there is none (404) or ``user`` plays in it, or in its tournament, while it
    runs (403, ``selectors.staff_read_check``)."""
    try:
        match = selectors.match_get(match_id)
    except MatchNotFound:
        raise Http404("no such match")
    try:
        selectors.staff_read_check(match, user)
    except StaffConflict as err:
        raise PermissionDenied(err.message)
    return match


@staff_required
def index(request):
    query = request.GET.get("q", "").strip()[:150]
    return render(request, "staff/index.html", {
        "matches": staff_selectors.recent_matches(query=query), "q": query,
    })


@staff_required
def match_page(request, match_id):
    return _match_page(request, _match_or_404(match_id, request.user))


def _match_page(request, match, annotation_form=None, status=200, at_raw=None, chat_error=None):
    report_id = request.GET.get("report", "").strip()[:20] or None
    raw_at = request.GET.get("at") if at_raw is None else at_raw
    if raw_at in (None, "") and report_id:  # a report opens at its seq
        pinned = next((r for r in reports.reports_for_match(match.pk) if str(r["id"]) == report_id), None)
        raw_at = pinned["seq"] if pinned else raw_at
    at, note = staff_selectors.clamp_seq(match, raw_at)
    filters = staff_selectors.parse_filters(request.GET)
    if filters["error"] and status == 200:
        status = 400  # shown above the timeline, every seat listed
    context = staff_selectors.match_review(match, at, filters=filters, report_id=report_id)
    what = f"staff page at={at}"
    if any(b["key"] == "open" for b in context["boards"]):
        what += " board=open"
    if report_id:
        what += f" report={report_id}"
    if filters["seat"] is not None or filters["types"]:
        what += f" seat={filters['seat']} types={','.join(filters['types'])}"
    services.access_record(user=request.user, match=match, what=what)
    board = f"js/boards/{match.game}.js"
    view_seat = request.GET.get("as", "")
    context.update({
        "at_note": note,
        "annotation_form": annotation_form or AnnotationForm(initial={"seq": at}),
        "board_script": board if _SLUG.match(match.game) and finders.find(board) else None,
        "board_boot": {"game": match.game, "boards": context["boards"], "as": view_seat},
        "keep": _query_without(request.GET, "at"),
        "keep_board": _query_without(request.GET, "at", "as"),
        "chat_error": chat_error,
    })
    return render(request, "staff/match.html", context, status=status)


def _query_without(query, *names) -> str:
    """The query string minus ``names`` (to keep the filters and board seat on seq links), ending in
    ``&`` when not empty."""
    kept = query.copy()
    for name in names:
        kept.pop(name, None)
    text = kept.urlencode()
    return f"{text}&" if text else ""


@staff_required
@require_POST
def annotate(request, match_id):
    match = _match_or_404(match_id, request.user)
    form = AnnotationForm(request.POST)
    if form.is_valid():
        try:
            services.annotation_create(match=match, seq=form.cleaned_data["seq"],
                                       note=form.cleaned_data["note"], author=request.user)
        except services.StaffError as err:
            form.add_error(None, str(err))
        else:
            url = reverse("staff:match", args=[match.pk]) + f"?at={form.cleaned_data['seq']}"
            return HttpResponseRedirect(url + f"#seq-{form.cleaned_data['seq']}")
    return _match_page(request, match, annotation_form=form, status=400, at_raw=request.POST.get("seq", ""))


@staff_required
@require_POST
def chat_hide(request, match_id, message_id):
    """Hide a chat message with a reason (recorded); the page shows it hidden, with the reason."""
    match = _match_or_404(match_id, request.user)
    try:
        chat.chat_hide(message_id=message_id, user=request.user, reason=request.POST.get("reason", ""), match=match)
    except SocialRefused as err:
        if err.status == 404:
            raise Http404(err.message)
        return _match_page(request, match, status=err.status, chat_error=f"message {message_id}: {err.message}")
    return HttpResponseRedirect(reverse("staff:match", args=[match.pk]) + f"#chat-{message_id}")


@staff_required
def log_download(request, match_id):
    match = _match_or_404(match_id, request.user)
    services.access_record(user=request.user, match=match, what="download log")
    body = "".join(staff_selectors.log_export(match))
    response = HttpResponse(body.encode("utf-8"), content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.jsonl"'
    return response


@staff_required
@require_http_methods(["GET", "POST"])
def log_import(request):
    if request.method == "POST":
        form = LogImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                match = services.match_import_log(parsed=form.parsed, user=request.user)
            except LogError as err:
                for message in err.messages:
                    form.add_error("log", message)
            else:
                return HttpResponseRedirect(reverse("staff:match", args=[match.pk]))
        return render(request, "staff/import.html", {"form": form}, status=400)
    return render(request, "staff/import.html", {"form": LogImportForm()})


@staff_required
def report_queue(request, error=None, status=200, typed=None):
    """The judge's queue: open match reports, each linking to the log review at its seq, with the
    result standing in words. ``typed``: a refused decision's report id, its places and reason as the
    judge typed them and the refusal, shown again beside that report's form."""
    queue = reports.judge_queue()
    for item in queue:
        entrants = {e["id"]: e["name"] for e in item["entrants"]}
        placed = {e["id"]: e["place"] for e in item["entrants"] if e["place"] is not None}
        item["standing"] = words.place_words(placed, entrants) if placed else ""
        if len(placed) > 1 and set(placed.values()) == {1}:
            item["standing"] = f"a draw ({item['standing']})"
        item["result_words"] = words.RESULT_BY_WORDS.get(item["result_by"], item["result_by"])
        if typed and item["report"].pk == typed["id"]:
            item["error"], item["typed_reason"] = typed["error"], typed["reason"]
            for e in item["entrants"]:
                e["typed"] = typed["places"].get(e["id"], "")
            error = None  # said beside the form, with what was typed
    return render(request, "staff/reports.html", {"queue": queue, "error": error, "typed": typed}, status=status)


def _typed_places(post) -> dict:
    return {key[len("place-"):]: value.strip()[:10] for key, value in post.items() if key.startswith("place-")}


@staff_required
@require_POST
def report_resolve(request, report_id):
    decision = request.POST.get("decision", "")
    reason = request.POST.get("reason", "")
    typed = {"id": report_id, "places": _typed_places(request.POST), "reason": reason}

    def refused(message, status):
        return report_queue(request, error=f"report {report_id}: {message}", status=status,
                            typed={**typed, "error": message})

    places = None
    if decision == "override":
        places = {}
        for entrant, value in typed["places"].items():
            places[entrant] = ascii_int(value)
            if not places[entrant]:
                return refused("places are whole numbers from 1 (1 = first): give every entrant one", 400)
    try:
        resolution = reports.report_resolve(report_id=report_id, user=request.user, decision=decision,
                                            reason=reason, places=places)
    except TournamentServiceError as err:
        return refused(str(err), err.status)
    messages.success(request, _resolved_words(resolution))
    return HttpResponseRedirect(reverse("staff:reports"))


def _resolved_words(resolution) -> str:
    """The confirmation after a decision: what was decided, on which table, and who reads the reason."""
    report = resolution.report
    where = f"Report {report.pk} (round {report.round}, table {report.table}, {report.reporter.get_username()}'s)"
    if resolution.decision == resolution.UPHOLD:
        done = f"{where}: the result stands, and the report is closed."
    else:
        names = reports.entrant_names([report.tournament_id])
        done = f"{where}: result corrected to {words.place_words(resolution.places or {}, names)}; the standings follow."
    stop = "" if resolution.reason.endswith((".", "!", "?")) else "."  # said once: not '..."."'
    said = (f' The reporting player sees your reason: "{resolution.reason}"{stop}' if resolution.reason
            else " The reporting player sees the decision, with no reason given.")
    return done + said
