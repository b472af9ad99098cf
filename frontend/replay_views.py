"""The replay page: a finished match step by step, for anyone who could watch it.

``/matches/{id}/replay/`` renders the shell; ``static/js/replay.js`` fetches each step from
``GET /api/matches/{id}/replay/?seat=N&at=K`` (the one read path, ``selectors.replay_for_seat``) and
draws it with the game's own board renderer, read-only. After the end every seat's view is open, so
the viewer picks whose view to follow. A match still being played has no replay (its page says so and
links to the live match). A player of a tournament match can report the moment shown to the judges.
"""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.application import selectors
from games.application.errors import MatchNotFound
from games.application.lobby import DONE, PLATFORM_EVENTS
from games.eventstore import store
from games.kernel import RuleViolation
from games.tournaments import reports
from games.kernel.digits import ascii_int
from games.tournaments.errors import TournamentServiceError
from games.tournaments.throttles import TournamentReportThrottle

from .throttling import too_quick
from .wording import refusal

_SLUG = re.compile(r"^[a-z0-9_-]{1,40}$")


def _match(match_id):
    try:
        match = selectors.match_get(match_id)
        return match, selectors.state_load(match), selectors.engine_of(match)
    except (MatchNotFound, RuleViolation):  # no such match, or its game is no longer installed here
        raise Http404("no such match") from None


def first_move(match) -> int:
    """Where a replay starts: the first event of the game itself (the lobby's are before it)."""
    for ev in store.events_load(match):
        if ev["type"] not in PLATFORM_EVENTS:
            return ev["seq"]
    return 1


def replay_page(request, match_id):
    match, state, engine = _match(match_id)
    finished = state["lobby"]["status"] == DONE
    names = selectors.seat_names(state["lobby"])
    mine = selectors.seat_for_user(match, request.user, state)
    board = f"js/boards/{match.game}.js"
    boot = {
        "match_id": str(match.pk),
        "game": match.game,
        "api": reverse("api:match-replay", args=[match.pk]),
        "head": match.head_seq,
        "start": first_move(match) if finished else 1,
        "seats": [{"seat": i, "name": name or f"Seat {i + 1}"} for i, name in enumerate(names)],
        "my_seat": mine,
    }
    return render(request, "frontend/replay.html", {
        "match": match, "game_name": engine.name, "finished": finished, "boot": boot,
        "board_script": board if _SLUG.match(match.game) and finders.find(board) else None,
        "can_report": finished and reports.can_report(match.pk, request.user),
    })


@login_required
@require_POST
def replay_report(request, match_id):
    """A player of a tournament match reports the moment the replay shows (``seq``) to the judges."""
    match, _state, _engine = _match(match_id)
    url = reverse("frontend:match-replay", args=[match.pk])
    seq = ascii_int(request.POST.get("seq", "").strip())
    if too_quick(request, TournamentReportThrottle, "sending reports"):
        return redirect(f"{url}?at={seq}" if seq is not None else url)
    try:
        # a seq that is not a number (None) is refused by the service: invalid_seq
        reports.report_file(match_id=match.pk, user=request.user, seq=seq, text=request.POST.get("text", ""))
    except TournamentServiceError as err:
        refusal(request, err)
    else:
        messages.success(request, "Your report was sent to the judges, pinned to this moment of the match.")
    return redirect(f"{url}?at={seq}" if seq is not None else url)
