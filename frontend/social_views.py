"""Pages of the match's social side: the seed verification page, and the account's turn alerts.

Thin: ``games.application.seedcheck`` does the checking (the same answer as
``GET /api/matches/{id}/verify/``) and ``accounts.services.profile_update`` stores the setting."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.services import client_ip, profile_update
from games.application import seedcheck, selectors
from games.application.errors import MatchNotFound, PlatformError, SocialRefused
from games.kernel import RuleViolation, registry

from .account_views import account_page
from .forms import TurnAlertsForm
from .wording import form_refusal

EMAIL_REFUSALS = {
    "password_required": "To change your e-mail address, enter your password too: nothing was changed.",
    "wrong_password": "That password is not correct: your e-mail address was not changed.",
    "too_many_attempts": "Too many wrong passwords for this account: wait a few minutes, then try again.",
    "email_taken": "That e-mail address is already used by another account: choose another one. Nothing was changed.",
}


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
    """The account's turn e-mail setting and its address, which is the account's own (password reset
    links go there): a new address needs the current password. A refused form is shown again on the
    account page with its errors (400; 429 after too many wrong passwords) and changes nothing."""
    form = TurnAlertsForm(request.POST)
    if not form.is_valid():  # e.g. not an address, or one longer than the column (254)
        return account_page(request, turn_form=form, status=400)
    email = form.cleaned_data["email"]
    wants = form.cleaned_data["turn_email"]
    try:
        profile_update(user=request.user, email=email, turn_email=wants, password=form.cleaned_data["password"],
                       ip=client_ip(request))
    except PlatformError as err:  # password_required, wrong_password (400), too_many_attempts (429), email_taken (409)
        form_refusal(form, err, field="email" if err.code == "email_taken" else "password", words=EMAIL_REFUSALS)
        response = account_page(request, turn_form=form, status=err.status)
        if getattr(err, "retry_after", None):
            response["Retry-After"] = str(err.retry_after)
        return response
    if wants and not email:
        messages.error(request, "Turn e-mails are on, but they need an e-mail address.")
    elif wants:
        messages.success(request, f"You will get an e-mail when a turn of yours has waited "
                                  f"{settings.TURN_EMAIL_AFTER_MINUTES} minutes.")
    else:
        messages.success(request, "Turn e-mails are off.")
    return redirect("/account/#notifications")
