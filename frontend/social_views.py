"""Pages of the match's social side: the seed verification page, and the account's turn alerts.

Thin: ``games.application.seedcheck`` does the checking (the same answer as
``GET /api/matches/{id}/verify/``) and ``accounts.services.profile_update`` stores the setting."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.services import profile_update
from games.application import seedcheck, selectors
from games.application.errors import MatchNotFound, SocialRefused
from games.kernel import RuleViolation, registry

from .forms import TurnAlertsForm
from .wording import form_errors_shown


def verify_page(request, match_id):
    """The seed reveal checked in words: the hash, then every step that drew on the seed."""
    try:
        match = selectors.match_get(match_id)
        game_name = registry.get(match.game).name
    except (MatchNotFound, RuleViolation):
        raise Http404("no such match")
    try:
        check = seedcheck.seed_check(match)
    except SocialRefused:
        check = None
    return render(request, "frontend/verify.html", {"match": match, "game_name": game_name, "check": check},
                  status=200 if check else 409)


@login_required
@require_POST
def turn_alerts(request):
    form = TurnAlertsForm(request.POST)
    if not form.is_valid():
        form_errors_shown(request, form)
        return redirect("/account/#notifications")
    email = form.cleaned_data["email"]
    wants = form.cleaned_data["turn_email"]
    profile_update(user=request.user, email=email, turn_email=wants)
    if wants and not email:
        messages.error(request, "Turn e-mails are on, but they need an e-mail address.")
    elif wants:
        messages.success(request, f"You will get an e-mail when a turn of yours has waited "
                                  f"{settings.TURN_EMAIL_AFTER_MINUTES} minutes.")
    else:
        messages.success(request, "Turn e-mails are off.")
    return redirect("/account/#notifications")
