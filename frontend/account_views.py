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

from accounts import selfservice
from accounts.services import profile_get, profile_update
from games.application.errors import PlatformError

from .forms import PasswordConfirmForm, TurnAlertsForm, UsernameForm
from .wording import form_errors_shown, form_refusal, refusal


@login_required
def account(request):
    user = request.user
    profile = profile_get(user)
    return render(request, "frontend/account.html", {
        "profile": profile,
        "turn_form": TurnAlertsForm(initial={"email": user.email, "turn_email": profile.turn_email}),
        "username_form": UsernameForm(initial={"username": user.get_username()}),
        "turn_minutes": settings.TURN_EMAIL_AFTER_MINUTES,
        "sessions": selfservice.sessions_list(user, request.session.session_key),
        "tokens": selfservice.tokens_list(user),
    })


@login_required
@require_POST
def username_change(request):
    """The same rename as ``PATCH /api/auth/me/ {username}``; the seats already taken keep their name."""
    form = UsernameForm(request.POST)
    if not form.is_valid():
        form_errors_shown(request, form)
        return redirect("frontend:account")
    old = request.user.get_username()
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
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            selfservice.account_delete(request.user, password=form.cleaned_data["password"])
        except PlatformError as err:
            form_refusal(form, err, field="password" if err.code == "wrong_password" else None)
            status = err.status
        else:
            logout(request)
            messages.success(request, "Your account is deleted. Your seats in past matches now show \"deleted player\".")
            return redirect("frontend:lobby")
    return render(request, "frontend/account_delete.html", {"form": form}, status=status)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's view; a new password also ends the API token and every other web session."""

    template_name = "frontend/password_change.html"
    success_url = reverse_lazy("frontend:account")

    def form_valid(self, form):
        # The form checked the old password and the validators; selfservice does the rest.
        user = form.save()
        selfservice.logins_end_after_password_change(user, keep_session=self.request.session.session_key)
        update_session_auth_hash(self.request, user)
        messages.success(self.request, "Your password is changed. Every other session and the API token are signed out.")
        return redirect(self.success_url)


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "frontend/password_reset.html"
    email_template_name = selfservice.RESET_EMAIL
    subject_template_name = selfservice.RESET_SUBJECT
    success_url = reverse_lazy("frontend:password-reset-sent")
    extra_email_context = {"valid_hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)}


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
