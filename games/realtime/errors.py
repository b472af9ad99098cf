"""The socket's one error mapping (the REST exception handler's twin).

PlatformError -> its code / message / extra; RuleViolation -> its code; an unreachable database
or Redis -> "unavailable" (one warning line; the socket is then closed with 1013, try again later:
the client reconnects and syncs from its last seq, resending an unanswered command with the same
``command_id``); anything else -> "server_error" (logged, the socket stays open). A version
conflict also carries ``resync: true``: the client should ``sync`` from its last seq and retry
against the new head.
"""

import logging

from games.application.errors import PlatformError, VersionConflict, as_unavailable
from games.kernel import RuleViolation

log = logging.getLogger(__name__)

CLOSE_SERVER_ERROR = 1011
CLOSE_UNAVAILABLE = 1013  # RFC 6455 "Try Again Later"


def frame_too_large(size: int, limit: int) -> dict:
    """The answer to a message over the socket's limit (the socket stays open: send smaller ones)."""
    return error_message("frame_too_large", f"that message was too large for this socket ({size} characters; "
                         f"at most {limit})", extra={"max_chars": limit, "size": size})


def close_code_for(exc: BaseException) -> int:
    """The close code for a socket that cannot go on after ``exc``."""
    return CLOSE_UNAVAILABLE if as_unavailable(exc) is not None else CLOSE_SERVER_ERROR


def error_message(code: str, message: str, *, command_id=None, extra: dict | None = None, **more) -> dict:
    body = {"type": "error", "code": code, "message": message}
    if command_id is not None:
        body["command_id"] = command_id
    if extra:
        body["extra"] = extra
    body.update(more)
    return body


def error_for_exception(exc: BaseException, *, command_id=None) -> dict:
    unavailable = as_unavailable(exc)
    if unavailable is not None:
        if unavailable is not exc:
            log.warning("service unavailable on a match socket: %s: %s", type(exc).__name__, str(exc).strip()[:200])
        exc = unavailable
    if isinstance(exc, VersionConflict):
        return error_message(exc.code, exc.message, command_id=command_id, extra=exc.extra, resync=True)
    if isinstance(exc, PlatformError):
        return error_message(exc.code, exc.message, command_id=command_id, extra=exc.extra)
    if isinstance(exc, RuleViolation):
        return error_message(exc.code, exc.message, command_id=command_id, extra=exc.extra)
    log.exception("unexpected error on a match socket", exc_info=exc)
    return error_message("server_error", "something went wrong on our side", command_id=command_id)
