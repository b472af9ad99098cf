from games.application.errors import PlatformError


class NotFound(PlatformError):
    """404 with a stable code: unknown_game, game_not_rated, unknown_user."""

    status = 404

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
