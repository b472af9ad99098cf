"""Request-body limits, enforced before anything reads the body; and 503 when a backing service is down.

A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MiB), or over ``COMMAND_BODY_MAX_BYTES`` on the
command endpoint, is answered 413 ``{code: "payload_too_large", message}`` on every path, pages
included: Django's own ``RequestDataTooBig`` would otherwise surface later, as a 500 inside a DRF
view or a 400 page. Bodies sent without a Content-Length (chunked) are measured once read; Django
does not limit those at all. Multipart uploads (the staff log import) are left to Django's upload
handlers, which spool files to disk and still cap the non-file fields.
"""

import logging
import re
import sys

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.html import escape
from django.views import defaults

from games.application.errors import Unavailable, as_unavailable

log = logging.getLogger(__name__)

COMMAND_PATH = re.compile(r"^/api/matches/[^/]+/commands/?$")


def body_limit(path: str) -> int | None:
    """The byte limit for a request body on ``path`` (None: unlimited)."""
    general = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if COMMAND_PATH.match(path):
        command = settings.COMMAND_BODY_MAX_BYTES
        return command if general is None else min(command, general)
    return general


def payload_too_large(limit: int) -> JsonResponse:
    return JsonResponse(
        {"code": "payload_too_large", "message": f"the request body is larger than {limit} bytes"}, status=413
    )


def _declared_length(request) -> int | None:
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def _too_large(request) -> JsonResponse | None:
    """The 413 for a request whose declared length is over its path's limit, else None."""
    limit = body_limit(request.path_info)
    if limit is not None:
        declared = _declared_length(request)
        if declared is not None and declared > limit:
            return payload_too_large(limit)
    return None


def _measured_needed(request) -> bool:
    """A body sent without a length (chunked) is measured once read; multipart is left to Django's
    upload handlers, and bodiless methods have nothing to measure."""
    return (body_limit(request.path_info) is not None and _declared_length(request) is None
            and not request.content_type.startswith("multipart/")
            and request.method not in ("GET", "HEAD", "OPTIONS"))


def _too_large_once_read(request) -> JsonResponse | None:
    limit = body_limit(request.path_info)
    try:
        if len(request.body) > limit:
            return payload_too_large(limit)
    except RequestDataTooBig:
        return payload_too_large(limit)
    return None


class _SyncAndAsync:
    """A middleware both sync and async capable, so Django never adapts the chain around it."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        return self.get_response(request)

    async def __acall__(self, request):
        return await self.get_response(request)


class BodySizeLimitMiddleware(_SyncAndAsync):
    """Answers 413 before anything reads an oversized body."""

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        refusal = _too_large(request) or (_too_large_once_read(request) if _measured_needed(request) else None)
        return refusal or self.get_response(request)

    async def __acall__(self, request):
        refusal = _too_large(request)
        if refusal is None and _measured_needed(request):
            # Reading the body may read a spooled file from disk: not on the event loop.
            refusal = await sync_to_async(_too_large_once_read)(request)
        return refusal or await self.get_response(request)


# -- an unreachable database or Redis ------------------------------------------------------------
#
# DRF views map it in their exception handler (games.api.errors). Everything else (pages, and an
# outage raised outside any view, e.g. a session saved on the way out) ends here: 503, a JSON
# ``{code: "unavailable", message}`` under /api/ and a plain page elsewhere, with Retry-After;
# never a 500, never a traceback. The page is built without the database or the template
# context processors (which would read the user), so it renders while everything else is down.

UNAVAILABLE_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Back in a moment · Kamiza</title>
  <link rel="stylesheet" href="{css}">
</head>
<body>
  <main id="main">
    <h1>Kamiza is back in a moment</h1>
    <p>{message}.</p>
    <p>Your games are safe: every move that was confirmed is kept. Reload this page in a few seconds.</p>
  </main>
</body>
</html>
"""


def unavailable_response(request, exc: Unavailable):
    headers = {"Retry-After": str(exc.retry_after)}
    if request.path_info.startswith("/api/"):
        return JsonResponse(exc.as_dict(), status=503, headers=headers)
    message = escape(exc.message[:1].upper() + exc.message[1:])
    page = UNAVAILABLE_PAGE.format(css=escape(static("css/kamiza.css")), message=message)
    return HttpResponse(page, status=503, content_type="text/html; charset=utf-8", headers=headers)


class ServiceUnavailableMiddleware(_SyncAndAsync):
    """A view (or its template) that meets an unreachable database or Redis answers 503."""

    # Django always calls process_exception synchronously (adapting it in an async chain).
    def process_exception(self, request, exception):
        unavailable = as_unavailable(exception)
        if unavailable is None:
            return None
        log.warning("service unavailable on %s: %s: %s", request.path_info, type(exception).__name__,
                    str(exception).strip()[:200])
        return unavailable_response(request, unavailable)


def server_error(request):
    """``handler500``: an exception no view handled. Called while it is being handled, so
    ``sys.exc_info()`` names it: an outage still gets 503; anything else a 500 (JSON under /api/)."""
    unavailable = as_unavailable(sys.exc_info()[1]) if sys.exc_info()[1] is not None else None
    if unavailable is not None:
        return unavailable_response(request, unavailable)
    if request.path_info.startswith("/api/"):
        return JsonResponse({"code": "server_error", "message": "internal server error"}, status=500)
    return defaults.server_error(request)
