"""Staff review of tournament logs: the tournaments, and one tournament's append-only records in order
(registrations, start, pairings, results, drops, players' reports, adjudications, overrides) with who
decided each; a report's record shows its text and opens the match's log review at the report's seq."""

from django.http import Http404

from games.tournaments import selectors
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import MatchReport

from . import words
from .access import staff_required
from .selectors import usernames
from .views import render


@staff_required
def tournament_index(request):
    return render(request, "staff/tournaments.html", {"tournaments": selectors.tournament_list(limit=200)})


@staff_required
def tournament_log(request, tournament_id):
    try:
        tournament = selectors.tournament_get(tournament_id)
    except TournamentServiceError:
        raise Http404("no such tournament")
    records = selectors.tournament_log(tournament)
    detail = selectors.tournament_detail(tournament)
    filed = {r.pk: r for r in MatchReport.objects.filter(tournament=tournament).select_related("reporter")}
    entrants = {e["entrant_id"]: e["name"] for e in detail["entrants"]}
    users = usernames(words.actor_user_ids(r["actor"] for r in records))
    for r in records:
        r["summary"] = words.record_summary(r["payload"], entrants)
        r["actor_text"] = words.actor_text(r["actor"], (), users)
        report_id = r["payload"].get("report_id")
        if report_id in filed:  # a player's report, or the judge's decision answering it
            r["report"] = filed[report_id]
    return render(request, "staff/tournament.html", {"t": detail, "records": records})
