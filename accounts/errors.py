"""Account refusals. They are PlatformErrors so every transport maps them the same way
(the DRF exception handler, the web login form)."""

from games.application.errors import PlatformError


class TooManyAttempts(PlatformError):
    code = "too_many_attempts"
    status = 429

    def __init__(self, retry_after: int):
        super().__init__("too many failed login attempts; try again later", {"retry_after": retry_after})
        self.retry_after = retry_after


class InvalidCredentials(PlatformError):
    code = "invalid_credentials"
    status = 400

    def __init__(self):
        super().__init__("wrong username or password")
