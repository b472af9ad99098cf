"""Forms of the web shell. Validation of games, seats and options stays in the write path;
these forms only turn HTML inputs into the service's arguments."""

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import BaseUserCreationForm

from accounts.emails import email_taken
from accounts.errors import TooManyAttempts, WrongPassword
from accounts.forms import EMAIL_MAX_LENGTH, USERNAME_HELP, UsernameCheckMixin
from accounts.services import password_recheck

from .option_fields import GameOptions
from .wording import error_text


# An address another account has (accounts.emails), said under the field: which account is not said.
EMAIL_TAKEN = ("This e-mail address is already used by another account. Use another one, or leave it "
               "empty; if the account is yours, ask for a password reset.")


class SignUpForm(UsernameCheckMixin, BaseUserCreationForm):
    """Username + optional email + password twice, checked by AUTH_PASSWORD_VALIDATORS; the
    username goes through accounts.identity's lookalike check (UsernameCheckMixin), the address
    through accounts.emails (one account per address, case aside; the service checks it again)."""

    email = forms.EmailField(required=False, max_length=EMAIL_MAX_LENGTH,
                             help_text="Optional: where a password reset link goes. One account per address.")

    class Meta(BaseUserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")
        help_texts = {"username": USERNAME_HELP}

    def clean_email(self):
        email = self.cleaned_data.get("email") or ""
        if email_taken(email):
            raise forms.ValidationError(EMAIL_TAKEN, code="email_taken")
        return email

    def validate_password_for_user(self, user, password_field_name="password1"):
        # Django reports a weak password under the confirmation field; it belongs to the password
        # itself (a mismatch still shows under the confirmation)
        super().validate_password_for_user(user, password_field_name=password_field_name)


class LoginForm(forms.Form):
    username = forms.CharField(max_length=150, widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}))
    password = forms.CharField(strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


def players_text(engine) -> str:
    """"2 to 4 players", "1 to 4 players" - from the engine's seat range."""
    if engine.min_seats == engine.max_seats:
        return f"{engine.min_seats} players"
    return f"{engine.min_seats} to {engine.max_seats} players"


class GameSelect(forms.Select):
    """The game choice, each option carrying its seat range (and whether it is cooperative) for
    match_form.js, which narrows the players' choice and shows that game's options only."""

    def __init__(self, games=(), attrs=None):
        super().__init__(attrs)
        self.games = {e.slug: e for e in games}

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        engine = self.games.get(str(value))
        if engine is not None:
            option["attrs"].update({"data-min": engine.min_seats, "data-max": engine.max_seats})
            if engine.cooperative:
                option["attrs"]["data-cooperative"] = ""
        return option


class MatchCreateForm(forms.Form):
    """The lobby's "Create a match": the game, the number of players within its range, and its
    options as real fields (frontend/option_fields.py; only the chosen game's are read)."""

    game = forms.ChoiceField(choices=())
    seats = forms.TypedChoiceField(label="Players", coerce=int, choices=(),
                                   help_text="Bots included: you can give any free seat to a bot before you start.")
    rated = forms.BooleanField(
        required=False, initial=True,
        help_text="Counts for the players' ratings when every seat is a person (bots make a match unrated).",
    )

    def __init__(self, *args, games=(), game=None, **kwargs):
        super().__init__(*args, **kwargs)
        games = list(games)
        self.engines = {e.slug: e for e in games}
        self.fields["game"].widget = GameSelect(games)
        self.fields["game"].choices = [(e.slug, e.name) for e in games]
        if game in self.engines:
            self.fields["game"].initial = game
        low = min((e.min_seats for e in games), default=1)
        high = max((e.max_seats for e in games), default=1)
        self.fields["seats"].choices = [(n, str(n)) for n in range(low, high + 1)]
        chosen = self.engines.get(game) or (games[0] if games else None)
        self.fields["seats"].initial = max(chosen.min_seats, min(2, chosen.max_seats)) if chosen else 2
        self.options = {e.slug: GameOptions(e) for e in games}
        for group in self.options.values():
            self.fields.update(group.fields)

    def general_fields(self):
        return [self["game"], self["seats"], self["rated"]]

    def option_groups(self):
        """``[(slug, legend, layout entries)]``: one fieldset per game."""
        return [(slug, f"{group.name} options ({players_text(self.engines[slug])})", group.groups(self))
                for slug, group in self.options.items()]

    def clean(self):
        data = super().clean()
        engine = self.engines.get(data.get("game"))
        seats = data.get("seats")
        if engine is None or seats is None:
            return data
        if not engine.min_seats <= seats <= engine.max_seats:
            self.add_error("seats", f"{engine.name} is played by {players_text(engine)}.")
            return data
        data["options"] = self.options[engine.slug].value(data, seats=seats, add_error=self.add_error)
        return data


class SeatForm(forms.Form):
    """Optional seat number for join / add-bot; blank picks the first free seat."""

    seat = forms.IntegerField(min_value=0, max_value=63, required=False)


class PasswordConfirmForm(forms.Form):
    """The current password, asked again before deleting the account."""

    password = forms.CharField(label="Your password", strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class UsernameForm(forms.Form):
    """A new username (checked by accounts.services.user_rename: normalized, no lookalikes)."""

    username = forms.CharField(max_length=150, label="New username", help_text=USERNAME_HELP)


class TurnAlertsForm(forms.Form):
    """The account's "your turn" e-mail setting, with the address it goes to. That address is the
    account's own, where password reset links go: changing it needs the current password
    (``accounts.services.profile_update`` checks it, under the lockout of password re-checks)."""

    email = forms.EmailField(required=False, max_length=EMAIL_MAX_LENGTH, label="E-mail address")
    turn_email = forms.BooleanField(required=False, label="E-mail me when a turn of mine has waited a while")
    password = forms.CharField(
        required=False, strip=False, max_length=4096, label="Your password",
        help_text="Needed only to change the e-mail address.",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's form, with the old password checked under the lockout of password re-checks
    (``accounts.services.password_recheck``, the one the API's password change uses). ``ip``: the
    caller's address. Too many wrong passwords are an ``old_password`` error with the code
    ``too_many_attempts`` (the view answers 429)."""

    def __init__(self, user, *args, ip: str | None = None, **kwargs):
        super().__init__(user, *args, **kwargs)
        self.ip = ip

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        try:
            password_recheck(self.user, old_password, ip=self.ip)
        except TooManyAttempts as err:
            raise forms.ValidationError(error_text(err), code=err.code)
        except WrongPassword:
            raise forms.ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password

