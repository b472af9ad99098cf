"""Account refusals. They are PlatformErrors so every transport maps them the same way
(the DRF exception handler, the web login form)."""

from games.application.errors import PlatformError


class TooManyAttempts(PlatformError):
    code = "too_many_attempts"
    status = 429

    def __init__(self, retry_after: int, message: str = "too many failed login attempts; try again later"):
        super().__init__(message, {"retry_after": retry_after})
        self.retry_after = retry_after


class InvalidCredentials(PlatformError):
    code = "invalid_credentials"
    status = 400

    def __init__(self):
        super().__init__("wrong username or password")


class WrongPassword(PlatformError):
    code = "wrong_password"
    status = 400

    def __init__(self):
        super().__init__("the current password is not correct")


class PasswordRequired(PlatformError):
    """A change that needs the current password again (the account's e-mail address) came without it."""

    code = "password_required"
    status = 400

    def __init__(self, message: str = "enter your current password to change the account's e-mail address"):
        super().__init__(message, {"field": "password"})


class InvalidResetLink(PlatformError):
    code = "invalid_reset_link"
    status = 400

    def __init__(self):
        super().__init__("this password reset link is invalid or has expired; ask for a new one")


class NotFound(PlatformError):
    code = "not_found"
    status = 404


class InActiveMatch(PlatformError):
    code = "in_active_match"
    status = 409

    def __init__(self, match_ids: list[str], *, tournaments: list[str] = ()):
        """``tournaments``: those where the account sits at a table of the round being played."""
        detail = {"matches": match_ids, **({"tournaments": list(tournaments)} if tournaments else {})}
        super().__init__("finish or resign your running matches before deleting the account" if match_ids else
                         "your tournament table is still being played: finish or resign your match there before deleting the account", detail)


class EmailTaken(PlatformError):
    """Another account has this e-mail address (case aside): sign-up and a change of address refuse
    it (``accounts.emails``). Which account is not said."""

    code = "email_taken"
    status = 409

    def __init__(self):
        super().__init__("this e-mail address is already used by another account: use another one, or ask "
                         "for a password reset if the account is yours", {"field": "email"})
