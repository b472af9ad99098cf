"""Account pages: overview (sessions, API token, export, delete), change password, and the
forgotten-password flow on Django's token views. Thin: the work is accounts.selfservice, shared
with the /api/auth/password/ and /api/account/ endpoints."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods, require_POST

from accounts import lockout, selfservice, throttles
from accounts.forms import PasswordResetForm
from accounts.services import client_ip, profile_get, profile_update
from games.application.errors import PlatformError

from .forms import PasswordChangeForm, PasswordConfirmForm, TurnAlertsForm, UsernameForm
from .throttling import wait_said
from .wording import form_errors_shown, form_refusal, refusal


def throttled_form(form_class, request, wait: int, fields=("email",)):
    """A page's form over its API's rate (``accounts.throttles.page_wait``): unbound (nothing posted
    is checked, as the API checks nothing once throttled), showing the posted ``fields`` again and
    the refusal as its error."""
    form = form_class(initial={name: request.POST.get(name, "") for name in fields})
    form.errors  # noqa: B018 - an unbound form's errors: none, and no cleaned_data
    form.cleaned_data = {}
    minutes = max(1, -(-wait // 60))
    form.add_error(None, f"Too many requests from your address: nothing was done. Try again in {minutes} "
                         f"minute{'s' if minutes > 1 else ''}.")
    return form


@login_required
def account(request):
    return account_page(request)


def account_page(request, *, turn_form=None, status: int = 200):
    """The account page; ``turn_form``: the turn alerts form as posted, shown with its errors
    (``social_views.turn_alerts``)."""
    user = request.user
    profile = profile_get(user)
    return render(request, "frontend/account.html", {
        "profile": profile,
        "turn_form": turn_form or TurnAlertsForm(initial={"email": user.email, "turn_email": profile.turn_email}),
        "username_form": UsernameForm(initial={"username": user.get_username()}),
        "turn_minutes": settings.TURN_EMAIL_AFTER_MINUTES,
        "sessions": selfservice.sessions_list(user, request.session.session_key),
        "tokens": selfservice.tokens_list(user),
    }, status=status)


@login_required
@require_POST
def username_change(request):
    """The same rename as ``PATCH /api/auth/me/ {username}``; the seats already taken keep their name."""
    form = UsernameForm(request.POST)
    if not form.is_valid():
        form_errors_shown(request, form)
        return redirect("frontend:account")
    old = request.user.get_username()
    if wait_said(request, throttles.rename_wait(request, form.cleaned_data["username"]), "renaming your account"):
        return redirect("frontend:account")
    try:
        profile_update(user=request.user, username=form.cleaned_data["username"])
    except ValidationError as err:
        messages.error(request, " ".join(err.messages))
        return redirect("frontend:account")
    new = request.user.get_username()
    if new == old:
        messages.info(request, f"Your username is already {new}.")
    else:
        messages.success(request, f"Your username is now {new}. Sign in with it from now on; the matches "
                                  f"you sat down in before keep the name you had there.")
    return redirect("frontend:account")


@login_required
@require_POST
def session_end(request, session_id):
    try:
        selfservice.session_end(request.user, session_id)
    except PlatformError as err:
        refusal(request, err)
    else:
        messages.success(request, "That session is signed out.")
    return redirect("frontend:account")


@login_required
@require_POST
def token_revoke(request, token_id):
    try:
        selfservice.token_revoke(request.user, token_id)
    except PlatformError as err:
        refusal(request, err)
    else:
        messages.success(request, "The API token is revoked.")
    return redirect("frontend:account")


@login_required
def export(request):
    body = json.dumps(selfservice.export(request.user), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="kamiza-account.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request):
    form = PasswordConfirmForm(request.POST or None)
    status, headers = 200, {}
    if request.method == "POST" and form.is_valid():
        try:
            selfservice.account_delete(request.user, password=form.cleaned_data["password"], ip=client_ip(request))
        except PlatformError as err:  # wrong_password 400, too_many_attempts 429, in_active_match 409
            form_refusal(form, err, field="password" if err.code in ("wrong_password", "too_many_attempts") else None)
            status = err.status
            if err.code == "too_many_attempts":
                headers["Retry-After"] = str(err.retry_after)
        else:
            logout(request)
            messages.success(request, "Your account is deleted. Your seats in past matches now show \"deleted player\".")
            return redirect("frontend:lobby")
    response = render(request, "frontend/account_delete.html", {"form": form}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's view; the old password is checked under the lockout of password re-checks (429 with
    a form error once over it), and a new password also ends the API token and every other web
    session."""

    template_name = "frontend/password_change.html"
    success_url = reverse_lazy("frontend:account")
    form_class = PasswordChangeForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "ip": client_ip(self.request)}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error("old_password", "too_many_attempts"):
            response.status_code = 429
            response["Retry-After"] = str(lockout.window())
        return response

    def form_valid(self, form):
        # The form checked the old password and the validators; selfservice does the rest.
        user = form.save()
        selfservice.logins_end_after_password_change(user, keep_session=self.request.session.session_key)
        update_session_auth_hash(self.request, user)
        messages.success(self.request, "Your password is changed. Every other session and the API token are signed out.")
        return redirect(self.success_url)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's view, under the API's per-address rate (``PASSWORD_RESET_RATE``, the bucket of
    ``POST /api/auth/password/reset/``, ``accounts.throttles``): over it the page answers 429 with a
    form error and sends nothing."""

    template_name = "frontend/password_reset.html"
    form_class = PasswordResetForm  # one mail per address (accounts.forms)
    email_template_name = selfservice.RESET_EMAIL
    subject_template_name = selfservice.RESET_SUBJECT
    success_url = reverse_lazy("frontend:password-reset-sent")
    extra_email_context = {"valid_hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)}

    def post(self, request, *args, **kwargs):
        wait = throttles.page_wait(request, throttles.PASSWORD_RESET)
        if wait is None:
            return super().post(request, *args, **kwargs)
        form = throttled_form(self.get_form_class(), request, wait)
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(wait)
        return response


class PasswordResetSentView(auth_views.PasswordResetDoneView):
    template_name = "frontend/password_reset_sent.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "frontend/password_reset_confirm.html"
    success_url = reverse_lazy("frontend:password-reset-complete")

    def form_valid(self, form):
        response = super().form_valid(form)  # saves the password: the link stops working
        selfservice.password_reset_done(form.user)
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "frontend/password_reset_complete.html"
