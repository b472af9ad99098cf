"""The pages' side of the API's throttles (``games.api.throttles.allow``): one sentence for a
request over its rate, with the seconds to wait and the ``code-throttled`` tag the pages give every
refusal's code."""

from django.contrib import messages

from games.api.throttles import allow


def _words(doing: str, seconds: int) -> str:
    return f"You are {doing} too quickly; try again in {seconds} s."


def too_quick(request, throttle, doing: str) -> bool:
    """True, with a message saying so, when ``request.user`` is ``doing`` something over its rate."""
    return wait_said(request, allow(throttle, request), doing)


def wait_said(request, wait: float | None, doing: str) -> bool:
    """True, with a message saying so, when there are ``wait`` seconds to wait (None: go on)."""
    if wait is None:
        return False
    messages.error(request, _words(doing, int(wait) + 1), extra_tags="code-throttled")
    return True


def throttled_page(form, wait: float, doing: str, page):
    """A form posted too quickly (``wait`` seconds left): its page again, ``page(form)``, with the
    reason above the form, a 429 and its Retry-After."""
    seconds = int(wait) + 1
    form.add_error(None, _words(doing, seconds))
    response = page(form)
    response.status_code = 429
    response["Retry-After"] = str(seconds)
    return response
