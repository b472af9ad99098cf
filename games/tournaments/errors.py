"""Tournament refusals as platform errors: a stable code, a message and the HTTP status every transport
maps them to (the API's one exception handler already renders ``PlatformError`` as ``{code, message}``)."""

from games.application.errors import PlatformError
from games.tournaments.records import TournamentError

STATUS_BY_CODE = {
    "not_found": 404,
    "not_organizer": 403,
    "not_judge": 403,
    "conflict_of_interest": 403,
    "bracket_moved_on": 409,
    "already_registered": 409,
    "registration_closed": 409,
    "tournament_full": 409,
    "already_started": 409,
    "not_started": 409,
    "not_running": 409,
    "already_dropped": 409,
    "not_registered": 409,
    "round_in_progress": 409,
    "round_already_paired": 409,
    "result_already_recorded": 409,
    "conflict": 409,
    "already_paused": 409,
    "not_paused": 409,
    "round_over": 409,
    "not_current_round": 409,
    "match_in_progress": 409,
    "tournament_finished": 409,
    "tournament_cancelled": 409,
    "partner_registered": 409,
    "invitation_closed": 409,
    "not_invited": 403,
}


class TournamentServiceError(PlatformError):
    def __init__(self, code: str, message: str, status: int | None = None):
        super().__init__(message)
        self.code = code
        self.status = status or STATUS_BY_CODE.get(code, 422)


def from_pure(error: TournamentError) -> TournamentServiceError:
    return TournamentServiceError(error.code, error.message)
