"""Platform errors, each with a stable code and the HTTP status every transport maps it to."""

from games.kernel import RuleViolation


class PlatformError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str, extra: dict | None = None):
        super().__init__(message)
        self.message = message
        self.extra = extra or {}

    def as_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        if self.extra:
            body["extra"] = self.extra
        return body


class VersionConflict(PlatformError):
    code = "version_conflict"
    status = 409

    def __init__(self, current_seq: int):
        super().__init__(f"the match has moved on to seq {current_seq}", {"current_seq": current_seq})
        self.current_seq = current_seq


class NotYourDecision(PlatformError):
    code = "not_your_decision"
    status = 403


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
    ``seq_beyond_head`` or ``unknown_seat`` (422)."""

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


def rule_violation_body(violation: RuleViolation) -> dict:
    return violation.as_dict()
