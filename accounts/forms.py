"""Form mix-in that puts the web and admin user forms through accounts.identity's one check, the
longest e-mail address every form and serializer takes, and the one password reset form."""

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model

from .emails import email_key, email_taken, first_holders
from .identity import CHARACTERS_ALLOWED, TAKEN, username_characters_check, username_normalize, username_taken

# The user model's column (254 characters, RFC 5321's limit). Every e-mail field of a form or a
# serializer takes at most this, so a longer address is a field error (400), never a database
# error (PostgreSQL: "value too long for type character varying(254)", a 500).
EMAIL_MAX_LENGTH = get_user_model()._meta.get_field("email").max_length
# What a username may hold, said under every username field (Django's help says "@/./+/-/_").
USERNAME_HELP = f"Up to 150 characters: {CHARACTERS_ALLOWED}."


class UsernameCheckMixin:
    """``clean_username`` for any ModelForm on the user model: NFKC-normalize, refuse lookalikes
    of another account's name (the form's own instance excluded, so it can keep its name); a
    character Django refuses is named (``username_characters_check``)."""

    def clean_username(self):
        username = username_normalize(self.cleaned_data.get("username") or "")
        username_characters_check(username)  # which characters are wrong, not Django's vague message
        instance = getattr(self, "instance", None)
        if username and username_taken(username, exclude_user_id=getattr(instance, "pk", None)):
            raise forms.ValidationError(TAKEN, code="unique")
        return username


class EmailCheckMixin:
    """``clean_email`` for the admin's user forms: an address another account has (case aside; the
    form's own instance excluded, so it can keep or recase its own) is refused, as sign-up and the
    account's own change refuse it (``accounts.emails``). An account that shared its address before
    the rule can still be edited while the address stays as it is."""

    def clean_email(self):
        email = self.cleaned_data.get("email") or ""
        instance = getattr(self, "instance", None)
        if instance is not None and instance.pk and email_key(email) == email_key(instance.email):
            return email  # unchanged (case aside): not a new claim
        if email_taken(email, exclude_user_id=getattr(instance, "pk", None)):
            raise forms.ValidationError("Another account already has this e-mail address (case aside).",
                                        code="email_taken")
        return email


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, mailing at most one link per address: to the oldest account that can
    reset at it (``emails.first_holders``), where accounts shared an address, case aside, before
    addresses were unique. Used by the page and ``POST /api/auth/password/reset/`` alike."""

    def get_users(self, email):
        return first_holders(super().get_users(email))
