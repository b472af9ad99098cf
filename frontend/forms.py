"""Forms of the web shell. Validation of games, seats and options stays in the write path;
these forms only turn HTML inputs into the service's arguments."""

import json

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import BaseUserCreationForm

from accounts.forms import UsernameCheckMixin

MAX_OPTIONS_CHARS = 10_000


class SignUpForm(UsernameCheckMixin, BaseUserCreationForm):
    """Username + optional email + password twice, checked by AUTH_PASSWORD_VALIDATORS; the
    username goes through accounts.identity's lookalike check (UsernameCheckMixin)."""

    email = forms.EmailField(required=False, help_text="Optional.")

    class Meta(BaseUserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class LoginForm(forms.Form):
    username = forms.CharField(max_length=150, widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}))
    password = forms.CharField(strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class MatchCreateForm(forms.Form):
    game = forms.ChoiceField(choices=())
    seats = forms.IntegerField(min_value=1, max_value=16, initial=2)
    options = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        initial="{}",
        required=False,
        max_length=MAX_OPTIONS_CHARS,
        help_text="A JSON object; {} keeps the game's defaults.",
    )
    rated = forms.BooleanField(
        required=False, initial=True,
        help_text="Counts for the players' ratings when every seat is a person (bots make a match unrated).",
    )

    def __init__(self, *args, games=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(e.slug, f"{e.name} ({e.min_seats}-{e.max_seats} seats)") for e in games]

    def clean_options(self):
        raw = (self.cleaned_data.get("options") or "").strip() or "{}"
        try:
            value = json.loads(raw)
        except ValueError as err:
            raise forms.ValidationError(f"Not valid JSON: {err}")
        except RecursionError:
            raise forms.ValidationError("Not valid JSON: nested too deeply.")
        if not isinstance(value, dict):
            raise forms.ValidationError("Options must be a JSON object, e.g. {}.")
        return value


class SeatForm(forms.Form):
    """Optional seat number for join / add-bot; blank picks the first free seat."""

    seat = forms.IntegerField(min_value=0, max_value=63, required=False)


class PasswordConfirmForm(forms.Form):
    """The current password, asked again before deleting the account."""

    password = forms.CharField(label="Your password", strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class TurnAlertsForm(forms.Form):
    """The account's "your turn" e-mail setting, with the address it goes to."""

    email = forms.EmailField(required=False, label="E-mail address")
    turn_email = forms.BooleanField(required=False, label="E-mail me when a turn of mine has waited a while")
