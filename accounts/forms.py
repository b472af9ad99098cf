"""Form mix-in that puts the web and admin user forms through accounts.identity's one check."""

from django import forms

from .identity import TAKEN, username_normalize, username_taken


class UsernameCheckMixin:
    """``clean_username`` for any ModelForm on the user model: NFKC-normalize, refuse lookalikes
    of another account's name (the form's own instance excluded, so it can keep its name)."""

    def clean_username(self):
        username = username_normalize(self.cleaned_data.get("username") or "")
        instance = getattr(self, "instance", None)
        if username and username_taken(username, exclude_user_id=getattr(instance, "pk", None)):
            raise forms.ValidationError(TAKEN, code="unique")
        return username
