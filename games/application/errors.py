"""Platform errors, each with a stable code and the HTTP status every transport maps it to."""

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerUnreachable
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.kernel import RuleViolation
from games.kernel.errors import error_body

# The exceptions that mean a backing service is unreachable (see ``as_unavailable``).
OUTAGES = (OperationalError, InterfaceError, RedisConnectionError, RedisTimeoutError, BrokerUnreachable)


class PlatformError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str, extra: dict | None = None):
        super().__init__(message)
        self.message = message
        self.extra = extra or {}

    def as_dict(self) -> dict:
        return error_body(self.code, self.message, self.extra)


class VersionConflict(PlatformError):
    code = "version_conflict"
    status = 409

    def __init__(self, current_seq: int):
        super().__init__(f"the match has moved on to seq {current_seq}", {"current_seq": current_seq})
        self.current_seq = current_seq


class NotYourDecision(PlatformError):
    code = "not_your_decision"
    status = 403


class MatchPaused(PlatformError):
    """A player's game command while the match's clock is held (its tournament's organizer paused the
    round): the game waits for the round to resume, as the clocks do. Said in the service's one wording
    of a pause, "the round is paused" (the organizer's page, the match page, the log's ClockHeld line)."""

    code = "match_paused"
    status = 409

    def __init__(self, reason: str = ""):
        super().__init__(f"the round is paused: {reason}" if reason else "the round is paused", {"reason": reason})


class CommandIdReused(PlatformError):
    code = "command_id_reused"
    status = 422


class MatchNotFound(PlatformError):
    code = "not_found"
    status = 404


class LobbyError(PlatformError):
    """Lobby refusals (seat taken, match full, not the creator...)."""

    status = 409

    def __init__(self, code: str, message: str, status: int = 409):
        super().__init__(message)
        self.code = code
        self.status = status


class ReplayRefused(PlatformError):
    """A replay request the match cannot answer: ``match_not_finished`` (409: a running match is
    watched live, where a tournament's spectator delay applies, never through its replay),
    ``seq_beyond_head`` or ``unknown_seat`` (422). Staff's state at a seq (``/api/admin/matches/{id}/
    state/?at=``) refuses a seq past the head with the same ``seq_beyond_head``."""

    def __init__(self, code: str, message: str, status: int):
        super().__init__(message)
        self.code = code
        self.status = status


class SocialRefused(PlatformError):
    """A chat or rematch request refused: ``chat_forbidden`` / ``not_a_player`` (403),
    ``match_not_finished`` / ``rematch_unavailable`` / ``already_hidden`` / ``seed_not_revealed`` (409),
    ``message_empty`` / ``message_too_long`` (400), ``not_found`` (404)."""

    def __init__(self, code: str, message: str, status: int):
        super().__init__(message)
        self.code = code
        self.status = status


class InvitationRefused(PlatformError):
    """An invitation refused (``games.application.invitations``): ``not_a_player`` / ``not_invitee`` /
    ``not_inviter`` (403), ``not_found`` (404), ``unknown_user`` (422), ``invite_self`` /
    ``already_seated`` / ``match_not_open`` / ``match_full`` / ``invitation_closed`` (409)."""

    def __init__(self, code: str, message: str, status: int):
        super().__init__(message)
        self.code = code
        self.status = status


class AccountInactive(PlatformError):
    """The account was deleted or deactivated while its request was on the way in (403)."""

    code = "account_inactive"
    status = 403

    def __init__(self, message: str = "this account has been deleted or deactivated"):
        super().__init__(message)


def rule_violation_body(violation: RuleViolation) -> dict:
    return violation.as_dict()


class Unavailable(PlatformError):
    """A backing service (the database or Redis) cannot be reached just now. Whether a write got
    through before the connection went is unknown to the caller: sending the same request again
    (the same ``command_id``) is safe and gets the stored answer if it did. REST answers 503
    ``{code: "unavailable", message}`` with ``Retry-After``; a socket sends the error and closes
    with 1013 (try again later); pages get a plain 503 page."""

    code = "unavailable"
    status = 503
    retry_after = 2

    def __init__(self, message: str = "the service is briefly unavailable; try again in a moment"):
        super().__init__(message)


def as_unavailable(exc: BaseException) -> "Unavailable | None":
    """``Unavailable`` when ``exc`` means the database or Redis is unreachable (Django's
    OperationalError / InterfaceError: connection refused or lost, the server starting up or
    shutting down; redis-py's connection and timeout errors; the Celery broker refusing a task),
    else None."""
    if isinstance(exc, Unavailable):
        return exc
    return Unavailable() if isinstance(exc, OUTAGES) else None
