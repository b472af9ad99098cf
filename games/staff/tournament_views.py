"""Staff review of tournament logs: the tournaments, and one tournament's append-only records in order
(registrations, start, pairings, results, drops, adjudications, overrides) with who decided each."""

import json

from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404

from games.tournaments import selectors
from games.tournaments.errors import TournamentServiceError

from .views import render


@staff_member_required
def tournament_index(request):
    return render(request, "staff/tournaments.html", {"tournaments": selectors.tournament_list(limit=200)})


@staff_member_required
def tournament_log(request, tournament_id):
    try:
        tournament = selectors.tournament_get(tournament_id)
    except TournamentServiceError:
        raise Http404("no such tournament")
    records = selectors.tournament_log(tournament)
    for r in records:
        r["payload_text"] = json.dumps(r["payload"], indent=1, sort_keys=True)
    return render(request, "staff/tournament.html", {"t": selectors.tournament_detail(tournament), "records": records})
