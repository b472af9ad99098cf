"""The one DRF exception handler: every error leaves the API as JSON ``{code, message, extra?}``.

Mapped here (and nowhere else): DRF's APIExceptions, PlatformError subclasses (their own status
and body), RuleViolation (422), Django's Http404 / PermissionDenied / ValidationError, an
unreachable database or Redis (503 ``unavailable`` with ``Retry-After``, logged as one warning
line), and as a last resort anything else (logged, 500 with a JSON body).
"""

import logging
import re

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.application.errors import PlatformError, VersionConflict, as_unavailable
from games.kernel import RuleViolation

log = logging.getLogger(__name__)

class PayloadTooLarge(drf.APIException):
    status_code = 413
    default_code = "payload_too_large"
    default_detail = "the request body is too large"


# DRF exception class -> stable code (checked in order: subclasses first).
_DRF_CODES = (
    (drf.ParseError, "malformed"),
    (drf.ValidationError, "malformed"),
    (drf.AuthenticationFailed, "authentication_failed"),
    (drf.NotAuthenticated, "not_authenticated"),
    (drf.PermissionDenied, "permission_denied"),
    (drf.NotFound, "not_found"),
    (drf.MethodNotAllowed, "method_not_allowed"),
    (drf.NotAcceptable, "not_acceptable"),
    (drf.UnsupportedMediaType, "unsupported_media_type"),
    (drf.Throttled, "throttled"),
    (PayloadTooLarge, "payload_too_large"),
)


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            if inner:
                return inner if key in ("non_field_errors", "detail") else f"{key}: {inner}"
        return ""
    if isinstance(detail, (list, tuple)):
        for value in detail:
            inner = _first_message(value)
            if inner:
                return inner
        return ""
    return str(detail)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _encodable(value):
    """``value`` with every lone UTF-16 surrogate (which no UTF-8 response can carry) replaced by
    U+FFFD. Error texts may repeat the input (DRF's '"\\ud800" is not a valid choice.'); a JSON
    body may hold such an escape, and its echo must not turn a 400 into a 500."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_encodable(k): _encodable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encodable(v) for v in value]
    return value


def error_body(code: str, message: str, extra: dict | None = None) -> dict:
    body = {"code": code, "message": message}
    if extra:
        body["extra"] = extra
    return body


def _drf_response(exc: drf.APIException) -> Response:
    code = next((c for cls, c in _DRF_CODES if isinstance(exc, cls)), None) or str(exc.default_code)
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    extra = None
    if isinstance(exc, drf.ValidationError):
        detail = exc.detail
        extra = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        message = _first_message(detail) or "invalid input"
    else:
        message = _first_message(exc.detail) or str(exc.default_detail)
    return Response(_encodable(error_body(code, message, extra)), status=exc.status_code, headers=headers)


def exception_handler(exc, context):
    unavailable = as_unavailable(exc)
    if unavailable is not None and unavailable is not exc:
        log.warning("service unavailable in %s: %s: %s", _where(context), type(exc).__name__, str(exc).strip()[:200])
        exc = unavailable
    if isinstance(exc, RequestDataTooBig):  # normally stopped earlier, by BodySizeLimitMiddleware
        exc = PayloadTooLarge(f"the request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes")
    elif isinstance(exc, TooManyFieldsSent):
        exc = drf.ParseError("too many form fields")
    elif isinstance(exc, RecursionError):  # absurdly nested JSON: the parser gave up
        exc = drf.ParseError("JSON nested too deeply")
    elif isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    elif isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = drf.ValidationError(detail)

    if isinstance(exc, drf.APIException):
        set_rollback()
        return _drf_response(exc)
    if isinstance(exc, PlatformError):
        set_rollback()
        body = exc.as_dict()
        headers = {}
        if isinstance(exc, VersionConflict):
            body["current_seq"] = exc.current_seq
        retry_after = getattr(exc, "retry_after", None)
        if retry_after:
            headers["Retry-After"] = str(int(retry_after))
        return Response(_encodable(body), status=exc.status, headers=headers)
    if isinstance(exc, RuleViolation):
        set_rollback()
        return Response(_encodable(exc.as_dict()), status=422)

    log.exception("unhandled error in %s", _where(context), exc_info=exc)
    set_rollback()
    return Response(error_body("server_error", "internal server error"), status=500)


def _where(context) -> str:
    view = context.get("view") if context else None
    return type(view).__name__ if view else "API"
