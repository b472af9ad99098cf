"""Request-body limits, enforced before anything reads the body.

A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MiB), or over ``COMMAND_BODY_MAX_BYTES`` on the
command endpoint, is answered 413 ``{code: "payload_too_large", message}`` on every path, pages
included: Django's own ``RequestDataTooBig`` would otherwise surface later, as a 500 inside a DRF
view or a 400 page. Bodies sent without a Content-Length (chunked) are measured once read; Django
does not limit those at all. Multipart uploads (the staff log import) are left to Django's upload
handlers, which spool files to disk and still cap the non-file fields.
"""

import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse

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


class BodySizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = body_limit(request.path_info)
        if limit is not None:
            declared = _declared_length(request)
            if declared is not None and declared > limit:
                return payload_too_large(limit)
            multipart = request.content_type.startswith("multipart/")
            if declared is None and not multipart and request.method not in ("GET", "HEAD", "OPTIONS"):
                try:
                    if len(request.body) > limit:
                        return payload_too_large(limit)
                except RequestDataTooBig:
                    return payload_too_large(limit)
        return self.get_response(request)
