"""Password validators added to AUTH_PASSWORD_VALIDATORS."""

from django.core.exceptions import ValidationError


class NotOnlyWhitespaceValidator:
    """Refuse a password made only of whitespace (spaces, tabs, newlines, any Unicode space):
    its length passes MinimumLengthValidator, but it is one of very few guessable strings."""

    def validate(self, password, user=None):
        if password is not None and str(password).strip() == "":
            raise ValidationError("This password is only whitespace.", code="password_only_whitespace")

    def get_help_text(self):
        return "Your password can’t be only spaces."  # Django's own help texts beside it write ’
