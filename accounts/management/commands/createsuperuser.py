"""Django's createsuperuser, plus the lookalike check of accounts.identity (``ａｄｍｉｎ`` beside
``admin`` is refused here as on every other path)."""

from django.contrib.auth.management.commands import createsuperuser

from accounts.identity import username_normalize, username_taken


class Command(createsuperuser.Command):
    def _validate_username(self, username, verbose_field_name, database):
        error = super()._validate_username(username, verbose_field_name, database)
        if error is None and username and username_taken(username_normalize(username)):
            return f"Error: That {verbose_field_name} is already taken (or one that looks the same)."
        return error
